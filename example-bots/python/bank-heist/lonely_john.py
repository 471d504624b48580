import sys
import ast

game,round,numplayers,alreadyplayed,numbet,creditsbet,numready,bankid,mycredits,mybet,mypayment,hired,myrank,mu_credits,sigma_credits,max_credits = map(ast.literal_eval,sys.argv[1:17])

bankholdings = list(map(int,sys.argv[17:22]))
bankprobs = list(map(float,sys.argv[22:27]))
bankodds = list(map(float,sys.argv[27:32]))

if round == 1:
    if mycredits > 100 or hired:
        print(int(mycredits)//2)
    else:
        print(0)
else:
    if bankprobs[int(bankid)] > 0.6:
        print("all in")
    elif int(mypayment) > 50 :
        print("buy guard")
    elif int(mycredits) > 200 and int(game) < 900 and hired == "1":
        print("change jobs")
    elif bankprobs[int(bankid)] * (float(numready)+1)/(float(alreadyplayed)+1) < 0.30:
        print("withdraw")
    else:
        print("!guncheck")
