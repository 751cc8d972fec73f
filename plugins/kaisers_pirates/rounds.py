"""Set-up, the start and end of each round, round points and the final ranking.

The state these functions build and change is declared in :mod:`.state`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (
    ACTIONS,
    BEYOND_1914_MERCHANTS_REMOVED,
    BEYOND_1914_REMOVED,
    N_GERMAN,
    SHIP_BY_NAME,
    SHIPS,
    SOLITAIRE_REMOVED,
    TOURNAMENT_REMOVED,
    TOURNAMENT_WARSHIPS,
)
from .masked import MARKER, marker, token
from .piles import action_left, next_unseen, take
from .rules import draw_ship, place_ship, roll, to_used, to_vp, vp_total
from .state import Events, State, new_player

if TYPE_CHECKING:
    import random


REMOVED_PER_PLAYERS = {4: 20, 3: 40, 2: 60}  # R 2.1.1-2.1.3: 80/60/40-card rounds
SOLO_RANDOM_REMOVED = 48  # R 5.2.1: 88 - 48 = 40-card rounds
ROUNDS = 3  # R 2.0
MAX_ROUNDS = 6  # A-29 tie-break rounds stop here; still tied seats share a place


def new_state(seats: int, o: dict[str, Any], rng: random.Random, ev: Events) -> State:
    mode = "solo" if seats == 1 else ("team" if o["team_game"] and seats == 4 else "ffa")
    np_ = 2 if seats == 1 else seats
    removed: list[int] = []
    if o["beyond_1914"] != "off":  # 6.5.1 / 6.5.4
        removed += [SHIP_BY_NAME[n] for n in BEYOND_1914_REMOVED]
        if o["beyond_1914"] == "ships_and_merchants":
            removed += [SHIP_BY_NAME[n] for n in BEYOND_1914_MERCHANTS_REMOVED]
    actions = list(range(len(ACTIONS)))
    if o["no_breakout"] and o["beyond_1914"] != "off" and seats == 4:  # 6.5.3
        actions = [c for c in actions if ACTIONS[c]["type"] != "breakout"]
    if mode == "solo":  # R 5.2: 12 named cards are not used
        out = list(SOLITAIRE_REMOVED)
        keep = []
        for c in actions:
            if ACTIONS[c]["type"] in out:
                out.remove(ACTIONS[c]["type"])
            else:
                keep.append(c)
        actions = keep
    S: State = {
        "n_players": np_,
        "seats": seats,
        "mode": mode,
        "options": o,
        "round": 0,
        "phase": "play",
        "turn_seat": 0,
        "turns_begun": 0,
        "first_seat": 0,
        "action_cards": actions,
        "removed_ships": removed,
        "german_deck": [s for s in range(N_GERMAN) if s not in removed],
        "german_used": [],
        "german_out": [],
        "merchant_deck": [s for s in range(N_GERMAN, len(SHIPS)) if s not in removed],
        "merchant_used": [],
        "action_deck_top": [],
        "action_unseen": [],
        "set_aside_n": 0,
        "discards": [],
        "players": [new_player() for _ in range(np_)],
        "ships": [None] * len(SHIPS),
        "this_turn": None,
        "stack": [],
        "pending": None,
        "history": [],
        "solo": None,
    }
    if mode == "solo":
        S["solo"] = {"deck": [], "recon": False}  # Solitaire deck, Recon on the phantom
    return S


def _deal_ships_tournament(S: State, rng: random.Random, ev: Events) -> None:
    """6.4: one of four balanced Warships, two Raiders from a reduced deck, 5/7/9 VP merchants."""
    four = sorted(SHIP_BY_NAME[n] for n in TOURNAMENT_WARSHIPS)
    out = set(four) | {SHIP_BY_NAME[n] for n in TOURNAMENT_REMOVED}
    raiders = [s for s in S["german_deck"] if s not in out]
    rest_w = [s for s in S["german_deck"] if s in out]
    frye = SHIP_BY_NAME["William P. Frye"]
    by_vp: dict[int, list[int]] = {5: [], 7: [], 9: []}
    for s in S["merchant_deck"]:
        if s != frye and SHIPS[s]["vp"] in by_vp:
            by_vp[SHIPS[s]["vp"]].append(s)
    for seat in range(S["n_players"]):
        picks = [take(four, rng)] + [take(raiders, rng) for _ in range(2)]  # at most 4 seats
        merch = [take(by_vp[v], rng) for v in (5, 7, 9)]
        for sid in picks + merch:
            place_ship(S, seat, sid)
        ev.append({"type": "ships_dealt", "seat": seat, "ships": picks + merch})
    used = {s for p in S["players"] for s in p["german"] + p["merchants"]}
    S["german_deck"] = sorted(s for s in raiders + rest_w if s not in used)
    S["merchant_deck"] = [s for s in S["merchant_deck"] if s not in used]


def start_round(S: State, rng: random.Random, ev: Events) -> None:
    """R 2.1, 7.5 steps 6-8: deal ships and Action cards, pick the first player."""
    S["round"] += 1
    S["phase"] = "play"
    ev.append({"type": "round_started", "round": S["round"]})
    if S["round"] == 1 and S["options"]["tournament"]:
        _deal_ships_tournament(S, rng, ev)
    else:
        for seat, p in enumerate(S["players"]):
            got = []
            while len(p["merchants"]) < 3:
                sid = draw_ship(S, rng, False, ev, deal=True)
                if sid is None:
                    break
                place_ship(S, seat, sid)
                got.append(sid)
            while len(p["german"]) < 3:
                sid = draw_ship(S, rng, True, ev, deal=True)
                if sid is None:
                    break
                place_ship(S, seat, sid)
                got.append(sid)
            ev.append({"type": "ships_dealt", "seat": seat, "ships": got})
    # R 2.1: shuffle, set some aside at random, deal. Nothing is shuffled: the hands are
    # drawn card by card, and the set-aside cards are the ones never drawn (.piles).
    S["action_unseen"] = sorted(S["action_cards"])
    if S.get("hidden") is not None:  # a fresh masked shuffle: positions in order (.masked)
        S["hidden"]["round"] += 1
        S["action_unseen"] = [token(S["hidden"]["round"], p)
                              for p in range(len(S["action_cards"]))]
        ev.append({"type": MARKER, "op": "shuffle", "tokens": [], "seat": None})
    S["action_deck_top"] = []
    n_out = (SOLO_RANDOM_REMOVED if S["mode"] == "solo" else REMOVED_PER_PLAYERS[S["n_players"]])
    n_out = max(0, min(len(S["action_unseen"]) - 6 * S["n_players"] - 1,
                       n_out + S["options"]["extra_removed"]))
    S["set_aside_n"] = n_out
    S["discards"] = []
    for seat, p in enumerate(S["players"]):
        n = 6 - p["n_kept"]  # R 2.4 / 6.7: 5, 4 or 3 after keeping ships
        p["hand"] = [next_unseen(S, rng) for _ in range(n)]
        marker(ev, "deal", p["hand"], seat)
        p["n_kept"] = 0
        ev.append({"type": "hand_dealt", "seat": seat, "n": n})
        # The solitaire phantom (seat 1) is the engine, not a seat at the table: its
        # hand is told to nobody ("to": []), never to a seat number that does not exist.
        phantom = seat >= S["seats"]
        ev.append({"type": "hand", "seat": seat, "cards": list(p["hand"]),
                   "to": [] if phantom else [seat]})
    ev.append({"type": "action_deck", "n": action_left(S), "set_aside": n_out})
    # R 3.1 / 3.3: round 1 by a d10 roll-off; later rounds fewest RP, ties rolled off.
    if S["round"] == 1 and S["options"]["first_player"] == "lowest_vp":
        vps = [sum(SHIPS[x]["vp"] for x in p["german"]) for p in S["players"]]
        cands = [s for s in range(S["n_players"]) if vps[s] == min(vps)]
    elif S["round"] == 1:
        cands = list(range(S["n_players"]))
    else:
        low = min(p["round_points"] for p in S["players"])
        cands = [s for s in range(S["n_players"]) if S["players"][s]["round_points"] == low]
    while len(cands) > 1:
        faces = [roll(rng, [10])[0] for _ in cands]
        ev.append({"type": "roll_off", "seats": cands, "faces": faces})
        best = max(faces)
        cands = [s for s, f in zip(cands, faces, strict=True) if f == best]
    S["first_seat"] = S["turn_seat"] = cands[0]
    ev.append({"type": "first_player", "seat": cands[0]})


def score_round(S: State, rng: random.Random, ev: Events) -> None:
    """7.1-7.4: prizes count double, the Warship limit, VP, Round Points."""
    for seat, p in enumerate(S["players"]):
        for sid in [s for s in p["german"] if S["ships"][s]["prize"]]:
            to_vp(S, sid, seat, 2, "prize_kept", ev)
    vps = []
    for seat, p in enumerate(S["players"]):
        german = [e for e in p["vp_pile"] if "ship" in e and e["ship"] < N_GERMAN]
        merch = [e for e in p["vp_pile"] if "ship" in e and e["ship"] >= N_GERMAN]
        excess = len(german) - len(merch)
        while excess > 0:  # 7.3: excess Warship & Raider cards discarded at random
            e = german.pop(int(rng.random() * len(german)))
            p["vp_pile"].remove(e)
            S["german_used"].append(e["ship"])
            ev.append({"type": "warship_limit_discard", "seat": seat, "ship": e["ship"]})
            excess -= 1
        vps.append(vp_total(S, seat))
    n = S["n_players"]
    for seat, p in enumerate(S["players"]):
        v = vps[seat]
        rp = 0 if v == 0 else n - sum(1 for w in vps if w > v)  # 7.4
        p["round_points"] += rp
        p["round_vp"].append(v)
    S["history"].append(
        {"round": S["round"], "vp": vps, "round_points": [p["round_points"] for p in S["players"]]}
    )
    ev.append({"type": "round_scored", "round": S["round"], "vp": vps,
               "rp_total": [p["round_points"] for p in S["players"]]})


def standings(S: State) -> list[tuple[int, int]]:
    """Sort key per player: (RP, total VP); in the team game the team's sums (4.10, A-28)."""
    keys = [(p["round_points"], sum(p["round_vp"])) for p in S["players"]]
    if S["mode"] == "team":
        team = [(keys[0][0] + keys[2][0], keys[0][1] + keys[2][1]),
                (keys[1][0] + keys[3][0], keys[1][1] + keys[3][1])]
        return [team[s % 2] for s in range(4)]
    return keys


