"""Every ordinary CLI mistake ends in one line on stderr, a non-zero exit and no
traceback. Most run `lantable` as a real process against a real host."""

from __future__ import annotations

import socket
import subprocess

import pytest
import trio

from lantable.clients import cli, client
from lantable.clients.commands import common
from lantable.plugins import hookimpl, load_registry

from .tty import LANTABLE, Host, free_port


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    host = Host(tmp_path_factory.mktemp("errors") / "journal.sqlite").start()
    host.table = host.run("new", "race", "--connect", host.address, "--seats", "1").strip()
    yield host
    host.kill()


def _one_line_error(args: list[str], *expected: str) -> str:
    proc = subprocess.run([*LANTABLE, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    err = proc.stderr
    assert proc.returncode != 0, (args, proc.stdout)
    assert "Traceback" not in err, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    for text in expected:
        assert text in err, (text, err)
    return err


# (arguments, texts the one line must contain); "{host}" and "{table}" are filled in.
MISTAKES = [
    (["demo", "--players", "9"], "manila takes 3-5 players, not 9"),
    (["demo", "--game", "chess"], "no game 'chess' is installed", "manila"),
    (["simulate", "race", "--players", "2", "--strategy", "best"], "unknown strategy 'best'"),
    (["simulate", "race", "--players", "99"], "race takes 1-8 players"),
    (["new", "race", "--seats", "2", "--connect", "127.0.0.1:{free}"],
     "connection refused", "lantable host"),
    (["play", "--table", "abc", "--connect", "127.0.0.1:{free}"], "connection refused"),
    (["bot", "--table", "abc", "--connect", "127.0.0.1:{free}"], "connection refused"),
    (["new", "chess", "--seats", "2", "--connect", "{host}"],
     "refused", "chess", "install the game", "restart"),
    (["play", "--table", "nosuchtable", "--connect", "{host}"], "nosuchtable", "lantable peers"),
    (["play", "--table", "{table}", "--connect", "{host}", "--token", "bogus"], "not valid"),
    (["new", "race", "--seats", "0", "--connect", "{host}"], "seats"),
    (["play", "--connect", "{host}"], "--table"),
    (["bot", "--table", "x", "--seat", "1", "--count", "2"], "--seat takes one seat"),
    (["new", "race"], "--seats"),
    (["new", "race", "--seats", "two"], "invalid int value"),
    (["play", "--connect", "nohostport", "--table", "x"], "expected HOST:PORT"),
    (["replay", "--db", "/nonexistent/j.sqlite", "--table", "x"], "no journal at"),
    (["replay", "--db", "/nonexistent/j.sqlite"], "--table", "--web"),
    (["replay", "--web", "/nonexistent/j.sqlite"], "no journal at"),
    (["games", "--nope"], "unrecognized arguments"),
    (["nosuchcommand"], "invalid choice"),
    # issue 26, item 5: --hidden-decks alone was silently ignored (then "NOT FAIR PLAY")
    (["new", "nero", "--seats", "2", "--hidden-decks", "--connect", "{host}"],
     "--hidden-decks needs --fair"),
    (["demo", "--game", "nero", "--players", "3", "--hidden-decks"],
     "--hidden-decks needs --fair"),
]


@pytest.mark.parametrize(("args", "expected"), [(m[0], m[1:]) for m in MISTAKES],
                         ids=[" ".join(m[0])[:40] for m in MISTAKES])
def test_a_mistake_is_one_line(host, args, expected):
    free = str(free_port())
    filled = [a.format(host=host.address, table=host.table, free=free) for a in args]
    _one_line_error(filled, *expected)


def test_a_port_in_use_suggests_another(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        _one_line_error(["host", "--bind", "127.0.0.1", "--port", str(port), "--no-discovery",
                         "--db", str(tmp_path / "j.sqlite")], f"port {port} is already in use",
                        "--port")


def test_bare_lantable_prints_the_help():
    proc = subprocess.run(LANTABLE, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "usage: lantable" in proc.stdout
    assert "lantable demo" in proc.stdout and "``" not in proc.stdout


def test_every_option_has_a_help_line_and_every_command_an_example(capsys):
    parser = cli.build_parser()
    commands = parser._subparsers._group_actions[0].choices  # noqa: SLF001
    for name, sub in commands.items():
        assert sub.description and "example:" in (sub.epilog or ""), name
        for action in sub._actions:  # noqa: SLF001
            assert action.help, (name, action.dest)
        with pytest.raises(SystemExit):
            cli.main([name, "--help"])
        text = capsys.readouterr().out
        assert "``" not in text and ":param" not in text, name


def test_games_prints_options_as_option_takes_them(capsys):
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    assert "--option stowaway_rule=literal  (one of: literal, broke_no_insurance)" in out
    assert "--option hide_cash=false" in out


class NoSampler:
    @hookimpl
    def game_info(self):
        return {"id": "blind", "title": "Blind", "version": "1", "min_seats": 1,
                "max_seats": 2, "options": {},
                "traits": {"hidden_information": True}}

    @hookimpl
    def game_setup(self, seats, options, rng):
        return {"done": False}

    @hookimpl
    def game_to_act(self, state):
        return [] if state["done"] else [0]

    @hookimpl
    def game_legal_actions(self, state, seat):
        return [{"type": "end"}] if not state["done"] else []

    @hookimpl
    def game_apply(self, state, seat, action, rng):
        state["done"] = True
        return []

    @hookimpl
    def game_view(self, state, seat):
        return {"done": state["done"]}

    @hookimpl
    def game_scores(self, state):
        return {"scores": [0], "rank": [1]}


@pytest.mark.parametrize("strategy", ["greedy", "mcts"])
def test_a_search_bot_for_a_game_without_a_sampler_says_so(monkeypatch, capfd, strategy):
    monkeypatch.setattr(common, "load_registry",
                        lambda: load_registry(autoload=False, plugins={"blind": NoSampler()}))
    assert cli.main(["demo", "--game", "blind", "--strategy", strategy]) == 1
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "game_sample_state" in err and "--strategy random" in err


def test_a_peer_that_never_answers_is_a_timeout(monkeypatch, capfd):
    monkeypatch.setattr(client, "CONNECT_TIMEOUT", 0.3)
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen()
        address = f"127.0.0.1:{mute.getsockname()[1]}"
        assert cli.main(["new", "race", "--seats", "1", "--connect", address]) == 1
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "did not answer in time" in err


class _ThreadHost:
    """A peer in a thread of this process, serving the games of ``registry`` (so a
    test game reaches `lantable bot` run in-process with the same registry)."""

    def __init__(self, registry, db: str) -> None:
        import threading

        self.ready = threading.Event()
        self.registry, self.db = registry, db
        self.thread = threading.Thread(target=lambda: trio.run(self._main), daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    async def _main(self) -> None:
        from lantable.host.peer import serve_peer

        self.token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as self.scope:
            async with trio.open_nursery() as nursery:
                self.running = await nursery.start(lambda task_status: serve_peer(
                    registry=self.registry, db=self.db, bind="127.0.0.1", port=0,
                    task_status=task_status))
                self.ready.set()

    def stop(self) -> None:
        trio.from_thread.run_sync(self.scope.cancel, trio_token=self.token)
        self.thread.join(10)


@pytest.mark.parametrize("strategy", ["greedy", "mcts"])
def test_issue_26_a_search_bot_for_a_table_without_a_sampler_refuses_before_joining(
        monkeypatch, capfd, tmp_path, strategy):
    registry = load_registry(autoload=False, plugins={"blind": NoSampler()})
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    host = _ThreadHost(registry, str(tmp_path / "j.sqlite"))
    try:
        address = f"127.0.0.1:{host.running.port}"

        async def tables(create: bool) -> list:
            async with client.open_client("127.0.0.1", host.running.port, name="t") as c:
                if create:
                    await c.create("blind", 2)
                return await c.list_tables()

        (table,) = trio.run(tables, True)
        assert cli.main(["bot", "--connect", address, "--table", table["id"], "--count", "2",
                         "--strategy", strategy]) == 1
        err = capfd.readouterr().err
        assert err.count("\n") == 1, err
        assert "game_sample_state" in err and "--strategy random" in err, err
        (after,) = trio.run(tables, False)
        assert after["status"] == "waiting" and after == table, after  # no seat taken
    finally:
        host.stop()
