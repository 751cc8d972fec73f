"""Shared rule helpers: dice, ship status, moving cards, who may target whom.

Everything here works on the plain-data state described in the docstring of
``rounds.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import ACTIONS, N_GERMAN, SHIPS
from .piles import take
from .state import Events, State, new_status

if TYPE_CHECKING:
    import random


# ---------------------------------------------------------------------------
# Dice (digest 2.4, 5.1-5.4)
# ---------------------------------------------------------------------------


def roll(rng: random.Random, dice: list[int]) -> list[int]:
    """Roll one die of each listed size; faces 1..size."""
    rnd = rng.random
    return [int(rnd() * d) + 1 for d in dice]


def opposed(S: State, rng: random.Random, ev: Events, what: str, a_seat: int | None,
            a_dice: list[int], a_mod: int, d_seat: int | None, d_dice: list[int],
            d_mod: int) -> tuple[int, int]:
    """Roll both sides, keep the highest single die, add modifiers, floor 1 (5.4).

    Returns the two final numbers and records one ``roll`` event.
    """
    fa = roll(rng, a_dice)
    fd = roll(rng, d_dice)
    a = max(1, max(fa) + a_mod)
    d = max(1, max(fd) + d_mod)
    ev.append({"type": "roll", "what": what,
               "a_seat": a_seat, "a_dice": list(a_dice), "a_faces": fa, "a_mod": a_mod, "a": a,
               "d_seat": d_seat, "d_dice": list(d_dice), "d_faces": fd, "d_mod": d_mod, "d": d})
    return a, d


def combat_result(a: int, d: int) -> str:
    """5.2: sunk at double, damaged above, else no effect."""
    if a >= 2 * d:
        return "sunk"
    if a > d:
        return "damaged"
    return "none"


def challenge(S: State, rng: random.Random, ev: Events, what: str, c_seat: int | None,
              ch: list[int], ch_mod: int, r_seat: int | None,
              re: list[int]) -> tuple[bool, int, int]:
    """5.3: success when the modified Challenge beats the Response."""
    c, r = opposed(S, rng, ev, what, c_seat, ch, ch_mod, r_seat, re, 0)
    return c > r, c, r


# ---------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------


def opponents(S: State, seat: int) -> list[int]:
    """Opponents of ``seat`` (8.1 4.3: the other team in the team game; the phantom in solo)."""
    if S["mode"] == "team":
        return [o for o in range(S["n_players"]) if o % 2 != seat % 2]
    return [o for o in range(S["n_players"]) if o != seat]


def targetable(S: State, seat: int, heavy: bool = False) -> bool:
    """A player under a waiting Fog Bank may be targeted only by Heavy Weather (R 3.3.14)."""
    w = S["players"][seat]["wait"]
    return heavy or not (w and w["card_type"] == "fog_bank")


def attack_targets(S: State, me: int) -> list[int]:
    """Opponents this turn's interceptions, mines and torpedoes may hit (4.6.1)."""
    att = S["this_turn"]["attacked_seat"]
    if att is not None:
        return [att] if targetable(S, att) else []
    return [o for o in opponents(S, me) if targetable(S, o)]


# ---------------------------------------------------------------------------
# Ships
# ---------------------------------------------------------------------------


def kind(S: State, sid: int) -> str:
    """warship, raider, merchant or prize (a captured merchant)."""
    st = S["ships"][sid]
    if st is not None and st["prize"]:
        return "prize"
    return SHIPS[sid]["kind"]


def hidden(S: State, sid: int) -> bool:
    """Raiders and prizes are hidden unless revealed; Warships and Merchants never are."""
    k = kind(S, sid)
    return k in ("raider", "prize") and not S["ships"][sid]["revealed"]


def damage(S: State, sid: int, ev: Events) -> None:
    """Place a damage marker; a damaged ship gets no more unless 6.8 is on."""
    st = S["ships"][sid]
    if st["damage"] == 0 or S["options"]["additional_damage"]:
        st["damage"] += 1
        ev.append({"type": "damaged", "ship": sid, "markers": st["damage"]})
    else:
        ev.append({"type": "no_further_damage", "ship": sid})


def dmg_mod(S: State, sid: int) -> int:
    """-2 per marker with 6.8, else -2 if damaged at all."""
    n = S["ships"][sid]["damage"]
    if not n:
        return 0
    return -2 * n if S["options"]["additional_damage"] else -2


def remove_ship(S: State, sid: int) -> None:
    """Take a ship out of its owner's Force (any row); its refuge card is discarded."""
    st = S["ships"][sid]
    p = S["players"][st["owner"]]
    if sid in p["german"]:
        p["german"].remove(sid)
    else:
        p["merchants"].remove(sid)
    if st["refuge"] is not None and st["refuge"] >= 0:  # -1: the phantom's refuge has no card
        S["discards"].append(st["refuge"])
    S["ships"][sid] = None


# 6.5.2: the German ships these remove from play stay out of a mid-round reshuffle
REMOVED_FROM_PLAY = ("heavy_weather", "interned", "recalled", "scuttled", "pull_the_plug")


def to_used(S: State, sid: int, ev: Events, why: str) -> None:
    """Remove from play to the bottom of its ship deck, used, no VP (a German ship
    removed by weather, internment, recall or scuttling is also listed in
    ``german_out`` until the round ends, 6.5.2)."""
    remove_ship(S, sid)
    (S["german_used"] if sid < N_GERMAN else S["merchant_used"]).append(sid)
    if sid < N_GERMAN and why in REMOVED_FROM_PLAY:
        S["german_out"].append(sid)
    ev.append({"type": "ship_removed", "ship": sid, "why": why})


