"""Movement (digest 5.4), retreats (5.5) and battles (5.6).

A Movement Action (5.4.1) is ``S["movement"]``: cards played together give a ``pool``
of MP for units that start in one ``source`` province. Units leave the source as
groups, one at a time (``movement["group"]``, a :class:`.state.Group`); a group steps,
picks up Legions, asks passage, attacks, drops units, and halts. Entering a province
where other players have Legions asks those players, clockwise after the mover, whether
they retreat (A1), then blocks the group until passage is granted or the refusers are
beaten (A7).

A battle's cards are committed secretly and simultaneously: both seats are in
``to_act`` at once, each commitment waits inside the state, unseen, until the other is
in (R 6.3), then both are revealed and the battle resolves.

Every record read here is declared in :mod:`.state`: a Legion is
``{owner, province, moved, retreat_marker}``, a Leader ``{location, rank, moved}``, and
``S["pending"]`` holds the decisions (``kind`` ``retreat``, ``passage``, ``battle``) and
the effects waiting under a window (``kind`` ``effect``).
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import board as B
from . import hands as H
from .data import CARDS, GERMANIA, LAND, LEADER_ADJ, LEGION_MARKERS, NAVAL, NPROV, ROME
from .state import Events, Item, State, new_effect, new_group, new_retreat, new_window

Group = dict[str, Any]  # a state.Group


def _int(action: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise IllegalAction(f"{key} must be an integer {lo}..{hi}, got {v!r}")
    return v


def _bool(action: dict[str, Any], key: str) -> bool:
    v = action.get(key, False)
    if not isinstance(v, bool):
        raise IllegalAction(f"{key} must be true or false, got {v!r}")
    return v


def free_legions(S: State, seat: int, prov: int) -> list[int]:
    """Ids of ``seat``'s Legions in ``prov`` that may start a move: not moved this round,
    no Retreat marker (5.4.10)."""
    return [i for i, legion in enumerate(S["legions"])
            if legion["owner"] == seat and legion["province"] == prov
            and not legion["moved"] and not legion["retreat_marker"]]


def leader_free(S: State, seat: int, prov: int) -> bool:
    """``seat``'s Leader is in ``prov`` and has not moved this round."""
    leader = S["leaders"][seat]
    return leader["location"] == prov and not leader["moved"]


def enemies_at(S: State, seat: int, prov: int) -> list[int]:
    """Other players with Legions in ``prov``, clockwise after ``seat`` (R 5.6)."""
    n = S["n_players"]
    present = {legion["owner"] for legion in S["legions"]
               if legion["province"] == prov and legion["owner"] >= 0
               and legion["owner"] != seat}
    return [(seat + i) % n for i in range(1, n) if (seat + i) % n in present]


# --- starting a Movement Action -----------------------------------------------------


def march_actions(S: State) -> list[dict[str, Any]]:
    """Per source province (ascending) and per distinct MP value in hand (ascending, the
    lowest card id of that value): the whole free force, and the Leader alone if he is
    there with Legions. ``apply`` takes any cards, count and flags."""
    seat = S["active"]
    if S["cards_used"] >= 4:
        return []
    card_of_mp: dict[int, int] = {}
    for c in S["hands"][seat]:
        card_of_mp.setdefault(CARDS[c]["mp"], c)
    out: list[dict[str, Any]] = []
    free: dict[int, int] = {}  # province -> own Legions free to move (0: all have moved)
    marked: dict[int, int] = {}  # province -> own Legions under a Retreat marker
    for legion in S["legions"]:  # one pass over the Legions
        if legion["owner"] == seat:
            p = legion["province"]
            if legion["retreat_marker"]:
                marked[p] = marked.get(p, 0) + 1
            elif not legion["moved"]:
                free[p] = free.get(p, 0) + 1
            else:
                free.setdefault(p, 0)
    leader = S["leaders"][seat]
    for p in sorted(set(free) | set(marked) | {leader["location"]}):
        legions = free.get(p, 0)
        with_leader = leader["location"] == p and not leader["moved"]
        here: list[dict[str, Any]] = []
        for mp, c in sorted(card_of_mp.items()):
            if legions or with_leader:
                here.append({"type": "march", "cards": [c], "from": p, "legions": legions,
                             "leader": with_leader})
            if legions and with_leader:
                here.append({"type": "march", "cards": [c], "from": p, "legions": 0,
                             "leader": True})
            if p in marked and mp >= 3:
                here.append({"type": "march", "cards": [c], "from": p,
                             "legions": legions + marked[p], "leader": with_leader,
                             "unmark": True})
        out += _with_lift(S, p, here)
    return out


