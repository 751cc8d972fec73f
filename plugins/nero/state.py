"""The game state of Nero, declared: open this module first.

The state is plain data (dicts and lists of ints, strs and bools, so msgpack, pickle and
the behaviour digests handle it); the ``TypedDict`` classes below say which keys each
part has and what they mean, in the words of the rules digest (``docs/rules/nero.md``,
Appendix B: "per Legion: owner, province, flags"; "per player: Base Area, VP, Leader
{location, rank}"; "per moving group: MP pool, battles fought, member Legions, whether
the Leader is present, the province it came from").

Ids: provinces 0..21 and Rome 22 (:data:`.data.NAMES`), Areas by key (``"west"``...,
:data:`.data.AREAS`), cards 0..54 (:data:`.data.CARDS`), seats 0..n-1, and -1 for the
Uncontrolled (:data:`.board.UNC`) wherever a seat may be one. With a hidden deck a card
nobody at the host may know is a *masked token* (:data:`.hands.MASKED` + a position).

Views are the public part of the state under the same names (:mod:`.views`, every key
described in ``docs/games/nero.md``), so renaming a key here renames it for the
browser board, bots and clients too. The state is never journalled (a replay re-runs
the engine), so the names may change, with their consumers, in one commit.

The constructors at the bottom are the only places that create these records.
``tests/plugins/nero/test_state.py`` checks every state of seeded self-play against the
declarations.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Rank = Literal["general", "contender", "emperor"]


class Legion(TypedDict):
    """One Legion marker (``GameState.legions[i]``; ``i`` is its id for the whole game)."""

    owner: int  # a seat, or -1: Uncontrolled (R 2.2)
    province: int  # 0..21 (never Rome)
    moved: bool  # moved, or was stopped, this round: may not start another move (5.4.1)
    retreat_marker: bool  # under a Retreat marker until the Game Turn ends (5.5, 5.4.10)


class Leader(TypedDict):
    """A seat's one Leader (``GameState.leaders[seat]``): General, Contender or Emperor."""

    location: int | None  # a province, or 22 for Rome; None until placed at setup
    rank: Rank
    moved: bool  # moved, or was stopped (Wounded General), this round


class Attacked(TypedDict):
    """A (province, defender) pair already attacked this round: never twice (5.6)."""

    province: int
    defender: int  # a seat, or -1: the Uncontrolled (A20 option)


class Group(TypedDict):
    """The army on the move (5.4.1): Legions and/or the Leader that left the source
    together; ``Movement.group``."""

    legions: list[int]  # Legion ids, ascending
    leader: bool  # the mover's Leader is with it
    at: int  # where it stands now
    came_from: int | None  # the province it entered ``at`` from (None: still at the source)
    battles: int  # battles fought on this move: each costs 1 MP more per step (5.4.3)
    blocked_by: list[int]  # seats whose Legions here block it until passage or victory
    has_entered: bool  # entered ``at`` on this move (pick-ups happen only there, 5.4.6)
    picked_up: list[Literal["own", "unc"]]  # pick-ups done in ``at`` (one of each)
    passage_asked: bool  # passage already asked in ``at`` (5.4.5)


class Movement(TypedDict):
    """A Movement Action under way (``GameState.movement``): cards played together for
    one pool of MP, spent by groups leaving one source province one at a time."""

    source: int
    pool: int  # MP left
    group: Group | None  # the army moving now; None between groups


# --- pending decisions: the stack ``GameState.pending`` (last in, first out) --------

PendingKind = Literal["base", "place", "general", "window", "assassination", "passage",
                      "battle", "retreat", "germanic", "revolt", "effect"]
About = Literal["move", "attack", "retreat", "event", "declare"]


class SetupChoice(TypedDict):
    """Setup (digest 4): ``seat`` picks a Base Area, a province for a Legion, or one
    for the General."""

    kind: Literal["base", "place", "general"]
    seat: int


class Window(TypedDict):
    """Any-time cards may answer what lies under it (R 12.0): each seat of ``seats`` is
    asked in turn; the one asked now is ``seats[index]``."""

    kind: Literal["window"]
    about: About  # what is answered: an army moving or attacking, a retreat, an Event
    answers: list[str]  # the Events that may answer (bad_omens, bad_weather, ...)
    seats: list[int]
    index: int


class AssassinationWindow(TypedDict):
    """R 9.0: the other seats, in turn, may strip the target's protection or block."""

    kind: Literal["assassination"]
    seats: list[int]
    index: int
    guards: int  # Praetorian Guards the assassin still has protecting the attempt
    shield: int  # Guards of the defence that the assassin's Corruption voids (A2 mirror)
    corruption: int  # Corruption cards played toward voiding one Guard (2 needed)
    blocked: bool  # an unprotected attempt was blocked by a Guard


class PassageRequest(TypedDict):
    """5.4.5: each blocking seat grants or refuses passage, in turn."""

    kind: Literal["passage"]
    seats: list[int]
    index: int
    refused: list[int]


class Battle(TypedDict):
    """R 6.3: both sides commit battle cards face down; resolved when both are in."""

    kind: Literal["battle"]
    attacker: int
    defender: int  # a seat, or -1 (A20 option: the Uncontrolled, who commit nothing)
    province: int
    committed: dict[str, list[int]]  # str(seat) -> cards; a view shows others' as a count


class RetreatChoice(TypedDict):
    """5.5: ``seat`` stays or retreats from ``province`` (before or after a battle)."""

    kind: Literal["retreat"]
    seat: int
    province: int
    came_from: int | None  # where the enemy came from: no retreat there
    after_battle: bool  # after a lost battle (no Naval Passage, no Bad Weather window)


