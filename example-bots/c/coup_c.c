/*
 * coup_c: an honest Coup bot in plain C (C99 + wasi-libc), built with
 *
 *     clang-14 --target=wasm32-wasi --sysroot=/usr -O2 -Wl,--strip-all -o coup_c.wasm coup_c.c
 *
 * It exists to prove that koth bots can be written in any language that compiles to WASI
 * preview 1: nothing here knows about koth, wasm or Rust. It is exactly the program the
 * original Python arbiter ran as a native process (it builds natively with `cc coup_c.c` too).
 *
 * The protocol (docs/games/coup.md in the repository):
 *
 *     argv[1]  the history file's name (in the current directory)
 *     argv[2]  the opponent's coins
 *     argv[3]  our coins
 *     argv[4]  our cards as reveal symbols ~ ^ * ! $ (Ambassador, Assassin, Captain, Contessa,
 *              Duke); n + 2 of them when we are finishing an Exchange (the two drawn cards,
 *              then our n cards), in which case we print the n cards we keep to stdout
 *     argv[5…] the legal actions, one per argument; two of them can be two characters long
 *              ("I\n", and a card given up together with the newline that ends our turn)
 *
 * We append exactly one of the legal actions to the history file, with one write() on a
 * descriptor opened in append mode, and exit 0. Every move we write is one of the argv strings
 * themselves, copied byte for byte, so a mistake in the strategy below can make a bad move but
 * never an illegal one.
 *
 * Strategy: honest and modest. We only claim cards we hold (actions and blocks), so we never
 * lose a challenge of our own claims. We challenge the opponent only when the cards we can see
 * prove the claim is a lie, or when we would lose our last card anyway.
 *
 *   our turn:   Coup when forced or at 7+ coins; Assassinate holding an Assassin (3+ coins);
 *               Tax holding a Duke; Steal holding a Captain; Exchange holding an Ambassador;
 *               Foreign Aid unless the opponent has claimed a Duke; otherwise Income
 *   responding: block Foreign Aid with a real Duke, a Steal with a real Captain or Ambassador,
 *               an Assassination with a real Contessa; challenge a claim that is provably a lie
 *               (all three copies of the card are in our hand or face up in discards), and an
 *               Assassination that would otherwise take our last card
 *   losing a card: give up the least useful (Ambassador, Contessa, Captain, Assassin, Duke)
 *   Exchange:   keep the most useful cards, preferring two different ones
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Cards are indexed 0..4 in the protocol's order: Ambassador, Assassin, Captain, Contessa,
 * Duke. Each has a reveal symbol (shown when proving a claim, and used in argv and in the
 * Exchange output) and a lose symbol (written when giving the card up). */
enum { AMBASSADOR, ASSASSIN, CAPTAIN, CONTESSA, DUKE, KINDS, NONE = -1 };
static const char REVEAL[] = "~^*!$";
static const char LOSE[] = "_'<=0";
/* How much we want to keep each card (higher is better): the Duke's Tax is the steadiest
 * income, the Assassin and Captain act, the Contessa only defends, the Ambassador only
 * reshuffles. Giving up a card and choosing an Exchange both follow this order. */
static const int VALUE[KINDS] = {1, 4, 3, 2, 5};

static int card_of_reveal(char c) {
    const char *p = c ? strchr(REVEAL, c) : NULL;
    return p ? (int)(p - REVEAL) : NONE;
}

static int card_of_lose(char c) {
    const char *p = c ? strchr(LOSE, c) : NULL;
    return p ? (int)(p - LOSE) : NONE;
}

/* The card an action or block claims (uppercase actions, lowercase blocks), or NONE. */
static int claimed_card(char c) {
    switch (c) {
    case 'E': case 'a': return AMBASSADOR;
    case 'A':           return ASSASSIN;
    case 'S': case 'c': return CAPTAIN;
    case 's':           return CONTESSA;
    case 'T': case 'd': return DUKE;
    default:            return NONE;
    }
}

/* Everything we decide from: argv and what the history tells. */
struct game {
    const char *const *legal; /* argv[5…] */
    int n_legal;
    int opp_coins, my_coins;
    int hand[KINDS];       /* how many of each card we hold (argv[4]; not used in Exchanges) */
    int hand_size;
    int opp_lost[KINDS];   /* cards the opponent gave up: face up, out of the game */
    int my_lost[KINDS];    /* cards we gave up */
    int opp_claimed_duke;  /* the opponent has claimed a Duke (Tax or a Foreign Aid block) */
    char last;             /* the last character of the history, '\n' when it is empty */
};

