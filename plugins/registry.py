"""Finding games: the plugin manager, the entry-point loader and :class:`Game`.

Every game hook goes to exactly one game. Rather than fanning a call out over every
registered plugin and picking a result, each game gets a private plugin manager that
holds only that game, so ``game.pm.hook.game_apply(...)`` can only reach it. The
shared manager from :func:`make_plugin_manager` holds every game and every observer
and is used for the observer hooks (``table_*``).
"""

from __future__ import annotations

import importlib.metadata
import os
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs, params
from .decks import DEALER_KEY, LocalDealer, Requests, check_decks
from .errors import BadOptions, IllegalAction, PluginError

if TYPE_CHECKING:
    import random

    from .types import Action, Event, GameInfo, Scores, State, View

ENTRY_POINT_GROUP = "lantable.games"
# Like PYTEST_DISABLE_PLUGIN_AUTOLOAD: set to any non-empty value to load no entry points.
AUTOLOAD_ENV = "LANTABLE_DISABLE_PLUGIN_AUTOLOAD"
REQUIRED_HOOKS = (
    "game_info",
    "game_setup",
    "game_to_act",
    "game_legal_actions",
    "game_apply",
    "game_view",
    "game_scores",
)
_GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")

hookimpl = pluggy.HookimplMarker("lantable")


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("lantable")
    pm.add_hookspecs(hookspecs)
    return pm


