"""Three or more players (digest 6.2 official multiplayer sheet, 6.3 modes, 7.4)."""

from __future__ import annotations

import random

from lantable.plugins.spanish_main import audit, combat, data, deal, multiplayer, turn, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME, Dice, act, clear, new, place

END = {"type": "end_turn"}


def my_turn(st, seat):
    st["turn"] = seat
    st["pending"] = []
    turn.start_turn(st, random.Random(0))


def off(st, sid, isl, gap=3000):
    """``sid`` in open water ``gap`` units south of ``isl``, bow north towards it."""
    poly = world.island_poly(isl)
    cx, _ = g.centroid(poly)
    return place(st, sid, round(cx), round(min(y for _, y in poly)) - gap, 900)


def sail_in(st, rng, sid, isl):
    s = world.ship(st, sid)
    cx, cy = g.centroid(world.island_poly(isl))
    h = g.heading_of(cx - s["pose"][0], cy - s["pose"][1])
    return act(st, rng, {"type": "move", "ship": sid,
                         "segments": [{"heading": h, "distance": st["L_length"]}]})


def carry(st, sid, *values):
    s = world.ship(st, sid)
    for v in values:
        t = next(t for t in st["treasure"] if t["gold"] == v and t["where"].startswith("I"))
        world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
        t["where"], t["seen"][s["owner"]] = sid, True
        s["hold"].append(int(t["id"][1:]))


def bring_home(st, sid):
    s = world.ship(st, sid)
    home = world.home_of(st, s["owner"])
    off(st, sid, home)
    return sail_in(st, Dice(), sid, home)


# -- set-up --------------------------------------------------------------------------------


def test_6_2_three_treasures_on_each_wild_island_15_gold_a_player():
    for seats in (3, 4):
        st = new(seats)
        wild = [i for i in st["islands"] if i["home"] is None]
        assert len(wild) == 2 * seats and all(len(i["treasure"]) == 3 for i in wild)
        assert st["gold_dealt"] == 15 * seats and len(st["treasure"]) == 6 * seats
    st = new(3, unique_treasure=True)
    assert sum(1 for t in st["treasure"] if t["unique"]) == 3 and st["gold_dealt"] == 45


def test_6_2_islands_placed_to_the_left_last_placer_picks_first_then_to_the_right():
    for seed in range(4):
        rng = random.Random(seed)
        st = GAME.setup(4, {}, rng)
        first = st["first"]
        assert [i["placed_by"] for i in st["islands"]] == [(first + k) % 4 for k in range(12)]
        last = st["islands"][-1]["placed_by"]
        assert st["home_queue"] == [{"chooser": (last - k) % 4, "for_seat": (last - k) % 4}
                                    for k in range(4)]
        while st["phase"] == "home":
            (seat,) = GAME.to_act(st)
            assert seat == st["home_queue"][0]["chooser"]
            act(st, rng, GAME.legal_actions(st, seat)[0])
        assert all(world.home_of(st, p) is not None for p in range(4))


def test_6_2_turns_pass_to_the_left():
    st = new(3)
    rng = random.Random(1)
    order = [st["turn"]]
    for _ in range(5):
        act(st, rng, END)
        order.append(st["turn"])
    assert order == [(order[0] + k) % 3 for k in range(6)]


# -- treasure at home ----------------------------------------------------------------------


def test_6_2_official_sheet_treasure_goes_home_face_down():
    st = new(3)
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    carry(st, "s0", 3, 2)
    st["home_gold"][0] = 40  # far past any threshold: the sheet has none
    st["gold_made"] += 40  # (for the books)
    events = bring_home(st, "s0")
    public = [e for e in events if e["type"] == "unloaded_hidden"]
    private = [e for e in events if e["type"] == "unloaded"]
    assert len(public) == 2 and all("gold" not in e for e in public)
    assert all(e["to"] == [0] for e in private) and private[-1]["home_gold"] == 45
    assert st["phase"] == "play"  # no threshold win (6.2)
    for seat in (1, 2, None):
        view = GAME.view(st, seat)
        assert view["home_gold"][0] == 40 and view["home_hidden"][0] == 2
        assert view["gold_to_win"] is None
        assert all(t["gold"] is None for t in view["treasure"] if t.get("home_of") == 0)
    assert GAME.view(st, 0)["home_gold"][0] == 45
    text = GAME.render_text(GAME.view(st, 1), 1, ["Ann", "Bob", "Cy"])
    assert "Ann 40 + 2 face down" in text and "most gold at the end wins" in text
    assert audit.problems(st) == []


