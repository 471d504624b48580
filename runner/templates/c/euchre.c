/*
 * {{name}}: a Euchre bot for koth, in plain C (C99 + wasi-libc).
 *
 * koth runs it once per decision with the input on stdin, one item a line: the hand
 * (`js,ah,qc,ts,9h`: rank 9 t j q k a, suit c d h s), the team's points, the team's tricks
 * this hand, the phase, then the phase's lines:
 *
 *   ordering  the turned card; earlier answers        -> o (order up) or p (pass)
 *   naming    earlier answers                         -> p, or a suit other than the turned one
 *   discard   the card the dealer picks up            -> a card of the six
 *   alone     trump; earlier answers                  -> y or n
 *   turn      trump; the cards played in this trick   -> a legal card (`p` = player sitting out)
 *   trick     (empty hand) our index; trump; the four cards   -> nothing
 *
 * It prints its answer on stdout; a bad answer or a failure gets the default (pass, the
 * first card, no, the first legal card). One file of at most 1 KiB (here `memory`) lasts the
 * whole game. Put your strategy in decide().
 *
 * The strategy to start from is plain: bid with three trumps or more (bowers counted), never
 * go alone, let a partner's winning card stand, else win as cheaply as possible or throw the
 * lowest card.
 */

#include <stdio.h>
#include <string.h>

#define MAX_LINES 16
#define MAX_CARDS 8

/* A card is two characters, rank then suit: "jh". */
typedef struct {
    char rank, suit;
} card;

static const char RANKS[] = "9tjqka";

/* The other suit of the same colour: its jack is the left bower. */
static char other_jack(char suit) {
    switch (suit) {
    case 'c': return 's';
    case 's': return 'c';
    case 'h': return 'd';
    default: return 'h';
    }
}

/* The suit a card plays as: the left bower is trump. */
static char suit_of(card c, char trump) {
    return c.rank == 'j' && c.suit == other_jack(trump) ? trump : c.suit;
}

/* Strength in a trick: right bower 20, left 19, other trumps 14-18; the led suit 1-6. */
static int power(card c, char trump, char led) {
    if (c.rank == 'j' && c.suit == trump)
        return 20;
    if (suit_of(c, trump) == trump)
        return c.rank == 'j' ? 19 : 13 + (int)(strchr("9tqka", c.rank) - "9tqka");
    return c.suit == led ? 1 + (int)(strchr(RANKS, c.rank) - RANKS) : 0;
}

/* Parse `9c,jh,...` into `out`; the number of cards (a `p` is a player sitting out). */
static int parse_cards(const char *text, card *out, int *sitting_out) {
    int n = 0;
    for (const char *p = text; *p && n < MAX_CARDS;) {
        if (p[0] == 'p') {
            out[n].rank = 0;
            out[n].suit = 0;
            if (sitting_out)
                *sitting_out = n;
            n++, p += 1;
        } else if (p[1] && strchr(RANKS, p[0])) {
            out[n].rank = p[0];
            out[n].suit = p[1];
            n++, p += 2;
        } else {
            p++;
            continue;
        }
        if (*p == ',')
            p++;
    }
    return n;
}

static int trumps(const card *hand, int n, char trump) {
    int count = 0;
    for (int i = 0; i < n; i++)
        count += suit_of(hand[i], trump) == trump;
    return count;
}

static void remember(char suit) {
    FILE *f = fopen("memory", "w");
    if (f) { /* a full quota only costs the memory, never the game */
        fputc(suit, f);
        fclose(f);
    }
}

static char recall(void) {
    FILE *f = fopen("memory", "r");
    int c = f ? fgetc(f) : EOF;
    if (f)
        fclose(f);
    return c == EOF ? 0 : (char)c;
}

static void print_card(card c) {
    printf("%c%c\n", c.rank, c.suit);
}