class Game:
    """One game plugin behind a typed, checked facade.

    The host and the bots use this, never the raw hooks. Every method calls
    exactly one plugin, with keyword arguments.
    """

    def __init__(self, plugin: object, name: str) -> None:
        pm = _new_manager()
        try:
            pm.register(plugin, name=name)
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"game plugin {name!r} is invalid: {exc}", name) from exc
        missing = [h for h in REQUIRED_HOOKS if not pm.hook.__dict__[h].get_hookimpls()]
        if missing:
            raise PluginError(f"game plugin {name!r} lacks required hooks {missing}", name)
        self.plugin = plugin
        self.pm = pm
        self._hook = pm.hook
        # Bound once: the hot hooks are called straight, positionally (see _bind).
        self._to_act = _bind(pm, "game_to_act")
        self._legal = _bind(pm, "game_legal_actions")
        self._apply = _bind(pm, "game_apply", omit=("decks",))
        self._view = _bind(pm, "game_view")
        try:
            info = self._hook.game_info()
        except Exception as exc:
            raise PluginError(f"game plugin {name!r}: game_info() raised {exc!r}", name) from exc
        self.info: GameInfo = _check_info(info, name)
        self.id: str = self.info["id"]
        self.has_sampler = bool(pm.hook.game_sample_state.get_hookimpls())
        self.has_heuristic = bool(pm.hook.game_heuristic.get_hookimpls())
        self.has_view_parts = bool(pm.hook.game_view_parts.get_hookimpls())
        self.has_query = bool(pm.hook.game_query.get_hookimpls())
        self.has_default_action = bool(pm.hook.game_default_action.get_hookimpls())
        self.has_undo = bool(pm.hook.game_undo_barrier.get_hookimpls())  # host/undo.py
        # Asked after every action of a table that allows undo: bound like the hot hooks.
        self._undo_barrier = _bind(pm, "game_undo_barrier") if self.has_undo else None
        self._view_parts = _bind(pm, "game_view_parts") if self.has_view_parts else None
        # Hidden decks (docs/plugins.md): the game asks a dealer for hidden cards.
        self.has_decks = bool(pm.hook.game_decks.get_hookimpls())
        if self.has_decks:
            for hook in ("game_cards_opened", "game_seat_actions"):
                if not pm.hook.__dict__[hook].get_hookimpls():
                    raise PluginError(f"game plugin {name!r} declares decks but lacks {hook}",
                                      name)

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.info['version']}>"

    # -- set-up ---------------------------------------------------------------

    def options(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Fill defaults and check ``given`` against the declared options.

        Raises:
            BadOptions: an unknown option, or a value outside its ``choices`` or of
                another type than its default.
        """
        declared: dict[str, dict[str, Any]] = self.info["options"]
        given = dict(given or {})
        unknown = sorted(set(given) - set(declared))
        if unknown:
            raise BadOptions(f"{self.id}: unknown option(s) {unknown}; known: {sorted(declared)}")
        out = {}
        for key, spec in declared.items():
            value = given.get(key, spec["default"])
            if "choices" in spec:
                # The game's own value, not the client's: 2.0 == 2 and True == 1 in Python,
                # and a float where the game expects an int faults it later.
                match = [c for c in spec["choices"]
                         if c == value and isinstance(c, bool) == isinstance(value, bool)]
                if not match:
                    raise BadOptions(
                        f"{self.id}: option {key}={value!r}, expected one of {spec['choices']}")
                value = match[0]
            default = spec["default"]
            if default is not None and "choices" not in spec:
                if not _same_kind(value, default):
                    raise BadOptions(
                        f"{self.id}: option {key}={value!r}, expected {type(default).__name__}")
                if isinstance(default, float):
                    value = float(value)
                lo, hi = spec.get("min"), spec.get("max")
                if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                        (lo is not None and value < lo) or (hi is not None and value > hi)):
                    raise BadOptions(f"{self.id}: option {key}={value!r}, expected "
                                     f"{'' if lo is None else lo}..{'' if hi is None else hi}")
            out[key] = value
        return out

    def setup(self, seats: int, options: dict[str, Any] | None, rng: random.Random,
              decks: Requests | None = None) -> State:
        """The initial state for ``seats`` seats; options are checked first.

        A game with hidden decks asks ``decks`` for its cards; without one (a table
        without hidden decks, bots) this facade deals them itself (:class:`LocalDealer`).
        """
        lo, hi = self.info["min_seats"], self.info["max_seats"]
        if not (isinstance(seats, int) and lo <= seats <= hi):
            raise BadOptions(f"{self.id}: seats={seats!r}, expected {lo}..{hi}")
        options = self.options(options)
        dealer = None
        if self.has_decks and decks is None:
            dealer = self.local_dealer(seats, options)
            decks = dealer.requests()
            if not dealer.sizes:  # no hidden deck with these options: no dealer record,
                dealer = None  # and the game's actions apply as in a game without decks
        try:
            state = self._hook.game_setup(seats=seats, options=options, rng=rng, decks=decks)
        except IllegalAction as exc:  # a game refusing its options at set-up
            raise BadOptions(f"{self.id}: {exc}") from exc
        if dealer is not None and decks is not None:
            dealer.start(state)
            dealer.run(state, decks.take(), rng)
        return state

    # -- turns ----------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return self._to_act(state)

    def is_over(self, state: State) -> bool:
        return not self._to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return self._legal(state, seat)

    def apply(self, state: State, seat: int, action: Action, rng: random.Random,
              decks: Requests | None = None) -> list[Event]:
        """Apply ``action`` for ``seat``; the game leaves state and rng unchanged on refusal.

        A game with hidden decks asks ``decks`` (the host's, at a hidden-deck table);
        without one this facade deals and checks the action's claims itself.

        Raises:
            IllegalAction: the seat must not act now, the action is not a map with a
                ``type``, or the game refused it.
        """
        if seat not in self._to_act(state):
            raise IllegalAction(f"seat {seat} is not to act now")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"an action is a map with a string 'type', got {action!r}")
        # The game must leave state *and* rng untouched when it refuses (draw only
        # after validating); the conformance suite checks both for every game.
        if not self.has_decks:
            events = self._apply(state, seat, action, rng)
            return events if events is not None else []
        return self._apply_with_decks(state, seat, action, rng, decks)

    def _apply_with_decks(self, state: State, seat: int, action: Action, rng: random.Random,
                          decks: Requests | None) -> list[Event]:
        dealer = None
        if decks is None and DEALER_KEY not in state:  # no hidden deck in this game
            decks = Requests({}, 0)
        elif decks is None:  # this facade is the dealer: it checks claims itself
            dealer = LocalDealer.of_state(state, self.cards_opened)
            dealer.check_claims(state, seat, action)
            decks = dealer.requests()
        events = list(self._hook.game_apply(state=state, seat=seat, action=action, rng=rng,
                                            decks=decks) or [])
        if dealer is not None:
            events += dealer.run(state, decks.take(), rng)
        return events

    # -- hidden decks (docs/plugins.md, "Hidden decks") ---------------------------

    def decks(self, seats: int, options: dict[str, Any] | None) -> dict[str, int]:
        """The game's hidden decks for these options (``{}``: none)."""
        if not self.has_decks:
            return {}
        sizes = self._hook.game_decks(seats=seats, options=self.options(options))
        return check_decks(sizes, self.id)

    def local_dealer(self, seats: int, options: dict[str, Any]) -> LocalDealer:
        """The in-process dealer for a new state of this game."""
        return LocalDealer(self.decks(seats, options), seats, self.cards_opened)

    def cards_opened(self, state: State, deck: str, cards: dict[int, int], seat: int | None,
                     decks: Requests, shown: bool = False) -> list[Event]:
        """Hand the game cards it asked for (``seat`` None: opened to everyone;
        ``shown``: shown to ``seat``, who does not get them)."""
        events = self._hook.game_cards_opened(state=state, deck=deck, cards=cards, seat=seat,
                                              decks=decks, shown=shown)
        return list(events or [])

    def seat_actions(self, view: View, seat: int, cards: dict[str, dict[int, int]]
                     ) -> list[Action]:
        """The client-side half: ``seat``'s legal actions from its view and its cards."""
        return list(self._hook.game_seat_actions(view=view, seat=seat, cards=cards) or [])

    # -- parameterised actions and queries (docs/decisions.md) --------------------

    def discretise(self, view: View | State, seat: int, template: Action) -> list[Action]:
        """Concrete fillings of ``template`` (the game's ``game_discretise``, else
        :func:`params.grid`); ``view`` is the seat's view (or the state in-process)."""
        out = self._hook.game_discretise(state=view, seat=seat, template=template)
        return list(out) if out else params.grid(template)

    def concrete_actions(self, state: State, seat: int,
                         legal: list[Action] | None = None) -> list[Action]:
        """The legal actions with every template replaced by its discretisation
        (identical to :meth:`legal_actions` for a game without templates)."""
        legal = self._legal(state, seat) if legal is None else legal
        if not any(params.is_template(a) for a in legal):
            return legal
        view = self._view(state, seat)
        out: list[Action] = []
        for a in legal:
            out += self.discretise(view, seat, a) if params.is_template(a) else [a]
        return out

    def default_action(self, state: State, seat: int) -> Action | None:
        """The game's action for a seat out of time (``game_default_action``), or None."""
        if not self.has_default_action:
            return None
        action: Action | None = self._hook.game_default_action(state=state, seat=seat)
        return action

    def query(self, view: View, seat: int | None, query: Any) -> Any:
        """Answer ``query`` from ``view`` only (the game's ``game_query``).

        Raises:
            IllegalAction: the game has no queries, or refused this one.
        """
        if not self.has_query:
            raise IllegalAction(f"{self.id} answers no queries")
        if not isinstance(query, dict) or not isinstance(query.get("type"), str):
            raise IllegalAction(f"a query is a map with a string 'type', got {query!r}")
        return self._hook.game_query(view=view, seat=seat, query=query)

    # -- information ----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return self._view(state, seat)

    def view_parts(self, state: State) -> tuple[View, list[View]] | None:
        """``(public, own)`` if the game splits its views (``game_view_parts``), else None."""
        return self._view_parts(state) if self._view_parts is not None else None

    def scores(self, state: State) -> Scores:
        return self._hook.game_scores(state=state)

    def sample_state(self, view: View, seat: int, rng: random.Random) -> State:
        if not self.has_sampler:
            raise NotImplementedError(f"{self.id} does not implement game_sample_state")
        return self._hook.game_sample_state(view=view, seat=seat, rng=rng)

    def heuristic(self, state: State, seat: int) -> float:
        """The game's own estimate if it has one, else score margin over the best rival."""
        if self.has_heuristic:
            value = self._hook.game_heuristic(state=state, seat=seat)
            if value is not None:
                return float(value)
        scores = self.scores(state)["scores"]
        rivals = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(rivals) if rivals else 0))

    # -- words for people (fallbacks so every game speaks) -----------------------

    def describe(self, state: State, seat: int, action: Action,
                 names: list[str] | None = None) -> str:
        """The label of ``action`` for a person: the game's own, else ``type(k=v, ...)``."""
        names = names if names is not None else _seat_names(state, seat)
        text = self._hook.game_describe_action(state=state, seat=seat, action=action,
                                               names=names)
        if text:
            return str(text)
        rest = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
        return f"{action['type']}({rest})" if rest else str(action["type"])

    def describe_event(self, view: View, seat: int | None, event: Event,
                       names: list[str]) -> str:
        """One sentence for ``event`` as ``seat`` sees it; a generic one if the game
        has none."""
        text = self._hook.game_describe_event(view=view, seat=seat, event=event, names=names)
        if text:
            return str(text)
        return generic_event_sentence(event, names)

    def render_text(self, view: View, seat: int | None, names: list[str]) -> Any:
        """The game's text board for ``view`` (a str or a rich renderable), else one
        line per view key."""
        board = self._hook.game_render_text(view=view, seat=seat, names=names)
        if board is not None:
            return board
        return generic_board(view)

    def web_renderer(self) -> Any:
        """The folder of the game's browser renderer (``game_web_renderer``), or None."""
        if not self.pm.hook.game_web_renderer.get_hookimpls():
            return None
        folder = self._hook.game_web_renderer()
        if folder is None:
            return None
        return folder if hasattr(folder, "joinpath") else Path(folder)

    def undo_barrier(self, events: list[Event], state: State) -> bool:
        """Whether no undo may go back across the action that caused ``events``
        (``game_undo_barrier``); True for a game that does not say (undo refused: the
        safe default)."""
        if self._undo_barrier is None:
            return True
        return self._undo_barrier(events, state) is not False

    @staticmethod
    def clone(state: State) -> State:
        """A deep copy of a plain-data state (for search and speculative play)."""
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def _seat_names(state: State, seat: int) -> list[str]:
    n = max(seat + 1, len(state.get("players", []) or []) if isinstance(state, dict) else 0)
    return [f"seat {i}" for i in range(n)]


