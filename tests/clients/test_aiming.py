"""Aiming by target in the terminal (clients/aiming.py): "sail s0 toward I3" and
"dock s0 at I1" become moves through the game's own queries, and the move does what
the sentence says when it is played."""

from __future__ import annotations

import io
import random
from types import SimpleNamespace

from rich.console import Console

from lantable.clients.aiming import aim
from lantable.clients.screen import Screen
from lantable.clients.terminal import TerminalDecider
from lantable.plugins import load_registry
from lantable.plugins.spanish_main import geometry as g
from lantable.plugins.spanish_main import world

GAME = load_registry()["pirates-spanish-main"]


def _game() -> dict:
    """Homes chosen, seat 0 to play, every ship of seat 0 but s0 off the table, s0 in
    open water 40 mm below a wild island's lowest point, bow up."""
    rng = random.Random(0)
    st = GAME.setup(2, {}, rng)
    while st["phase"] == "home":
        (seat,) = GAME.to_act(st)
        GAME.apply(st, seat, GAME.legal_actions(st, seat)[0], rng)
    st["turn"], st["pending"] = 0, []
    for s in st["ships"]:
        if s["id"] != "s0":
            s["sunk"], s["docked"] = True, None
    wild = next(i for i in st["islands"] if i["home"] is None)
    x = round(sum(p[0] for p in wild["poly"]) / len(wild["poly"]))
    low = min(p[1] for p in wild["poly"])
    s0 = world.ship(st, "s0")
    s0["pose"], s0["docked"], s0["acted"], s0["moved"] = [x, low - 4000, 900], None, None, False
    return st


def _aim(st: dict, text: str):
    return aim(GAME, GAME.view(st, 0), 0, GAME.legal_actions(st, 0), text)


def test_dock_s0_at_an_island_docks_there() -> None:
    st = _game()
    wild = next(i for i in st["islands"] if i["home"] is None)
    action, sentence = _aim(st, f"dock s0 at {wild['id']}")
    assert action["type"] == "move" and "params" not in action and len(action["segments"]) == 1
    assert f"docks at {wild['id']}" in sentence
    events = GAME.apply(st, 0, action, random.Random(0))
    assert {"type": "docked", "ship": "s0", "island": wild["id"]} in events


def test_sail_toward_an_island_by_ship_name_ends_where_the_query_said() -> None:
    st = _game()
    far = max(st["islands"], key=lambda i: g.distance(world.island_poly(i),
                                                      [tuple(world.ship(st, "s0")["pose"][:2])]))
    action, sentence = _aim(st, f"sail kestrel toward {far['id']}")
    answer = GAME.query(GAME.view(st, 0), 0, {"type": "sail", "ship": "s0",
                                              **action["segments"][0]})
    assert f"sails {answer['distance'] / 100:.1f} mm toward {far['id']}" in sentence
    GAME.apply(st, 0, action, random.Random(0))
    assert world.ship(st, "s0")["pose"] == answer["end"]


def test_aiming_explains_what_it_cannot_do() -> None:
    st = _game()
    assert _aim(st, "sail s9 toward I1")[0] is None
    assert "no island or ship" in _aim(st, "sail s0 toward I99")[1]
    action, why = _aim(st, "dock s0 at I99")
    assert action is None and "no island" in why
    home = next(i for i in st["islands"] if i["home"] == 1)
    action, why = _aim(st, f"dock s0 at {home['id']}")
    assert action is None and "cannot dock" in why
    assert _aim(st, "end turn") is None  # not an aiming command: the choices handle it


async def test_the_terminal_takes_an_aiming_command() -> None:
    st = _game()
    wild = next(i for i in st["islands"] if i["home"] is None)
    out = io.StringIO()
    screen = Screen(GAME, 0, Console(file=out, width=100))
    decider = TerminalDecider(screen, stdin=io.StringIO(f"dock s0 at {wild['id']}\n"))
    update = SimpleNamespace(view=GAME.view(st, 0))
    action = await decider(update, GAME.legal_actions(st, 0))
    assert action["type"] == "move" and action["ship"] == "s0"
    assert f"docks at {wild['id']}" in screen.notice
