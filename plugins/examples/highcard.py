"""High card: a tiny trick game with a hidden hand, the example of docs/plugins.md,
"Hidden decks" (not a product game; the hidden-deck tests play it).

One deck of ``4 x 5`` cards (card ``c`` is suit ``c // 5``, value ``c % 5``). Each
round the deck is shuffled and every seat is dealt ``hand`` cards; then every seat
passes one card face down to its left neighbour (chosen at the same time, so no one
sees the incoming card first); then ``hand`` tricks: the leader plays any card, the
others in turn must follow the led suit if they can (the legal actions read the
hand), every played card is turned face up, the highest card of the led suit takes
the trick and leads the next. Most tricks wins. With option ``keep`` a round ends
when every hand is down to that many cards, which are never shown.

Two options show the two calls for cards seen but not given and claims made face
down: with ``peek`` each seat is shown (``decks.show``) the first card of its left
neighbour's hand after the deal, which the neighbour keeps; with ``blind`` the cards
of a trick are played face down, each play sealing its claim (``"sealed"``, checked
when the card is opened), and turned over together once everyone has played (no
need to follow suit then: the led card is not known).

The state holds positions, never a hidden card: ``hands[s]`` are seat ``s``'s
positions, ``open`` the cards turned face up this round; ``known[s]`` is filled only
where the host is the dealer (``game_cards_opened`` with a seat).

``game_sample_state`` deals what a seat cannot see with
:func:`lantable.plugins.decks.sample_dealer`, so the greedy and mcts bots play it at
a hidden-deck table too (docs/plugins.md, "Sampling a state with hidden decks").
"""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction, hookimpl
from lantable.plugins.decks import claims_for, sample_dealer, sealed_for, sealed_of
from lantable.plugins.text import forget, learn, own_cards

DECK = "cards"
SUITS, VALUES = 4, 5


def suit(card: int) -> int:
    return card // VALUES


