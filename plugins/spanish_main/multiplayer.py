"""Three or more players (digest 6.2, 6.3): the WizKids multiplayer sheet's ending.

Option ``multiplayer_mode`` (3+ seats only; two players always play section 7):

- ``"official_sheet"`` (the default, 6.3 and 9.4): 6.2 as written. Treasure brought
  home stays **face down** (its value known to its player only; opponents see how
  many pieces lie on each home, and the gold that was public anyway: sinking splits,
  Ransom). When the last treasure token leaves the wild islands, the ship that loaded
  it takes the **end token**. The game ends when

  1. the end-token ship unloads at its controller's home island [DESIGN: its
     docking there counts, even if the last treasure has since left her hold];
  2. the end-token ship sinks (shot, scuttled or wrecked);
  3. at most one player still has a ship that is not derelict;
  4. with 4+ players, at least half of the players have no ship afloat;

  (sea monsters are not ships here);

  then every treasure is revealed and the most gold at home (forts included, 6.3)
  wins, ties shared. [DESIGN] Paying for a fort (a number taken from the gold at
  home, A-37) turns the builder's gold at home face up. There is no threshold win;
  [DESIGN] the round cap and exhaustion of 7.4 stay as guaranteed ends (a bot game
  must end).
- ``"threshold"``: section 7 (more than half of the starting gold wins at once).

In both modes (6.2): islands are placed in turns to the left (the game lays them
out; the log records the placers), the last placer picks their own home first, then
the player to their right; 3 treasure tokens per wild island (each player brings 6,
15 gold, ``data.json``); turns pass to the left (the next seat number).
"""

from __future__ import annotations

from typing import Any

from . import combat, world

State = dict[str, Any]
Event = dict[str, Any]

MODES = ("official_sheet", "threshold")

official = world.official_sheet


# -- treasure at home (6.2: not revealed) -------------------------------------------------


def hidden_home_gold(state: State, seat: int) -> int:
    """Gold on ``seat``'s home island that lies face down (official_sheet)."""
    return sum(t["gold"] or 0 for t in state["treasure"]  # None: a hidden deck's, not counted
               if t["where"] == "home" and t.get("home_of") == seat and not t["face_up"])


def home_gold_seen(state: State, seat: int | None) -> list[int]:
    """Each home's gold as ``seat`` may know it: all of its own, the face-up part of
    the others' (spectators: the face-up part of all)."""
    return [g if p == seat else g - hidden_home_gold(state, p)
            for p, g in enumerate(state["home_gold"])]


def home_pieces_hidden(state: State) -> list[int]:
    out = [0] * state["n_players"]
    for t in state["treasure"]:
        if t["where"] == "home" and not t["face_up"] and t.get("home_of") is not None:
            out[t["home_of"]] += 1
    return out


def unloaded_face_down(state: State, s: dict[str, Any], tr: dict[str, Any]) -> list[Event]:
    """6.2: the treasure goes home face down: its value only to its player."""
    seat = s["owner"]
    tr["seen"][seat] = True
    return [{"type": "unloaded_hidden", "ship": s["id"], "treasure": tr["id"], "seat": seat},
            {"type": "unloaded", "to": [seat], "ship": s["id"], "treasure": tr["id"],
             "gold": tr["gold"], "seat": seat, "home_gold": state["home_gold"][seat]}]


def show_home(state: State, seat: int, events: list[Event]) -> None:
    """[DESIGN] Paying for a fort (5.17.2, a number taken from the gold at home, A-37)
    turns that player's face-down gold at home face up: what is left is then a
    public number, as in the two-player game."""
    shown = {}
    for t in state["treasure"]:
        if t["where"] == "home" and t.get("home_of") == seat and not t["face_up"]:
            t["face_up"] = True
            shown[t["id"]] = t["gold"]
    if shown:
        events.append({"type": "home_revealed", "seat": seat, "treasure": shown})


# -- the ending --------------------------------------------------------------------------


def after_action(state: State, events: list[Event]) -> None:
    """After every action in play: the end token, then the sheet's four endings; at
    any end of an official_sheet game, everything is revealed."""
    if not official(state) or state["phase"] == "home":
        return
    for e in events:
        if e["type"] == "ransom":
            e.pop("home_gold", None)  # a public event: the total may hold face-down gold
    if state["phase"] == "play":
        for e in [e for e in events if e["type"] == "fort_built"]:
            show_home(state, e["seat"], events)
        token(state, events)
        why = end_reason(state, events)
        if why is not None:
            gold = world.total_gold(state)  # home and forts (6.3)
            best = max(gold)
            combat.finish(state, [p for p in range(state["n_players"]) if gold[p] == best], why,
                          events)
    if state["phase"] == "over" and not state.get("revealed"):
        reveal(state, events)


def token(state: State, events: list[Event]) -> None:
    """6.2: the ship that loads the last treasure token from the islands."""
    if state.get("end_token") is not None or any(i["treasure"] for i in state["islands"]):
        return
    took = [e for e in events if e["type"] == "took"]
    if took:
        state["end_token"] = took[-1]["ship"]
        events.append({"type": "end_token", "ship": took[-1]["ship"]})


def end_reason(state: State, events: list[Event]) -> str | None:
    holder = state.get("end_token")
    if holder is not None:
        s = world.ship(state, holder)
        if any(e["type"] == "docked" and e["ship"] == holder
               and world.island(state, e["island"])["home"] == s["owner"] for e in events):
            return "end_token_home"
        if s["sunk"]:
            return "end_token_sunk"
    n = state["n_players"]
    ships = [s for s in state["ships"] if not s["sunk"] and not world.monster(s)]
    sailing = {s["owner"] for s in ships if not world.derelict(s)}
    if len(sailing) <= 1:
        return "one_fleet_left"
    afloat = {s["owner"] for s in ships}
    if n >= 4 and 2 * (n - len(afloat)) >= n:
        return "half_sunk"
    return None


def reveal(state: State, events: list[Event]) -> None:
    """6.2: all treasure is revealed, on ships and at home."""
    state["revealed"] = True
    shown = {}
    for t in state["treasure"]:
        if not t["face_up"]:
            t["face_up"] = True
            shown[t["id"]] = t["gold"]
    events.append({"type": "revealed", "treasure": shown, "gold": list(state["home_gold"])})