def _short(value: object, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def generic_event_sentence(event: Event, names: list[str]) -> str:
    """``"Bob: bid (amount 11)"``: the event's type in words, its seat as a name, and
    its other fields; what a game without :func:`game_describe_event` shows."""
    words = str(event.get("type", "event")).replace("_", " ")
    who = event.get("seat")
    rest = [f"{k.replace('_', ' ')} {_short(v)}" for k, v in event.items()
            if k not in ("type", "seat", "to")]
    sentence = words + (f" ({', '.join(rest)})" if rest else "")
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
        return f"{names[who]}: {sentence}"
    return sentence[:1].upper() + sentence[1:]


def generic_board(view: View) -> str:
    """One ``key: value`` line per view key: the board of a game without
    :func:`game_render_text`."""
    if not isinstance(view, dict):
        return _short(view, 2000)
    width = max((len(str(k)) for k in view), default=0)
    return "\n".join(f"{str(k).ljust(width)}  {_short(v, 200)}" for k, v in view.items())


def _bind(pm: pluggy.PluginManager, name: str, omit: tuple[str, ...] = ()
          ) -> Callable[..., Any]:
    """A positional caller for hook ``name`` of a one-game manager.

    A game manager holds exactly one plugin, so a firstresult call is a call of
    its one implementation; calling it directly saves pluggy's dispatch (several
    microseconds, on every action of every table). Opt-in arguments still work:
    the implementation gets just the arguments it names. Anything unusual (a
    wrapper, several implementations) goes through pluggy as usual.
    """
    caller = getattr(pm.hook, name)
    impls = caller.get_hookimpls()
    # ``omit``: spec arguments the caller leaves out unless the implementation takes
    # them (``decks``: only games with hidden decks get one, through the facade).
    spec_args = [a for a in caller.spec.argnames
                 if a not in omit or any(a in i.argnames for i in impls)]
    if len(impls) != 1 or impls[0].hookwrapper or impls[0].wrapper:
        return lambda *args: caller(**dict(zip(spec_args, args, strict=True)))
    fn = impls[0].function
    wanted = list(impls[0].argnames)
    if wanted == spec_args:
        return fn
    picks = [spec_args.index(a) for a in wanted]
    return lambda *args: fn(*[args[i] for i in picks])


def _same_kind(value: object, default: object) -> bool:
    """An option value of the default's kind: an int for an int (never a float, which
    would fault the game later), an int or a float for a float, a bool only for a bool."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, int):
        return isinstance(value, int)
    return isinstance(value, type(default))


def _check_info(info: Any, name: str) -> GameInfo:
    def bad(why: str) -> PluginError:
        return PluginError(f"game plugin {name!r}: game_info() {why}; got {info!r}", name)

    if not isinstance(info, dict):
        raise bad("must return a dict")
    for key, kind in (("id", str), ("title", str), ("version", str), ("min_seats", int),
                      ("max_seats", int), ("options", dict)):
        if not isinstance(info.get(key), kind):
            raise bad(f"needs {key!r} of type {kind.__name__}")
    if not _GAME_ID.match(info["id"]):
        raise bad("'id' must match [a-z0-9][a-z0-9-]*")
    if not 1 <= info["min_seats"] <= info["max_seats"]:
        raise bad("needs 1 <= min_seats <= max_seats")
    for key, spec in info["options"].items():
        if not isinstance(spec, dict) or "default" not in spec:
            raise bad(f"option {key!r} needs a dict with 'default'")
    info = dict(info)
    info.setdefault("traits", {})
    return info


class Registry:
    """The installed games by id, plus the plugins that failed to load.

    A broken plugin never stops the others: its error is kept in :attr:`errors`
    (for the host to log and the CLI to show) and its game is simply absent.
    """

    def __init__(self, pm: pluggy.PluginManager, errors: list[PluginError] | None = None) -> None:
        self.pm = pm
        self.errors: list[PluginError] = list(errors or [])
        self.games: dict[str, Game] = {}
        for name, plugin in pm.list_name_plugin():
            if not hasattr(plugin, "game_info"):
                continue  # an observer, not a game
            try:
                game = Game(plugin, name)
            except PluginError as exc:
                self.errors.append(exc)
                continue
            if game.id in self.games:
                self.errors.append(
                    PluginError(f"duplicate game id {game.id!r} from {name!r}", name))
                continue
            self.games[game.id] = game

    def __getitem__(self, game_id: str) -> Game:
        try:
            return self.games[game_id]
        except KeyError:
            cause = self.load_error(game_id)
            if cause is not None:  # installed, but broken: say why, not "no game"
                raise KeyError(f"game {game_id!r} is installed but did not load: "
                               f"{cause}") from None
            raise KeyError(f"no game {game_id!r}; installed: {sorted(self.games)}") from None

    def load_error(self, game_id: str) -> PluginError | None:
        """Why the plugin of ``game_id`` (its entry point's or registered name) did not
        load, or None."""
        for err in self.errors:
            if err.plugin == game_id or f"{game_id!r}" in str(err):
                return err
        return None

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.games


def make_plugin_manager(*, autoload: bool | None = None,
                        plugins: dict[str, object] | None = None,
                        ) -> tuple[pluggy.PluginManager, list[PluginError]]:
    """The shared plugin manager with every game and observer.

    Args:
        autoload: load the ``lantable.games`` entry points; ``None`` means yes
            unless ``LANTABLE_DISABLE_PLUGIN_AUTOLOAD`` is set.
        plugins: extra plugins by name, registered after the entry points (tests,
            house rules).

    Returns:
        The manager and the load errors of plugins that could not be imported.
    """
    pm = _new_manager()
    errors: list[PluginError] = []
    if autoload is None:
        autoload = not os.environ.get(AUTOLOAD_ENV)
    if autoload:
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            if pm.get_plugin(ep.name) is not None:
                continue
            try:
                pm.register(ep.load(), name=ep.name)
            except Exception as exc:  # a broken third-party game must not stop the rest
                errors.append(PluginError(
                    f"cannot load game {ep.name!r} ({ep.value}): {exc!r}", ep.name))
    for name, plugin in (plugins or {}).items():
        try:
            pm.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            errors.append(PluginError(f"cannot register plugin {name!r}: {exc}", name))
    return pm, errors


def load_registry(*, autoload: bool | None = None,
                  plugins: dict[str, object] | None = None) -> Registry:
    """Shortcut: :func:`make_plugin_manager` then :class:`Registry`."""
    pm, errors = make_plugin_manager(autoload=autoload, plugins=plugins)
    return Registry(pm, errors)
