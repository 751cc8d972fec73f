"""Pirates of the Spanish Main with a hidden deck, in process (the host as the dealer,
LocalDealer): greedy seats play seeded games in which treasure is explored, carried,
unloaded and counted; the host's state holds no value nobody has turned over; each
seat's own list of actions (its client half, from its view and the values it was
shown) is the host's, at every decision; options a hidden deck cannot carry are
refused (docs/fair-play.md, "Pirates of the Spanish Main with a hidden deck")."""

from __future__ import annotations

import random

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry, params
from lantable.plugins.decks import DEALER_KEY
from lantable.plugins.errors import BadOptions
from lantable.plugins.spanish_main import hidden as SH
from lantable.plugins.spanish_main import turn

GAME = load_registry(autoload=True)["pirates-spanish-main"]


def test_a_seeded_hidden_game_shows_each_seat_what_it_saw_and_counts_what_it_unloads():
    rng, brng = random.Random(1), random.Random(2)
    S = GAME.setup(2, {"hidden_deck": True, "max_rounds": 8}, rng)
    bots = [make_bot("greedy", GAME), make_bot("random", GAME)]
    values = SH.pool(S)
    counted = 0
    for n in range(2000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        seat = to_act[0]
        legal = GAME.legal_actions(S, seat)
        view = GAME.view(S, seat)
        assert SH.seat_actions(view, seat, {}) == turn.legal(S, seat), n
        if any(params.is_template(a) for a in legal):
            legal = GAME.concrete_actions(S, seat)
        events = GAME.apply(S, seat, bots[seat].choose(view, seat, legal, brng), rng)
        assert not [e for e in events if e["type"] == "saw"]
        counted += sum(e["gold"] for e in events if e["type"] == "unloaded")
        order = S[DEALER_KEY]["decks"][SH.DECK]["order"]
        for k, t in enumerate(S["treasure"]):
            assert (t["gold"] is None) == (not t["face_up"]), (n, k)  # never a hidden value
            for s in range(2):  # each seat knows exactly what it saw, and its values
                if t["seen"][s] and not t["face_up"]:
                    assert S["hidden"]["known"][s][str(k)] == order[k]
                elif not t["seen"][s]:
                    assert str(k) not in S["hidden"]["known"][s]
    else:
        raise AssertionError("no end")
    assert counted > 0 and sum(S["home_gold"]) == counted  # unloaded, opened, counted
    assert all(values[S[DEALER_KEY]["decks"][SH.DECK]["order"][k]] == t["gold"]
               for k, t in enumerate(S["treasure"]) if t["face_up"])


def test_a_sunk_ships_gold_is_shared_out_once_opened():
    rng = random.Random(3)
    S = GAME.setup(2, {"hidden_deck": True}, rng)
    while S["phase"] != "play":  # set-up: any choices
        seat = GAME.to_act(S)[0]
        legal = GAME.legal_actions(S, seat)
        if any(params.is_template(a) for a in legal):
            legal = GAME.concrete_actions(S, seat)
        GAME.apply(S, seat, legal[0], rng)
    ship = next(s for s in S["ships"] if s["owner"] == 1 and not s["sunk"])
    island = next(i for i in S["islands"] if i["treasure"])
    loaded = island["treasure"][:2]
    for t in loaded:  # as if taken aboard: seen by its owner, value still hidden
        island["treasure"].remove(t)
        ship["hold"].append(t)
        S["treasure"][t]["where"], S["treasure"][t]["seen"][1] = ship["id"], True
    from lantable.plugins.decks import LocalDealer
    from lantable.plugins.spanish_main import combat
    events: list = []
    combat.sink(S, ship, 0, events)
    assert S["hidden"]["sinks"] and all(S["treasure"][t]["gold"] is None for t in loaded)
    while S["phase"] != "play":  # the set-up: homes chosen, treasure dealt
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[0], rng)
    dealer = LocalDealer.of_state(S, GAME.cards_opened)
    req = dealer.requests()
    events = SH._sync(S, events, req)
    opened = dealer.run(S, req.take(), rng)
    (gold,) = [e for e in opened if e["type"] == "sunk_gold"]
    total = sum(S["treasure"][t]["gold"] for t in loaded)
    assert gold["gold"] == total and gold["split"] == [(total + 1) // 2, total // 2]
    assert S["home_gold"] == gold["split"] and not S["hidden"]["sinks"]


@pytest.mark.parametrize("options", [{"forts": True}, {"forts": True, "unique_treasure": True}])
def test_options_a_hidden_deck_cannot_carry_are_refused(options):
    with pytest.raises(BadOptions, match="hidden_deck: not with"):
        GAME.setup(2, {"hidden_deck": True, **options}, random.Random(1))



def test_the_multiplayer_sheet_keeps_gold_home_face_down_and_opens_everything_at_the_end():
    """6.2 with a hidden deck (3+ seats keep the default ``official_sheet``): a token
    unloaded at home stays face down (the host never learns it; its owner was shown
    it); when the game ends, every token is opened first, then the most gold at home
    wins, counted from the opened values."""
    from lantable.plugins.decks import LocalDealer
    from lantable.plugins.spanish_main import combat

    rng = random.Random(5)
    S = GAME.setup(3, {"hidden_deck": True}, rng)
    assert S["options"]["multiplayer_mode"] == "official_sheet"
    while S["phase"] != "play":  # the set-up: homes chosen, treasure dealt
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[0], rng)
    dealer = LocalDealer.of_state(S, GAME.cards_opened)

    def deal(events):
        decks = dealer.requests()
        out = SH._sync(S, events, decks)
        return out + dealer.run(S, decks.take(), rng)

    ship = next(s for s in S["ships"] if s["owner"] == 0)
    isl = next(i for i in S["islands"] if i["treasure"])
    k = isl["treasure"].pop(0)
    tr = S["treasure"][k]
    tr["where"], tr["seen"][0] = ship["id"], True
    ship["hold"].append(k)
    events = deal(turn.unload(S, ship))
    assert [e["type"] for e in events] == ["unloaded_hidden"]
    assert tr["where"] == "home" and tr["gold"] is None and not tr["face_up"]
    assert str(k) in S["hidden"]["known"][0] and S["home_gold"] == [0, 0, 0]
    assert GAME.view(S, 1)["home_hidden"][0] == 1
    ended: list = []
    combat.finish(S, [1], "round_cap", ended)  # the game ends: nothing named yet
    assert S["phase"] != "over" and S["hidden"]["final"] == "round_cap" and not ended
    ended = deal(ended)
    order = S[DEALER_KEY]["decks"][SH.DECK]["order"]
    values = SH.pool(S)
    assert S["phase"] == "over" and S["revealed"]
    assert all(t["face_up"] and t["gold"] == values[order[j]]
               for j, t in enumerate(S["treasure"]))
    assert S["home_gold"] == [values[order[k]], 0, 0] and S["winner"] == [0]
    assert [e["type"] for e in ended] == ["game_over", "revealed"]