def test_6_3_threshold_mode_reveals_at_home_and_wins_at_once():
    st = new(3, multiplayer_mode="threshold")
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    carry(st, "s0", 1)
    st["home_gold"][0] = 22  # 45 gold dealt: 23 wins
    events = bring_home(st, "s0")
    assert [e["type"] for e in events][-1] == "game_over"
    assert st["winner"] == [0] and st["end"] == "threshold"
    assert GAME.view(st, 1)["home_gold"][0] == 23


# -- the end token and the four ends -----------------------------------------------------------


def _one_treasure_left(st):
    """Every treasure but one leaves the islands (scuttled away, for the books)."""
    left = None
    for isl in st["islands"]:
        for t in list(isl["treasure"]):
            if left is None and st["treasure"][t]["gold"] == 3:
                left = (isl, t)
                continue
            isl["treasure"].remove(t)
            st["treasure"][t]["where"] = "gone"
            st["gold_lost"] += st["treasure"][t]["gold"]
    return left


def test_6_2_end_token_on_the_ship_that_loads_the_last_treasure_then_home_ends():
    st = new(3)
    clear(st, ["s0", "s3"])  # the Kestrel has an Explorer: dock and explore at once
    my_turn(st, 0)
    isl, t = _one_treasure_left(st)
    off(st, "s0", isl)
    rng = Dice()
    sail_in(st, rng, "s0", isl)
    act(st, rng, {"type": "explore_free"})
    events = act(st, rng, {"type": "take", "treasure": [f"t{t}"]})
    assert events[-1] == {"type": "end_token", "ship": "s0"} and st["end_token"] == "s0"
    assert "end token: Kestrel" in GAME.render_text(GAME.view(st, 1), 1, ["A", "B", "C"])
    act(st, rng, {"type": "done"}, END, END, END)
    st["home_gold"][1] = 2  # public gold of another player
    st["gold_made"] += 2
    events = bring_home(st, "s0")
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["game_over", "revealed"]
    assert st["end"] == "end_token_home" and st["winner"] == [0]
    assert all(t["face_up"] for t in st["treasure"])  # everything is revealed
    assert GAME.view(st, 1)["home_gold"] == [3, 2, 0] and GAME.to_act(st) == []
    assert GAME.scores(st)["rank"] == [1, 2, 3]
    assert audit.problems(st) == []


def test_6_2_end_token_ship_sunk_ends_the_game():
    st = new(3)
    clear(st, ["s0", "s1", "s3"])
    my_turn(st, 0)
    st["end_token"] = "s0"
    s = world.ship(st, "s0")
    s["masts_up"] = [False, False, False]
    s["scuttle"] = True  # sinks at the start of seat 0's next turn (5.12)
    st["home_gold"] = [1, 4, 4]
    rng = random.Random(0)
    act(st, rng, END, END)
    events = act(st, rng, END)
    assert st["end"] == "end_token_sunk" and st["winner"] == [1, 2]  # a tie is shared
    assert GAME.scores(st)["rank"][1:] == [1, 1]
    assert any(e["type"] == "revealed" for e in events)


def test_6_2_only_one_player_with_a_ship_not_derelict_ends_the_game():
    st = new(3)
    my_turn(st, 0)
    for s in st["ships"]:
        if s["owner"] != 0:
            s["masts_up"] = [False] * s["masts"]
    act(st, random.Random(0), END)
    assert st["end"] == "one_fleet_left"


def test_6_2_four_players_half_of_them_sunk_ends_the_game():
    st = new(4)
    my_turn(st, 0)
    for s in st["ships"]:
        if s["owner"] == 2:
            s["sunk"] = True
    act(st, random.Random(0), END)
    assert st["phase"] == "play"  # one player of four
    for s in st["ships"]:
        if s["owner"] == 3:
            s["sunk"] = True
    act(st, random.Random(0), END)
    assert st["end"] == "half_sunk"


def test_6_2_three_players_half_sunk_is_not_an_end():
    st = new(3)
    my_turn(st, 0)
    for s in st["ships"]:
        if s["owner"] == 2:
            s["sunk"] = True
    act(st, random.Random(0), END)
    assert st["phase"] == "play"


