// An honest Coup player for the `coup-bot` world (wit/coup.wit), as a JavaScript component
// (componentize-qjs: QuickJS). Enums are their case names as strings, variants
// `{ tag, val }`, records objects with camelCase keys.
//
// Strategy: Coup at 7 coins; otherwise steal when it holds the Captain and the opponent has 2
// coins or more, then Tax with the Duke, Assassinate with the Assassin and 3 coins, Exchange
// with the Ambassador, else Income (it never claims what it lacks, and avoids Foreign Aid, which
// any Duke claim blocks). It blocks only with a card it holds, reveals when it holds the
// challenged card, and challenges a claim only when every copy of the card is accounted for.
// It gives up, and drops from an Exchange, its least useful card. Its memory counts the games'
// decisions in the directory's scope (4 bytes, little-endian).

// From the card it would give up first to the one it keeps longest.
const VALUE = ["ambassador", "duke", "assassin", "captain", "contessa"];
const CLAIMS = { tax: "duke", steal: "captain", assassinate: "assassin", exchange: "ambassador" };
const BLOCKERS = { "foreign-aid": ["duke"], steal: ["captain", "ambassador"], assassinate: ["contessa"] };

const move = (tag, val) => (val === undefined ? { tag } : { tag, val });
const same = (a, b) => a.tag === b.tag && a.val === b.val;
const rank = (card) => VALUE.indexOf(card);
const weakest = (cards) => cards.reduce((w, c) => (rank(c) < rank(w) ? c : w));

// Every copy of `card` is in my hand or face up: the opponent cannot hold it.
function impossible(s, card) {
  const seen = [...s.myCards, ...s.myLost, ...s.opponentLost];
  return seen.filter((c) => c === card).length >= 3;
}

function act(s) {
  const mine = s.myCards;
  if (s.myCoins >= 7) return move("coup");
  if (mine.includes("captain") && s.opponentCoins >= 2) return move("steal");
  if (mine.includes("duke")) return move("tax");
  if (mine.includes("assassin") && s.myCoins >= 3) return move("assassinate");
  if (mine.includes("ambassador")) return move("exchange");
  return move("income");
}

function respond(s, action) {
  for (const card of BLOCKERS[action] || []) {
    if (s.myCards.includes(card)) return move("block", card);
  }
  const claim = CLAIMS[action];
  if (claim && impossible(s, claim)) return move("challenge");
  return move("pass");
}

function choose(s) {
  const p = s.phase;
  switch (p.tag) {
    case "act":
      return act(s);
    case "respond":
      return respond(s, p.val);
    case "blocked":
      return impossible(s, p.val.card) ? move("challenge") : move("end-turn");
    case "challenged":
      return s.myCards.includes(p.val) ? move("reveal", p.val) : move("surrender", weakest(s.myCards));
    case "lose-card":
      return move("surrender", weakest(s.myCards));
    default:
      return move("end-turn");
  }
}

export const coup = {
  decide(state, memory) {
    const m = Array.from(memory);
    const count = m.length >= 4 ? (m[0] | (m[1] << 8) | (m[2] << 16) | (m[3] << 24)) >>> 0 : 0;
    const next = (count + 1) >>> 0;
    const mem = new Uint8Array([next & 255, (next >>> 8) & 255, (next >>> 16) & 255, next >>> 24]);
    if (state.phase.tag === "finish-exchange") {
      const keep = [...state.myCards].sort((a, b) => rank(b) - rank(a)).slice(0, state.phase.val);
      return [{ tag: "keep", val: keep }, mem];
    }
    let m2 = choose(state);
    // Whatever the reasoning, answer a legal move.
    if (!state.legal.some((l) => same(l, m2))) m2 = state.legal.length ? state.legal[0] : move("end-turn");
    return [{ tag: "play", val: m2 }, mem];
  },
};
