"""An honest Coup player for the `coup-bot` world (wit/coup.wit), as a Python component.

Strategy: Coup at 7 coins; otherwise act with a card it holds (Assassin if it can pay, then
Duke, Captain when there is something to steal, Ambassador), else Foreign Aid unless the
opponent has claimed the Duke, else Income. It blocks only with a card it holds, reveals when
it holds the challenged card, and challenges a claim only when every copy of the card is
accounted for (so the claim is a lie), or an Assassination that would otherwise cost its last
card. It gives up, and drops from an Exchange, its least useful card. Its memory counts its
decisions in the directory's scope (4 bytes, little-endian).
"""

from wit_world import exports
from wit_world.exports import coup as c

# From the card it would give up first to the one it keeps longest.
VALUE = [c.Card.AMBASSADOR, c.Card.CAPTAIN, c.Card.ASSASSIN, c.Card.CONTESSA, c.Card.DUKE]

# The card each action claims, and the cards that block it.
CLAIMS = {
    c.Action.TAX: c.Card.DUKE,
    c.Action.STEAL: c.Card.CAPTAIN,
    c.Action.ASSASSINATE: c.Card.ASSASSIN,
    c.Action.EXCHANGE: c.Card.AMBASSADOR,
}
BLOCKERS = {
    c.Action.FOREIGN_AID: [c.Card.DUKE],
    c.Action.STEAL: [c.Card.CAPTAIN, c.Card.AMBASSADOR],
    c.Action.ASSASSINATE: [c.Card.CONTESSA],
}


def impossible(state, card):
    """Every copy of `card` is in my hand or face up: the opponent cannot hold it."""
    seen = state.my_cards + state.my_lost + state.opponent_lost
    return sum(1 for x in seen if x == card) >= 3


def weakest(cards):
    return min(cards, key=VALUE.index)


def act(state):
    mine = state.my_cards
    if state.my_coins >= 7:
        return c.Move_Coup()
    if c.Card.ASSASSIN in mine and state.my_coins >= 3:
        return c.Move_Assassinate()
    if c.Card.DUKE in mine:
        return c.Move_Tax()
    if c.Card.CAPTAIN in mine and state.opponent_coins >= 2:
        return c.Move_Steal()
    if c.Card.AMBASSADOR in mine:
        return c.Move_Exchange()
    if c.Card.DUKE not in state.opponent_claims:
        return c.Move_ForeignAid()
    return c.Move_Income()


def respond(state, action):
    for card in BLOCKERS.get(action, []):
        if card in state.my_cards:
            return c.Move_Block(card)
    claim = CLAIMS.get(action)
    if claim is not None and impossible(state, claim):
        return c.Move_Challenge()
    if action == c.Action.ASSASSINATE and len(state.my_cards) == 1:
        # Passing loses the game; a challenge wins it if the claim is a bluff.
        return c.Move_Challenge()
    return c.Move_Pass()


def choose(state):
    p = state.phase
    if isinstance(p, c.Phase_Act):
        return act(state)
    if isinstance(p, c.Phase_Respond):
        return respond(state, p.value)
    if isinstance(p, c.Phase_Blocked):
        if impossible(state, p.value.card):
            return c.Move_Challenge()
        return c.Move_EndTurn()
    if isinstance(p, c.Phase_Challenged):
        if p.value in state.my_cards:
            return c.Move_Reveal(p.value)
        return c.Move_Surrender(weakest(state.my_cards))
    if isinstance(p, c.Phase_LoseCard):
        return c.Move_Surrender(weakest(state.my_cards))
    return c.Move_EndTurn()


class Coup(exports.Coup):
    def decide(self, state, memory):
        count = int.from_bytes(memory[:4], "little") if len(memory) >= 4 else 0
        memory = ((count + 1) % (1 << 32)).to_bytes(4, "little")
        if isinstance(state.phase, c.Phase_FinishExchange):
            n = state.phase.value
            keep = sorted(state.my_cards, key=VALUE.index, reverse=True)[:n]
            return c.Decision_Keep(keep), memory
        move = choose(state)
        # Whatever the reasoning, answer a legal move.
        if move not in state.legal:
            move = state.legal[0] if state.legal else c.Move_EndTurn()
        return c.Decision_Play(move), memory
