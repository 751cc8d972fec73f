"""What the board says, computed on demand: who is where, who controls what, VP.

The state keeps only the pieces (digest Appendix B; :mod:`.state`): ``legions``, each a
record ``{owner, province, moved, retreat_marker}`` with owner ``-1`` for an
Uncontrolled Legion, and ``leaders``, each seat's ``{location, rank, moved}``. Control
is never stored (digest 5.7: "compute it on demand"). These functions also read views,
which hold the same keys.
"""

from __future__ import annotations

from .data import AREAS, IN_AREA, ITALY, NPROV, ROME
from .state import Rank, State

UNC = -1
GENERAL: Rank = "general"
CONTENDER: Rank = "contender"
EMPEROR: Rank = "emperor"
RANK_NAMES: dict[str, str] = {GENERAL: "General", CONTENDER: "Contender", EMPEROR: "Emperor"}
BATTLE_BONUS: dict[str, int] = {GENERAL: 0, CONTENDER: 1, EMPEROR: 2}  # 5.6.2


def legions_at(S: State, prov: int, owner: int) -> list[int]:
    """Indices of ``owner``'s Legions in ``prov`` (owner -1: Uncontrolled)."""
    return [i for i, lg in enumerate(S["legions"])
            if lg["province"] == prov and lg["owner"] == owner]


def counts(S: State) -> list[list[int]]:
    """Per province, Legions per seat, with the Uncontrolled count last."""
    n = S["n_players"]
    out = [[0] * (n + 1) for _ in range(NPROV)]
    for lg in S["legions"]:
        owner = lg["owner"]
        out[lg["province"]][owner if owner >= 0 else n] += 1
    return out


def province_owner(S: State, prov: int, cnt: list[list[int]] | None = None) -> int | None:
    """5.7: more Legions than all other players combined (Uncontrolled do not count, A16
    default); nobody under a Germanic Tribes marker."""
    if prov in S["germanic_tribes"]:
        return None
    row = (cnt or counts(S))[prov]
    players = row[:-1]
    total = sum(players)
    for seat, k in enumerate(players):
        if k and k > total - k:
            return seat
    return None


def area_owner(S: State, area: str, cnt: list[list[int]] | None = None) -> int | None:
    """5.7: at least 3 of the Area's 5 provinces."""
    cnt = cnt or counts(S)
    tally: dict[int, int] = {}
    for p in IN_AREA[area]:
        o = province_owner(S, p, cnt)
        if o is not None:
            tally[o] = tally.get(o, 0) + 1
    for seat, k in sorted(tally.items()):
        if k >= 3:
            return seat
    return None


def areas_of(S: State, seat: int, cnt: list[list[int]] | None = None,
             scoring: bool = False) -> list[str]:
    """The Areas ``seat`` controls; ``scoring`` drops the empty Area of a 3-seat game
    (5.13: it gives no VP)."""
    cnt = cnt or counts(S)
    return [a for a in AREAS if area_owner(S, a, cnt) == seat
            and not (scoring and a == S["empty_area"])]


def emperors(S: State) -> list[int]:
    return [s for s, ld in enumerate(S["leaders"]) if ld["rank"] == EMPEROR]


def italy_superiority(S: State, seat: int) -> int:
    """R 7.1: own Legions in the two Italian provinces minus all other Legions there
    (Uncontrolled included, A16 default), if positive."""
    mine = other = 0
    for lg in S["legions"]:
        if lg["province"] in ITALY:
            if lg["owner"] == seat:
                mine += 1
            else:
                other += 1
    return max(0, mine - other)


def base_dp(S: State, seat: int) -> int:
    """DP from the board (R 7.1): Italian superiority + 2 per Area (A14: the empty Area
    counts unless the option excludes it)."""
    cnt = counts(S)
    areas = areas_of(S, seat, cnt, scoring=S["options"]["a14_empty_area"] == "exclude")
    return italy_superiority(S, seat) + 2 * len(areas)


def control(S: State) -> tuple[list[int | None], dict[str, int | None]]:
    """Every province's and every Area's controller at once (for scoring and bots)."""
    cnt = counts(S)
    provs = [province_owner(S, p, cnt) for p in range(NPROV)]
    areas: dict[str, int | None] = {}
    for a in AREAS:
        tally = [0] * S["n_players"]
        for p in IN_AREA[a]:
            if provs[p] is not None:
                tally[provs[p]] += 1
        areas[a] = next((s for s, k in enumerate(tally) if k >= 3), None)
    return provs, areas


def turn_vp(S: State, seat: int, last: bool,
            ctrl: tuple[list[int | None], dict[str, int | None]] | None = None
            ) -> dict[str, int]:
    """End-of-Game-Turn VP of 7.2, itemised."""
    provs, areas = ctrl or control(S)
    emps = emperors(S)
    out: dict[str, int] = {}
    if seat in emps:
        out["emperor"] = (8 if last else 5) if len(emps) == 1 else (4 if last else 2)
        if S["leaders"][seat]["location"] == ROME:
            out["rome"] = 2
    k = sum(1 for a, o in areas.items() if o == seat and a != S["empty_area"])
    if k:
        out["areas"] = (3 if last else 2) * k
    italy = sum(1 for p in ITALY if provs[p] == seat)
    if italy:
        out["italy"] = italy
    return out


def automatic_winner(S: State) -> int | None:
    """13.1: all 4 Areas, or Emperor with 3 (A14: the empty Area counts unless excluded)."""
    cnt = counts(S)
    exclude = S["options"]["a14_empty_area"] == "exclude"
    for seat in range(S["n_players"]):
        k = len(areas_of(S, seat, cnt, scoring=exclude))
        if k == 4 or (k >= 3 and S["leaders"][seat]["rank"] == EMPEROR):
            return seat
    return None


def ranks(S: State) -> list[int]:
    """Place per seat: an automatic victory wins outright; else most VP, ties share
    (M9 default 'shared'), or the option breaks them by Areas, then Legions."""
    n = S["n_players"]
    cnt = counts(S)

    def key(s: int) -> tuple[int, ...]:
        k: tuple[int, ...] = (1 if S["automatic_winner"] == s else 0, S["vp"][s])
        if S["options"]["tie_break"] == "areas_legions":
            k += (len(areas_of(S, s, cnt, scoring=True)),
                  sum(1 for lg in S["legions"] if lg["owner"] == s))
        return k

    keys = [key(s) for s in range(n)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]
