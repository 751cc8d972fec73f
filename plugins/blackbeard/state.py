"""The game state of Blackbeard, declared: open this module first.

The state is plain data (dicts and lists of ints, strs, bools and None, so msgpack,
pickle and the behaviour digests handle it); the ``TypedDict`` classes below say which
keys each part has and what they mean, in the words of the rules (BB-S, errata
A1-A29). Ids: Pirate cards 0..22 (:data:`.data.PIRATES`), Event cards by physical
card (:data:`.data.CARDS`: card id -> card type), ports 0..N-1 (port number - 1,
:data:`.data.PORTS`), merchants, hostages, warships and King's Commissioners by their
row in ``data.json``. A place is a Sea Area id (``"CARIB"``) or a Transit Box id
(``"T_AFR"``), both from ``data.json``: a Transit Box has no state of its own, the
pieces in it name it as their ``area``.

Views are the public part of this state under the same names (:mod:`.views`;
``docs/games/blackbeard.md`` documents them field by field), so renaming a key here
renames it for the browser, the terminal and third-party bots too.

The constructors at the bottom are the only places that create these records;
``board.new_state`` builds the whole.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

PirateStatus = Literal["deck", "reserve", "map", "adrift", "retired", "dead"]
Governor = Literal["pro", "anti"]


class Pirate(TypedDict):
    """One Pirate card and, while he is on the map, his Pirate Display and ship
    (``GameState.pirates[id]``)."""

    id: int  # the Pirate card (index in data.PIRATES: name and ratings)
    owner: int | None  # the seat holding the card; None while in the Pirate deck
    status: PirateStatus  # adrift: marooned by a mutiny, a new captain not yet chosen
    area: str | None  # Sea Area or Transit Box; None off the map
    port: int | None  # the port he is in (inside ``area``); None: at sea
    ship: int  # ship size - 1 (index in data.SHIPS: Sloop, Brigantine, ...)
    speed: int  # the ship's Speed now (storm damage lowers it, to -2)
    combat: int  # the ship's Combat now (battle damage lowers it; below 0 it sinks)
    holds: list[int]  # booty in each filled hold, doubloons
    net_worth: int  # doubloons banked (converted booty, ransoms)
    notoriety: int
    loyalty: int  # Crew Loyalty, 0..10
    cunning: int  # Cunning left: re-rolls for the whole game (errata A5)
    hostages: list[int]  # hostages held for ransom (data.HOSTAGES)
    information: int  # information from tortured hostages: +1 to each Find, spent
    heavy_guns: list[int]  # Heavy Guns cards kept on the Pirate Display (errata A8)
    dr_turn: int | None  # the Player-Turn D&R was declared; None: no D&R marker
    scurvy: bool
    safe_haven: int | None  # the Pirate Port where he owns a Safe Haven
    safe_haven_turn: int  # the Player-Turn he bought it (retiring there waits a turn)
    sack_opportunity: int | None  # the port he may sack, having just taken it
    may_declare_dr: bool  # D&R may be declared at sea: he has just looted (D.2.7)
    sail_ho: int  # Sail Ho! bonus to his next Find
    bonus_vp: int  # VP kept from a capture (a famous pirate hanged)


class Merchant(TypedDict):
    """A merchant ship on the map (``GameState.merchants``); face down until found."""

    slot: int  # the counter's number on the table (actions name merchants by it)
    id: int  # which merchant (data.MERCHANTS: nationality, size, cargo); hidden face down
    area: str
    face_up: bool
    found_by: int | None  # the pirate who found it this Player-Turn and may loot it


class Warship(TypedDict):
    """A warship on the map (``GameState.warships``)."""

    slot: int  # the counter's number on the table (actions name warships by it)
    id: int  # which warship (data.WARSHIPS: speed, combat)
    area: str


class Commissioner(TypedDict):
    """A King's Commissioner on the map (``GameState.commissioners``)."""

    id: int  # which KC (data.KCS: speed, combat); actions name it as ``kc``
    owner: int  # the AP player who commissioned him
    area: str


