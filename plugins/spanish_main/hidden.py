"""Pirates of the Spanish Main with a hidden deck: the host runs the game without
knowing the value of any face-down treasure.

With the option ``hidden_deck`` the treasure tokens are the positions of one deck,
``treasure`` (:data:`DECK`), through the game API for hidden decks (docs/plugins.md,
"Hidden decks"). At a fair table with hidden decks (docs/fair-play.md) the seats
shuffle and mask the tokens together at set-up; the host holds no key and learns a
value only when the token is turned face up. This module wraps :mod:`.turn`; the
plain game is unchanged.

**The deck.** Card ``c`` is the ``c``-th token of the table's contributions
(:func:`.deal.contributions`, a public list: every seat brings the same values), so
its value is :func:`value`. Treasure ``tK`` is position ``K``; the rules deal the
tokens to the wild islands in order (3.7), which the shuffle makes random. The host's
state holds ``gold: None`` for every token nobody has turned over.

**Who may look at what** (digest 5.7-5.11, A-47; ``docs/rules/pirates-spanish-main.md``):

- a seat whose ship explores an island, or a ship, looks at every token there; a seat
  that takes a token (boarding, a transfer, a tow) learns its value: each is
  ``decks.show`` n to that seat (it learns the value, nobody else does; the token stays
  where it is). A token shown to a seat stays known to it wherever it goes;
- a token unloaded at its owner's home island is turned over (``decks.open``) and
  counted there when opened (``unloaded``); the threshold win (7.2) is checked then;
- a ship sunk with treasure aboard: its tokens are turned over, and the gold is shared
  out (5.11.2) once they are opened (``sunk_gold``); a scuttled ship's gold is lost.

Without unique treasure nothing is claimed: no rule lets a seat act on a value the
host has not seen (which tokens to take is the seat's choice, and every token takes
one cargo space).

**Unique treasure** (``unique_treasure``; 5.8.4, A-5): whether a token is unique decides
what its first explorer may take, and only that seat knows. So the tokens of an
island nobody has explored are *dealt* (``decks.deal``, ``hidden["held"]``) to its
first explorer, whose ``take`` claims each once (:func:`_take`): unique ones face up
(``claims``: carried face up, opened right after the action, the claim checked by the
host) and the others face down (``sealed``, "not unique": ``hidden["sealed"]``). A
sealed token is checked when it is opened: the seal by the host, "not unique" here
(:func:`cards_opened`: ``false_claim``, the seat forfeits); when the game ends every
sealed token still face down is opened before the winners are named
(``combat.finish``). A face-down token off an unexplored island is therefore never
unique (the cargo counts, :func:`_sample`), and 7.4's "no gold left" is
``turn.hidden_gold_left``.

**The multiplayer sheet** (6.2, 3-4 seats, ``official_sheet``): a token unloaded at home
stays face down (its owner was shown it; the host never learns it) and adds nothing to
``home_gold`` yet. When the game ends (its endings read no value), ``combat.finish``
does not name the winners: every token not turned over is turned over, and
:func:`cards_opened` counts the home ones and finishes the game once all are known
(``game_over`` then ``revealed``), in the same deal as the action that ended it.

**7.4's "no gold left"** counts a token not turned over as gold: exact without unique
treasure, since every other token is worth at least 1 (the 0-gold ones are unique).

**Sea monsters** (A-36): a token a monster takes is destroyed and turned over for
everyone; the gold lost is counted when it is opened (``destroyed_gold``). No other
monster rule reads a value.

**Not with a hidden deck** (refused at set-up): forts (5.17: their gold capacity reads
values).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import claims_for, claims_of, sample_dealer, sealed_for, sealed_of
from lantable.plugins.text import learn, own_cards

from . import bots, combat, deal, turn, world

State = dict[str, Any]
Events = list[dict[str, Any]]
Decks = Any  # lantable.plugins.decks.Requests: shuffle, deal, open, give, show

DECK = "treasure"


def tokens(state_or_view: Mapping[str, Any]) -> list[tuple[int, str | None]]:
    """The deck's cards: card c is the token ``tokens(...)[c]`` (gold, unique id)."""
    return deal.contributions(state_or_view["n_players"],
                              bool(state_or_view["options"].get("unique_treasure")))


