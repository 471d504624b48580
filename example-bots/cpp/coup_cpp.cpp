// coup_cpp: an honest, thieving Coup bot in C++17 (libc++ for wasm32-wasi), built with
//
//     clang++-14 --target=wasm32-wasi --sysroot=/usr -std=c++17 -O2 -fno-exceptions -Wl,--strip-all -o coup_cpp.wasm coup_cpp.cpp
//
// Nothing here knows about koth or wasm: it is the program the original arbiter would have run
// natively (`c++ -std=c++17 coup_cpp.cpp` builds it too).
//
// Protocol: argv[1] the history file (in the current directory), argv[2] the opponent's coins,
// argv[3] ours, argv[4] our cards as reveal symbols `~^*!$` (n + 2 of them when we finish an
// Exchange: then we print the n we keep on stdout), argv[5...] the legal actions. We append
// exactly one of them, copied from argv, to the history file.
//
// Strategy: honest (every claim and block is backed by a card in hand), but a thief: with a
// Captain it Steals before anything else while the opponent has 2+ coins, since a Steal both
// gains and denies. Coups at 7+, blocks with real cards, challenges only a claim that the
// visible cards prove false, or an Assassination that would take its last card anyway.

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

enum Card { Ambassador, Assassin, Captain, Contessa, Duke, Kinds };

constexpr std::string_view kReveal = "~^*!$";
constexpr std::string_view kLose = "_'<=0";
// Keeping order: the Captain first (this bot's engine), then Duke, Assassin, Contessa,
// Ambassador.
constexpr std::array<int, Kinds> kValue = {1, 3, 5, 2, 4};

std::optional<Card> from(std::string_view symbols, char c) {
    auto at = symbols.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    return static_cast<Card>(at);
}

// The card an action (uppercase) or block (lowercase) claims.
std::optional<Card> claimed(char c) {
    switch (c) {
        case 'E': case 'a': return Ambassador;
        case 'A': return Assassin;
        case 'S': case 'c': return Captain;
        case 's': return Contessa;
        case 'T': case 'd': return Duke;
        default: return std::nullopt;
    }
}

class Bot {
public:
    Bot(std::vector<std::string> legal, std::string_view cards, const std::string& history,
        int opp_coins, int my_coins)
        : legal_(std::move(legal)), opp_coins_(opp_coins), my_coins_(my_coins) {
        if (cards.size() <= 2) {
            for (char c : cards)
                if (auto k = from(kReveal, c)) hand_[*k]++;
            hand_size_ = static_cast<int>(cards.size());
        }
        // Every card given up lies face up for good, whoever gave it up.
        for (char c : history)
            if (auto k = from(kLose, c)) gone_[*k]++;
        last_ = history.empty() ? '\n' : history.back();
    }

    const std::string& decide() const {
        const std::string* m = nullptr;
        switch (last_) {
            case '\n': m = turn(); break;
            case 'F': m = act(hand_[Duke] ? "d" : "p"); break;
            case 'T': case 'E': m = act(lying(last_) ? "q" : "p"); break;
            case 'S':
                if (hand_[Captain]) m = act("c");
                if (!m && hand_[Ambassador]) m = act("a");
                if (!m) m = act(lying('S') ? "q" : "p");
                break;
            case 'A':
                if (hand_[Contessa]) m = act("s");
                if (!m && (lying('A') || hand_size_ == 1)) m = act("q");
                if (!m) m = least_useful();
                break;
            case 'a': case 'c': case 'd': case 's': m = act(lying(last_) ? "q" : "\n"); break;
            case 'q': m = legal_.size() == 1 ? &legal_[0] : least_useful(); break;
            default:
                if (last_ == 'C' || from(kReveal, last_)) m = least_useful();
        }
        return m ? *m : legal_.front();  // the first legal action is always a legal answer
    }

private:
    // The legal action equal to `want`, if any: we only ever write one of these.
    const std::string* act(std::string_view want) const {
        auto it = std::find(legal_.begin(), legal_.end(), want);
        return it == legal_.end() ? nullptr : &*it;
    }

    // All three copies of the claimed card are in our hand or face up: the claim is a lie.
    bool lying(char claim) const {
        auto k = claimed(claim);
        return k && hand_[*k] + gone_[*k] >= 3;
    }

    const std::string* least_useful() const {
        const std::string* best = nullptr;
        for (const auto& a : legal_) {
            auto k = from(kLose, a[0]);
            if (k && (!best || kValue[*k] < kValue[*from(kLose, (*best)[0])])) best = &a;
        }
        return best;
    }

    const std::string* turn() const {
        if (legal_.size() == 1) return &legal_[0];  // 10+ coins: a forced Coup
        const std::string* m = nullptr;
        if (my_coins_ >= 7 && (m = act("C"))) return m;
        if (hand_[Captain] && opp_coins_ >= 2 && (m = act("S"))) return m;
        if (hand_[Assassin] && (m = act("A"))) return m;
        if (hand_[Duke] && (m = act("T"))) return m;
        if (hand_[Captain] && (m = act("S"))) return m;
        if (hand_[Ambassador] && (m = act("E"))) return m;
        if ((m = act("F"))) return m;
        return act("I\n");
    }

    std::vector<std::string> legal_;
    std::array<int, Kinds> hand_{};
    std::array<int, Kinds> gone_{};
    int hand_size_ = 0;
    int opp_coins_, my_coins_;
    char last_ = '\n';
};

// Finishing an Exchange: the `keep` most valuable offered cards, a duplicate only when nothing
// else is left (two different cards back more claims).
std::string keep_best(std::string offered, size_t keep) {
    auto value = [](char c) { auto k = from(kReveal, c); return k ? kValue[*k] : -1; };
    std::stable_sort(offered.begin(), offered.end(),
                     [&](char a, char b) { return value(a) > value(b); });
    std::string out;
    for (char c : offered)
        if (out.size() < keep && out.find(c) == std::string::npos) out += c;
    for (char c : offered)
        if (out.size() < keep && std::count(out.begin(), out.end(), c) < std::count(offered.begin(), offered.end(), c)) out += c;
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "coup_cpp: expected a file, two coin counts, cards and legal actions\n");
        return 1;
    }
    std::string history;
    {
        std::ifstream in(argv[1], std::ios::binary);
        if (!in) {
            std::perror(argv[1]);
            return 1;
        }
        history.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::string_view cards = argv[4];
    Bot bot(std::vector<std::string>(argv + 5, argv + argc), cards, history,
            std::atoi(argv[2]), std::atoi(argv[3]));
    const std::string& move = bot.decide();

    if (cards.size() > 2) std::fputs(keep_best(std::string(cards), cards.size() - 2).c_str(), stdout);
    std::fflush(stdout);

    // One append, flushed when the stream closes.
    std::ofstream out(argv[1], std::ios::binary | std::ios::app);
    out << move;
    out.close();
    if (!out) {
        std::perror(argv[1]);
        return 1;
    }
    return 0;
}
