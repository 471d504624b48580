# A bot that imports numpy, which the sandbox's CPython does not have, for the guide's
# `koth check` example (docs/bots/python.md).
import sys

import numpy

print(numpy.argmax([int(a) for a in sys.argv[2:4]]))