def pool(state_or_view: Mapping[str, Any]) -> list[int]:
    """The deck's cards: card c is worth ``pool(...)[c]`` gold."""
    return [g for g, _ in tokens(state_or_view)]


def uniques(state: Mapping[str, Any]) -> bool:
    """Unique treasure at a hidden-deck table: tokens are dealt to their first explorer,
    who claims them (see the module's docstring)."""
    return "held" in state["hidden"]


def decks_for(seats: int, options: Mapping[str, Any]) -> dict[str, int] | None:
    """``game_decks``: the treasure tokens, with the option ``hidden_deck``."""
    if not options.get("hidden_deck"):
        return None
    return {DECK: len(deal.contributions(seats, False))}


def check_options(seats: int, options: Mapping[str, Any]) -> None:
    """What a hidden deck cannot carry yet (see the module's docstring)."""
    bad = [k for k in ("forts",) if options.get(k)]
    if bad:
        raise IllegalAction(f"hidden_deck: not with {', '.join(bad)} (the host would need "
                            "values nobody has turned over)")


def new_state(seats: int, options: dict[str, Any], rng: random.Random, decks: Decks) -> State:
    """The set-up with the treasure a hidden deck (any ``multiplayer_mode`` at 3-4 seats:
    the sheet's face-down gold at home is opened when the game ends)."""
    check_options(seats, options)
    S = deal.setup(seats, options, rng)
    S["hidden"] = {"shown": [[] for _ in range(seats)], "opening": [], "from": {},
                   "sinks": [], "known": [{} for _ in range(seats)]}
    if options.get("unique_treasure"):
        S["hidden"].update(held={}, claimed=[], sealed={}, liars=[])
    decks.shuffle(DECK)
    return S


def _sync(S: State, ev: Events, decks: Decks) -> Events:
    """Ask ``decks`` for what the rules did: a token a seat has seen is shown to it, a
    token turned face up is opened. Drops the values the host cannot tell (``saw``)."""
    hidden = S["hidden"]
    for seat in range(S["n_players"]):
        new = [k for k, t in enumerate(S["treasure"]) if t["gold"] is None and t["seen"][seat]
               and not t["face_up"] and k not in hidden["shown"][seat]]
        if new:
            hidden["shown"][seat] = sorted([*hidden["shown"][seat], *new])
            first = [k for k in new if str(k) not in hidden["held"]] if "held" in hidden else []
            for k in first:  # unique treasure: dealt to its first explorer, who claims it
                hidden["held"][str(k)] = seat
            if first:
                decks.deal(DECK, first, seat)
            if len(first) < len(new):
                decks.show(DECK, [k for k in new if k not in first], seat)
    up = [k for k, t in enumerate(S["treasure"]) if t["gold"] is None and t["face_up"]
          and k not in hidden["opening"]]
    if up:
        hidden["opening"] += up
        decks.open(DECK, up)
    return [e for e in ev if e["type"] != "saw"]  # the seat's client shows it the values


def apply(S: State, seat: int, action: dict[str, Any], rng: random.Random,
          decks: Decks) -> Events:
    if uniques(S) and S["pending"] and S["pending"][-1]["kind"] == "take":
        return _sync(S, _take(S, seat, action, rng), decks)
    if "claims" in action or "sealed" in action:
        raise IllegalAction("only a take after exploring claims treasure")
    return _sync(S, turn.apply(S, seat, action, rng), decks)