/* The legal action exactly equal to `want`, or NULL. We only ever write what this returns. */
static const char *legal(const struct game *g, const char *want) {
    for (int i = 0; i < g->n_legal; i++)
        if (strcmp(g->legal[i], want) == 0)
            return g->legal[i];
    return NULL;
}

/* A one-character legal action (a letter or symbol), or NULL. */
static const char *legal_char(const struct game *g, char c) {
    char want[2] = {c, '\0'};
    return legal(g, want);
}

/* Copies of `card` we can see: in our hand or face up in either discard pile. When all three
 * are visible, the opponent cannot hold one, and a claim of it is a lie. */
static int visible(const struct game *g, int card) {
    return g->hand[card] + g->my_lost[card] + g->opp_lost[card];
}

static int provably_lying(const struct game *g, char claim) {
    int card = claimed_card(claim);
    return card != NONE && visible(g, card) >= 3;
}

/* Give up a card: among the legal actions that give one up (with or without the newline that
 * ends our turn), the one of least value. */
static const char *give_up_least(const struct game *g) {
    const char *best = NULL;
    int best_value = 0;
    for (int i = 0; i < g->n_legal; i++) {
        int card = card_of_lose(g->legal[i][0]);
        if (card != NONE && (best == NULL || VALUE[card] < best_value)) {
            best = g->legal[i];
            best_value = VALUE[card];
        }
    }
    return best;
}

/* Read the whole file into a NUL-terminated buffer. NULL on failure (errno says why). */
static char *read_file(const char *name, size_t *len) {
    FILE *f = fopen(name, "rb");
    if (!f)
        return NULL;
    size_t cap = 512, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1) /* end of file (or an error, checked below) */
            break;
        cap *= 2;
        char *bigger = realloc(buf, cap);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Who wrote what. The history is one line per turn; each line is written alternately by the
 * turn's actor (even positions) and the other player (odd positions), and turns alternate
 * between the players. The line being written now belongs to us iff its length is even (the
 * protocol says so), which fixes the owner of every earlier line. Trailing newlines are not
 * attributed: they carry no information here. */
static void read_history(struct game *g, const char *h, size_t len) {
    g->last = len ? h[len - 1] : '\n';
    size_t cur = len; /* start of the current (unfinished, possibly empty) line */
    while (cur > 0 && h[cur - 1] != '\n')
        cur--;
    int we_act_now = (len - cur) % 2 == 0;
    /* Walk the lines backwards from the current one, flipping the actor at each line. */
    size_t end = len;
    int we_act = we_act_now;
    for (size_t start = cur;; ) {
        for (size_t i = start; i < end; i++) {
            char c = h[i];
            if (c == '\n')
                continue;
            int ours = ((i - start) % 2 == 0) == we_act;
            int lost = card_of_lose(c);
            if (lost != NONE)
                (ours ? g->my_lost : g->opp_lost)[lost]++;
            if (!ours && (c == 'T' || c == 'd'))
                g->opp_claimed_duke = 1;
        }
        if (start == 0)
            break;
        /* The previous line ends at start - 1 (its newline). */
        end = start - 1;
        start = end;
        while (start > 0 && h[start - 1] != '\n')
            start--;
        we_act = !we_act;
    }
}

/* Our move when a turn starts. */
static const char *start_turn(const struct game *g) {
    const char *m;
    if (g->n_legal == 1) /* 10+ coins: Coup is forced */
        return g->legal[0];
    if (g->my_coins >= 7 && (m = legal_char(g, 'C')))
        return m;
    if (g->hand[ASSASSIN] && (m = legal_char(g, 'A')))
        return m;
    if (g->hand[DUKE] && (m = legal_char(g, 'T')))
        return m;
    if (g->hand[CAPTAIN] && (m = legal_char(g, 'S')))
        return m;
    if (g->hand[AMBASSADOR] && (m = legal_char(g, 'E')))
        return m;
    if (!g->opp_claimed_duke && (m = legal_char(g, 'F')))
        return m;
    return legal(g, "I\n");
}

