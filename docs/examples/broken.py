# A bot with a syntax error, for the guide's `koth check` example (docs/bots/python.md).
import sys
if len(sys.argv) > 1
    print(0)