def game_decided(S: State) -> bool:
    """After round 3 (or a tie-break round) the leader must be alone (R 2.5, A-29)."""
    if S["round"] < ROUNDS:
        return False
    if S["round"] >= MAX_ROUNDS:
        return True
    keys = standings(S)
    best = max(keys)
    leaders = {
        s % 2 if S["mode"] == "team" else s for s in range(S["n_players"]) if keys[s] == best
    }
    return len(leaders) == 1


def ranks(S: State) -> list[int]:
    """Place per player: 1 + the number of players (teams) strictly ahead."""
    keys = standings(S)
    rivals = keys[:2] if S["mode"] == "team" else keys
    return [1 + sum(1 for k in rivals if k > keys[s]) for s in range(S["n_players"])]


def cleanup_round(S: State, keep: dict[int, list[int]], ev: Events) -> None:
    """7.5 steps 1-5: everything back to the decks except the kept ships."""
    S["stack"] = []
    S["pending"] = None
    S["this_turn"] = None
    for seat, sids in keep.items():  # 8.1 4.9: a pooled ship joins the keeper's Force
        for sid in sids:
            o = S["ships"][sid]["owner"]
            if o != seat:
                S["players"][o]["german"].remove(sid)
                S["players"][seat]["german"].append(sid)
                S["ships"][sid]["owner"] = seat
    for seat, p in enumerate(S["players"]):
        p["wait"] = None
        p["skip"] = False
        p["known_deck_top"] = []
        p["seen"] = None
        p["giving"] = []
        p["hand"] = []
        for e in p["vp_pile"]:  # every ship card of the pile back to its deck
            if "ship" in e:
                (S["german_used"] if e["ship"] < N_GERMAN else S["merchant_used"]).append(e["ship"])
        p["vp_pile"] = []
        for sid in list(p["merchants"]):
            to_used(S, sid, ev, "round_end")
        kept = keep.get(seat, [])
        for sid in list(p["german"]):
            if sid in kept:
                st = S["ships"][sid]
                st.update(
                    {
                        "revealed": False,
                        "damage": 0,
                        "limited_supply": False,
                        "refuge": None,
                        "refuge_turn": -1,
                    }
                )
            else:
                to_used(S, sid, ev, "round_end")
        p["n_kept"] = len(kept)
        p["wireless_turn"] = -9
    S["german_out"] = []  # 6.5.2: back in play from the next deal
    S["action_deck_top"] = []
    S["action_unseen"] = []
    S["set_aside_n"] = 0
    S["discards"] = []
    if S["solo"] is not None:
        S["solo"].update({"deck": [], "recon": False})
