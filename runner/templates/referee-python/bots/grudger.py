"""grudger: cooperates until the other defects once, then defects for ever."""

history = [line.split() for line in open("history.txt") if line.strip()]
print("D" if any(theirs == "D" for _, theirs in history) else "C")
