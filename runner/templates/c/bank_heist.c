/*
 * {{name}}: a Bank Heist bot for koth, in plain C (C99 + wasi-libc).
 *
 * koth runs it once per decision with the game's 31 arguments and no files:
 *
 *    1 game (from 0)      2 round (1 or 2)          3 players this game     4 players decided
 *    5 heisters so far    6 credits bet so far      7 heisters confirmed    8 bank index (0-4)
 *    9 my credits        10 my round-1 bet         11 my paycheck          12 employed (1/0)
 *   13 my rank           14 mean credits           15 mean abs. deviation  16 most credits
 *   17-21 my balance at banks 0-4   22-26 my probability there   27-31 my odds there
 *
 * Round 1: print a bet (an integer; 0 stays out, more than we have bets everything).
 * Round 2: print one answer: back out, all in, change jobs, acquire intel, buy guard, deposit,
 * withdraw, double cross, finger; anything else keeps the bet. A failure bets 0 in round 1
 * and keeps the bet in round 2. Put your strategy in bet() and answer().
 *
 * The strategy to start from is careful: bet a tenth of our credits when the bank pays on
 * average, back out when many before us did, deposit where we already save.
 */

#include <stdio.h>
#include <stdlib.h>

struct args {
    long long game, round, players, decided, heisters, total_bet, confirmed, bank;
    long long credits, my_bet, paycheck, employed, rank;
    double mean, deviation;
    long long most;
    long long balance[5];
    double probability[5], odds[5];
};

/* The bank chosen for heisters + credits bet / 100000: thresholds 0, 20, 40, 60, 80. */
static int bank_for(long long heisters, long long total_bet) {
    long long index = heisters + total_bet / 100000;
    int bank = 0;
    while (bank < 4 && index >= 20 * (bank + 1))
        bank++;
    return bank;
}

/* Round 1: how much to bet. */
static long long bet(const struct args *a) {
    /* The bank we would join if we bet (the heisters so far and ourselves). */
    int b = bank_for(a->heisters + 1, a->total_bet);
    double p = a->probability[b];
    /* A credit bet wins `odds` with probability p and is lost otherwise. */
    return p * a->odds[b] > 1 - p ? a->credits / 10 : 0;
}

/* Round 2: what to do with our bet. */
static const char *answer(const struct args *a) {
    /* Others' back-outs lower everyone's chance: follow when more than a tenth backed out. */
    if (a->confirmed * 10 < a->decided * 9)
        return "back out";
    if (a->bank >= 0 && a->bank < 5 && a->balance[a->bank] > 0)
        return "deposit";
    return "keep"; /* not an answer of the game: keeps the bet */
}

int main(int argc, char **argv) {
    if (argc != 32) {
        fprintf(stderr, "{{name}}: expected 31 arguments, got %d\n", argc - 1);
        return 1;
    }
    struct args a;
    long long *ints[] = {&a.game, &a.round, &a.players, &a.decided, &a.heisters, &a.total_bet,
                         &a.confirmed, &a.bank, &a.credits, &a.my_bet, &a.paycheck, &a.employed,
                         &a.rank};
    for (int i = 0; i < 13; i++)
        *ints[i] = strtoll(argv[1 + i], NULL, 10);
    a.mean = strtod(argv[14], NULL);
    a.deviation = strtod(argv[15], NULL);
    a.most = strtoll(argv[16], NULL, 10);
    for (int i = 0; i < 5; i++) {
        a.balance[i] = strtoll(argv[17 + i], NULL, 10);
        a.probability[i] = strtod(argv[22 + i], NULL);
        a.odds[i] = strtod(argv[27 + i], NULL);
    }
    if (a.round == 1)
        printf("%lld\n", bet(&a));
    else
        printf("%s\n", answer(&a));
    return 0;
}