def to_vp(S: State, sid: int, seat: int, mult: int, how: str, ev: Events) -> None:
    """Remove from play into ``seat``'s VP pile (``mult`` 2 = double-value group)."""
    remove_ship(S, sid)
    S["players"][seat]["vp_pile"].append({"ship": sid, "mult": mult, "how": how})
    ev.append({"type": "to_vp_pile", "ship": sid, "seat": seat, "mult": mult, "how": how})


def action_to_vp(S: State, aid: int, seat: int, ev: Events) -> None:
    S["players"][seat]["vp_pile"].append({"card": aid, "mult": 1, "how": "duel"})
    ev.append({"type": "to_vp_pile", "card": aid, "seat": seat, "mult": 1, "how": "duel"})


def in_refuge(S: State, sid: int) -> bool:
    return S["ships"][sid]["refuge"] is not None


def draw_ship(S: State, rng: random.Random, german: bool, ev: Events,
              deal: bool = False) -> int | None:
    """Turn over a ship card: one at random of the deck's cards left (:mod:`.piles`);
    an empty deck is first reshuffled from its used pile (4.8).

    With 6.5 (Beyond 1914), 6.5.2: during a round the German deck is not reshuffled
    if the only ships available are those removed this round by Heavy Weather,
    internment, recall or scuttling (``german_out``); otherwise it is, without them
    (option ``b1914_reshuffle`` ``all``: the whole used pile, them included). The deal
    at the start of a round (``deal``) reshuffles everything, or with 4 players round
    2 would start with the ships nobody kept missing.
    """
    # the event names the deck as it always has: "wdeck" (German) or "mdeck"
    deck, used, name = (("german_deck", "german_used", "wdeck") if german
                        else ("merchant_deck", "merchant_used", "mdeck"))
    if not S[deck]:
        back = S[used]
        if german and not deal and S["options"]["beyond_1914"] != "off":
            back = [s for s in S[used] if s not in S["german_out"]]
            if back and S["options"]["b1914_reshuffle"] == "all":
                back = S[used]
        if not back:
            return None  # 6.5.2 (or nothing used yet)
        S[deck] = sorted(back)
        S[used] = [s for s in S[used] if s not in S[deck]]
        if german:
            S["german_out"] = [s for s in S["german_out"] if s in S[used]]
        ev.append({"type": "reshuffle", "deck": name, "n": len(S[deck])})
    return take(S[deck], rng)


def place_ship(S: State, seat: int, sid: int) -> None:
    S["ships"][sid] = new_status(seat)
    (S["players"][seat]["german"] if sid < N_GERMAN else S["players"][seat]["merchants"]).append(
        sid
    )


def refill_merchants(S: State, rng: random.Random, ev: Events) -> None:
    """R 3.1.6: every player tops his merchants back up to 3."""
    for seat, p in enumerate(S["players"]):
        while len(p["merchants"]) < 3:
            sid = draw_ship(S, rng, False, ev)
            if sid is None:
                break
            place_ship(S, seat, sid)
            ev.append({"type": "merchant_drawn", "seat": seat, "ship": sid})


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def vp_total(S: State, seat: int) -> int:
    """Printed VP of the pile, double group counted twice (7.2)."""
    tot = 0
    for e in S["players"][seat]["vp_pile"]:
        vp = SHIPS[e["ship"]]["vp"] if "ship" in e else ACTIONS[e["card"]]["vp"]
        tot += vp * e["mult"]
    return tot


# ---------------------------------------------------------------------------
# Who and what a card may aim at
# ---------------------------------------------------------------------------


def can_intercept(S: State, sid: int) -> bool:
    """4.6.4 / 4.6.9: not yet intercepted this turn, not in an Island Refuge."""
    return sid not in S["this_turn"]["intercepted"] and S["ships"][sid]["refuge"] is None


def ship_can_act(S: State, seat: int, sid: int) -> bool:
    """A ship of ``seat``'s Force that may still carry out a committed card this turn."""
    st = S["ships"][sid]
    T = S["this_turn"]
    return (
        st is not None
        and st["owner"] == seat
        and st["refuge"] is None
        and sid not in T["acted"]
        and sid not in T["left_refuge"]
    )


def enemy_ships(S: State, seat: int, heavy: bool = False) -> list[tuple[int, int]]:
    """(owner, ship) of every German ship/prize of targetable opponents."""
    return [
        (o, s)
        for o in opponents(S, seat)
        if targetable(S, o, heavy)
        for s in S["players"][o]["german"]
    ]


def opp_seats(S: State, seat: int, heavy: bool = False) -> list[int]:
    """The opponents ``seat`` may aim a card at."""
    return [o for o in opponents(S, seat) if targetable(S, o, heavy)]


def other(S: State, seat: int) -> int:
    """The opponent who rolls the Response to ``seat``'s Challenge (the first one)."""
    return opponents(S, seat)[0]


def coal_sails(S: State, sid: int, coal: int, sails: int) -> int:
    """6.1 / 6.2 Challenge modifiers for coal ships and Seeadler."""
    mod = 0
    if S["options"]["coal"] and SHIPS[sid]["coal"]:
        mod += coal
    if S["options"]["sails"] and SHIPS[sid]["sails"]:
        mod += sails
    return mod


def move_to_mate(S: State, seat: int, ships: list[int], ev: Events) -> None:
    """8.1 4.6 / 4.7: ships handed to the teammate keep their status."""
    mate = (seat + 2) % 4
    for s in ships:
        S["players"][seat]["german"].remove(s)
        S["players"][mate]["german"].append(s)
        S["ships"][s]["owner"] = mate
        ev.append({"type": "transferred", "ship": s, "seat": mate})
