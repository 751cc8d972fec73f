"""The plugin machinery: registration, routing, validation, loading, the Game facade.

Every game here is defined inline (a coin flip, a game with a hidden card) and every
entry point is a fake, so no test depends on what happens to be installed.
"""

from __future__ import annotations

import importlib.metadata
import random
from typing import Any

import pytest

from lantable.plugins import (
    ENTRY_POINT_GROUP,
    BadOptions,
    Game,
    IllegalAction,
    PluginError,
    Registry,
    hookimpl,
    load_registry,
)
from lantable.plugins import registry as registry_module

# -- tiny games ------------------------------------------------------------------


class CoinFlip:
    """Each seat in turn calls heads or tails; then one coin toss; right calls score 1."""

    def __init__(self, game_id: str = "coin", **info: Any) -> None:
        self.info = {
            "id": game_id, "title": "Coin flip", "version": "1", "min_seats": 1, "max_seats": 3,
            "options": {
                "sides": {"default": "hc", "choices": ["hc", "ht"], "help": "coin faces"},
                "rounds": {"default": 1, "help": "calls per seat"},
                "loud": {"default": False, "help": "shout"},
            },
            **info,
        }
        self.calls: list[str] = []

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return self.info

    @hookimpl
    def game_setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        self.calls.append("setup")
        if options["rounds"] < 1:
            raise IllegalAction("rounds must be at least 1")
        return {"seats": seats, "calls": [], "coin": None, "options": options}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        self.calls.append("to_act")
        n = len(state["calls"])
        return [n] if n < state["seats"] else []

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        self.calls.append("legal")
        if self.game_to_act(state) != [seat]:
            return []
        return [{"type": "call", "side": "heads"}, {"type": "call", "side": "tails"}]

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                   rng: random.Random) -> list[dict[str, Any]]:
        self.calls.append("apply")
        if action["type"] != "call" or action.get("side") not in ("heads", "tails"):
            raise IllegalAction(f"bad call {action!r}")
        state["calls"].append(action["side"])
        events = [{"type": "called", "seat": seat}]
        if len(state["calls"]) == state["seats"]:
            state["coin"] = rng.choice(["heads", "tails"])
            events.append({"type": "tossed", "coin": state["coin"]})
        return events

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        self.calls.append("view")
        return {"calls": list(state["calls"]), "coin": state["coin"]}

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("scores")
        scores = [int(c == state["coin"]) for c in state["calls"]]
        scores += [0] * (state["seats"] - len(scores))
        return {"scores": scores, "rank": [1 if s == max(scores) else 2 for s in scores]}


class HiddenCard(CoinFlip):
    """Each seat holds a secret card; opt-in arguments: hooks take fewer args than specs."""

    def __init__(self) -> None:
        super().__init__("hidden", traits={"chance": True, "hidden_information": True,
                                           "simultaneous": False})

    @hookimpl
    def game_setup(self, seats: int, rng: random.Random) -> dict[str, Any]:  # no options
        return {"seats": seats, "calls": [], "coin": None,
                "cards": [rng.randrange(10) for _ in range(seats)]}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["coin"] is not None else [len(state["calls"])]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        view = {"calls": list(state["calls"]), "coin": state["coin"]}
        if seat is not None:
            view["card"] = state["cards"][seat]
        return view

    @hookimpl
    def game_sample_state(self, view: dict[str, Any], seat: int) -> dict[str, Any]:  # no rng
        raise AssertionError("not called in these tests")

    @hookimpl
    def game_describe_action(self, action: dict[str, Any]) -> str:  # action only
        return f"call {action['side']}"

    @hookimpl
    def game_heuristic(self, state: dict[str, Any], seat: int) -> float:
        return 0.25 * seat


class Observer:
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    @hookimpl
    def table_started(self, table_id: str, game_id: str, seats: int,
                      options: dict[str, Any]) -> None:
        self.seen.append(("started", (table_id, game_id, seats, options)))

    @hookimpl
    def table_action(self, table_id: str, seq: int, seat: int, action: dict[str, Any],
                     events: list[dict[str, Any]]) -> None:
        self.seen.append(("action", (table_id, seq, seat, action["type"], len(events))))

    @hookimpl
    def table_finished(self, table_id: str, scores: dict[str, Any]) -> None:
        self.seen.append(("finished", (table_id, scores["rank"])))


