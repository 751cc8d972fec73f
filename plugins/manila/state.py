"""Manila's state, declared key by key, and the state of a new game (rules section 3).

The state is one plain dict (the host clones it, msgpack carries it, a journal
rebuilds it by replaying actions), so its schema is a ``TypedDict``: no cost at run
time, and a reader or a type checker knows every key. Goods are indexes into
``board.GOODS`` (0 nutmeg, 1 silk, 2 ginseng, 3 jade); boats are indexes 0..2 into
``goods``; seats are 0..n-1. The secret keys are ``dealt`` and ``mort`` (6.4); every
other key is public (see ``PUBLIC`` in the package).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict

from . import board as B

if TYPE_CHECKING:
    import random

# Where a boat is (``where``): on the river, in Manila's port, in the shipyard.
SEA, DOCK, YARD = 0, 1, 2

Phase = Literal["auction", "buy", "launch", "place", "board", "pilot_small", "pilot_large",
                "plunder", "step"]
"""The decision the seat ``turn`` faces; ``step`` while the voyage's plan runs
(between decisions, and at the end of the game)."""

Event = dict[str, Any]
Action = dict[str, Any]


class Options(TypedDict):
    """The table options (``INFO["options"]`` in the package; decisions in
    ``docs/rules/manila.md``). The host fills in every default before set-up."""

    pirates_displace: bool  # 7.2 variant
    mortgage_any_time: bool  # 6.1 / decision 15
    crew_docked_boats: bool  # decision 8
    second_pirate_may_board: bool  # decision 6
    stowaway_rule: Literal["literal", "broke_no_insurance"]  # decision 10
    hide_cash: bool  # decision 16
    tie_break: Literal["shared", "cash"]  # decision 17
    min_raise: int  # decision 4


class Voyage(TypedDict):
    """What starts anew every voyage (4.1): an auction, empty spaces, no boats."""

    # -- the harbour master (4.1, 4.2) -------------------------------------------------
    hm: int | None  # this voyage's harbour master, once the auction is over
    phase: Phase
    bid: int  # the highest bid so far (0: none)
    leader: int | None  # who made it
    passed: list[bool]  # per seat: out of this auction
    # -- the boats, in launch order (4.2b, c) ------------------------------------------
    goods: list[int]  # the good each boat carries (empty before the launch)
    pos: list[int]  # river space 0..13; LAST_SPACE + 1 once in Manila
    where: list[int]  # SEA, DOCK or YARD
    docked: int  # boats arrived in Manila this voyage (their dock is A, B, C in order)
    yarded: int  # boats in the shipyard this voyage
    plundered: list[bool]
    crew: list[list[int]]  # the seat on each boat seat, in seat order
    # -- the other spaces: the seat on each, or None ------------------------------------
    docks: list[int | None]  # A, B, C
    yards: list[int | None]  # A, B, C
    pirates: list[int | None]  # captain, second pirate
    pilots: list[int | None]  # small, large
    insurance: int | None
    # -- accomplices (4.3) ---------------------------------------------------------------
    left: list[int]  # per seat: accomplices not yet placed
    declined: list[bool]  # per seat: places no more this voyage
    queue: list[int]  # the seats still to place in this placement round, in order
    # -- the voyage's plan (4.0 and :mod:`.voyage`) --------------------------------------
    at: int  # index in ``voyage.plan(n)`` of the step running now; -1 before the first
    rolls: int  # dice rolls made this voyage (0..3)
    boarding: list[list[int]]  # [seat, pirate slot] of the pirates still to choose (4.7a)
    boarded: list[int] | None  # [boat, crew index] of the last accomplice who boarded (7.2)
    plunder: list[int]  # plundered boats the captain has still to send (4.7b)


class State(Voyage):
    """Everything about one game of Manila: the voyage's keys and these."""

    n: int  # seats
    opt: Options
    # -- money and shares (5, 6.1), one entry per seat; shares per good ----------------
    cash: list[int]
    dealt: list[list[int]]  # SECRET: the goods of the 2 shares dealt at set-up, sorted
    bought: list[list[int]]  # shares of each good bought as harbour master
    mort: list[list[int]]  # SECRET which goods; the count per seat is public
    supply: list[int]  # shares of each good left to buy
    step: list[int]  # each good's place on the price track (4.10); END_STEP ends the game
    # -- whose turn ----------------------------------------------------------------------
    voyage: int  # 1, 2, ...
    opener: int  # who bids first this voyage
    prev_hm: int | None  # last voyage's harbour master
    turn: int  # the seat that decides now (see ``phase``)
    over: bool


def fresh_voyage(n: int) -> Voyage:
    """The voyage's keys as a voyage starts."""
    return {
        "hm": None, "phase": "auction", "bid": 0, "leader": None, "passed": [False] * n,
        "goods": [], "pos": [], "where": [], "docked": 0, "yarded": 0, "plundered": [],
        "crew": [], "docks": [None] * 3, "yards": [None] * 3, "pirates": [None, None],
        "pilots": [None, None], "insurance": None, "left": [0] * n, "declined": [False] * n,
        "queue": [], "at": -1, "rolls": 0, "boarding": [], "boarded": None, "plunder": [],
    }


def setup(n: int, options: Options, rng: random.Random) -> tuple[State, list[Event]]:
    """A new game (3): shares shuffled and dealt, 30 pesos each, the first auction."""
    deck = [g for g in range(4) for _ in range(B.SHUFFLED_PER_GOOD)]
    rng.shuffle(deck)
    dealt = [sorted(deck[i * B.DEALT_EACH:(i + 1) * B.DEALT_EACH]) for i in range(n)]
    rest = deck[n * B.DEALT_EACH:]
    supply = [B.SHARES_PER_GOOD - B.SHUFFLED_PER_GOOD + rest.count(g) for g in range(4)]
    state: State = {
        **fresh_voyage(n),
        "n": n, "opt": options.copy(),
        "cash": [B.START_CASH] * n, "dealt": dealt,
        "bought": [[0] * 4 for _ in range(n)], "mort": [[0] * 4 for _ in range(n)],
        "supply": supply, "step": [0] * 4,
        "voyage": 1, "opener": 0, "prev_hm": None, "turn": 0, "over": False,
    }
    events: list[Event] = [
        {"type": "dealt", "seat": s, "goods": [B.GOODS[g] for g in dealt[s]], "to": [s]}
        for s in range(n)]
    events.append({"type": "supply", "supply": {B.GOODS[g]: c for g, c in enumerate(supply)}})
    return state, events