def test_a_token_a_sea_monster_destroys_is_opened_and_counted_lost():
    """A-36 with a hidden deck: a token a monster takes is destroyed and turned over for
    everyone; the gold lost is counted once it is opened."""
    from lantable.plugins.decks import LocalDealer
    from lantable.plugins.spanish_main import combat

    rng = random.Random(7)
    S = GAME.setup(2, {"hidden_deck": True, "monsters": True}, rng)
    while S["phase"] != "play":
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[0], rng)
    dealer = LocalDealer.of_state(S, GAME.cards_opened)
    monster = next(s for s in S["ships"] if s.get("monster"))
    loser = next(s for s in S["ships"] if s["owner"] != monster["owner"] and not s.get("monster"))
    isl = next(i for i in S["islands"] if i["treasure"])
    k = isl["treasure"].pop(0)
    S["treasure"][k]["where"] = loser["id"]
    loser["hold"].append(k)
    events: list = []
    combat.plunder(S, monster, loser, "treasure", rng, events)
    assert events[-1]["type"] == "treasure_destroyed" and events[-1]["gold"] is None
    assert S["gold_lost"] == 0
    decks = dealer.requests()
    SH._sync(S, events, decks)
    opened = dealer.run(S, decks.take(), rng)
    value = SH.pool(S)[S[DEALER_KEY]["decks"][SH.DECK]["order"][k]]
    assert S["treasure"][k]["gold"] == value and S["gold_lost"] == value
    assert opened == [{"type": "destroyed_gold", "treasure": f"t{k}", "gold": value}]


def test_no_gold_left_is_exact_with_a_hidden_deck():
    """7.4's exhaustion counts a token not turned over as gold: exact, since every token
    a hidden deck carries is worth at least 1 (the 0-gold ones are unique treasures)."""
    from lantable.plugins.spanish_main import deal
    assert all(g > 0 for seats in (2, 3, 4) for g, _ in deal.contributions(seats, False))


def test_the_plain_game_holds_no_hidden_state():
    S = GAME.setup(2, {}, random.Random(1))
    assert "hidden" not in S and "hidden_deck" not in S["options"]
    assert "hidden_deck" not in GAME.view(S, 0)
