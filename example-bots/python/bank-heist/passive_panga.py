import sys


round = int(sys.argv[2])
myyattas = int(sys.argv[9])
if round == 1:
    if myyattas > 69:
        print("69")
    else:
        print("0")
else:
    print("!guncheck")