static const char *decide(const struct game *g) {
    const char *m = NULL;
    switch (g->last) {
    case '\n': /* our turn begins */
        return start_turn(g);
    case 'F': /* Foreign Aid: block it only with a real Duke */
        return legal_char(g, g->hand[DUKE] ? 'd' : 'p');
    case 'T': /* Tax or Exchange: challenge only a provable lie */
    case 'E':
        return legal_char(g, provably_lying(g, g->last) ? 'q' : 'p');
    case 'S': /* Steal: block with a real Captain or Ambassador, else challenge a lie */
        if (g->hand[CAPTAIN] && (m = legal_char(g, 'c')))
            return m;
        if (g->hand[AMBASSADOR] && (m = legal_char(g, 'a')))
            return m;
        return legal_char(g, provably_lying(g, 'S') ? 'q' : 'p');
    case 'A': /* Assassinate: block with a real Contessa; challenge a lie, or when we would
               * lose our last card anyway; else give up a card */
        if (g->hand[CONTESSA] && (m = legal_char(g, 's')))
            return m;
        if (provably_lying(g, 'A') || g->hand_size == 1)
            return legal_char(g, 'q');
        return give_up_least(g);
    case 'a': /* the opponent blocked us: challenge only a provable lie */
    case 'c':
    case 'd':
    case 's':
        return legal(g, provably_lying(g, g->last) ? "q" : "\n");
    case 'q': /* we were challenged: reveal if we can (then it is the only legal action) */
        if (g->n_legal == 1)
            return g->legal[0];
        return give_up_least(g);
    default:
        if (card_of_reveal(g->last) != NONE || g->last == 'C') /* lost a challenge, or Couped */
            return give_up_least(g);
        return NULL; /* 'p' or a card given up: the turn ends with the only legal "\n" */
    }
}

/* Finishing an Exchange: print the `keep` (1 or 2) most useful of the offered cards. A second
 * copy of a card we already keep adds nothing a different card would not, so the second pick
 * takes one only when nothing else is offered. */
static void print_exchange(const char *offered, size_t keep) {
    size_t n = strlen(offered);
    int taken[4] = {0};
    char out[3] = {0};
    for (size_t k = 0; k < keep && k < 2; k++) {
        int best = -1, best_value = 0;
        for (size_t i = 0; i < n && i < 4; i++) {
            int card = card_of_reveal(offered[i]);
            if (taken[i] || card == NONE)
                continue;
            int value = VALUE[card] - (k == 1 && offered[i] == out[0] ? 10 : 0);
            if (best < 0 || value > best_value) {
                best = (int)i;
                best_value = value;
            }
        }
        if (best < 0)
            break;
        taken[best] = 1;
        out[k] = offered[best];
    }
    fputs(out, stdout);
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "coup_c: expected a file, 2 coin counts, cards and legal actions; got %d arguments\n", argc - 1);
        return 1;
    }
    struct game g;
    memset(&g, 0, sizeof g);
    g.opp_coins = atoi(argv[2]);
    g.my_coins = atoi(argv[3]);
    g.legal = (const char *const *)argv + 5;
    g.n_legal = argc - 5;

    const char *cards = argv[4];
    size_t n_cards = strlen(cards);
    /* One or two cards is a hand; three or four means we are finishing an Exchange. */
    int exchanging = n_cards > 2 && n_cards <= 4;
    if (!exchanging) {
        for (size_t i = 0; i < n_cards; i++) {
            int card = card_of_reveal(cards[i]);
            if (card != NONE)
                g.hand[card]++;
        }
        g.hand_size = (int)n_cards;
    }

    size_t len = 0;
    char *history = read_file(argv[1], &len);
    if (!history) {
        perror(argv[1]);
        return 1;
    }
    read_history(&g, history, len);
    free(history);

    const char *move = decide(&g);
    if (!move)
        move = g.legal[0]; /* nothing better to say: the first legal action is always legal */

    if (exchanging)
        print_exchange(cards, n_cards - 2);
    fflush(stdout);

    int fd = open(argv[1], O_WRONLY | O_APPEND);
    size_t move_len = strlen(move);
    if (fd < 0 || write(fd, move, move_len) != (ssize_t)move_len) {
        perror(argv[1]);
        return 1;
    }
    close(fd);
    return 0;
}
