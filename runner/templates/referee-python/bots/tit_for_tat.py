"""tit_for_tat: cooperates first, then plays whatever the other played last turn."""

lines = open("history.txt").read().split("\n")
last = [line.split() for line in lines if line.strip()]
print(last[-1][1] if last else "C")
