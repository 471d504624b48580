import sys

round = int(sys.argv[2])

if round == 1:
    print(1)
else:
    print("finger")