class GermanicWithdrawal(TypedDict):
    """5.10: every owner in the province attacked by the Germanic Tribes withdraws."""

    kind: Literal["germanic"]
    province: int
    owners: list[int]  # whose pieces leave (-1: the Uncontrolled, moved by the card player)
    seats: list[int]  # who chooses for each owner
    index: int


class RevoltBringing(TypedDict):
    """6.2 #12: ``seat`` brings the Base owner's Legions to the revolt province."""

    kind: Literal["revolt"]
    seat: int
    owner: int
    province: int
    left: int  # Legions still to bring


EffectWhat = Literal["battle", "entered", "retreat", "declare", "corruption", "bad_weather",
                     "wounded", "event"]


class Effect(TypedDict, total=False):
    """Not a decision: an effect waiting under a window; it runs once the window above
    it closes (:func:`.engine.settle`). ``what`` names it; the keys it has depend on it."""

    kind: Literal["effect"]
    what: EffectWhat
    seat: int  # who played the card, or whose retreat or declaration it is
    event: str  # what == event or corruption: the card's Event key
    omens: int  # Bad Omens played against it: cancelled when odd (6.2 #2)
    omens_by: list[int]  # the seats that played them, in order
    attacker: int  # battle
    defender: int  # battle
    province: int  # battle, retreat; event: the Germanic or Rebel province
    to: int  # retreat; event: the Galley Fleet's landing port
    senate: int  # declare: Senate Influence cards
    guards: int  # declare: Praetorian Guards; event (Assassin): guards protecting
    corruption: int  # declare: Senate Influence voided by Corruption
    about: About  # bad_weather, wounded: what they stop
    target: int  # event: the seat aimed at (Assassin, Crisis, Rebel, Traitor)
    shield: int  # event (Assassin): 2 Corruption played by the assassin, halved
    blocked: bool  # event (Assassin): blocked by the defence
    source: int  # event (Galley Fleet): the port it sails from
    legions: list[int]  # event (Galley Fleet): the Legion ids aboard
    leader: bool  # event (Galley Fleet): the Leader aboard
    area: str  # event (Revolt)


Pending = (SetupChoice | Window | AssassinationWindow | PassageRequest | Battle
           | RetreatChoice | GermanicWithdrawal | RevoltBringing | Effect)


class Hidden(TypedDict):
    """With the option ``hidden_deck`` (:mod:`.hidden`): what the host keeps."""

    claims: dict[str, list[int]]  # str(position) -> [seat, card] claimed, not yet opened
    known: list[dict[str, int]]  # per seat: str(position) -> card, where the host deals
    seed: int | None  # draws what follows a battle fought when its cards are opened


class GameState(TypedDict):
    """The whole game."""

    n_players: int
    options: dict[str, Any]  # the table options (INFO["options"]; hidden_deck only when on)
    setup: bool  # digest 4 is under way
    game_turn: int  # 1..4
    over: bool
    automatic_winner: int | None  # the seat that won by automatic victory (13.1)
    bases: list[str | None]  # each seat's Base Area
    empty_area: str | None  # 3 seats: the Area nobody has as Base (5.13)
    active: int  # the seat whose Player Round it is
    first_player: int  # who started this Game Turn
    final_round: bool  # the last player's extra round (5.1 step 3)
    vp: list[int]
    hands: list[list[int]]  # per seat, sorted
    box_face_down: list[int]  # the discard box, face down: undealt and discarded cards
    box_face_up: list[int]  # the discard box, face up: cards played this Game Turn
    legions: list[Legion]
    leaders: list[Leader]  # per seat
    germanic_tribes: list[int]  # provinces under a Germanic Tribes marker, sorted
    cards_used: int  # cards the active player has used this round (at most 4, 5.2)
    once_used: list[str]  # "once" titles used this round: "traitor", "declare" (R 12.0)
    attacked: list[Attacked]  # this round's attacks (5.6)
    movement: Movement | None
    pending: list[Pending]  # decisions and waiting effects; the top is the last
    hidden: NotRequired[Hidden]


# --- constructors -------------------------------------------------------------------


def new_legion(owner: int, province: int) -> Legion:
    return {"owner": owner, "province": province, "moved": False, "retreat_marker": False}


def new_leader() -> Leader:
    return {"location": None, "rank": "general", "moved": False}


def new_group(legions: list[int], leader: bool, at: int) -> dict[str, Any]:
    return {"legions": legions, "leader": leader, "at": at, "came_from": None, "battles": 0,
            "blocked_by": [], "has_entered": False, "picked_up": [], "passage_asked": False}


def new_window(about: str, answers: list[str], seats: list[int]) -> Item:
    """A window about ``about`` (an :data:`About`), asking ``seats`` in turn."""
    return {"kind": "window", "about": about, "answers": answers, "seats": seats, "index": 0}


def new_retreat(seat: int, province: int, came_from: int | None,
                after_battle: bool) -> Item:
    return {"kind": "retreat", "seat": seat, "province": province, "came_from": came_from,
            "after_battle": after_battle}


def new_effect(what: str, **fields: Any) -> Item:
    """An effect ``what`` (an :data:`EffectWhat`) with its own keys (see :class:`Effect`)."""
    return {"kind": "effect", "what": what, **fields}


# The names the modules annotate with. They stay plain dicts: the engine indexes the
# optional parts (``movement``, a group) where the rules guarantee them, which a type
# checker would want proved at every step. What keeps the declarations above true is
# tests/plugins/nero/test_state.py.
State = dict[str, Any]  # a GameState
Item = dict[str, Any]  # a Pending item
Events = list[dict[str, Any]]
Action = dict[str, Any]
