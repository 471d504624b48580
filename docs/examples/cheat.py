# A Coup bot that appends `Z`, which is never a legal move, for the guide's `koth check`
# example (docs/bots/check-and-invoke.md).
import sys

with open(sys.argv[1], "a") as history:
    history.write("Z")