def test_7_4_round_cap_still_ends_an_official_sheet_game_and_reveals_all():
    st = new(3, max_rounds=1)
    rng = random.Random(1)
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    carry(st, "s0", 3)
    bring_home(st, "s0")
    while GAME.to_act(st):
        act(st, rng, END)
    assert st["end"] == "round_cap" and st["winner"] == [0]
    assert GAME.view(st, 1)["home_gold"][0] == 3 and st["revealed"]


def test_6_2_sinking_split_gold_is_public_at_home():
    st = new(3)
    my_turn(st, 0)
    carry(st, "s3", 3)
    s3 = world.ship(st, "s3")
    s3["masts_up"] = [False] * s3["masts"]
    events: list = []
    combat.sink(st, s3, 0, events)
    assert events[-1]["split"] == [2, 1, 0]
    assert GAME.view(st, 2)["home_gold"] == [2, 1, 0]  # values shown at the split
    assert audit.problems(st) == []


def test_7_4_exhaustion_ends_an_official_sheet_game_too():
    st = new(3)
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    for isl in st["islands"]:
        for t in list(isl["treasure"]):
            isl["treasure"].remove(t)
            st["treasure"][t]["where"] = "gone"
            st["gold_lost"] += st["treasure"][t]["gold"]
    st["home_gold"] = [0, 5, 0]
    st["gold_made"] += 5
    act(st, random.Random(0), END)
    assert st["end"] == "exhaustion" and st["winner"] == [1] and st["revealed"]


def test_6_2_paying_for_a_fort_turns_the_gold_at_home_face_up():
    st = new(3, forts=True)
    clear(st, ["s0", "s2"])  # Kestrel (seat 0), Sainte-Claire (seat 1)
    my_turn(st, 0)
    isl = next(i for i in st["islands"] if i["home"] is None)
    off(st, "s0", isl)
    rng = Dice()
    sail_in(st, rng, "s0", isl)
    act(st, rng, {"type": "done"})
    for t in [t for t in st["treasure"] if t["gold"] == 3 and t["where"] != isl["id"]][:2]:
        world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
        t.update(where="home", home_of=0)
        t["seen"][0] = True
        st["home_gold"][0] += 3
    assert GAME.view(st, 1)["home_gold"][0] == 0 and GAME.view(st, 1)["home_hidden"][0] == 2
    events = act(st, rng, {"type": "build_fort", "fort": "f0", "island": isl["id"]})
    shown = next(e for e in events if e["type"] == "home_revealed")
    assert shown["seat"] == 0 and sorted(shown["treasure"].values()) == [3, 3]
    assert GAME.view(st, 1)["home_gold"][0] == 0 and GAME.view(st, 1)["home_hidden"][0] == 0
    assert audit.problems(st) == []


def test_7_4_round_cap_in_threshold_mode_most_gold_wins():
    st = new(4, multiplayer_mode="threshold", max_rounds=1)
    st["home_gold"] = [0, 3, 3, 1]
    st["gold_made"] += 7
    rng = random.Random(2)
    while GAME.to_act(st):
        act(st, rng, END)
    assert st["end"] == "round_cap" and st["winner"] == [1, 2]
    assert GAME.scores(st)["rank"] == [4, 1, 1, 3] and not st["revealed"]


def test_6_2_a_ransom_event_does_not_tell_a_face_down_total():
    st = new(3)
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    carry(st, "s0", 3)
    bring_home(st, "s0")  # 3 face down at seat 0's home
    card = data.named_crew()["D-C03"]
    alvaro = deal.add_crew(st, 1, "s3", card["ability"], card["nation"], "D-C03")
    world.ship(st, "s3")["crew"] = [int(alvaro["id"][1:])]
    events: list = []
    combat.plunder(st, world.ship(st, "s0"), world.ship(st, "s3"), "crew", Dice(), events)
    multiplayer.after_action(st, events)
    assert events[-1]["type"] == "ransom" and "home_gold" not in events[-1]
    said = GAME.describe_event(GAME.view(st, 1), 1, events[-1], ["Ann", "Bob", "Cy"])
    assert said == "a Ransom crew is worth 1 gold to Ann"
    assert GAME.view(st, 1)["home_gold"][0] == 1 and GAME.view(st, 0)["home_gold"][0] == 4
