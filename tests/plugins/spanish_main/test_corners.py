"""Pirates of the Spanish Main: corners of the rules an audit found wrong (issue 24),
one test per rule, named after its digest section.

Scenarios clear the sea (other ships off the table), place ships in the open water
between the two rows of islands and script the dice, as in ``test_rules``.
"""

from __future__ import annotations

import random

from lantable.plugins.spanish_main import combat, hull, turn, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME, MID, Dice, act, clear, new, place

DONE = {"type": "done"}


def my_turn(st, seat):
    st["turn"] = seat
    st["pending"] = []
    turn.start_turn(st, random.Random(0))


def move(sid, *legs):
    return {"type": "move", "ship": sid,
            "segments": [{"heading": h, "distance": d} for h, d in legs]}


def kinds(st, seat):
    return [a["type"] for a in GAME.legal_actions(st, seat)]


# -- 5.15 Schooner, 5.2.6, 5.6.1 (issue 24, item 9) ---------------------------------


def test_5_15_schooner_rams_before_rotating():
    """5.2.6: ramming (4) comes before the Schooner's rotation (5); a Schooner that
    touched nothing when its move ended may not rotate its bow onto an enemy and then
    ram it (5.6.1: the ram follows the move action, from where the move left it)."""
    st = new()
    clear(st, ["s0", "s5"])
    my_turn(st, 1)
    lib = place(st, "s5", 30000, MID, 0)  # Liberty Star (Schooner), 60 mm, stern at 24000
    place(st, "s0", 28000, MID + 6920, 0)  # Kestrel, its side 0.2 mm from where the bow turns to
    act(st, Dice(), move("s5", (0, 0)))
    assert "ram" not in kinds(st, 1) and "rotate" in kinds(st, 1)
    act(st, Dice(), {"type": "rotate", "ship": "s5", "heading": 900})
    assert g.touching(world.bow(lib), world.aft(world.ship(st, "s0")))  # the bow is on her now
    assert "ram" not in kinds(st, 1)
    assert kinds(st, 1) == ["done"]


def test_5_15_schooner_that_rammed_may_not_rotate():
    st = new()
    clear(st, ["s3", "s5"])
    my_turn(st, 1)
    place(st, "s5", 30000, MID, 0)
    place(st, "s3", 32000, MID + 3750, 900)  # Sainte-Claire across the Schooner's bow
    st["ships"][3]["owner"] = 0
    events = act(st, Dice(1), move("s5", (0, 2000)))
    assert events[0]["contact"] == "s3"
    assert "rotate" in kinds(st, 1) and "ram" in kinds(st, 1)
    act(st, Dice(1), {"type": "ram", "target": "s3"}, {"type": "decline"}, {"type": "decline"})
    assert "rotate" not in kinds(st, 1)


def test_5_15_schooner_rotation_leaves_the_dock_when_the_bow_leaves_the_island():
    """5.4.1: a ship is docked while its bow touches the island; a Schooner that turns
    its bow off its home island is no longer docked there, so it may be shot (A-24)."""
    st = new()
    clear(st, ["s0", "s5"])
    my_turn(st, 1)
    lib = world.ship(st, "s5")
    home = world.home_of(st, 1)
    assert lib["docked"] == home["id"]
    act(st, Dice(), move("s5", (lib["pose"][2], 0)))  # stays at its dock
    assert lib["docked"] == home["id"]
    act(st, Dice(), {"type": "rotate", "ship": "s5", "heading": (lib["pose"][2] + 1800) % 3600})
    assert not g.touching(world.bow(lib), world.island_poly(home))
    assert lib["docked"] is None
    assert not combat.target_forbidden(st, lib, 0)
    # an enemy close by is offered the shot
    x, y = hull.centre(lib["masts"], world.pose(lib))
    kes = world.ship(st, "s0")
    for h in range(0, 3600, 150):
        for r in (3000, 4000, 5000):
            c, s = g.cos_sin(h)
            kes["pose"], kes["docked"] = [round(x + c * r), round(y + s * r), h], None
            if turn.motion.overlaps([world.foot(kes)], world.obstacles(st, skip=("s0",)),
                                    world.area(st)) is None:
                break
        else:
            continue
        break
    act(st, Dice(), DONE, {"type": "end_turn"})
    assert any(a["type"] == "fire" and a["target"] == "s5" for a in GAME.legal_actions(st, 0))