def registry(**plugins: object) -> Registry:
    return load_registry(autoload=False, plugins=plugins)


def rng() -> random.Random:
    return random.Random(7)


@pytest.fixture(autouse=True)
def _no_autoload_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(registry_module.AUTOLOAD_ENV, raising=False)


# -- registering -------------------------------------------------------------------


def test_a_game_registers_under_its_id() -> None:
    reg = registry(coin_plugin=CoinFlip())
    assert reg.errors == []
    assert list(reg.games) == ["coin"]
    assert "coin" in reg
    assert "nope" not in reg
    assert reg["coin"].info["traits"] == {}  # filled in when absent
    with pytest.raises(KeyError, match="installed: \\['coin'\\]"):
        reg["nope"]


def test_each_game_hook_reaches_exactly_one_game() -> None:
    coin, hidden = CoinFlip(), HiddenCard()
    reg = registry(a=coin, b=hidden)
    assert sorted(reg.games) == ["coin", "hidden"]
    game = reg["coin"]
    state = game.setup(2, None, rng())
    game.to_act(state)
    game.legal_actions(state, 0)
    game.apply(state, 0, {"type": "call", "side": "heads"}, rng())
    game.view(state, 0)
    game.scores(state)
    assert coin.calls
    assert hidden.calls == []
    coin.calls.clear()
    other = reg["hidden"]
    hstate = other.setup(2, None, rng())
    other.apply(hstate, 0, {"type": "call", "side": "tails"}, rng())
    other.legal_actions(hstate, 1)
    other.view(hstate, 1)
    other.scores(hstate)
    assert "cards" in hstate
    assert coin.calls == []
    assert hidden.calls  # its inherited hooks (legal, scores) ran on its own instance


def test_opt_in_arguments_impls_may_take_fewer_args() -> None:
    game = registry(h=HiddenCard())["hidden"]
    state = game.setup(3, {"rounds": 2}, rng())
    assert len(state["cards"]) == 3
    assert game.view(state, 1)["card"] == state["cards"][1]
    assert "card" not in game.view(state, None)
    assert game.describe(state, 0, {"type": "call", "side": "heads"}) == "call heads"
    assert game.has_sampler
    assert game.has_heuristic


def test_a_typod_hook_name_fails_naming_the_plugin() -> None:
    class Typo(CoinFlip):
        @hookimpl
        def game_aply(self, state: dict[str, Any]) -> None: ...

    reg = registry(typo_plugin=Typo())
    assert reg.games == {}
    [err] = reg.errors
    assert isinstance(err, PluginError)
    assert err.plugin == "typo_plugin"
    assert "typo_plugin" in str(err)
    assert "game_aply" in str(err)


def test_a_hook_with_an_unknown_argument_fails() -> None:
    class Extra(CoinFlip):
        @hookimpl
        def game_to_act(self, state: dict[str, Any], turn: int) -> list[int]:
            return []

    with pytest.raises(PluginError, match="extra"):
        Game(Extra(), "extra")


def test_missing_required_hooks_are_named() -> None:
    class Half:
        @hookimpl
        def game_info(self) -> dict[str, Any]:
            return CoinFlip().info

        @hookimpl
        def game_setup(self, seats: int) -> dict[str, Any]:
            return {}

    with pytest.raises(PluginError, match="half.*game_to_act") as info:
        Game(Half(), "half")
    assert info.value.plugin == "half"
    assert "game_scores" in str(info.value)


@pytest.mark.parametrize(
    ("info", "why"),
    [
        ([], "must return a dict"),
        ({"id": 3}, "needs 'id' of type str"),
        ({"id": "Coin Flip"}, "'id' must match"),
        ({"id": "-coin"}, "'id' must match"),
        ({"min_seats": 4, "max_seats": 2}, "min_seats <= max_seats"),
        ({"min_seats": 0}, "min_seats <= max_seats"),
        ({"max_seats": "3"}, "'max_seats'"),
        ({"options": {"speed": {"help": "no default"}}}, "option 'speed' needs"),
        ({"options": {"speed": 3}}, "option 'speed' needs"),
    ],
)
def test_bad_game_info_is_refused(info: Any, why: str) -> None:
    plugin = CoinFlip()
    plugin.info = info if not isinstance(info, dict) else {**plugin.info, **info}
    reg = registry(bad=plugin)
    assert reg.games == {}
    [err] = reg.errors
    assert err.plugin == "bad"
    assert why in str(err)