def _with_lift(S: State, p: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """5.10: Legions starting their move in a Germanic Tribes province *may* lift the
    marker ("non è obbligato"): each such action, then its twin with ``lift``."""
    if p not in S["germanic_tribes"]:
        return actions
    out = []
    for a in actions:
        out.append(a)
        if a["legions"]:
            out.append({**a, "lift": True})
    return out


def _lift_asked(S: State, action: dict[str, Any], p: int, k: int) -> bool:
    """The action asks to lift the marker of ``p`` (5.10), and may: only ``k`` >= 1
    Legions starting their move there lift it."""
    if not _bool(action, "lift"):
        return False
    if p not in S["germanic_tribes"] or not k:
        raise IllegalAction("5.10: only Legions starting their move in a Germanic Tribes "
                            "province may lift its marker")
    return True


def _lift(S: State, p: int, ev: Events) -> None:
    S["germanic_tribes"].remove(p)
    ev.append({"type": "germanic_lifted", "seat": S["active"], "prov": p})


def apply_march(S: State, action: dict[str, Any], ev: Events) -> None:
    seat = S["active"]
    cards = H.cards_arg(action)
    if not cards:
        raise IllegalAction("5.4.1: play at least one card for its MP")
    for c in cards:
        H.own_card(S, seat, c)
    H.room(S, seat, len(cards))
    p = _int(action, "from", 0, ROME)
    unmark = _bool(action, "unmark")
    pool = sum(CARDS[c]["mp"] for c in cards)
    marked = [i for i, legion in enumerate(S["legions"])
              if legion["owner"] == seat and legion["province"] == p
              and legion["retreat_marker"]]
    if unmark:
        if not marked:
            raise IllegalAction("5.5: no Retreat marker to remove there")
        if pool < 2:
            raise IllegalAction("5.5: removing Retreat markers costs 2 MP")
    movable = free_legions(S, seat, p) + (marked if unmark else [])
    k = _int(action, "legions", 0, len(movable))
    leader = _bool(action, "leader")
    if leader and not leader_free(S, seat, p):
        raise IllegalAction("your Leader is not free to move from there")
    if not k and not leader:
        raise IllegalAction("move at least one Legion or your Leader")
    lift = _lift_asked(S, action, p, k)
    H.use_cards(S, cards)
    ev.append({"type": "march", "seat": seat, "from": p, "cards": cards, "mp": pool})
    if unmark:
        pool -= 2
        for i in marked:
            S["legions"][i]["retreat_marker"] = False
        ev.append({"type": "unmarked", "seat": seat, "prov": p})
    if lift:  # 5.10: a Legion starting there may lift the marker
        _lift(S, p, ev)
    S["movement"] = {"source": p, "pool": pool, "group": None}
    _form(S, sorted(movable)[:k], leader, ev)


def _form(S: State, legions: list[int], leader: bool, ev: Events) -> None:
    """A group leaves the source: ``legions`` (ids) and/or the Leader."""
    seat = S["active"]
    p = S["movement"]["source"]
    S["movement"]["group"] = new_group(legions, leader, p)
    ev.append({"type": "group", "seat": seat, "prov": p, "legions": len(legions),
               "leader": leader})
    _stop_window(S, "move")


def _stop_window(S: State, about: str) -> None:
    """Offer Bad Weather (a moving army) and Wounded General (a moving General or
    Contender) to the seats that hold one (6.2 #3, #5)."""
    group = S["movement"]["group"]
    answers = []
    if group["legions"]:
        answers.append("bad_weather")
    if group["leader"] and S["leaders"][S["active"]]["rank"] != B.EMPEROR and about == "move":
        answers.append("wounded")
    if answers:
        seats = H.holders(S, answers, [S["active"]])
        if seats:
            S["pending"].append(new_window(about, answers, seats))


def _enter_window(S: State, contact: bool) -> None:
    """The window after a step (6.2 #3, #5 "in qualsiasi momento"): on contact with other
    players' Legions, or (option ``stop_windows = every_step``) after every step."""
    if contact or S["options"]["stop_windows"] == "every_step":
        _stop_window(S, "move")


# --- a moving group -----------------------------------------------------------------


def _fatigue(group: Group) -> int:
    """War fatigue: +1 MP per battle fought on this move, never for a Leader alone
    (5.4.3)."""
    return group["battles"] if group["legions"] else 0


def step_cost(S: State, group: Group, to: int) -> int:
    base = 1
    if to in S["germanic_tribes"]:
        base = 3 if S["options"]["a15_germanic"] == "total" else 4
    return base + _fatigue(group)


def _pick_fee(S: State, group: Group, kind: str,
              k: int | None = None) -> tuple[int, list[int]]:
    """The MP and the Legion ids of a pick-up of ``k`` Legions (None: all there may be)
    where the group stands (5.4.4): own free Legions (1 MP) or the Uncontrolled (2 MP),
    per entry or per Legion (A5)."""
    seat = S["active"]
    if kind == "own":
        ids = [i for i in free_legions(S, seat, group["at"]) if i not in group["legions"]]
        unit = 1
    else:
        ids = [i for i, legion in enumerate(S["legions"])
               if legion["owner"] == B.UNC and legion["province"] == group["at"]]
        ids = ids[:_room(S, seat)]
        unit = 2
    if k is not None:
        ids = ids[:k]
    fee = unit * (len(ids) if S["options"]["a5_pickup"] == "per_legion" else 1)
    return fee, ids


def _room(S: State, seat: int) -> int:
    """Legions ``seat`` may still gain: unbounded, or (A22 option) up to his 20 markers."""
    if not S["options"]["a22_legion_cap"]:
        return len(S["legions"])
    return max(0, LEGION_MARKERS - sum(1 for legion in S["legions"] if legion["owner"] == seat))


def passage_fee(S: State, group: Group) -> int:
    if not group["legions"] and not S["options"]["a10_leader_fee"]:
        return 0
    return 1 + (_fatigue(group) if S["options"]["a6_fatigue_fee"] else 0)


def attack_cost(group: Group) -> int:
    return 1 + group["battles"]


def _attacked(S: State, prov: int, defender: int) -> bool:
    """This round's attacks already include ``defender`` in ``prov`` (5.6)."""
    return {"province": prov, "defender": defender} in S["attacked"]


def movement_actions(S: State) -> list[dict[str, Any]]:
    """Order: steps by province id, pick-ups, attacks by seat, passage, drops, halt (a
    group), or groups and done (no group)."""
    seat = S["active"]
    movement = S["movement"]
    group = movement["group"]
    pool = movement["pool"]
    out: list[dict[str, Any]] = []
    if group is None:
        legions = free_legions(S, seat, movement["source"])
        leader = leader_free(S, seat, movement["source"])
        if pool > 0:
            here = []
            if legions:
                here.append({"type": "group", "legions": len(legions), "leader": leader})
            if leader:
                here.append({"type": "group", "legions": 0, "leader": True})
            out += _with_lift(S, movement["source"], here)
        out.append({"type": "done"})
        return out
    at = group["at"]
    if not group["blocked_by"]:
        # Legions never enter Rome (R 5.8); a Leader alone may.
        steps = LEADER_ADJ[at] if not group["legions"] else [x for x in LEADER_ADJ[at]
                                                             if x != ROME]
        for to in steps:
            if step_cost(S, group, to) <= pool:
                out.append({"type": "step", "to": to})
    if group["has_entered"] and at != ROME:
        for kind in ("own", "unc"):
            if kind in group["picked_up"]:
                continue
            _fee, ids = _pick_fee(S, group, kind)
            for k in range(1, len(ids) + 1):  # 5.4.4: any number of them
                if _pick_fee(S, group, kind, k)[0] <= pool:
                    out.append({"type": "pick", "kind": kind, "legions": k})
    if group["legions"] and attack_cost(group) <= pool:
        foes = enemies_at(S, seat, at)
        if S["options"]["a20_attack_uncontrolled"] and \
                any(legion["owner"] == B.UNC and legion["province"] == at
                    for legion in S["legions"]):
            foes.append(B.UNC)
        for d in foes:
            if not _attacked(S, at, d):
                out.append({"type": "attack", "seat": d})
    if group["blocked_by"] and not group["passage_asked"] and passage_fee(S, group) <= pool:
        out.append({"type": "passage"})
    # 5.4.4: leave any number of Legions behind (all of them: the Leader goes on
    # alone; without a Leader that is a halt), or the Leader; once it has moved or fought
    # (before that, the group's size is chosen when it is formed).
    n = len(group["legions"]) if _has_moved(group) else 0
    out += [{"type": "drop", "legions": k} for k in range(1, n + 1 if group["leader"] else n)]
    if n and group["leader"]:
        out.append({"type": "drop", "legions": 0, "leader": True})
    out.append({"type": "halt"})
    return out


def _has_moved(group: Group) -> bool:
    """The group has stepped or fought: what it leaves behind has moved (5.4.4)."""
    return group["came_from"] is not None or group["battles"] > 0


def movement_settled(S: State, ev: Events) -> bool:
    """Close what has nothing left to decide; True if something changed."""
    movement = S["movement"]
    group = movement["group"]
    if group is not None:
        if not group["legions"] and not group["leader"]:
            movement["group"] = None
            return True
        # A step is affordable: something is left to decide, no need to list it.
        cheap = not group["blocked_by"] and movement["pool"] >= 1 + _fatigue(group) + 2
        if not cheap and not [a for a in movement_actions(S)
                              if a["type"] not in ("halt", "drop")]:
            _halt(S, ev)
            return True
        return False
    seat = S["active"]
    if movement["pool"] <= 0 or (not free_legions(S, seat, movement["source"])
                                 and not leader_free(S, seat, movement["source"])):
        S["movement"] = None
        ev.append({"type": "movement_end", "seat": seat})
        return True
    return False


def _halt(S: State, ev: Events, why: str = "halt") -> None:
    """The group stops where it is: its Legions and Leader have moved this round."""
    group = S["movement"]["group"]
    for i in group["legions"]:
        S["legions"][i]["moved"] = True
    if group["leader"]:
        S["leaders"][S["active"]]["moved"] = True
    ev.append({"type": "halted", "seat": S["active"], "prov": group["at"],
               "legions": len(group["legions"]), "leader": group["leader"], "why": why})
    S["movement"]["group"] = None


def apply_movement(S: State, action: dict[str, Any], rng: random.Random, ev: Events) -> None:
    seat = S["active"]
    t = action.get("type")
    movement = S["movement"]
    group = movement["group"]
    legal = movement_actions(S)
    if group is None:
        if t == "done":
            S["movement"] = None
            ev.append({"type": "movement_end", "seat": seat})
            return
        if t != "group":
            raise IllegalAction(f"{t!r}: start a group from the source province or end (done)")
        free = free_legions(S, seat, movement["source"])
        k = _int(action, "legions", 0, len(free))
        leader = _bool(action, "leader")
        if leader and not leader_free(S, seat, movement["source"]):
            raise IllegalAction("your Leader is not free to move from there")
        if (not k and not leader) or movement["pool"] <= 0:
            raise IllegalAction("nothing to move")
        if _lift_asked(S, action, movement["source"], k):
            _lift(S, movement["source"], ev)
        _form(S, free[:k], leader, ev)
        return
    if t == "step":
        to = _int(action, "to", 0, ROME)
        if {"type": "step", "to": to} not in legal:
            raise IllegalAction(f"cannot step to {to} now (not adjacent, blocked or too costly)")
        _enter(S, to, step_cost(S, group, to), ev)
    elif t == "pick":
        kind = action.get("kind")
        picks = [a["legions"] for a in legal if a["type"] == "pick" and a["kind"] == kind]
        if not picks:
            raise IllegalAction(f"cannot pick up {kind!r} Legions here")
        k = _int(action, "legions", 1, max(picks)) if "legions" in action else max(picks)
        if k not in picks:
            raise IllegalAction(f"5.4.4: cannot pick up {k} Legions here")
        fee, ids = _pick_fee(S, group, kind, k)
        movement["pool"] -= fee
        group["picked_up"].append(kind)
        for i in ids:
            S["legions"][i]["owner"] = seat
        group["legions"] = sorted(group["legions"] + ids)
        ev.append({"type": "picked", "seat": seat, "prov": group["at"], "kind": kind,
                   "legions": len(ids), "mp": fee})
    elif t == "attack":
        d = action.get("seat")
        if {"type": "attack", "seat": d} not in legal:
            raise IllegalAction(f"cannot attack seat {d!r} here")
        movement["pool"] -= attack_cost(group)
        S["attacked"].append({"province": group["at"], "defender": d})
        ev.append({"type": "attack", "seat": seat, "target": d, "prov": group["at"]})
        S["pending"].append(new_effect("battle", attacker=seat, defender=d,
                                       province=group["at"]))
        if S["options"]["a23_weather_after_attack"]:
            _stop_window(S, "attack")
    elif t == "passage":
        if {"type": "passage"} not in legal:
            raise IllegalAction("no passage to ask here")
        group["passage_asked"] = True
        ev.append({"type": "passage_asked", "seat": seat, "prov": group["at"],
                   "of": list(group["blocked_by"])})
        S["pending"].append({"kind": "passage", "seats": list(group["blocked_by"]), "index": 0,
                             "refused": []})
    elif t == "drop":  # 5.4.4: leave k Legions and/or the Leader; the rest goes on
        leader = _bool(action, "leader")
        k = _int(action, "legions", 0, len(group["legions"]))
        if leader and not group["leader"]:
            raise IllegalAction("5.4.4: your Leader is not with this army")
        if not k and not leader:
            raise IllegalAction("5.4.4: leave at least one Legion or your Leader")
        # 5.4.4: what is left behind has moved this round; at the source before any
        # step or battle it has not ("stayed without having moved"): it may set out
        # later in this Movement Action, as a group of its own.
        moved = _has_moved(group)
        if leader:
            S["leaders"][seat]["moved"] = moved
            group["leader"] = False
        if k:
            left = group["legions"][-k:]
            group["legions"] = group["legions"][:-k]
            for i in left:
                S["legions"][i]["moved"] = moved
        ev.append({"type": "dropped", "seat": seat, "prov": group["at"], "leader": leader,
                   "legions": k})
    elif t == "halt":
        _halt(S, ev)
    else:
        raise IllegalAction(f"unknown movement action {t!r}")


def _enter(S: State, to: int, cost: int, ev: Events) -> None:
    """The group steps into ``to``; enemy Legions there may retreat, then block it."""
    seat = S["active"]
    movement = S["movement"]
    group = movement["group"]
    movement["pool"] -= cost
    group["came_from"], group["at"] = group["at"], to
    group.update(has_entered=True, picked_up=[], blocked_by=[], passage_asked=False)
    for i in group["legions"]:
        S["legions"][i]["province"] = to
    if group["leader"]:
        S["leaders"][seat]["location"] = to
    ev.append({"type": "step", "seat": seat, "from": group["came_from"], "dest": to,
               "mp": cost, "legions": len(group["legions"]), "leader": group["leader"]})
    foes = enemies_at(S, seat, to) if to != ROME else []
    if not foes:
        _enter_window(S, False)
        return
    if not group["legions"]:  # a Leader alone is no army: nobody retreats from him (5.5 A)
        group["blocked_by"] = foes
        _enter_window(S, True)  # 6.2 #5: a Wounded General may stop him here
        return
    S["pending"].append(new_effect("entered"))  # then: who still blocks (:func:`entered`)
    for s in reversed(foes):  # clockwise after the mover decides first (R 5.6, A1)
        S["pending"].append(new_retreat(s, to, group["came_from"], False))
    _enter_window(S, True)


def entered(S: State) -> None:
    """After the retreat decisions: who still blocks the group (5.4.5)."""
    group = S["movement"]["group"] if S["movement"] else None
    if group is not None:
        group["blocked_by"] = enemies_at(S, S["active"], group["at"])


# --- retreats -----------------------------------------------------------------------


def retreat_targets(S: State, seat: int, prov: int, came_from: int | None,
                    after_battle: bool) -> list[int]:
    """5.5: adjacent, not where the enemy came from, not Rome; Naval Passages only before
    a battle; a province with no enemy Legions, or (A12 default) with own Legions."""
    adj = set(LAND[prov]) | (set() if after_battle else set(NAVAL[prov]))
    out = []
    for p in sorted(adj):
        if p == came_from or p >= NPROV:
            continue
        foes = own = False
        for legion in S["legions"]:
            if legion["province"] == p:
                if legion["owner"] == seat:
                    own = True
                elif legion["owner"] >= 0:
                    foes = True
        if not foes or (own and S["options"]["a12_retreat"] == "own_or_free"):
            out.append(p)
    return out


def retreat_move(S: State, seat: int, prov: int, to: int, ev: Events) -> None:
    """All of ``seat``'s Legions in ``prov`` go to ``to``, under Retreat markers."""
    n = 0
    for legion in S["legions"]:
        if legion["owner"] == seat and legion["province"] == prov:
            legion["province"] = to
            legion["retreat_marker"] = True  # A13: every retreat gets a marker
            n += 1
    leader = S["leaders"][seat]
    if S["options"]["a19_leader_retreats"] and leader["location"] == prov:
        leader["location"] = to
    ev.append({"type": "retreated", "seat": seat, "from": prov, "dest": to, "legions": n})


# --- pending: retreat, passage, battle ----------------------------------------------


def _commit_options(S: State, seat: int, limit: int) -> list[dict[str, Any]]:
    """Commit nothing, or the 1..limit best cards by BP (then lowest id)."""
    hand = sorted(S["hands"][seat], key=lambda c: (-CARDS[c]["bp"], c))
    return [{"type": "commit", "cards": sorted(hand[:k])}
            for k in range(0, min(limit, len(hand)) + 1)]


def _limit(S: State, battle: Item, seat: int) -> int:
    """R 6.3: the attacker commits what is left of his 4 cards; the defender up to 3."""
    return 4 - S["cards_used"] if seat == battle["attacker"] else 3


def pending_actions(S: State, top: Item, seat: int) -> list[dict[str, Any]]:
    kind = top["kind"]
    if kind == "retreat":
        out = [{"type": "stay"}]
        if any(legion["owner"] == seat and legion["province"] == top["province"]
               for legion in S["legions"]):
            out += [{"type": "retreat", "to": p} for p in
                    retreat_targets(S, seat, top["province"], top["came_from"],
                                    top["after_battle"])]
        return out
    if kind == "passage":
        return [{"type": "grant"}, {"type": "refuse"}]
    return _commit_options(S, seat, _limit(S, top, seat))


def apply_pending(S: State, top: Item, seat: int, action: dict[str, Any],
                  rng: random.Random, ev: Events) -> None:
    t = action.get("type")
    kind = top["kind"]
    if kind == "retreat":
        if t == "stay":
            S["pending"].pop()
            ev.append({"type": "stays", "seat": seat, "prov": top["province"]})
            return
        if t != "retreat":
            raise IllegalAction("answer stay or retreat")
        to = _int(action, "to", 0, ROME)
        if to not in retreat_targets(S, seat, top["province"], top["came_from"],
                                     top["after_battle"]):
            raise IllegalAction(f"5.5: cannot retreat to {to}")
        S["pending"].pop()
        if top["after_battle"]:
            retreat_move(S, seat, top["province"], to, ev)
            return
        # Before a battle the retreat waits under a Bad Weather window (6.2 #3).
        S["pending"].append(new_effect("retreat", seat=seat, province=top["province"], to=to))
        seats = H.holders(S, ["bad_weather"], [seat])
        if seats:
            S["pending"].append(new_window("retreat", ["bad_weather"], seats))
        return
    if kind == "passage":
        if t not in ("grant", "refuse"):
            raise IllegalAction("answer grant or refuse")
        ev.append({"type": "passage_" + ("granted" if t == "grant" else "refused"),
                   "seat": seat})
        if t == "refuse":
            top["refused"].append(seat)
        top["index"] += 1
        if top["index"] >= len(top["seats"]):
            S["pending"].pop()
            group = S["movement"]["group"]
            if not top["refused"]:
                S["movement"]["pool"] -= passage_fee(S, group)
                group["blocked_by"] = []
            elif S["options"]["a7_passage"] == "refusers":
                # A7: the refusers must be beaten; passing those who granted costs the
                # +1 MP all the same (5.4.5), paid now, as when all grant.
                if len(top["refused"]) < len(top["seats"]):
                    S["movement"]["pool"] -= passage_fee(S, group)
                group["blocked_by"] = list(top["refused"])
        return
    # battle: a secret commitment
    if t != "commit":
        raise IllegalAction("commit your battle cards (possibly none)")
    cards = H.cards_arg(action)
    for c in cards:
        H.own_card(S, seat, c)
    if len(cards) > _limit(S, top, seat):
        raise IllegalAction(f"R 6.3: at most {_limit(S, top, seat)} battle cards")
    for c in cards:
        S["hands"][seat].remove(c)
    if seat == S["active"]:
        S["cards_used"] += len(cards)
    top["committed"][str(seat)] = cards
    ev.append({"type": "committed", "seat": seat, "count": len(cards)})
    if len(top["committed"]) == 2:
        S["pending"].pop()
        _resolve(S, top, ev)


def start_battle(S: State, attack: Item) -> None:
    """The attack's effect (after its Bad Weather window): both sides commit cards."""
    S["pending"].append({"kind": "battle", "attacker": attack["attacker"],
                         "defender": attack["defender"], "province": attack["province"],
                         # A20 option: the Uncontrolled commit no cards
                         "committed": {str(B.UNC): []} if attack["defender"] == B.UNC else {}})


def _bonus(S: State, seat: int, prov: int) -> int:
    """5.6.2: the seat's Emperor in the battle adds 2 BP, a Contender 1."""
    if seat == B.UNC:
        return 0
    leader = S["leaders"][seat]
    return B.BATTLE_BONUS[leader["rank"]] if leader["location"] == prov else 0


def _resolve(S: State, battle: Item, ev: Events) -> None:
    """Both commitments are in: reveal, compare BP, capture, ranks, retreat (5.6)."""
    att, dfn, prov = battle["attacker"], battle["defender"], battle["province"]
    group = S["movement"]["group"]
    att_cards, def_cards = battle["committed"][str(att)], battle["committed"][str(dfn)]
    S["box_face_up"].extend(att_cards + def_cards)
    def_legions = B.legions_at(S, prov, dfn)
    a_bp = len(group["legions"]) + _bonus(S, att, prov) + sum(CARDS[c]["bp"] for c in att_cards)
    d_bp = len(def_legions) + _bonus(S, dfn, prov) + sum(CARDS[c]["bp"] for c in def_cards)
    group["battles"] += 1
    ev.append({"type": "battle", "att": att, "def": dfn, "prov": prov, "att_cards": att_cards,
               "def_cards": def_cards, "att_bp": a_bp, "def_bp": d_bp})
    if a_bp == d_bp:
        ev.append({"type": "battle_tie", "prov": prov})
        if S["options"]["a21_tie_scope"] == "player":  # no more attacks this round at all
            S["attacked"].extend({"province": p, "defender": s}
                                 for p in range(NPROV) for s in range(B.UNC, S["n_players"]))
        _halt(S, ev, "tie")
        return
    win, lose = (att, dfn) if a_bp > d_bp else (dfn, att)
    stays = S["options"]["captured_marker"] == "stays"
    if win == att and stays:  # the winner takes a Legion that can follow him, if any
        taken = next((i for i in def_legions if not S["legions"][i]["retreat_marker"]),
                     def_legions[0])
    else:
        taken = (def_legions if win == att else group["legions"])[0]  # the Legion captured
    # The Uncontrolled never capture (they would outgrow their cap of 4), nor a player
    # out of Legion markers (A22 option).
    capture = win != B.UNC and _room(S, win) > 0
    if capture:
        S["legions"][taken]["owner"] = win
    if win == att:
        if capture and S["legions"][taken]["retreat_marker"] and stays:
            pass  # R 5.6 first: it keeps the marker and stays where it was taken
        elif capture:
            # R 6.4 first (default): it joins the army; the marker was the loser's.
            S["legions"][taken]["retreat_marker"] = False
            group["legions"] = sorted(group["legions"] + [taken])
        if dfn in group["blocked_by"]:
            group["blocked_by"].remove(dfn)
    elif capture:
        group["legions"].remove(taken)
        S["legions"][taken]["moved"] = False
    ev.append({"type": "battle_won", "seat": win, "loser": lose, "prov": prov,
               "captured": capture})
    # The Uncontrolled have no Leader: a stand-in General nowhere.
    winner = S["leaders"][win] if win != B.UNC else {"location": None, "rank": B.GENERAL}
    loser = S["leaders"][lose] if lose != B.UNC else {"location": None, "rank": B.GENERAL}
    if winner["location"] == prov and winner["rank"] == B.EMPEROR:
        S["vp"][win] += 1
        ev.append({"type": "vp", "seat": win, "vp": 1, "why": "battle won by an Emperor"})
    if loser["location"] == prov and loser["rank"] != B.GENERAL:
        was = loser["rank"]
        loser["rank"] = B.GENERAL
        ev.append({"type": "demoted", "seat": lose, "was": B.RANK_NAMES[was]})
        if was == B.EMPEROR and winner["location"] == prov and winner["rank"] != B.EMPEROR:
            winner["rank"] = B.EMPEROR  # R 7.3
            ev.append({"type": "crowned", "seat": win, "how": "battle"})
    if win == dfn:
        _halt(S, ev, "lost")
    if lose != B.UNC and B.legions_at(S, prov, lose):
        came = None if lose == att else (group["came_from"] if S["movement"]["group"] else None)
        if retreat_targets(S, lose, prov, came, True):
            S["pending"].append(new_retreat(lose, prov, came, True))


def germanic_targets(prov: int) -> list[int]:
    """5.10: every adjacent province (A15 default: Naval Passages too)."""
    assert prov in GERMANIA
    return sorted(set(LAND[prov]) | set(NAVAL[prov]))