static void play(const card *hand, int n, char trump, const char *played_line) {
    card played[MAX_CARDS];
    int n_played = parse_cards(played_line, played, NULL);
    int lead = -1;
    for (int i = 0; i < n_played && lead < 0; i++)
        if (played[i].rank)
            lead = i;
    /* The legal cards: those following the led suit, or any when we have none. */
    card legal[MAX_CARDS];
    int n_legal = 0;
    char led = lead >= 0 ? suit_of(played[lead], trump) : 0;
    for (int i = 0; i < n; i++)
        if (lead >= 0 && suit_of(hand[i], trump) == led)
            legal[n_legal++] = hand[i];
    if (n_legal == 0)
        for (int i = 0; i < n; i++)
            legal[n_legal++] = hand[i];
    int lowest = 0, highest = 0;
    for (int i = 1; i < n_legal; i++) {
        char as = lead >= 0 ? led : suit_of(legal[i], trump);
        char lo = lead >= 0 ? led : suit_of(legal[lowest], trump);
        char hi = lead >= 0 ? led : suit_of(legal[highest], trump);
        if (power(legal[i], trump, as) < power(legal[lowest], trump, lo))
            lowest = i;
        if (power(legal[i], trump, as) > power(legal[highest], trump, hi))
            highest = i;
    }
    if (lead < 0) { /* leading: the strongest card */
        print_card(legal[highest]);
        return;
    }
    int best = -1;
    for (int i = 0; i < n_played; i++)
        if (played[i].rank && (best < 0 || power(played[i], trump, led) > power(played[best], trump, led)))
            best = i;
    /* Our partner played two places before us: let its winning card stand. */
    if (n_played >= 2 && best == n_played - 2) {
        print_card(legal[lowest]);
        return;
    }
    /* The cheapest card that beats the trick so far, else throw the lowest. */
    int win = -1;
    for (int i = 0; i < n_legal; i++) {
        int p = power(legal[i], trump, led);
        if (p > power(played[best], trump, led) && (win < 0 || p < power(legal[win], trump, led)))
            win = i;
    }
    print_card(legal[win >= 0 ? win : lowest]);
}

static void decide(const card *hand, int n, const char *phase, char **lines, int n_lines) {
    const char *first = n_lines > 0 ? lines[0] : "";
    if (strcmp(phase, "ordering") == 0) {
        char suit = strlen(first) >= 2 ? first[1] : 0;
        remember(suit);
        puts(suit && trumps(hand, n, suit) >= 3 ? "o" : "p");
    } else if (strcmp(phase, "naming") == 0) {
        char turned = recall(), best = 0;
        for (const char *s = "cdhs"; *s; s++)
            if (*s != turned && (!best || trumps(hand, n, *s) > trumps(hand, n, best)))
                best = *s;
        if (best && trumps(hand, n, best) >= 3)
            printf("%c\n", best);
        else
            puts("p");
    } else if (strcmp(phase, "discard") == 0) {
        card six[MAX_CARDS];
        memcpy(six, hand, sizeof(card) * (size_t)n);
        int m = n + parse_cards(first, six + n, NULL);
        char trump = m > n ? six[n].suit : 0;
        int worst = 0;
        for (int i = 1; i < m; i++)
            if (power(six[i], trump, suit_of(six[i], trump)) < power(six[worst], trump, suit_of(six[worst], trump)))
                worst = i;
        print_card(six[worst]);
    } else if (strcmp(phase, "alone") == 0) {
        puts("n");
    } else if (strcmp(phase, "turn") == 0) {
        play(hand, n, first[0], n_lines > 1 ? lines[1] : "");
    }
    /* trick: nothing to say */
}

int main(void) {
    static char input[4096];
    size_t len = fread(input, 1, sizeof input - 1, stdin);
    input[len] = '\0';
    char *lines[MAX_LINES];
    int n_lines = 0;
    for (char *p = input; n_lines < MAX_LINES;) {
        lines[n_lines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    if (n_lines < 4) {
        fprintf(stderr, "{{name}}: expected at least 4 lines on stdin\n");
        return 1;
    }
    card hand[MAX_CARDS];
    int n = parse_cards(lines[0], hand, NULL);
    decide(hand, n, lines[3], lines + 4, n_lines - 4);
    return 0;
}