class LedgerEntry(TypedDict):
    """VP an AP player scored, and why (errata A15, A29)."""

    seat: int
    vp: int
    why: str  # warship_damage, kc_damage, kc_capture


class Turn(TypedDict):
    """What this Player-Turn has used up (``GameState.this_turn``; D.5)."""

    card_played: bool  # an Action card has been played (one a turn, errata A2)
    actions_left: int
    initiative_pirate: int | None  # a diamond card: only this pirate may use the Actions
    ap_action_used: list[bool]  # per seat: its one AP action is spent
    kc_ap_action_used: bool  # errata A24: one KC AP action a turn at the table
    kc_ap_action_seats: list[int]  # ... or one per AP player (option kc_ap_action_scope)
    ap_event_types: list[str]  # AP Event types played this turn (no type twice, A3)


FrameKind = Literal["setup", "main", "ap_window", "fight_or_escape", "cunning", "hostage",
                    "convert", "pardon", "new_captain", "discard", "action", "fight",
                    "event", "turn_start", "turn_end"]


class Frame(TypedDict, total=False):
    """A procedure in progress (``GameState.stack``, innermost last; :mod:`.flow`).

    ``kind`` says which; the first ten kinds of :data:`FrameKind` wait for ``seat``
    (or the seat they name), the others are steps the engine runs at once. Which keys
    a frame has depends on its kind (the table in ``docs/games/blackbeard.md``).
    """

    kind: FrameKind
    seat: int  # who decides (setup, fight_or_escape, cunning, hostage, convert,
    #            new_captain, discard); the AP player (event: oust)
    step: str  # the next step of a stepped procedure
    pirate: int  # the active pirate (the one acting, attacked or rolling)
    # ap_window: the AP players polled in order, and which of them is asked now
    seats: list[int]  # ap_window: the AP players in polling order; pardon: owners to ask
    polled: int  # ap_window: the index in ``seats`` of the seat asked now
    trigger: str  # ap_window: what the pirate is doing (move, find, loot, ...)
    ap_actions: list[str]  # AP action types taken in this pirate action (no two alike)
    intercepted: bool  # a KC has reacted in this pirate action (one interception, KC #5)
    new_commissioners: list[int]  # KCs commissioned in this window (option Q9)
    standalone: bool  # ap_window: belongs to no action (an ousted pirate leaving port)
    # action: a pirate action (its type, and the action's own fields)
    action: str  # move, find, loot, attack_port, sack, convert_booty, ...
    to: str  # move: the destination
    port: int  # move: the port entered; attack_port: the port attacked
    slot: int  # find, loot: the merchant
    take: bool  # loot: False declines the cargo (8.32)
    free: bool  # move: by Fair Winds, no Action spent
    cancelled: bool  # the action ends at its next step (an escape, a lost battle, ...)
    slipped_away: bool  # find: Merchant Slips Away was played
    find_bonus: int
    dice: list[int]  # the pirate's roll (his own dice: Cunning may re-roll them)
    target_dice: list[int]  # event duel: the challenged pirate's roll
    opponent_total: int  # the other side's total (port defence, warship, KC)
    cargo_taken: bool  # loot: the cargo step is done (an escape keeps the booty, A14)
    hostage: int  # loot, hostage: the hostage taken
    hostage_choice: Literal["ransom", "torture"]
    convert: bool  # loot: the player takes the merchant as his ship
    port_at_start: int  # a port action: where it began (ousted meanwhile: it fizzles)
    # cunning: the roll that may be made again
    dice_count: int
    why: str
    dice_key: Literal["dice", "target_dice"]  # where the roll is kept in the frame below
    # fight, fight_or_escape: who attacks
    attacker: Literal["ws", "kc"]  # a warship or a King's Commissioner
    attacker_id: int  # the warship's slot, the KC's id
    ap_seat: int  # the AP player who attacks
    adjacent: bool  # the KC reacted from an adjacent Sea Area (-1 to intercept)
    escape: bool  # the pirate chose to escape
    # convert: the merchant's size; event: storm, mutiny, oust or duel
    size: int
    event: Literal["storm", "mutiny", "oust", "duel"]
    kc: int  # event oust: the KC
    target: int  # event duel: the challenged pirate


