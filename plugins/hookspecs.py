"""The game API: every hook a game plugin or a table observer may implement.

A *game* is a pluggy plugin (a module or an object) with ``@hookimpl`` functions for
the game hooks below, registered under the entry-point group ``lantable.games``.
The host never calls a game hook on every plugin: :class:`lantable.plugins.Game`
routes each call to exactly one game. Observer hooks, by contrast, are called on
every registered plugin (journal, statistics, house rules) and return ``None``.

Data rules for every game hook (DESIGN.md, "The game API"):

- State, actions, events and views are plain msgpack data: dicts with ``str`` keys,
  lists, ``str``, ``int``, ``float``, ``bool``, ``None``. No tuples, no sets.
- Actions and events are dicts with a ``"type"`` key.
- All randomness comes from the ``rng`` argument (a seeded :class:`random.Random`);
  the same seed and the same actions give the same game, bit for bit.
- Seats are numbered ``0 .. seats-1``.

Hooks are always called with keyword arguments; an implementation may accept fewer
arguments than its spec (pluggy's opt-in arguments), and new arguments are only ever
added, never renamed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import random

    from .decks import Requests
    from .types import Action, Event, GameInfo, Scores, State, View

hookspec = pluggy.HookspecMarker("lantable")

# ---------------------------------------------------------------------------
# Game hooks: each goes to exactly one game (firstresult, routed by Game).
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def game_info() -> GameInfo:
    """Describe the game. **Required.**

    :returns: a dict with
        ``id`` (str, unique, lowercase, ``[a-z0-9-]+``), ``title`` (str),
        ``version`` (str), ``min_seats`` and ``max_seats`` (int),
        ``options`` (dict: option name -> ``{"default": v, "help": str}`` plus
        ``"choices": [...]`` for an enumerated option), and
        ``traits`` (dict of bool: ``chance``, ``hidden_information``,
        ``simultaneous``).

    Must be constant: the registry calls it once at start-up and validates it.
    """


@hookspec(firstresult=True)
def game_setup(seats: int, options: dict[str, Any], rng: random.Random,
               decks: Requests) -> State:
    """Create the initial state. **Required.**

    :param seats: number of seats, within ``min_seats .. max_seats``.
    :param options: every option of :func:`game_info`, already filled with defaults
        and checked against ``choices``.
    :param rng: the table's seeded random source (shuffles, deals).
    :param decks: opt-in, for a game with :func:`game_decks`: the dealer to ask for
        hidden cards (docs/plugins.md, "Hidden decks").
    :returns: the full state (plain data). Only this hook creates states.
    """


@hookspec(firstresult=True)
def game_to_act(state: State) -> list[int]:
    """List the seats that must decide now, ascending. **Required.**

    :returns: an empty list once the game is over. Several seats mean
        simultaneous (or independent) choices: each submits its action; a secret
        choice stays pending, and hidden from views, until all are in.

    Must not change the state.
    """


@hookspec(firstresult=True)
def game_legal_actions(state: State, seat: int) -> list[Action]:
    """List the concrete legal actions of ``seat`` now. **Required.**

    :returns: a non-empty list when ``seat`` is in :func:`game_to_act`, else ``[]``.
        The order is deterministic and documented by the game (bots and the
        terminal client number the actions in this order). Where the real space is
        continuous or huge, a finite, useful discretisation, or *templates*: actions
        with a ``"params"`` map of typed parameters that the client fills
        (:mod:`lantable.plugins.params`, :func:`game_discretise`); :func:`game_apply`
        still accepts any valid action.

    Must not change the state.
    """


@hookspec(firstresult=True)
def game_apply(state: State, seat: int, action: Action, rng: random.Random,
               decks: Requests) -> list[Event]:
    """Apply one action of ``seat`` to ``state`` in place. **Required.**

    :param rng: the table's random source for dice, draws and shuffles; every draw
        must show up in a returned event so a journal explains the game.
    :param decks: opt-in, for a game with :func:`game_decks`: the dealer to ask for
        hidden cards; an action using one carries ``"claims"`` (docs/plugins.md,
        "Hidden decks").
    :returns: the events the action caused, in order (each a dict with ``"type"``).
        Events are public unless they carry ``"to": [seats]``, in which case only
        those seats (and nobody else) see them.
    :raises IllegalAction: with a human reason when the action is malformed or not
        legal now. **Invariant:** the state *and the rng* are unchanged when it
        raises: validate before mutating, draw only after validating.

    The host has already checked that ``seat`` is in :func:`game_to_act`.
    """


@hookspec(firstresult=True)
def game_view(state: State, seat: int | None) -> View:
    """Build what ``seat`` may know; ``seat=None`` is the public (spectator) view.
    **Required.**

    **Invariant:** a view never contains another seat's hidden information: build
    it from an allow-list of public and own-seat fields, never by deleting secrets
    from a full copy. Changing only another seat's secrets never changes this view.
    """


@hookspec(firstresult=True)
def game_view_parts(state: State) -> tuple[View, list[View]] | None:
    """Every seat's view at once, as a public part and each seat's own part. Optional,
    for speed: the host builds and encodes the public part once per change instead
    of once per seat.

    :returns: ``(public, own)`` with ``own[seat]`` for every seat, such that
        ``game_view(state, seat) == {**public, **own[seat]}`` with no key in both,
        and ``game_view(state, None) == public``. The same allow-list invariant as
        :func:`game_view` holds for each part; the conformance suite checks both.
    """


@hookspec(firstresult=True)
def game_scores(state: State) -> Scores:
    """Score the game (final once :func:`game_to_act` is empty). **Required.**

    :returns: ``{"scores": [number per seat], "rank": [place per seat]}`` where
        place 1 is the winner after the rulebook's tie-breaks and seats still tied
        share a place; may add ``"detail"`` (any plain data). In a one-seat game
        played against the game itself (solitaire), place 2 means the game won. Callable mid-game,
        where it gives the standing as if the game ended now.
    """


@hookspec(firstresult=True)
def game_sample_state(view: View, seat: int, rng: random.Random) -> State | None:
    """Sample a full state consistent with ``view`` (what ``seat`` knows). Optional.

    Used by search bots under hidden information (determinisation). Hidden cards
    are dealt from what the seat cannot rule out; public facts are kept exactly.
    A game with hidden decks returns a state with the dealer's record, built with
    :func:`lantable.plugins.decks.sample_dealer`; its seat's own cards are in
    ``view["_hand"]`` at a hidden-deck table (docs/plugins.md, "Sampling a state with
    hidden decks"). ``lantable check`` plays on from sampled states.
    """


@hookspec(firstresult=True)
def game_default_action(state: State, seat: int) -> Action | None:
    """The action ``seat`` takes when its turn clock runs out at a table whose rule is
    ``on_timeout: "default"`` (docs/protocol.md, "Turn clocks and pause"). Optional.

    :returns: one of ``game_legal_actions(state, seat)`` (the rulebook's "pass", the
        cheapest choice), or None where the game names none now (the table's bot then
        plays the seat).
    """


@hookspec(firstresult=True)
def game_heuristic(state: State, seat: int) -> float | None:
    """Estimate how good ``state`` is for ``seat``, higher is better. Optional.

    Used by the ``greedy`` bot and by search cut-offs; without it, bots use the
    seat's score minus the best other score from :func:`game_scores`.
    """


@hookspec(firstresult=True)
def game_discretise(state: State, seat: int, template: Action) -> list[Action] | None:
    """Concrete, legal fillings of one parameterised legal action. Optional.

    A game may list *templates* among its legal actions (an action with a ``"params"``
    map of typed parameters, :mod:`lantable.plugins.params`) where the real space is
    continuous or huge. Bots and the conformance suite turn each template into
    concrete actions with this hook; without it they use
    :func:`lantable.plugins.params.grid`, whose actions ``game_apply`` may refuse.

    Like :func:`game_describe_action`, clients pass the seat's **view** as ``state``
    (in-process callers may pass the state): use only fields the view has.

    :returns: a non-empty list of concrete actions that ``game_apply`` accepts now,
        in a deterministic order, or ``None`` for the generic grid.
    """


@hookspec(firstresult=True)
def game_query(view: View, seat: int | None, query: dict[str, Any]) -> Any:
    """Answer a question about the game from what ``seat`` may know. Optional.

    A pure request/response (no state change, nothing journalled): the host builds
    ``view = game_view(state, seat)`` and passes only that, so an answer can never
    reveal another seat's secrets ("how far can this ship sail on this heading",
    "what is in range of this cannon").

    :param query: a map with a ``"type"`` and the game's documented fields.
    :returns: plain msgpack data.
    :raises IllegalAction: an unknown or malformed query, with a human reason.
    """


@hookspec(firstresult=True)
def game_describe_action(state: State, seat: int, action: Action, names: list[str]) -> str | None:
    """The label a person reads on a choice: what the action is and what it costs,
    pays or risks where the game knows ("dock C — costs 2, pays 15"). Optional.

    Clients have only their seat's view, so clients pass that view as ``state``:
    describe the action from what ``seat`` can see, never from hidden state.

    :param names: a display name per seat (``names[seat]``), for actions that name
        other players.
    :returns: one line of plain text, or ``None`` for the generic label
        (``type(key=value, ...)``).
    """


@hookspec(firstresult=True)
def game_describe_event(view: View, seat: int | None, event: Event, names: list[str]) -> str | None:
    """One sentence for ``event`` as ``seat`` sees it ("Bob bids 11 for harbour
    master"). Optional.

    The terminal and browser clients show the last events in these words.

    :param view: ``seat``'s view *after* the event's update (clients have nothing
        else); ``seat=None`` for a spectator.
    :param event: an event exactly as this seat received it (public, or addressed
        to this seat with ``"to"``).
    :param names: a display name per seat.
    :returns: one line of plain text, or ``None`` for the generic sentence
        ("Bob: bid (amount 11)").
    """


@hookspec(firstresult=True)
def game_render_text(view: View, seat: int | None, names: list[str]) -> Any:
    """The board as text, for a person at a terminal. Optional.

    Built only from ``view`` (what ``seat`` may know; ``None`` for a spectator).

    :param names: a display name per seat.
    :returns: a ``str`` or any `rich <https://rich.readthedocs.io>`_ renderable
        (a ``Table``, a ``Group`` of panels...), or ``None`` for the generic board
        (one line per view key). The terminal client draws it under a header that
        already says whose turn it is and the scores.
    """


@hookspec(firstresult=True)
def game_web_renderer() -> Any:
    """The game's own board for the browser, shipped as package data. Optional.

    :returns: the folder of its browser files (an :mod:`importlib.resources`
        ``Traversable`` or a path), or ``None`` for the generic board. The folder
        holds ``board.js``, which the web app loads and which registers a renderer
        with ``lantable.registerRenderer(game_id, {render(svgHost, update, ctx)})``
        (docs/plugins.md, "A board for the browser"). Every file in the folder is
        served under ``/games/<game id>/``. Must be constant.
    """


@hookspec(firstresult=True)
def game_undo_barrier(events: list[Event], state: State) -> bool | None:
    """Whether no undo may go back across the action that caused ``events``.
    Optional; without it, a table refuses every undo (docs/plugins.md, "Undo barriers").

    :param events: every event the action caused, exactly as :func:`game_apply`
        returned them (with ``"to"`` where private).
    :param state: opt-in: the state *after* the action (for a game whose reveals show
        in the state rather than in an event, as a window that asks only the seats
        holding a fitting card).
    :returns: ``True`` when the action showed the outcome of chance (a die roll, a
        card drawn from a shuffled pile, a random pick) or revealed what some seat did
        not know before (a card played from a hidden hand, a face-down card turned up,
        a secret choice made public, who holds a card); ``False`` when taking it back
        tells nobody anything they could not have known. ``None`` counts as ``True``.
        The host also refuses an undo of an action that drew from ``rng``.

    Must be pure: the same events and state always give the same answer.
    """


# -- hidden decks (docs/plugins.md, "Hidden decks"; all optional) ------------------


@hookspec(firstresult=True)
def game_decks(seats: int, options: dict[str, Any]) -> dict[str, int] | None:
    """The game's hidden decks: name (``[a-z0-9_-]+``) -> card count. Optional.

    A game that declares decks never holds their cards: it asks the ``decks``
    argument of :func:`game_setup`, :func:`game_apply` and :func:`game_cards_opened`
    to shuffle, deal, open and give *positions*, and learns cards through
    :func:`game_cards_opened`. ``None`` or ``{}``: no hidden decks with these options.
    """


@hookspec(firstresult=True)
def game_cards_opened(state: State, deck: str, cards: dict[int, int], seat: int | None,
                      decks: Requests, shown: bool) -> list[Event] | None:
    """Cards the game asked for have been opened. Optional (required with decks).

    :param cards: position -> card, in the order asked.
    :param seat: ``None``: opened to everyone (at every table). ``t``: dealt or given
        to seat ``t``, told only where the host is the dealer (tables without hidden
        decks, in-process bots); keep them as ``t``'s secret.
    :param shown: ``True`` when the cards were only *shown* to ``seat``
        (``decks.show``): ``t`` knows them, their holder keeps them. Take the argument
        only if the game shows cards.
    :param decks: ask it for more (a card that says "draw two").
    :returns: events, as :func:`game_apply`; they follow the action's events.
    :raises IllegalAction: never for a false claim (the host checks claims); the
        state must accept any card.
    """


@hookspec(firstresult=True)
def game_seat_actions(view: View, seat: int, cards: dict[str, dict[int, int]]
                      ) -> list[Action]:
    """The game's client-side half: ``seat``'s legal actions from its view and the
    cards it knows. Optional (required with decks).

    :param cards: deck -> {position -> card} of the cards dealt, given or shown to
        ``seat``, and those opened to everyone, in each deck's current round.
    :returns: what :func:`game_legal_actions` would list, in the same order; an action
        that uses a hidden card carries ``"claims": [{"deck", "pos", "card"}]``; one that
        commits a card face down carries ``"sealed"`` in the same form (the seat's client
        seals it before sending).

    At a hidden-deck table the host cannot list a seat's actions; each client calls
    this. Use only what ``view`` has.
    """


# ---------------------------------------------------------------------------
# Observer hooks: called on every registered plugin; return None.
# ---------------------------------------------------------------------------


@hookspec
def table_started(table_id: str, game_id: str, seats: int, options: dict[str, Any]) -> None:
    """A table's game has started (all seats taken)."""


@hookspec
def table_action(table_id: str, seq: int, seat: int, action: Action, events: list[Event]) -> None:
    """An action was accepted and journalled at ``table_id`` as update ``seq``."""


@hookspec
def table_finished(table_id: str, scores: Scores) -> None:
    """A table's game has ended with these final scores."""