def test_game_info_raising_is_a_plugin_error() -> None:
    class Raises(CoinFlip):
        @hookimpl
        def game_info(self) -> dict[str, Any]:
            raise RuntimeError("boom")

    reg = registry(raises=Raises(), ok=CoinFlip("ok"))
    assert list(reg.games) == ["ok"]
    [err] = reg.errors
    assert err.plugin == "raises"
    assert "boom" in str(err)


def test_a_duplicate_id_keeps_the_first_and_reports_the_second() -> None:
    first, second = CoinFlip(), CoinFlip()
    reg = registry(first=first, second=second)
    assert reg["coin"].plugin is first
    [err] = reg.errors
    assert err.plugin == "second"
    assert "duplicate game id 'coin'" in str(err)


def test_one_plugin_under_two_names_is_an_error_not_a_crash() -> None:
    coin = CoinFlip()
    reg = registry(a=coin, b=coin)
    assert list(reg.games) == ["coin"]
    [err] = reg.errors
    assert err.plugin == "b"
    assert "cannot register plugin 'b'" in str(err)


def test_observers_are_not_games() -> None:
    reg = registry(coin=CoinFlip(), obs=Observer())
    assert list(reg.games) == ["coin"]
    assert reg.errors == []


# -- entry points --------------------------------------------------------------------


class FakeEntryPoint:
    """Just what make_plugin_manager uses of importlib.metadata.EntryPoint."""

    def __init__(self, name: str, value: str, plugin: object = None,
                 error: Exception | None = None) -> None:
        self.name, self.value, self.group = name, value, ENTRY_POINT_GROUP
        self._plugin, self._error = plugin, error

    def load(self) -> object:
        if self._error is not None:
            raise self._error
        return self._plugin


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> list[FakeEntryPoint]:
    eps: list[FakeEntryPoint] = []
    asked: list[str] = []

    def entry_points(*, group: str) -> list[FakeEntryPoint]:
        asked.append(group)
        return list(eps) if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    eps.append(FakeEntryPoint("coin", "fake_coin", CoinFlip()))
    eps.append(FakeEntryPoint("broken", "fake_broken", error=ImportError("No module named 'x'")))
    eps.append(FakeEntryPoint("hidden", "fake_hidden", HiddenCard()))
    return eps


def test_entry_points_load_and_a_broken_one_is_kept_in_errors(
        fake_entry_points: list[FakeEntryPoint]) -> None:
    reg = load_registry(autoload=True)
    assert sorted(reg.games) == ["coin", "hidden"]
    [err] = reg.errors
    assert err.plugin == "broken"
    assert "fake_broken" in str(err)
    assert "No module named 'x'" in str(err)


