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

Nothing is claimed: no rule lets a seat act on a value the host has not seen (which
tokens to take is the seat's choice, and every token takes one cargo space).

**The multiplayer sheet** (6.2, 3-4 seats, ``official_sheet``): a token unloaded at home
stays face down (its owner was shown it; the host never learns it) and adds nothing to
``home_gold`` yet. When the game ends (its endings read no value), ``combat.finish``
does not name the winners: every token not turned over is turned over, and
:func:`cards_opened` counts the home ones and finishes the game once all are known
(``game_over`` then ``revealed``), in the same deal as the action that ended it.

**7.4's "no gold left"** counts a token not turned over as gold: exact, since every
token a hidden deck carries is worth at least 1 (the 0-gold ones are unique treasures).

**Sea monsters** (A-36): a token a monster takes is destroyed and turned over for
everyone; the gold lost is counted when it is opened (``destroyed_gold``). No other
monster rule reads a value.

**Not with a hidden deck** (refused at set-up): unique treasure (its uniqueness would
be a hidden property the host must know to count cargo) and forts (5.17: their gold
capacity reads values).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import sample_dealer
from lantable.plugins.text import learn, own_cards

from . import bots, combat, deal, turn, world

State = dict[str, Any]
Events = list[dict[str, Any]]
Decks = Any  # lantable.plugins.decks.Requests: shuffle, deal, open, give, show

DECK = "treasure"


def pool(state_or_view: Mapping[str, Any]) -> list[int]:
    """The deck's cards: card c is worth ``pool(...)[c]`` gold."""
    return [g for g, _ in deal.contributions(state_or_view["n_players"], False)]


def decks_for(seats: int, options: Mapping[str, Any]) -> dict[str, int] | None:
    """``game_decks``: the treasure tokens, with the option ``hidden_deck``."""
    if not options.get("hidden_deck"):
        return None
    return {DECK: len(deal.contributions(seats, False))}


def check_options(seats: int, options: Mapping[str, Any]) -> None:
    """What a hidden deck cannot carry yet (see the module's docstring)."""
    bad = [k for k in ("unique_treasure", "forts") if options.get(k)]
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
            decks.show(DECK, new, seat)
    up = [k for k, t in enumerate(S["treasure"]) if t["gold"] is None and t["face_up"]
          and k not in hidden["opening"]]
    if up:
        hidden["opening"] += up
        decks.open(DECK, up)
    return [e for e in ev if e["type"] != "saw"]  # the seat's client shows it the values


def apply(S: State, seat: int, action: dict[str, Any], rng: random.Random,
          decks: Decks) -> Events:
    return _sync(S, turn.apply(S, seat, action, rng), decks)


def cards_opened(S: State, deck: str, cards: Mapping[int, int], seat: int | None,
                 decks: Decks, shown: bool = False) -> Events:
    """``game_cards_opened``: values shown to ``seat`` (only where the host deals: kept
    as its secret), or turned over: counted at home, or shared out from a sunk ship."""
    if seat is not None:
        learn(S["hidden"]["known"][seat], cards)
        return []
    values = pool(S)
    ev: Events = []
    home = False
    for k, c in cards.items():
        tr = S["treasure"][k]
        tr["gold"] = values[c]
        S["hidden"]["opening"].remove(k)
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
    if home and S["phase"] != "over":
        combat.check_victory(S, ev)
    final = S["hidden"].get("final")
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
    values = pool(view)
    known = {int(p): values[c] for p, c in cards.items()}
    v = dict(view)
    v["treasure"] = [dict(t, gold=known[k]) if t["gold"] is None and k in known else t
                     for k, t in enumerate(view["treasure"])]
    return v


def _known(view: Mapping[str, Any], cards: Mapping[str, Mapping[Any, int]]) -> dict[int, int]:
    out = {int(p): c for p, c in own_cards(view, "treasure_cards", DECK).items()}
    out.update({int(p): c for p, c in (cards.get(DECK) or {}).items()})
    return out


def seat_actions(view: dict[str, Any], seat: int, cards: Mapping[str, Mapping[Any, int]]
                 ) -> list[dict[str, Any]]:
    """``game_seat_actions``: what the host lists (no rule reads a value it has not
    seen), listed from a state sampled from the seat's view: its unknowns change no
    choice of this seat's (``tests/plugins/spanish_main/test_hidden.py`` checks it)."""
    v = seat_view(view, _known(view, cards))
    S = bots.sample_state(v, seat, random.Random(0))
    return turn.legal(S, seat)


def sample_hidden(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """``game_sample_state`` at a hidden-deck table: a state in the hidden deck's own
    form (``gold: None`` for every token not turned over) with the dealer's record, so
    that the search bots play it in-process as the host would."""
    known = _known(view, {})
    S = bots.sample_state(seat_view(view, known), seat, rng)
    values = pool(S)
    free: dict[int, list[int]] = {}
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
        g = t["gold"] if t["gold"] in free and free[t["gold"]] else \
            next(x for x in free if free[x])
        order[k] = free[g].pop()
    for k, t in enumerate(S["treasure"]):
        t["gold"] = values[order[k]]
        if t["face_up"]:
            opened.append(k)
        else:
            t["gold"] = None
    S["home_gold"] = list(view["home_gold"])
    S["hidden"] = {"shown": [[k for k, t in enumerate(S["treasure"]) if t["seen"][s]
                              and not t["face_up"]] for s in range(S["n_players"])],
                   "opening": [], "from": {}, "sinks": [],
                   "known": [{str(k): order[k] for k, t in enumerate(S["treasure"])
                              if t["seen"][s] and not t["face_up"]}
                             for s in range(S["n_players"])]}
    sample_dealer(S, sizes={DECK: len(values)}, seats=S["n_players"], held={},
                  known={DECK: order}, opened={DECK: opened}, rng=rng)
    return S

