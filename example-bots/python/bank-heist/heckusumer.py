import sys

round = int(sys.argv[2])
myyattas = int(sys.argv[9])

if round==1:
    print(int(0.1*myyattas))
else:
    print("!guncheck")