def _take(S: State, seat: int, action: dict[str, Any], rng: random.Random) -> Events:
    """The first look at an island's tokens, claimed: each token dealt to ``seat`` on
    that island and not claimed yet is claimed face up if unique (``claims``: it is
    carried face up, so it is opened at once and the claim checked) and face down
    otherwise (``sealed``: checked when the token is opened, at the latest when the
    game ends, and by ``lantable verify``). The claims set which tokens are unique
    before the take is checked against the rules (5.8.4: every unique one is taken)."""
    H, p = S["hidden"], S["pending"][-1]
    plain = {k: v for k, v in action.items() if k not in ("claims", "sealed")}
    if p["seat"] != seat:
        return turn.apply(S, seat, plain, rng)  # refused there
    isl = world.island(S, p["island"])
    due = sorted(k for k in isl["treasure"]
                 if H["held"].get(str(k)) == seat and str(k) not in H["claimed"])
    claims, sealed = claims_of(action), sealed_of(action)
    face_up = {pos: card for deck, pos, card in claims if deck == DECK}
    face_down = [pos for deck, pos in sealed if deck == DECK]
    if (len(face_up) != len(claims) or len(face_down) != len(sealed)
            or sorted([*face_up, *face_down]) != due):
        raise IllegalAction("a first look claims every token dealt there once: the unique "
                            "ones face up (claims), the others face down (sealed): positions "
                            f"{due}")
    values = tokens(S)
    for card in face_up.values():
        if not 0 <= card < len(values) or not values[card][1]:
            raise IllegalAction(f"claim: card {card} is no unique treasure")
    known = H["known"][seat]  # where the host deals it knows them: a lie is refused at once
    for pos in face_down:
        card = known.get(str(pos))
        if card is not None and values[card][1]:
            raise IllegalAction(f"t{pos} is a unique treasure: claim it face up (5.8.4)")
    for pos, card in face_up.items():
        S["treasure"][pos]["unique"] = values[card][1]
    try:
        events = turn.apply(S, seat, plain, rng)
    except IllegalAction:
        for pos in face_up:
            S["treasure"][pos]["unique"] = None
        raise
    H["claimed"] = sorted([*H["claimed"], *(str(k) for k in due)])
    for pos in face_down:
        H["sealed"][str(pos)] = seat
    return events


def cards_opened(S: State, deck: str, cards: Mapping[int, int], seat: int | None,
                 decks: Decks, shown: bool = False) -> Events:
    """``game_cards_opened``: values shown to ``seat`` (only where the host deals: kept
    as its secret), or turned over: counted at home, or shared out from a sunk ship."""
    if seat is not None:
        learn(S["hidden"]["known"][seat], cards)
        return []
    values = tokens(S)
    ev: Events = []
    home = False
    liars = []
    for k, c in cards.items():
        tr = S["treasure"][k]
        tr["gold"], tr["unique"] = values[c]
        S["hidden"]["opening"].remove(k)
        liar = S["hidden"].get("sealed", {}).get(str(k))
        if liar is not None and tr["unique"]:  # sealed "not unique", and it is
            liars.append(liar)
            ev.append({"type": "false_claim", "seat": liar, "treasure": tr["id"]})
        sunk = any(k in sink["treasure"] for sink in S["hidden"]["sinks"])
        if tr["where"] == "gone" and not sunk:  # destroyed by a sea monster
            S["gold_lost"] += tr["gold"]
            ev.append({"type": "destroyed_gold", "treasure": tr["id"], "gold": tr["gold"]})
        elif tr["where"] == "home" and S["hidden"].get("final"):  # 6.2: counted at the end
            S["home_gold"][tr["home_of"]] += tr["gold"]
        elif tr["where"] == "home":
            owner = tr["home_of"]
            S["home_gold"][owner] += tr["gold"]
            home = True
            ev.append({"type": "unloaded", "ship": S["hidden"]["from"].pop(str(k), None),
                       "treasure": tr["id"], "gold": tr["gold"], "seat": owner,
                       "home_gold": S["home_gold"][owner]})
    for sink in list(S["hidden"]["sinks"]):
        aboard = [S["treasure"][t] for t in sink["treasure"]]
        if any(t["gold"] is None for t in aboard):
            continue
        S["hidden"]["sinks"].remove(sink)
        total = sum(t["gold"] for t in aboard)
        event = {"type": "sunk_gold", "ship": sink["ship"], "gold": total,
                 "values": sorted(t["gold"] for t in aboard)}
        combat.share_out(S, sink["owner"], sink["by"], total, event)
        ev.append(event)
        home = home or (sink["by"] is not None and total > 0)
    if liars and S["phase"] != "over":  # a seat hid a unique treasure: it forfeits
        S["hidden"]["liars"] = sorted({*S["hidden"]["liars"], *liars})
        S["hidden"].pop("final", None)
        winners = [p for p in range(S["n_players"]) if p not in S["hidden"]["liars"]]
        S["phase"], S["winner"], S["end"], S["pending"] = "over", winners, "false_claim", []
        ev.append({"type": "game_over", "winners": winners, "why": "false_claim",
                   "gold": world.total_gold(S)})
    if home and S["phase"] != "over":
        combat.check_victory(S, ev)
        if uniques(S):  # a win here turns the sealed tokens over first (combat.finish)
            _sync(S, [], decks)
    final = S["hidden"].get("final")
    sheet = world.official_sheet(S)
    if final and S["phase"] != "over" and not sheet and not S["hidden"]["opening"]:
        combat.finish(S, S["hidden"]["final_winners"], final, ev)  # the sealed tokens checked
        S["revealed"] = True
    if final and S["phase"] != "over" and all(t["gold"] is not None for t in S["treasure"]):
        gold = world.total_gold(S)  # 6.2/6.3: everything turned over, home and forts
        combat.finish(S, [p for p in range(S["n_players"]) if gold[p] == max(gold)], final, ev)
        S["revealed"] = True
        ev.append({"type": "revealed", "treasure": {S["treasure"][k]["id"]: S["treasure"][k]["gold"]
                                                    for k in cards},
                   "gold": list(S["home_gold"])})
    return ev