class HighCard:
    @hookimpl
    def game_info(self):
        return {"id": "highcard", "title": "High card", "version": "1", "min_seats": 2,
                "max_seats": 4,
                "options": {"hand": {"default": 3, "min": 1, "max": 5},
                            "rounds": {"default": 1, "min": 1, "max": 9},
                            "keep": {"default": 0, "min": 0, "max": 4,
                                     "help": "cards left in each hand when a round ends"},
                            "peek": {"default": False,
                                     "help": "see the first card of your left neighbour's hand"},
                            "blind": {"default": False,
                                      "help": "tricks are played face down, turned over together"}},
                "traits": {"hidden_information": True}}

    @hookimpl
    def game_decks(self, seats, options):
        return {DECK: SUITS * VALUES}

    # -- set-up and rounds ----------------------------------------------------------

    @hookimpl
    def game_setup(self, seats, options, decks):
        state = {"n": seats, "hand_size": options["hand"], "rounds": options["rounds"],
                 "keep": min(options["keep"], options["hand"] - 1),
                 "round": 0, "phase": "pass", "hands": [], "known": [{} for _ in range(seats)],
                 "passing": [None] * seats, "trick": [], "leader": 0, "turn": None,
                 "open": {}, "tricks": [0] * seats, "peek": options["peek"],
                 "blind": options["blind"], "seen": [{} for _ in range(seats)]}
        self._new_round(state, decks)
        return state

    @staticmethod
    def _new_round(state, decks):
        n, h = state["n"], state["hand_size"]
        state["round"] += 1
        decks.shuffle(DECK)
        state["hands"] = [list(range(s * h, s * h + h)) for s in range(n)]
        for s in range(n):
            decks.deal(DECK, state["hands"][s], s)
        state.update(phase="pass", passing=[None] * n, trick=[], open={}, turn=None,
                     known=[{} for _ in range(n)], seen=[{} for _ in range(n)])
        if state.get("peek"):
            for s in range(n):  # a look at the neighbour's first card, which it keeps
                decks.show(DECK, [state["hands"][(s + 1) % n][0]], s)

    # -- turns ----------------------------------------------------------------------

    @hookimpl
    def game_to_act(self, state):
        if state["phase"] == "pass":
            return [s for s in range(state["n"]) if state["passing"][s] is None]
        if state["phase"] == "play" and state["turn"] is not None:
            return [state["turn"]]
        return []

    @hookimpl
    def game_view(self, state, seat):
        view = {"n": state["n"], "round": state["round"], "rounds": state["rounds"],
                "phase": state["phase"], "hands": [list(h) for h in state["hands"]],
                "chosen": [p is not None for p in state["passing"]],
                "trick": [dict(t) for t in state["trick"]], "turn": state["turn"],
                "open": dict(state["open"]), "tricks": list(state["tricks"]),
                "leader": state["leader"], "keep": state["keep"],
                "hand_size": state["hand_size"], "peek": state.get("peek", False),
                "blind": state.get("blind", False)}
        if seat is not None:
            view["seat"] = seat
            view["cards"] = dict(state["known"][seat])
            view["seen"] = dict(state.get("seen", [{}] * state["n"])[seat])
            view["passing"] = state["passing"][seat]
        return view

    @hookimpl
    def game_seat_actions(self, view, seat, cards):
        mine = {str(p): c for p, c in cards.get(DECK, {}).items()}
        mine.update(view.get("cards") or {})
        hand = view["hands"][seat]
        if view["phase"] == "pass":
            if view["chosen"][seat]:
                return []
            return [{"type": "pass", "pos": p} for p in hand]
        if view["phase"] != "play" or view["turn"] != seat:
            return []
        if view.get("blind"):  # face down: the claim is sealed until the trick is turned
            return [{"type": "play", "pos": p, "sealed": sealed_for(DECK, [(p, mine[str(p)])])}
                    for p in hand]
        lead = view["trick"][0]["card"] if view["trick"] else None
        follow = [p for p in hand if lead is not None and suit(mine[str(p)]) == suit(lead)]
        return [{"type": "play", "pos": p,
                 "claims": claims_for(DECK, [(p, mine[str(p)])])}
                for p in (follow or hand)]

    @hookimpl
    def game_describe_action(self, state, seat, action, names):
        """"pass the 3 of suit B", "play the 4 of suit A": the card at the position, from
        what the seat knows (``_hand`` at a hidden-deck table, else its known cards)."""
        pos = str(action.get("pos"))
        known = dict((state.get("_hand") or {}).get(DECK) or {})
        known.update(state.get("cards") or (state.get("known") or [{}] * (seat + 1))[seat])
        card = known.get(pos)
        what = (f"the {card % VALUES} of suit {'ABCD'[suit(card)]}" if card is not None
                else f"the card at position {pos}")
        return f"{action.get('type')} {what}"

    @hookimpl
    def game_legal_actions(self, state, seat):
        return self.game_seat_actions(self.game_view(state, seat), seat, {})

    # -- actions ----------------------------------------------------------------------

    @hookimpl
    def game_apply(self, state, seat, action, decks):
        kind, pos = action.get("type"), action.get("pos")
        if pos not in state["hands"][seat]:
            raise IllegalAction(f"position {pos!r} is not in seat {seat}'s hand")
        if kind == "pass" and state["phase"] == "pass" and state["passing"][seat] is None:
            state["passing"][seat] = pos
            if any(p is None for p in state["passing"]):
                return [{"type": "chose", "seat": seat}]
            n = state["n"]
            for s, p in enumerate(state["passing"]):
                state["hands"][s].remove(p)
                forget(state["known"][s], [p])
            for s, p in enumerate(state["passing"]):
                state["hands"][(s + 1) % n].append(p)
                decks.give(DECK, p, (s + 1) % n)
            state.update(phase="play", turn=state["leader"])
            return [{"type": "chose", "seat": seat}, {"type": "passed"}]
        if kind == "play" and state["phase"] == "play" and state["turn"] == seat \
                and state.get("blind"):
            if sealed_of(action) != [(DECK, pos)]:
                raise IllegalAction("a blind play seals the card at its position")
            state["hands"][seat].remove(pos)
            state["trick"].append({"seat": seat, "pos": pos, "card": None})
            state["turn"] = (seat + 1) % state["n"]
            if len(state["trick"]) == state["n"]:
                state["turn"] = None
                decks.open(DECK, [t["pos"] for t in state["trick"]])
            return [{"type": "played", "seat": seat, "pos": pos}]
        if kind == "play" and state["phase"] == "play" and state["turn"] == seat:
            claims = action.get("claims") or []
            if [c.get("pos") for c in claims] != [pos]:
                raise IllegalAction("a play claims the card at its position")
            state["hands"][seat].remove(pos)
            state["trick"].append({"seat": seat, "pos": pos, "card": None})
            state["turn"] = None
            decks.open(DECK, [pos])
            return [{"type": "played", "seat": seat, "pos": pos}]
        raise IllegalAction(f"{action!r} is not legal for seat {seat} now")

    @hookimpl
    def game_cards_opened(self, state, deck, cards, seat, decks, shown):
        if seat is not None and shown:  # only where the host deals: seen, not held
            learn(state["seen"][seat], cards)
            return []
        if seat is not None:  # only where the host deals: seat's own secret
            learn(state["known"][seat], cards)
            return []
        events = []
        for pos, card in cards.items():
            state["open"][str(pos)] = card
            for t in state["trick"]:
                if t["pos"] == pos:
                    t["card"] = card
                    events.append({"type": "turned", "seat": t["seat"], "card": card})
        n, trick = state["n"], state["trick"]
        if len(trick) < n:
            state["turn"] = (trick[-1]["seat"] + 1) % n
            return events
        lead = suit(trick[0]["card"])
        winner = max((t for t in trick if suit(t["card"]) == lead), key=lambda t: t["card"])
        state["tricks"][winner["seat"]] += 1
        events.append({"type": "trick", "seat": winner["seat"]})
        state.update(trick=[], leader=winner["seat"], turn=winner["seat"])
        if all(len(h) <= state["keep"] for h in state["hands"]):
            if state["round"] >= state["rounds"]:
                state.update(phase="over", turn=None)
            else:
                self._new_round(state, decks)
        return events

    # -- search bots ------------------------------------------------------------------

    @hookimpl
    def game_sample_state(self, view, seat, rng):
        """A state consistent with ``seat``'s view: its own cards (``view["cards"]``
        where the host deals, ``view["_hand"]`` at a hidden-deck table) and the open
        ones kept, every other card dealt at random, with the dealer's record."""
        n = view["n"]
        state = {"n": n, "hand_size": view["hand_size"], "rounds": view["rounds"],
                 "round": view["round"], "keep": view["keep"], "phase": view["phase"],
                 "hands": [list(h) for h in view["hands"]],
                 "trick": [dict(t) for t in view["trick"]], "turn": view["turn"],
                 "leader": view["leader"], "open": dict(view["open"]),
                 "tricks": list(view["tricks"]), "known": [{} for _ in range(n)],
                 "passing": [None] * n, "peek": view.get("peek", False),
                 "blind": view.get("blind", False), "seen": [{} for _ in range(n)]}
        mine = {**(view.get("seen") or {}), **own_cards(view, "cards", DECK)}
        known = {int(p): c for p, c in {**view["open"], **mine}.items()}
        held = {p: s for s, hand in enumerate(view["hands"]) for p in hand}
        cards = sample_dealer(state, sizes={DECK: SUITS * VALUES}, seats=n,
                              held={DECK: held}, known={DECK: known},
                              opened={DECK: [int(p) for p in view["open"]]}, rng=rng)[DECK]
        state["seen"][seat] = dict(view.get("seen") or {})
        for s, hand in enumerate(state["hands"]):
            state["known"][s] = {str(p): cards[p] for p in hand}
            if view["chosen"][s]:  # a seat that chose its pass: ours is known, others' not
                if s == seat:
                    state["passing"][s] = view["passing"]
                else:  # a guess while passes are pending; afterwards it no longer matters
                    state["passing"][s] = rng.choice(hand) if view["phase"] == "pass" else -1
        return state

    @hookimpl
    def game_scores(self, state):
        tricks = state["tricks"]
        return {"scores": list(tricks), "rank": [1 + sum(t > mine for t in tricks)
                                                 for mine in tricks]}


def highcard_game() -> Any:
    from lantable.plugins import load_registry

    return load_registry(autoload=False, plugins={"highcard": HighCard()})["highcard"]
