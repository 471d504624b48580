# A Liar's Dice player that breaks the protocol (tests/tests/liars_dice.rs): in odd hands it
# answers something that is no answer, in even hands it exits with status 3. The rules make it
# lose a die each time, without a reveal, so it is always the first one out.
import sys

hand = next(int(l.split()[1]) for l in sys.stdin.read().splitlines() if l.startswith("hand "))
if hand % 2:
    print("I raise you a dollar")
else:
    sys.exit(3)