# --- the seat's side ----------------------------------------------------------------


def seat_view(view: dict[str, Any], cards: Mapping[Any, int]) -> dict[str, Any]:
    """``view`` with the values the seat was shown (position -> card) filled in."""
    values = tokens(view)
    known = {int(p): values[c] for p, c in cards.items()}
    v = dict(view)
    v["treasure"] = [dict(t, gold=known[k][0], unique=known[k][1])
                     if t["gold"] is None and k in known else t
                     for k, t in enumerate(view["treasure"])]
    return v


def _known(view: Mapping[str, Any], cards: Mapping[str, Mapping[Any, int]]) -> dict[int, int]:
    out = {int(p): c for p, c in own_cards(view, "treasure_cards", DECK).items()}
    out.update({int(p): c for p, c in (cards.get(DECK) or {}).items()})
    return out


def _sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """:func:`bots.sample_state` of the seat's view ``v``, with unique treasure only
    where it can lie: a token someone explored and left face down was claimed "not
    unique", so the sampled unique ones go to tokens nobody explored."""
    S = bots.sample_state(v, seat, rng)
    if "treasure_held" not in v:
        return S
    unknown = [k for k, t in enumerate(v["treasure"]) if t["gold"] is None]
    drawn = [(S["treasure"][k]["gold"], S["treasure"][k]["unique"]) for k in unknown]
    plain = [x for x in drawn if not x[1]]
    rest = [x for x in drawn if x[1]]
    explored = [k for k in unknown if any(v["treasure"][k]["seen"])]
    rng.shuffle(plain)
    given = {k: plain.pop() for k in explored if plain}
    rest += plain
    rng.shuffle(rest)
    given.update({k: rest.pop() for k in unknown if k not in given})
    for k, (gold, unique) in given.items():
        t = S["treasure"][k]
        if "home_of" in t:  # face down at an opponent's home (6.2): counted in the sample
            S["home_gold"][t["home_of"]] += gold - t["gold"]
        t["gold"], t["unique"] = gold, unique
    return S