def test_5_15_schooner_rotation_that_keeps_the_bow_on_the_island_stays_docked():
    """The rotation does not count as leaving: a Schooner whose bow stays on the wild
    island it docked at is still docked there, and the island is not marked visited
    (5.8.2), so a first visit cannot become a free exploration by turning."""
    st = new()
    clear(st, ["s5"])
    my_turn(st, 1)
    lib = world.ship(st, "s5")
    wild = next(i for i in st["islands"] if i["home"] is None)
    cx, cy = g.centroid(world.island_poly(wild))
    x0 = round(cx - 9000)
    # sail east at the island's centre: the engine stops the bow at its coast
    place(st, "s5", x0, round(cy), 0)
    for c in lib["crew"]:
        st["crew"][c]["kind"] = "Helmsman"  # no Explorer: a first visit explores next turn
    act(st, Dice(), move("s5", (0, 5000)))
    assert lib["docked"] == wild["id"]
    # a hair's turn about the stern: the bow stays on the coast
    h = next(h for h in (1, 3599, 2, 3598)
             if turn.motion.overlaps([hull.footprint(2, hull.pose_about(
                 2, world.pose(lib), hull.stern_point(2, world.pose(lib)), h))],
                 world.obstacles(st, skip=("s5",)), world.area(st)) is None)
    act(st, Dice(), {"type": "rotate", "ship": "s5", "heading": h})
    assert g.touching(world.bow(lib), world.island_poly(wild))
    assert lib["docked"] == wild["id"] and not wild["visited"][1]
    assert "explore_free" not in kinds(st, 1)


# -- 5.2.3 / 8.6.2 (item 10) ---------------------------------------------------------


def test_5_2_3_a_contact_made_by_the_turn_ends_the_move():
    """8.6.2: the turn about the bow tip that makes a new contact ends the move there
    (distance 0); the rest of the segment and the other segments are lost."""
    st = new()
    clear(st, ["s2", "s3"])
    my_turn(st, 0)
    tern = place(st, "s2", 30000, MID, 0)  # Tern, L+S, 60 x 16 mm
    place(st, "s3", 31730, MID, 900)  # Sainte-Claire heading north, 8.3 mm from the Tern's tip
    assert not g.touching(world.foot(tern), world.foot(world.ship(st, "s3")))
    events = act(st, Dice(), move("s2", (900, st["L"]), (900, st["S"])))
    assert events[0]["contact"] == "s3"
    assert tern["pose"] == [30000, MID, 900]
    assert g.touching(world.foot(tern), world.foot(world.ship(st, "s3")))
    assert not turn.may_move(st, tern)


def test_5_2_3_a_turn_over_what_the_ship_already_touched_does_not_stop_it():
    """A-11: contacts that exist when the segment starts do not stop the ship."""
    st = new()
    clear(st, ["s2", "s3"])
    my_turn(st, 0)
    tern = place(st, "s2", 30000, MID, 900)
    place(st, "s3", 31730, MID, 900)  # already touching along the side
    st["ships"][3]["owner"] = 0  # one of hers: a bow on it does not pin
    assert g.touching(world.foot(tern), world.foot(world.ship(st, "s3")))
    events = act(st, Dice(), move("s2", (800, 3000)))
    assert events[0]["contact"] is None and tern["pose"][1] > MID + 2000


# -- 5.15 Ghost Ship (item 12) -------------------------------------------------------


def test_5_15_ghost_ship_in_ghost_form_may_ram():
    """5.15: a ship in ghost form cannot *be* rammed or pinned; nothing stops it
    ramming. It is not pinned afterwards (a ghost cannot be pinned)."""
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    ghost = place(st, "s0", 30000, MID, 0)
    ghost["card"] = "D-S09"  # Pale Widow (Ghost Ship), three masts like the Kestrel
    place(st, "s3", 32000, MID + 3750, 900)
    rng = Dice(6)
    act(st, rng, {"type": "ghost", "ship": "s0", "on": True})
    act(st, rng, move("s0", (0, 1090)))  # a ghost sails the whole distance: 0.1 mm short
    assert {"type": "ram", "target": "s3"} in GAME.legal_actions(st, 0)
    events = act(st, rng, {"type": "ram", "target": "s3"})
    assert events[0]["type"] == "ram" and events[0]["hit"]
    assert not world.pinned(st, ghost)


def test_5_15_a_ship_in_ghost_form_cannot_be_rammed():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    target = place(st, "s3", 32000, MID + 3750, 900)
    target["ghost"] = True
    act(st, Dice(), move("s0", (0, 1090)))
    assert not any(a["type"] == "ram" for a in GAME.legal_actions(st, 0))