def test_autoload_env_var_is_the_default(fake_entry_points: list[FakeEntryPoint],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert sorted(load_registry().games) == ["coin", "hidden"]
    monkeypatch.setenv(registry_module.AUTOLOAD_ENV, "1")
    assert load_registry().games == {}
    assert load_registry().errors == []
    assert sorted(load_registry(autoload=True).games) == ["coin", "hidden"]  # argument wins


def test_autoload_off_by_argument(fake_entry_points: list[FakeEntryPoint]) -> None:
    reg = load_registry(autoload=False, plugins={"mine": CoinFlip("mine")})
    assert list(reg.games) == ["mine"]
    assert reg.errors == []


# -- Game facade ------------------------------------------------------------------------


@pytest.fixture
def coin() -> Game:
    return Game(CoinFlip(), "coin")


def test_options_fill_defaults_and_check_values(coin: Game) -> None:
    assert coin.options() == {"sides": "hc", "rounds": 1, "loud": False}
    assert coin.options({"rounds": 3, "sides": "ht"}) == {"sides": "ht", "rounds": 3, "loud": False}
    for number in (2.5, 2.0):  # a float for an int faults a game later (issue 9, finding 3)
        with pytest.raises(BadOptions, match="expected int"):
            coin.options({"rounds": number})
    with pytest.raises(BadOptions, match="unknown option.*'speed'"):
        coin.options({"speed": 1})
    with pytest.raises(BadOptions, match="expected one of"):
        coin.options({"sides": "hh"})
    with pytest.raises(BadOptions, match="expected int"):
        coin.options({"rounds": "2"})
    with pytest.raises(BadOptions, match="expected int"):
        coin.options({"rounds": True})
    with pytest.raises(BadOptions, match="expected bool"):
        coin.options({"loud": 1})


def test_options_min_max_and_the_game_own_choice_value() -> None:
    class Dial:
        @hookimpl
        def game_info(self):
            return {"id": "dial", "title": "Dial", "version": "1", "min_seats": 1,
                    "max_seats": 2, "options": {
                        "level": {"default": 3, "min": 1, "max": 9},
                        "speed": {"default": 1.5, "max": 10},
                        "mode": {"default": 1, "choices": [1, 2]}}}

        @hookimpl
        def game_setup(self, seats, options, rng):
            return {}

        game_to_act = game_legal_actions = game_apply = game_view = game_scores = None

    for name in ("game_to_act", "game_legal_actions", "game_apply", "game_view",
                 "game_scores"):
        setattr(Dial, name, hookimpl(lambda self, **kw: None))
    dial = Game(Dial(), "dial")
    assert dial.options({"level": 9, "speed": 2}) == {"level": 9, "speed": 2.0, "mode": 1}
    assert type(dial.options({"speed": 2})["speed"]) is float
    for bad in ({"level": 0}, {"level": 10}, {"speed": 10.5}, {"mode": 3}, {"mode": True}):
        with pytest.raises(BadOptions):
            dial.options(bad)
    chosen = dial.options({"mode": 2.0})["mode"]  # equal to a choice: the game's own value
    assert chosen == 2 and type(chosen) is int


def test_setup_checks_seats_and_turns_a_refusal_into_bad_options(coin: Game) -> None:
    assert coin.setup(1, None, rng())["seats"] == 1
    assert coin.setup(3, None, rng())["seats"] == 3
    for seats in (0, 4, "2", None):
        with pytest.raises(BadOptions, match="expected 1..3"):
            coin.setup(seats, None, rng())  # type: ignore[arg-type]
    with pytest.raises(BadOptions, match="rounds must be at least 1") as info:
        coin.setup(2, {"rounds": 0}, rng())
    assert isinstance(info.value.__cause__, IllegalAction)


def test_apply_refuses_a_seat_not_to_act_and_a_non_map_action(coin: Game) -> None:
    plugin = coin.plugin
    state = coin.setup(2, None, rng())
    plugin.calls.clear()  # type: ignore[attr-defined]
    table_rng = rng()
    saved = table_rng.getstate()
    with pytest.raises(IllegalAction, match="seat 1 is not to act"):
        coin.apply(state, 1, {"type": "call", "side": "heads"}, table_rng)
    for bad in (["call"], "call", None, {"side": "heads"}, {"type": 3}):
        with pytest.raises(IllegalAction, match="a map with a string 'type'"):
            coin.apply(state, 0, bad, table_rng)  # type: ignore[arg-type]
    assert "apply" not in plugin.calls  # type: ignore[attr-defined]
    assert state["calls"] == []
    assert table_rng.getstate() == saved
    assert coin.apply(state, 0, {"type": "call", "side": "heads"}, rng()) == [
        {"type": "called", "seat": 0}]


def test_a_game_refusal_leaves_state_and_rng_unchanged() -> None:
    # The invariant is the game's (validate, then draw, then mutate): the facade
    # does not snapshot the rng per action. The coin game validates first.
    game = Game(CoinFlip(), "coin")
    table_rng = rng()
    state = game.setup(1, None, table_rng)
    before, saved = game.clone(state), table_rng.getstate()
    for bad in ({"type": "call", "side": "edge"}, {"type": "__nope__"}):
        with pytest.raises(IllegalAction, match="bad call"):
            game.apply(state, 0, bad, table_rng)
    assert state == before
    assert table_rng.getstate() == saved
    assert [e["type"] for e in game.apply(state, 0, {"type": "call", "side": "tails"},
                                          table_rng)] == ["called", "tossed"]
    assert table_rng.getstate() != saved  # the toss drew, after validation


def test_apply_returns_a_list_when_the_game_returns_none() -> None:
    class Quiet(CoinFlip):
        @hookimpl
        def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
            state["calls"].append("heads")

    game = Game(Quiet(), "quiet")
    state = game.setup(1, None, rng())
    assert game.apply(state, 0, {"type": "call"}, rng()) == []
    assert game.is_over(state)


def test_clone_is_independent(coin: Game) -> None:
    state = coin.setup(2, None, rng())
    copy = coin.clone(state)
    assert copy == state
    coin.apply(copy, 0, {"type": "call", "side": "tails"}, rng())
    copy["options"]["rounds"] = 99
    assert state["calls"] == []
    assert state["options"]["rounds"] == 1


def test_heuristic_falls_back_to_score_margin(coin: Game) -> None:
    state = coin.setup(3, None, rng())
    state.update(calls=["heads", "tails", "heads"], coin="heads")
    assert [coin.heuristic(state, s) for s in range(3)] == [0.0, -1.0, 0.0]
    solo = coin.setup(1, None, rng())
    solo.update(calls=["heads"], coin="heads")
    assert coin.heuristic(solo, 0) == 1.0  # no rival: the score itself


def test_heuristic_uses_the_games_own_and_none_falls_back() -> None:
    class NoIdea(CoinFlip):
        @hookimpl
        def game_heuristic(self, state: dict[str, Any], seat: int) -> None:
            return None

    hidden = Game(HiddenCard(), "hidden")
    state = hidden.setup(2, None, rng())
    assert hidden.heuristic(state, 1) == 0.25
    noidea = Game(NoIdea(), "noidea")
    state = noidea.setup(2, None, rng())
    assert noidea.heuristic(state, 0) == 0.0


def test_describe_falls_back_to_type_and_fields(coin: Game) -> None:
    state = coin.setup(2, None, rng())
    assert coin.describe(state, 0, {"type": "call", "side": "heads"}) == "call(side=heads)"
    assert coin.describe(state, 0, {"type": "pass"}) == "pass"


def test_sample_state_without_the_hook_is_not_implemented(coin: Game) -> None:
    assert not coin.has_sampler
    assert not coin.has_heuristic
    with pytest.raises(NotImplementedError, match="coin"):
        coin.sample_state({}, 0, rng())


def test_a_full_coin_game_is_deterministic(coin: Game) -> None:
    def play(seed: int) -> tuple[Any, ...]:
        r = random.Random(seed)
        state = coin.setup(3, None, r)
        events = []
        while not coin.is_over(state):
            seat = coin.to_act(state)[0]
            events += coin.apply(state, seat, coin.legal_actions(state, seat)[0], r)
        return state["coin"], events, coin.scores(state)

    assert play(1) == play(1)


# -- observers ---------------------------------------------------------------------------


def test_observer_hooks_reach_every_registered_observer() -> None:
    class GameObserver(CoinFlip, Observer):
        def __init__(self) -> None:
            CoinFlip.__init__(self, "watched")
            Observer.__init__(self)

    one, two, game_too = Observer(), Observer(), GameObserver()
    reg = registry(one=one, two=two, coin=CoinFlip(), watched=game_too)
    assert sorted(reg.games) == ["coin", "watched"]
    hook = reg.pm.hook
    assert hook.table_started(table_id="t1", game_id="coin", seats=2, options={}) == []
    hook.table_action(table_id="t1", seq=1, seat=0, action={"type": "call"},
                      events=[{"type": "called"}])
    hook.table_finished(table_id="t1", scores={"scores": [1, 0], "rank": [1, 2]})
    expected = [
        ("started", ("t1", "coin", 2, {})),
        ("action", ("t1", 1, 0, "call", 1)),
        ("finished", ("t1", [1, 2])),
    ]
    assert one.seen == two.seen == game_too.seen == expected


def test_observer_hooks_are_not_game_hooks() -> None:
    # A game's private manager holds only that game: an observer never sees game calls.
    obs = Observer()
    reg = registry(obs=obs, coin=CoinFlip())
    game = reg["coin"]
    assert game.pm.get_plugins() == {game.plugin}
    state = game.setup(1, None, rng())
    game.apply(state, 0, {"type": "call", "side": "heads"}, rng())
    assert obs.seen == []
