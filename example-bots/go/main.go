// coup_go: an honest Coup bot in Go that shops for a better hand with its Ambassador, built
// as a WASI preview 1 module with Go 1.23 (Debian's golang-1.23-go):
//
//	GOOS=wasip1 GOARCH=wasm GOTOOLCHAIN=local go build -trimpath -ldflags=-s -o coup_go.wasm .
//
// Nothing here knows about koth or wasm: `go build .` makes the native program the original
// arbiter would have run. Go's wasip1 runtime resolves relative names against the preopened
// directory `/`, which is where koth puts the bot's own directory.
//
// Protocol: argv[1] the history file (in the current directory), argv[2] the opponent's coins,
// argv[3] ours, argv[4] our cards as reveal symbols `~^*!$` (n + 2 of them when we finish an
// Exchange: then we print the n we keep on stdout), argv[5:] the legal actions. We append
// exactly one of them, copied from argv, to the history file.
//
// Strategy: claims and blocks only with cards it holds. Coups at 7+; Assassinates, Taxes or
// Steals with the card for it; with neither a Duke nor an Assassin it Exchanges to find one;
// takes Foreign Aid until one has been blocked with a Duke, then Income. It challenges
// only a claim the visible cards prove false, or an Assassination that would take its last
// card anyway.
package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

const (
	ambassador = iota
	assassin
	captain
	contessa
	duke
)

const (
	reveal = "~^*!$"
	lose   = "_'<=0"
)

// How much it wants to keep each card: Duke, Assassin, Captain, Contessa, Ambassador.
var value = [5]int{1, 4, 3, 2, 5}

// claimed is the card an action (uppercase) or a block (lowercase) claims, or -1.
func claimed(c byte) int {
	switch c {
	case 'E', 'a':
		return ambassador
	case 'A':
		return assassin
	case 'S', 'c':
		return captain
	case 's':
		return contessa
	case 'T', 'd':
		return duke
	}
	return -1
}

type game struct {
	legal    []string
	myCoins  int
	hand     [5]int
	handSize int
	gone     [5]int // cards given up by either player: face up for good
	dukeSeen bool   // someone blocked a Foreign Aid with a Duke
	last     byte
}

// act is the legal action equal to want, or "": only legal actions are ever written.
func (g *game) act(want string) string {
	if slices.Contains(g.legal, want) {
		return want
	}
	return ""
}

func (g *game) lying(claim byte) bool {
	c := claimed(claim)
	return c >= 0 && g.hand[c]+g.gone[c] >= 3
}

func (g *game) leastUseful() string {
	best, bestValue := "", 100
	for _, a := range g.legal {
		if c := strings.IndexByte(lose, a[0]); c >= 0 && value[c] < bestValue {
			best, bestValue = a, value[c]
		}
	}
	return best
}

// first is the first non-empty move among the candidates.
func first(moves ...string) string {
	for _, m := range moves {
		if m != "" {
			return m
		}
	}
	return ""
}

// pick is yes if cond holds, else no.
func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// when is move if cond holds, else "".
func when(cond bool, move string) string {
	if cond {
		return move
	}
	return ""
}

func (g *game) turn() string {
	if len(g.legal) == 1 { // 10+ coins: the forced Coup
		return g.legal[0]
	}
	return first(
		when(g.myCoins >= 7, g.act("C")),
		when(g.hand[assassin] > 0, g.act("A")),
		when(g.hand[duke] > 0, g.act("T")),
		when(g.hand[captain] > 0, g.act("S")),
		when(g.hand[ambassador] > 0, g.act("E")),
		when(!g.dukeSeen, g.act("F")),
		g.act("I\n"),
	)
}

func (g *game) decide() string {
	switch g.last {
	case '\n':
		return g.turn()
	case 'F':
		return g.act(pick(g.hand[duke] > 0, "d", "p"))
	case 'T', 'E':
		return g.act(pick(g.lying(g.last), "q", "p"))
	case 'S':
		return first(
			when(g.hand[captain] > 0, g.act("c")),
			when(g.hand[ambassador] > 0, g.act("a")),
			g.act(pick(g.lying('S'), "q", "p")),
		)
	case 'A':
		return first(
			when(g.hand[contessa] > 0, g.act("s")),
			when(g.lying('A') || g.handSize == 1, g.act("q")),
			g.leastUseful(),
		)
	case 'a', 'c', 'd', 's':
		return g.act(pick(g.lying(g.last), "q", "\n"))
	case 'q':
		if len(g.legal) == 1 {
			return g.legal[0]
		}
		return g.leastUseful()
	case 'C':
		return g.leastUseful()
	}
	if strings.IndexByte(reveal, g.last) >= 0 {
		return g.leastUseful()
	}
	return ""
}

// keepBest chooses the keep most valuable offered cards, two different ones when it can.
func keepBest(offered string, keep int) string {
	var out []byte
	taken := make([]bool, len(offered))
	for k := 0; k < keep; k++ {
		best, bestValue := -1, -100
		for i := 0; i < len(offered); i++ {
			c := strings.IndexByte(reveal, offered[i])
			if taken[i] || c < 0 {
				continue
			}
			v := value[c]
			if k == 1 && offered[i] == out[0] {
				v -= 10
			}
			if v > bestValue {
				best, bestValue = i, v
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		out = append(out, offered[best])
	}
	return string(out)
}

func run() error {
	if len(os.Args) < 6 {
		return fmt.Errorf("expected a file, two coin counts, cards and legal actions")
	}
	name, cards := os.Args[1], os.Args[4]
	history, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	g := game{legal: os.Args[5:], last: '\n'}
	g.myCoins, _ = strconv.Atoi(os.Args[3])
	if len(cards) <= 2 {
		for i := 0; i < len(cards); i++ {
			if c := strings.IndexByte(reveal, cards[i]); c >= 0 {
				g.hand[c]++
			}
		}
		g.handSize = len(cards)
	}
	for i, b := range history {
		if c := strings.IndexByte(lose, b); c >= 0 {
			g.gone[c]++
		}
		if b == 'd' && i > 0 && history[i-1] == 'F' {
			g.dukeSeen = true
		}
	}
	if len(history) > 0 {
		g.last = history[len(history)-1]
	}
	move := g.decide()
	if move == "" {
		move = g.legal[0] // the first legal action is always legal
	}
	if len(cards) > 2 {
		os.Stdout.WriteString(keepBest(cards, len(cards)-2))
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	// One write of the whole move: an appended action must arrive in one piece.
	if _, err := f.WriteString(move); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "coup_go:", err)
		os.Exit(1)
	}
}
