"""Solitaire (digest 8.2): the phantom player (seat 1), driven by the Solitaire deck.

The engine plays the phantom: its turns (R 5.4.3, one loop step per call of
``phantom_turn``), its reactions (R 5.3.3, one Solitaire card per reaction window)
and its keep choice (A-25). Where the rulebook says "choose the best", the phantom
takes the highest-VP target and breaks ties with the rng.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import fights
from .cardtypes import CARD_TYPES, PHANTOM_ENTRIES, REFLAG, best, pseudo
from .cardtypes.base import HUMAN, PHANTOM
from .combat import start_bi, start_gi
from .data import SHIPS, SOLO
from .piles import take
from .rules import hidden, in_refuge, kind, roll, targetable
from .state import Events, State

if TYPE_CHECKING:
    import random

__all__ = ["HUMAN", "PHANTOM", "decide", "phantom_keep", "phantom_turn", "pseudo", "reshuffle"]


def reshuffle(S: State, rng: random.Random, ev: Events) -> None:
    """R 5.4.1 / 5.2.5: every Solitaire card back into the deck, shuffled: the deck is
    the set of cards left, each drawn at random when turned over (:mod:`.decks`)."""
    S["solo"]["deck"] = list(range(len(SOLO)))
    ev.append({"type": "solitaire_shuffle"})


def _draw(S: State, rng: random.Random, ev: Events) -> dict[str, Any]:
    sd = S["solo"]
    if not sd["deck"]:  # R 5.4.1: all cards used
        reshuffle(S, rng, ev)
    c = take(sd["deck"], rng)
    ev.append({"type": "solitaire_card", "card": c})
    return SOLO[c]


def _red(rng: random.Random, ev: Events) -> int:
    face = roll(rng, [4])[0]
    ev.append({"type": "red_die", "face": face})
    return face


# ---------------------------------------------------------------------------
# reactions and other decisions of the phantom
# ---------------------------------------------------------------------------


def decide(S: State, rng: random.Random, offers: list[dict[str, Any]],
           ev: Events) -> dict[str, Any] | None:
    """Take the phantom's pending decision, given its legal ``offers``.

    Reactions, pursuit and Passage are applied here; for any other decision the
    chosen action is returned for the turn to apply (so this module never needs
    the turn's, and ``turn`` alone drives the phantom).
    """
    pend = S["pending"]
    k = pend["kind"]
    if k == "react":  # R 5.3.3: one Solitaire card, red die 1/3 or 2/4
        sc = _draw(S, rng, ev)
        face = _red(rng, ev)
        want = sc["def13"] if face in (1, 3) else sc["def24"]
        cand = [a for a in offers if a.get("ctype") == want]
        ev.append({"type": "phantom_reaction", "reaction": want, "applies": bool(cand)})
        S["pending"] = None
        if cand:
            fights.decide(S, rng, pend, cand[0], ev, cd=pseudo(sc, want))
        return None
    if k in ("pursue", "passage"):  # in its best interest: always pursue, always try
        S["pending"] = None
        fights.decide(S, rng, pend, offers[-1], ev)
        return None
    return offers[0]  # pass / done


def phantom_keep(S: State) -> list[int]:
    """A-25: the phantom keeps its highest-VP surviving Warship or Raider."""
    ships = [s for s in S["players"][PHANTOM]["german"] if not S["ships"][s]["prize"]]
    if not ships:
        return []
    return [max(ships, key=lambda s: (SHIPS[s]["vp"], -s))]


# ---------------------------------------------------------------------------
# the phantom's turn (R 5.4)
# ---------------------------------------------------------------------------


def phantom_turn(S: State, rng: random.Random, ev: Events) -> None:
    """One step of the phantom's loop; contexts it starts run in between."""
    T = S["this_turn"]
    sd = S["solo"]
    if not T.get("phantom_began"):  # the deck was reshuffled at the end of its last turn (R 5.4.1)
        T["phantom_began"] = 1
        for s in S["players"][PHANTOM][
            "german"
        ]:  # item 7: leave refuge once repaired and resupplied
            st = S["ships"][s]
            if (
                st["refuge"] == -1
                and st["refuge_turn"] < S["turns_begun"]
                and not st["damage"]
                and not st["limited_supply"]
            ):
                st["refuge"] = None
                ev.append({"type": "left_refuge", "ship": s})
        if T["deception"] or sd["recon"]:  # items 9-10: one card, column 3 or 4
            sd["recon"] = False
            sc = _draw(S, rng, ev)
            face = _red(rng, ev)
            _perform(S, rng, sc, sc["cols"][2 if face in (1, 3) else 3][0], ev)
            T["phantom_ends"] = True
            return
    if T.get("phantom_ends"):
        _end(S, rng, ev)
        return
    sc = _draw(S, rng, ev)
    face = _red(rng, ev)
    entry, ends = sc["cols"][face - 1]
    if face == 1:
        _end(S, rng, ev)
    elif face == 2:
        if not _intercept(S, rng, sc, entry, ev):
            _end(S, rng, ev)
    else:
        done = _perform(S, rng, sc, entry, ev)
        ev.append({"type": "phantom_action", "entry": entry, "done": done})
        if ends:
            T["phantom_ends"] = True


def _end(S: State, rng: random.Random, ev: Events) -> None:
    """Item 12: a revealed phantom ship may Reflag; then the turn ends."""
    revealed = [
        s
        for s in S["players"][PHANTOM]["german"]
        if kind(S, s) != "warship" and S["ships"][s]["revealed"]
    ]
    if revealed:
        sc = _draw(S, rng, ev)
        if sc["special"] == "reflag":
            REFLAG.phantom_turn_end(S, rng, revealed, ev)
    S["this_turn"]["stage"] = "end"


def _specials(S: State, rng: random.Random, ev: Events, legal: set[str]) -> list[str]:
    """Item 3: draw Special Actions until a blank, a duplicate or an illegal one."""
    got: list[str] = []
    while True:
        sp = _draw(S, rng, ev)["special"]
        if sp is None or sp in got or sp not in legal:
            break
        got.append(sp)
    ev.append({"type": "phantom_specials", "specials": got})
    return got


def _intercept(S: State, rng: random.Random, sc: dict[str, Any], entry: str, ev: Events) -> bool:
    T = S["this_turn"]
    if not targetable(S, HUMAN):
        return False
    H = S["players"][HUMAN]
    if entry == "intercept_british":
        tg = [s for s in H["german"] if not hidden(S, s) and not in_refuge(S, s)
              and s not in T["intercepted"]]
        if not tg:
            return False
        got = _specials(S, rng, ev, {"surprise_attack"})
        target = best(rng, tg)
        ctx = start_bi(S, None, target, "brit", pseudo(sc, "british"))
        for name in got:
            CARD_TYPES[name].phantom_attach(S, rng, ctx, target, [])
        ctx["step"] = "react"
        return True
    want = "warship" if entry.endswith("warship") else "raider"
    ships = [
        s
        for s in S["players"][PHANTOM]["german"]
        if kind(S, s) == want and not in_refuge(S, s) and s not in T["acted"]
    ]
    merch = [m for m in H["merchants"] if m not in T["intercepted"]]
    if not ships or not merch:
        return False
    ship = max(ships, key=lambda s: (max(SHIPS[s]["att"]), len(SHIPS[s]["att"]), -s))
    target = best(rng, merch)
    legal = {"surprise_attack"}
    if S["ships"][target]["damage"] == 0:
        legal.add("boarding_party")
    if len(merch) > 1:
        legal.add("good_hunting" if want == "raider" else "shipping_lanes")
    got = _specials(S, rng, ev, legal)
    ctx = start_gi(S, None, ship, target, night=sc["night"])
    rest = [m for m in merch if m != target]
    for name in got:  # Surprise Attack, Boarding Party, Good Hunting or Shipping Lanes
        CARD_TYPES[name].phantom_attach(S, rng, ctx, target, rest)
    return True


def _perform(S: State, rng: random.Random, sc: dict[str, Any], entry: str, ev: Events) -> bool:
    """Items 4-11: perform a column-3/4 entry if possible; False when it is ignored.

    What the phantom does with each entry is the card type's (``CardType.phantom``)."""
    card = PHANTOM_ENTRIES.get(entry)
    return card is not None and card.phantom(S, rng, sc, entry, ev)
