/* historian: a Liar's Dice player that remembers who lies, in plain C (wasi-libc).
 *
 * Build:  clang-14 --target=wasm32-wasi --sysroot=/usr -O2 -Wl,--strip-all -o historian.wasm historian.c
 * It also builds and runs natively (cc historian.c), with a history.txt in the working folder.
 *
 * Input on stdin (see referees/liars-dice/README.md): `seat S`, `dice D0 D1 D2`, `wild 0|1`,
 * `hand H`, `cup ...` (its own dice), then `bid SEAT QUANTITY FACE` for each bid of this hand.
 * The referee also puts history.txt in its directory: one line per finished hand, such as
 * `hand 2 opener 1 bid 1 2 4 bid 2 3 4 liar 0 count 2 loser 2 cups 1356 23445 226`.
 * Answer on stdout: `bid QUANTITY FACE` or `liar`.
 *
 * Strategy: from the history it counts, for every seat, how many of its bids were called and
 * how many of those were lies. It calls the last bid a lie when the bid is more than one die
 * above what it expects on the table (every unseen die shows a face with probability 1/6, or
 * 1/3 when ones are wild), or already when the bidder has been caught lying in at least half of
 * two or more calls, and only two dice above when the bidder has been honest. Otherwise it
 * makes the smallest raise on the face it holds most of, and calls if that raise would claim
 * more than one die above expectation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS 8
#define MAX_BIDS 512

static int seat, seats, wild, hand, total;
static int dice[MAX_SEATS], cup[16], cup_len;
static int bids[MAX_BIDS][3], n_bids;
static int called[MAX_SEATS], lies[MAX_SEATS];

static char *slurp(FILE *f) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    if (!buf) return NULL;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) break;
            buf = bigger;
            cap *= 2;
        }
    }
    buf[len] = '\0';
    return buf;
}

static void read_stdin(void) {
    char *text = slurp(stdin);
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char key[8];
        int a, b, c, used;
        if (sscanf(line, "%7s%n", key, &used) != 1) continue;
        char *rest = line + used;
        if (!strcmp(key, "seat")) sscanf(rest, "%d", &seat);
        else if (!strcmp(key, "wild")) sscanf(rest, "%d", &wild);
        else if (!strcmp(key, "hand")) sscanf(rest, "%d", &hand);
        else if (!strcmp(key, "dice") || !strcmp(key, "cup")) {
            int *into = key[0] == 'd' ? dice : cup, max = key[0] == 'd' ? MAX_SEATS : 16, n = 0;
            while (n < max && sscanf(rest, "%d%n", &a, &used) == 1) {
                into[n++] = a;
                rest += used;
            }
            if (key[0] == 'd') seats = n; else cup_len = n;
        } else if (!strcmp(key, "bid") && n_bids < MAX_BIDS && sscanf(rest, "%d %d %d", &a, &b, &c) == 3) {
            bids[n_bids][0] = a;
            bids[n_bids][1] = b;
            bids[n_bids][2] = c;
            n_bids++;
        }
    }
    free(text);
}

/* Every called bid of the history: who made it, and whether the count fell short. */
static void read_history(void) {
    FILE *f = fopen("history.txt", "r");
    if (!f) return;
    char *text = slurp(f);
    fclose(f);
    char *save_line = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save_line) : NULL; line; line = strtok_r(NULL, "\n", &save_line)) {
        int bidder = -1, q = 0, caller = -1, count = -1;
        char *save = NULL;
        for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            if (!strcmp(w, "bid")) {
                char *s = strtok_r(NULL, " ", &save), *qq = strtok_r(NULL, " ", &save);
                strtok_r(NULL, " ", &save); /* the face: the count already says it */
                if (s && qq) { bidder = atoi(s); q = atoi(qq); }
            } else if (!strcmp(w, "liar")) {
                char *s = strtok_r(NULL, " ", &save);
                if (s) caller = atoi(s);
            } else if (!strcmp(w, "count")) {
                char *c = strtok_r(NULL, " ", &save);
                if (c) count = atoi(c);
            }
        }
        if (caller >= 0 && bidder >= 0 && bidder < MAX_SEATS && count >= 0) {
            called[bidder]++;
            if (count < q) lies[bidder]++;
        }
    }
    free(text);
}

static int mine(int face) {
    int n = 0;
    for (int i = 0; i < cup_len; i++)
        if (cup[i] == face || (wild && cup[i] == 1)) n++;
    return n;
}

static double expected(int face) {
    return mine(face) + (total - cup_len) * (wild ? 1.0 / 3.0 : 1.0 / 6.0);
}

int main(void) {
    read_stdin();
    read_history();
    for (int i = 0; i < seats; i++) total += dice[i];
    int low = wild ? 2 : 1;
    int *last = n_bids ? bids[n_bids - 1] : NULL;
    if (last) {
        int bidder = last[0];
        double margin = 1.0;
        if (bidder >= 0 && bidder < MAX_SEATS && called[bidder] >= 2) {
            if (2 * lies[bidder] >= called[bidder]) margin = 0.0;
            else if (4 * lies[bidder] < called[bidder]) margin = 2.0;
        }
        if (last[1] > expected(last[2]) + margin) {
            puts("liar");
            return 0;
        }
    }
    /* The face it holds most of (the higher among equals), raised as little as the rules allow. */
    int best = 6;
    for (int f = 6; f >= low; f--)
        if (mine(f) > mine(best)) best = f;
    int q = !last ? 1 : best > last[2] ? last[1] : last[1] + 1;
    if (last && (q > total || q > expected(best) + 1.0)) {
        puts("liar");
        return 0;
    }
    if (!last) {
        /* Open with the dice of that face it holds itself: a bid it knows is true. */
        q = mine(best) > 0 ? mine(best) : 1;
    }
    printf("bid %d %d\n", q, best);
    return 0;
}
