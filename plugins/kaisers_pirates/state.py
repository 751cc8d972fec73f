"""The game state of Kaiser's Pirates, declared: open this module first.

The state is plain data (dicts and lists of ints, strs and bools, so msgpack,
``copy.deepcopy`` and the behaviour digests handle it); the ``TypedDict`` classes
below say which keys each part has and what they mean. Ids: ships 0..79 (German
0..19, merchants 20..79, see :data:`.data.SHIPS`), Action cards 0..99
(:data:`.data.ACTIONS`), Solitaire cards 0..19 (:data:`.data.SOLO`). Face-down decks
are sorted lists, the cards left in no order: a card is drawn at random when it is
turned over (:mod:`.decks`).

The state is never journalled (the journal holds options, seed and actions, and a
replay re-runs the engine), so these names may change; views are the public part of
the state under the same names (:mod:`.views`, documented in
``docs/rules/kaisers-pirates.md``), so renaming a key here renames it for the
clients too.

The constructors at the bottom (``new_player``, ``new_status``, ``new_turn_record``,
``new_attack``) are the only places that create these records; ``rounds.new_state``
builds the whole.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class ShipStatus(TypedDict):
    """A ship in play (``GameState.ships[id]``; None while it is in a deck or a pile)."""

    owner: int  # the seat whose Force it is in
    revealed: bool  # a Raider or Prize no longer disguised (Warships and merchants never are)
    damage: int  # damage markers (more than 1 only with 6.8 additional damage)
    limited_supply: bool
    refuge: int | None  # the Island Refuge card it shelters under (-1: the phantom's, no card)
    refuge_turn: int  # turns_begun when it entered the refuge (-1: none)
    prize: bool  # a captured merchant, now in its captor's German row


class VPEntry(TypedDict, total=False):
    """One card of a VP pile: a ship, or an Action card won in a duel (AMC, Q-ship)."""

    ship: int
    card: int
    mult: int  # 2: the double-value group (captured prizes kept to the end, Special Cargo)
    how: str  # sunk, sunk_m (a merchant, answerable by Mistaken Identity), passage, duel, ...


class Waiting(TypedDict):
    """A Deception or Fog Bank lying on a player until his next turn."""

    card_type: Literal["deception", "fog_bank"]
    card: int | None  # None: the phantom's (a Solitaire entry, no card)


class Seen(TypedDict):
    """The last hand a player saw with Intelligence."""

    seat: int
    cards: list[int]
    turn: int


class Player(TypedDict):
    """One player (``GameState.players[seat]``; in solitaire seat 1 is the phantom)."""

    hand: list[int]
    german: list[int]  # Warships, Raiders and Prizes in play
    merchants: list[int]
    vp_pile: list[VPEntry]
    wait: Waiting | None
    skip: bool  # Bounding Main: the next turn is skipped
    wireless_turn: int  # own turn number of the last Wireless Intercept, -9: none
    turns: int  # own turns begun
    round_points: int
    round_vp: list[int]  # VP scored in each round so far
    known_deck_top: list[int]  # the Action deck top he arranged with Intelligence, top first
    seen: Seen | None
    giving: list[int]  # cards offered with Exchange Information
    n_kept: int  # ships kept from the last round (6.7): so many fewer cards dealt


class Committed(TypedDict):
    """A card committed this turn (4.3): face down until played."""

    card: int
    use: Literal["icpt", "brit", "mines", "act"]
    ship: int | None  # the intercepting or mine-laying ship
    played: bool


class Sinking(TypedDict):
    """A merchant sunk this turn, answerable later by Recalled / Mistaken Identity."""

    merchant: int
    ship: int | None  # the interceptor (None for mines and torpedoes)
    defender: int
    open: bool  # not yet answered (one reaction per sinking)


class Turn(TypedDict):
    """This turn (``GameState.this_turn``; None between rounds)."""

    seat: int  # the phasing player
    stage: Literal["start", "commit", "resolve", "phantom", "end", "discard", "skipped"]
    committed: list[Committed]
    attacked_seat: int | None  # 4.6.1: the one opponent this turn's attacks may hit
    intercepted: list[int]  # ships intercepted this turn (4.6.4)
    acted: list[int]  # ships that carried out a card this turn
    second_chance: bool  # an extra turn follows
    extra: bool  # this is that extra turn
    wireless_used: bool
    revealed_at_start: list[int]  # own ships revealed when the turn began (Reflag, R 3.3.32)
    reactions: list[list[int]]  # [seat, card] of every reaction card played this turn
    deception: bool  # a Deception turn (R 3.3.10)
    fog: bool  # a Fog Bank turn (R 3.3.14)
    left_refuge: list[int]  # ships that left a refuge this turn
    resupplied_from: list[int]  # prizes used for 6.12 resupply this turn
    recon_cards: list[int]  # cards taken with Recon Aircraft, playable this turn
    phantom_began: int  # solitaire: the phantom's loop has started (R 5.4.3)
    phantom_ends: bool  # solitaire: its turn ends after the current card
    reactions_ordered: list[int]  # defenders who ordered their discards (R 3.1.5)
    sinkings: list[Sinking]
    late_asked: list[int]  # defenders asked since the last card (R 3.3.30, 3.3.23)


ContextKind = Literal["interception", "british", "mines", "torpedo", "aimed", "exchange",
                      "order", "give_ships"]


class Context(TypedDict, total=False):
    """An attack (or a card's follow-up) under way, on ``GameState.stack``.

    Attacks are stepped by :mod:`.fights` (``step`` names the next step of
    :data:`.fights.STEPS`); which keys an attack has depends on its kind
    (:mod:`.combat` creates them).
    """

    kind: ContextKind
    card: int | None  # the card that started it (None: the phantom's)
    ship: int  # interception: the German ship
    defender: int
    targets: list[int]
    index: int  # the target now attacked
    via: Literal["brit", "interrogate", "monitor"]  # british: what started it
    dice: list[int]  # british, mines: the attack dice
    night: bool
    surprise_attack: bool  # Assist cards attached (5.5)
    searchlight: bool
    special_cargo: bool
    boarded: list[int]  # merchants a Boarding Party is on
    step: str
    reaction: str | None  # the card type of the reaction to this attack
    n_reactions: int  # one reaction per attack (R 3.2.2)
    reaction_card: int | None
    reaction_data: dict[str, Any]  # the reaction card's data (the duels roll its dice)
    fast_ship: bool  # reactions to an interception in force
    non_combatant: bool
    pursued: bool  # 6.6.1
    reveal_at_end: bool  # QQQ (R 3.3.27)
    revealed: bool  # the raider was revealed during the interception (Reflag window)
    passage_mod: int  # the Passage the owner may try next (R 3.2.6)
    after_passage: str
    sunk: int  # the merchant just sunk
    sinking: int  # its index in Turn.sinkings
    submarine: dict[str, list[int]]  # torpedo: the submarine's torp, gun and def dice
    card_data: dict[str, Any]  # aimed: Interned or Transfer Command's data
    seat: int  # aimed: who played it
    seats: list[int]  # exchange: the two teammates
    n: int  # order: how many cards of the deck top
    ships: list[int]  # give_ships: the two ships a team Breakout drew


class Pending(TypedDict, total=False):
    """The one decision awaited (``GameState.pending``); ``kind`` names it (the table in
    :mod:`.turn`) and ``seat`` who takes it."""

    kind: str
    seat: int
    ships: list[int]  # passage, reflag: the ships concerned
    seats: list[int]  # keep: the seats choosing, all at once and in secret
    chosen: dict[str, list[int]]  # keep: choices so far, by str(seat)


class Solo(TypedDict):
    """Solitaire only: the Solitaire deck and Recon Aircraft played on the phantom."""

    deck: list[int]  # sorted: the cards left, drawn at random (.decks)
    recon: bool


class RoundScore(TypedDict):
    round: int
    vp: list[int]
    round_points: list[int]


class GameState(TypedDict):
    """The whole game."""

    n_players: int  # players at the table (2 in solitaire: seat 0 and the phantom)
    seats: int  # real seats
    mode: Literal["ffa", "team", "solo"]
    options: dict[str, Any]  # the table options (game.INFO["options"])
    round: int
    phase: Literal["play", "keep", "over"]
    turn_seat: int  # whose turn it is (also ``this_turn.seat``)
    turns_begun: int  # turns begun so far, all players
    first_seat: int  # the round's first player
    action_cards: list[int]  # the Action cards in this game
    removed_ships: list[int]  # ships out of the game (6.5)
    german_deck: list[int]  # sorted: the cards left, drawn at random (.decks)
    german_used: list[int]
    german_out: list[int]  # of german_used: removed this round by weather etc. (6.5.2)
    merchant_deck: list[int]  # sorted, like german_deck
    merchant_used: list[int]
    action_deck_top: list[int]  # the deck top arranged with Intelligence, top first
    action_unseen: list[int]  # sorted: the rest of the deck and the set-aside cards
    set_aside_n: int  # removed this round (R 2.1): the last so many unseen cards, never drawn
    discards: list[int]  # face up, top = end (face down in solitaire)
    players: list[Player]
    ships: list[ShipStatus | None]  # by ship id
    this_turn: Turn | None
    stack: list[Context]
    pending: Pending | None
    history: list[RoundScore]
    solo: Solo | None


def new_player() -> Player:
    return {"hand": [], "german": [], "merchants": [], "vp_pile": [], "wait": None,
            "skip": False, "wireless_turn": -9, "turns": 0, "round_points": 0, "round_vp": [],
            "known_deck_top": [], "seen": None, "giving": [], "n_kept": 0}


def new_status(owner_seat: int, prize: bool = False) -> ShipStatus:
    return {"owner": owner_seat, "revealed": False, "damage": 0, "limited_supply": False,
            "refuge": None, "refuge_turn": -1, "prize": prize}


def new_turn_record(seat: int, extra: bool) -> Turn:
    return {"seat": seat, "stage": "start", "committed": [], "attacked_seat": None,
            "intercepted": [], "acted": [], "second_chance": False, "extra": extra,
            "wireless_used": False, "revealed_at_start": [], "reactions": [],
            "deception": False, "fog": False, "left_refuge": [], "resupplied_from": [],
            "recon_cards": [], "phantom_began": 0, "phantom_ends": False,
            "reactions_ordered": [], "sinkings": [], "late_asked": []}


def new_attack(kind: ContextKind, card: int | None, defender: int, targets: list[int],
               step: str, **fields: Any) -> Ctx:
    """An attack for ``GameState.stack``: what every kind has (the first target is
    attacked first, no reaction yet), then the kind's own ``fields``."""
    return {"kind": kind, "card": card, "defender": defender, "targets": targets,
            "index": 0, "step": step, "reaction": None, "n_reactions": 0, **fields}


# The names the modules annotate with. They stay plain dicts: the engine indexes the
# optional parts (``this_turn``, a ship's status) where the rules guarantee them, which
# a type checker would want proved at every step. What keeps the declarations above
# true is tests/plugins/kaisers_pirates/test_state.py, which checks every state of
# seeded self-play against them.
State = dict[str, Any]  # a GameState
Ctx = dict[str, Any]  # a Context
Event = dict[str, Any]  # an event as returned to the host (docs/rules/kaisers-pirates.md)
Events = list[Event]
Action = dict[str, Any]  # an action as offered and applied (the decision model table)