class GameState(TypedDict):
    """The whole game."""

    n_players: int
    options: dict[str, Any]  # the table options (game.INFO["options"])
    turn_order: list[int]  # seats in Player-Turn order (D.2.2 step 3)
    turn_index: int  # the index in ``turn_order`` of the phasing player
    player_turns: int  # Player-Turns begun so far
    deck: list[int]  # Event cards left, sorted: drawn at random, so no order is stored
    hands: list[list[int]]  # per seat, Event cards (Pirate cards are never in it, A1)
    discards: list[int]
    removed: list[int]  # out of the game: Heavy Guns of a lost ship, used Letters of Marque
    held_pardons: list[int]  # long game: General Pardons kept out of the first pass
    deck_pass: int  # long game: 1 or 2
    general_pardons: int  # General Pardons resolved in this pass (the 3rd ends the game)
    pirates: list[Pirate]  # by Pirate card id
    pirate_deck: list[int]  # Pirate cards not dealt, sorted
    merchants: list[Merchant]
    next_slot: int  # the number the next merchant or warship counter gets
    merchant_pool: list[int]
    hostage_pool: list[int]
    dead_hostages: list[int]
    warship_pool: list[int]
    warships: list[Warship]
    commissioner_pool: list[int]
    commissioners: list[Commissioner]
    commissioners_out: list[int]  # KCs beaten in battle: out of play
    governors: list[Governor | None]  # per port: a Pro- or Anti-Pirate Governor, or none
    anti_governor_pool: int  # Anti-Pirate Governors left to appoint (module G)
    ap_vp: list[int]  # per seat, VP scored by AP effects
    ap_vp_ledger: list[LedgerEntry]
    this_turn: Turn | None  # None before the first Player-Turn
    stack: list[Frame]
    over: bool
    end_reason: str | None  # third_general_pardon or max_turns


def new_pirate(card: int, cunning: int, speed: int, combat: int, loyalty: int) -> Pirate:
    """A Pirate card as it starts, in a fresh Sloop (``speed``/``combat``)."""
    return {"id": card, "owner": None, "status": "deck", "area": None, "port": None,
            "ship": 0, "speed": speed, "combat": combat, "holds": [], "net_worth": 0,
            "notoriety": 0, "loyalty": loyalty, "cunning": cunning, "hostages": [],
            "information": 0, "heavy_guns": [], "dr_turn": None, "scurvy": False,
            "safe_haven": None, "safe_haven_turn": 0, "sack_opportunity": None,
            "may_declare_dr": False, "sail_ho": 0, "bonus_vp": 0}


def new_turn(seats: int) -> Turn:
    return {"card_played": False, "actions_left": 0, "initiative_pirate": None,
            "ap_action_used": [False] * seats, "kc_ap_action_used": False,
            "kc_ap_action_seats": [], "ap_event_types": []}


# The names the modules annotate with. They stay plain dicts: the engine indexes the
# optional parts (a frame's fields, ``this_turn``) where the rules guarantee them, which
# a type checker would want proved at every step. What keeps the declarations above
# true is tests/plugins/blackbeard/test_state.py, which checks every state of seeded
# self-play against them.
State = dict[str, Any]  # a GameState
PirateDict = dict[str, Any]  # a Pirate
FrameDict = dict[str, Any]  # a Frame
Event = dict[str, Any]  # an event as returned to the host (docs/games/blackbeard.md)
Events = list[Event]
Action = dict[str, Any]