def _with_claims(view: Mapping[str, Any], seat: int, known: Mapping[int, int],
                 actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A take after the first look at an island claims every token dealt there:
    unique ones face up (``claims``), the others face down (``sealed``)."""
    pending = view["pending"]
    if "treasure_held" not in view or not pending or pending[-1]["kind"] != "take" \
            or pending[-1]["seat"] != seat:
        return actions
    isl = next(i for i in view["islands"] if i["id"] == pending[-1]["island"])
    due = [int(t[1:]) for t in isl["treasure"]]
    due = sorted(k for k in due if view["treasure_held"].get(str(k)) == seat
                 and str(k) not in view["treasure_claimed"] and k in known)
    if not due:
        return actions
    values = tokens(view)
    claims = claims_for(DECK, [(k, known[k]) for k in due if values[known[k]][1]])
    sealed = sealed_for(DECK, [(k, known[k]) for k in due if not values[known[k]][1]])
    extra: dict[str, Any] = {}
    if claims:
        extra["claims"] = claims
    if sealed:
        extra["sealed"] = sealed
    return [dict(a, **extra) if a["type"] == "take" else a for a in actions]


def seat_actions(view: dict[str, Any], seat: int, cards: Mapping[str, Mapping[Any, int]]
                 ) -> list[dict[str, Any]]:
    """``game_seat_actions``: what the host lists (no rule reads a value it has not
    seen), listed from a state sampled from the seat's view: its unknowns change no
    choice of this seat's (``tests/plugins/spanish_main/test_hidden.py`` checks it).
    With unique treasure, a take after a first look carries the seat's claims."""
    known = _known(view, cards)
    S = _sample(seat_view(view, known), seat, random.Random(0))
    return _with_claims(view, seat, known, turn.legal(S, seat))


def legal(S: State, seat: int) -> list[dict[str, Any]]:
    """``game_legal_actions`` where the host deals, with unique treasure: the seat's
    own list (:func:`seat_actions`) from the values the state recorded for it."""
    from .views import view

    return seat_actions(view(S, seat), seat, {})


def sample_hidden(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """``game_sample_state`` at a hidden-deck table: a state in the hidden deck's own
    form (``gold: None`` for every token not turned over) with the dealer's record, so
    that the search bots play it in-process as the host would."""
    known = _known(view, {})
    S = _sample(seat_view(view, known), seat, rng)
    values = tokens(S)
    free: dict[tuple[int, str | None], list[int]] = {}
    for c, g in enumerate(values):
        free.setdefault(g, []).append(c)
    order: dict[int, int] = {}
    for k, c in known.items():  # the seat's own knowledge first: exactly its cards
        order[k] = c
        free[values[c]].remove(c)
    opened = []
    for k, t in enumerate(S["treasure"]):
        if k in order:
            continue
        g = (t["gold"], t["unique"])
        if g == (4, "D-U02"):
            g = (0, "D-U02")  # an idol unloaded at home is worth 4, it was dealt as 0
        if not free.get(g):
            g = next(x for x in free if free[x] and not x[1]) if any(
                free[x] and not x[1] for x in free) else next(x for x in free if free[x])
        order[k] = free[g].pop()
    for k, t in enumerate(S["treasure"]):
        if t["face_up"]:
            opened.append(k)
        else:
            t["gold"] = t["unique"] = None
    S["home_gold"] = list(view["home_gold"])
    S["hidden"] = {"shown": [[k for k, t in enumerate(S["treasure"]) if t["seen"][s]
                              and not t["face_up"]] for s in range(S["n_players"])],
                   "opening": [], "from": {}, "sinks": [],
                   "known": [{str(k): order[k] for k, t in enumerate(S["treasure"])
                              if t["seen"][s] and not t["face_up"]}
                             for s in range(S["n_players"])]}
    held: dict[int, int] = {}
    if "treasure_held" in view:
        S["hidden"].update(held=dict(view["treasure_held"]),
                           claimed=list(view["treasure_claimed"]), sealed={}, liars=[])
        held = {int(k): s for k, s in view["treasure_held"].items()
                if not S["treasure"][int(k)]["face_up"]}
    sample_dealer(S, sizes={DECK: len(values)}, seats=S["n_players"], held={DECK: held},
                  known={DECK: order}, opened={DECK: opened}, rng=rng)
    return S

