"""The Reaction cards (digest 5.8, R 3.3.x): one class each.

A Reaction is played from the hand by the defender when :mod:`..fights` opens a
reaction window on an attack. Each class names the attacks it may answer
(``against``, context kinds of :mod:`..combat`), when (``answers``), its effect
(``react``) and, for the duels of AMC, Trap and the Q-ships, the roll it replaces
(``roll``). Before ``react`` the window has recorded the reaction on the context
(``reaction``, ``n_reactions``) and set the next step (:data:`..fights.AFTER_REACTION`).

Recalled and Mistaken Identity answer a *sinking*, not an attack: their windows
(``post`` and ``late``) are in :mod:`..fights`, their effects here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..combat import (
    crossing,
    gi_duel,
    gi_sunk_or_captured,
    in_force,
    react_card,
    reveal,
    shallow_run,
    sub_sunk,
)
from ..data import PURSUIT_CHECK, SHIPS
from ..rules import (
    action_to_vp,
    challenge,
    combat_result,
    dmg_mod,
    kind,
    opposed,
    to_used,
)
from .base import Action, CardData, Ctx, Events, ReactionType, State, best, play

if TYPE_CHECKING:
    import random


def _sailing(S: State, m: int) -> bool:
    """6.11 sailing merchants: a sailing ship under sail (option on)."""
    return bool(S["options"]["sailing_merchants"] and SHIPS[m]["sailing"])


def _may_escape(ctx: Ctx) -> bool:
    """R 3.3.5/13/38: no escape at night, nor from a Surprise Attack."""
    return not ctx["night"] and not ctx["surprise_attack"]


def _gi_target(ctx: Ctx) -> int:
    return ctx["targets"][ctx["index"]]


class AMC(ReactionType):
    """R 3.3.1: an armed merchant cruiser duels the raider (6.11.1: not under sail)."""

    name = "amc"
    against = ("interception",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        return None if _sailing(S, _gi_target(ctx)) else [{}]

    def roll(self, S: State, rng: random.Random, ctx: Ctx, ev: Events) -> bool:
        r2 = gi_duel(
            S,
            rng,
            ctx,
            ev,
            "amc_attack",
            ctx["reaction_data"]["att"],
            ctx["reaction_data"]["def"],
            None,
        )
        if r2 == "sunk" and ctx["reaction_card"] is not None:  # the cruiser goes to the VP pile
            S["this_turn"]["reactions"].remove([ctx["defender"], ctx["reaction_card"]])
            action_to_vp(S, ctx["reaction_card"], S["this_turn"]["seat"], ev)
        return True


class Trap(ReactionType):
    """R 3.3.46: the merchant was a Q-ship: a simultaneous duel with the raider."""

    name = "trap"
    against = ("interception",)

    def roll(self, S: State, rng: random.Random, ctx: Ctx, ev: Events) -> bool:
        m = _gi_target(ctx)
        r2 = gi_duel(
            S, rng, ctx, ev, "trap_attack", ctx["reaction_data"]["att"], SHIPS[m]["def"], m
        )
        gi_sunk_or_captured(S, ctx, m, r2, ev)
        return True


class BreakContact(ReactionType):
    """R 3.3.5: the attacked ship slips away on a Challenge."""

    name = "break_contact"
    against = ("interception", "british")

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        if ctx["kind"] == "interception":
            return [{}] if _may_escape(ctx) else None
        refuge = S["ships"][ctx["targets"][0]]["refuge"] is not None
        return [{}] if ctx["via"] != "monitor" and not refuge and _may_escape(ctx) else None

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        ph, d = S["this_turn"]["seat"], ctx["defender"]
        if ctx["kind"] == "interception":
            x, m = ctx["ship"], _gi_target(ctx)
            mod = dmg_mod(S, m)
            if S["options"]["sails"] and SHIPS[x]["sails"]:
                mod += 2  # 6.2.5
            if _sailing(S, m):
                mod -= 2  # 6.11.2
            ok, _c, _r = challenge(S, rng, ev, "break_contact", d, cd["ch"], mod, ph, cd["re"])
            if ok:
                ev.append({"type": "interception_cancelled", "ship": m})
                ctx["step"] = "next"
            return
        t = ctx["targets"][0]
        mod = dmg_mod(S, t) - (2 if S["ships"][t]["limited_supply"] else 0)
        if S["options"]["sails"] and SHIPS[t]["sails"]:
            mod -= 2  # 6.2.4
        if S["options"]["woelfchen"] and SHIPS[t]["wolf"]:
            mod += 2  # 6.3.3, A-36
        ok, _c, _r = challenge(S, rng, ev, "break_contact", d, cd["ch"], mod, ph, cd["re"])
        if ok:
            ev.append({"type": "interception_cancelled", "ship": t})
        else:
            ctx["step"] = "roll"


class ShallowRun(BreakContact):
    """R 3.3.38: escape into shallow water, then a crossing roll that may damage or
    sink; 6.10 lets the attacker pursue first."""

    name = "shallow_run"

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        ph, d = S["this_turn"]["seat"], ctx["defender"]
        if ctx["kind"] == "british":
            shallow_run(S, rng, ctx["targets"][0], d, ph, cd, ev)
        elif S["options"]["shallow_pursuit"]:
            ctx["step"] = "shallows"  # 6.10.1: the attacker announces pursuit first
        else:
            shallow_run(S, rng, _gi_target(ctx), d, ph, cd, ev)
            ctx["step"] = "next"

    def pursued(self, S: State, rng: random.Random, ctx: Ctx, pursue: bool, ev: Events) -> None:
        """6.10: pursue into the shallows, both cross, then the interception goes on."""
        x, m, d, ph = ctx["ship"], _gi_target(ctx), ctx["defender"], S["this_turn"]["seat"]
        cd = ctx["reaction_data"]
        if not pursue:
            shallow_run(S, rng, m, d, ph, cd, ev)
            ctx["step"] = "next"
            return
        ev.append({"type": "shallows_pursuit", "ship": x})
        fast = -2 if SHIPS[x]["fast"] else 0  # 6.10.4
        crossing(S, rng, m, d, ph, cd, 0, ev)
        crossing(S, rng, x, ph, d, cd, fast, ev)
        alive = in_force(S, x, ph) and in_force(S, m, d)
        ctx["reaction"] = None
        ctx["step"] = "roll" if alive else "next"


class FastShip(ReactionType):
    """R 3.3.13: -2 to a raider's interception of an undamaged merchant; 6.6.1 a fast
    raider may pursue."""

    name = "fast_ship"
    against = ("interception",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        m = _gi_target(ctx)
        ok = (_may_escape(ctx) and kind(S, ctx["ship"]) == "raider" and S["ships"][m]["damage"] == 0
              and not _sailing(S, m))
        return [{}] if ok else None

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        x = ctx["ship"]
        ctx["fast_ship"] = True
        if (
            S["options"]["fast_raiders"]
            and SHIPS[x]["fast"]
            and not S["ships"][x]["limited_supply"]
        ):
            ctx["step"] = "pursue"  # 6.6.1

    @staticmethod
    def pursue(ctx: Ctx, ev: Events) -> None:
        """6.6.1: the fast raider pursues: no -2 for Fast Ship, a supply check after."""
        ctx["pursued"] = True
        ev.append({"type": "pursuit", "ship": ctx["ship"]})

    @staticmethod
    def pursuit_supplies(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
        """6.6.1 (A-18): after a pursuit the raider may fall into Limited Supply."""
        ph, x, other = S["this_turn"]["seat"], ctx["ship"], ctx["defender"]
        ch, re = PURSUIT_CHECK
        if S["options"]["a18_owner_rolls"]:
            c, r = opposed(S, rng, ev, "pursuit_supplies", ph, ch, 0, other, re, 0)
            failed = c <= r
        else:
            failed, _c, _r = challenge(S, rng, ev, "pursuit_supplies", other, ch, 0, ph, re)
        if failed:
            S["ships"][x]["limited_supply"] = True
            ev.append({"type": "limited_supply", "ship": x})


class NonCombatant(ReactionType):
    """R 3.3.25: an undamaged merchant is captured, not sunk (-2; Passage +2)."""

    name = "non_combatant"
    against = ("interception",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        return [{}] if S["ships"][_gi_target(ctx)]["damage"] == 0 else None

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        ctx["non_combatant"] = True


class QQQ(ReactionType):
    """R 3.3.27: the raider is revealed at the end of the interception."""

    name = "qqq"
    against = ("interception",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        return [{}] if kind(S, ctx["ship"]) == "raider" else None

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        ctx["reveal_at_end"] = True

    @staticmethod
    def reveal_at_end(S: State, ctx: Ctx, ev: Events) -> None:
        """At the end of the interception the raider is revealed."""
        reveal(S, ctx, ev)


class SlimPickings(ReactionType):
    """R 3.3.40 (A-26): an interception of several merchants is cut down; at its
    start the defender picks the one merchant it keeps (6.3.2: not against Wolf's
    seaplane)."""

    name = "slim_pickings"
    against = ("interception",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        if S["options"]["woelfchen"] and SHIPS[ctx["ship"]]["wolf"]:
            return None
        if len(ctx["targets"]) > 1 and ctx["index"] == 0:
            return [{"keep": k} for k in ctx["targets"]]
        return [{}]

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        m = _gi_target(ctx)
        if len(ctx["targets"]) == 1:
            ctx["step"] = "next"
        elif ctx["index"] == 0:
            keep = action.get("keep", ctx["targets"][0])
            ctx["targets"] = [keep]
            if keep != m:
                ctx["reaction"] = None
                ctx["step"] = "board"
        else:
            ctx["targets"] = ctx["targets"][:ctx["index"]]
            ctx["step"] = "next"
        ev.append({"type": "interception_reduced", "targets": list(ctx["targets"][ctx["index"]:])})


class PullThePlug(ReactionType):
    """R 3.3.26: the attacked German ship is scuttled before the British roll."""

    name = "pull_the_plug"
    against = ("british",)

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        to_used(S, ctx["targets"][0], ev, "pull_the_plug")


class Reflag(ReactionType):
    """R 3.3.32: a revealed Raider or Prize is hidden again.

    Played four ways: committed for its action on a ship that began the turn
    revealed; against a British-forces interception (A-22); against Interned or
    Transfer Command aimed at the ship; and in the window that opens after a ship is
    revealed (``reflag`` decision, opened by ``fights._finish``). The phantom plays it
    as a Solitaire special at the end of its turn.
    """

    name = "reflag"
    against = ("british", "aimed")

    def acts_when_committed(self, team: bool) -> bool:
        return True

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        T = S["this_turn"]
        return [play(c, target=s) for s in S["players"][seat]["german"]
                if s in T["revealed_at_start"] and S["ships"][s]["revealed"]]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        self.hide(S, action["target"], ev)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        if ctx["kind"] == "aimed":
            return [{}]
        ok = ctx["via"] == "brit" and kind(S, ctx["targets"][0]) in ("raider", "prize")
        return [{}] if ok else None

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        t = ctx["targets"][0]
        self.hide(S, t, ev)
        if ctx["kind"] == "aimed":  # hidden, the target is no longer legal
            ev.append({"type": "action_cancelled", "card": ctx["card"], "ship": t})
        else:
            ev.append({"type": "interception_cancelled", "ship": t})

    def window_offers(self, ships: list[int]) -> dict[str, list[dict[str, Any]]]:
        """The ``reflag`` window after a reveal: one answer per revealed ship."""
        return {self.name: [{"ship": s} for s in ships]}

    def window_apply(self, S: State, seat: int, action: Action, ev: Events) -> None:
        if action["type"] == "react":
            react_card(S, seat, action["card"], ev, ship=action["ship"])
            self.hide(S, action["ship"], ev)

    def phantom_turn_end(self, S: State, rng: random.Random, revealed: list[int],
                         ev: Events) -> None:
        """R 5.4.3 item 12: a Reflag special at the end of the phantom's turn hides its
        best revealed ship."""
        self.hide(S, best(rng, revealed), ev)

    @staticmethod
    def hide(S: State, sid: int, ev: Events) -> None:
        S["ships"][sid]["revealed"] = False
        ev.append({"type": "hidden", "ship": sid})


class Minesweeper(ReactionType):
    """R 3.3.22 (A-33): a mine attack is swept away."""

    name = "minesweeper"
    against = ("mines",)

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        ev.append({"type": "mines_swept", "seat": ctx["defender"]})


class RazzleDazzle(ReactionType):
    """R 3.3.29: dazzle paint: the torpedo attack is cancelled on a Challenge."""

    name = "razzle_dazzle"
    against = ("torpedo",)

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        seat = ctx["defender"]
        ok, _c, _r = challenge(
            S, rng, ev, "razzle_dazzle", seat, cd["ch"], 0, S["this_turn"]["seat"], cd["re"]
        )
        if ok:
            ev.append({"type": "attack_cancelled", "ship": ctx["targets"][0]})
            ctx["step"] = "end"


class QShip(ReactionType):
    """R 3.3.28: the torpedoed merchant is a Q-ship: lure, then a duel with the
    submarine (6.9.2: not for a prize; 6.11: not under sail)."""

    name = "q_ship"
    against = ("torpedo",)

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        m = ctx["targets"][0]
        return None if S["ships"][m]["prize"] or _sailing(S, m) else [{}]

    def roll(self, S: State, rng: random.Random, ctx: Ctx, ev: Events) -> bool:
        """Lure, then a gun duel or torpedoes then depth charges."""
        q, qid = ctx["reaction_data"], ctx["reaction_card"]
        ph, d = S["this_turn"]["seat"], ctx["defender"]
        sub = ctx["submarine"]
        ok, _c, _r = challenge(S, rng, ev, "q_ship_lure", d, q["ch"], 0, ph, q["re"])
        sub_res = q_res = "none"
        if ok:
            a1, d1 = opposed(S, rng, ev, "q_gun", d, q["gun"], 0, ph, sub["def"], 0)
            a2, d2 = opposed(S, rng, ev, "sub_gun", ph, sub["gun"], 0, d, q["def"], 0)
            sub_res, q_res = combat_result(a1, d1), combat_result(a2, d2)
        else:
            a2, d2 = opposed(S, rng, ev, "torpedo", ph, sub["torp"], 0, d, q["def"], 0)
            q_res = combat_result(a2, d2)
            if q_res != "sunk" and q.get("dc"):
                a1, d1 = opposed(S, rng, ev, "depth_charges", d, q["dc"],
                                 -2 if q_res == "damaged" else 0, ph, sub["def"], 0)
                sub_res = combat_result(a1, d1)
        ev.append({"type": "duel", "results": [sub_res, q_res]})
        if sub_res == "sunk":
            sub_sunk(S, ctx, d, ev)
        if q_res == "sunk" and qid is not None:
            S["this_turn"]["reactions"].remove([d, qid])
            action_to_vp(S, qid, ph, ev)
        return True


class SailQShip(QShip):
    """R 3.3.34 (A-20): a sailing merchant's Q-ship, the same duel."""

    name = "sail_q_ship"

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        m = ctx["targets"][0]
        return [{}] if not S["ships"][m]["prize"] and SHIPS[m]["sailing"] else None


class Recalled(ReactionType):
    """R 3.3.30: after a sinking of his merchant, the defender may send the
    intercepting ship home (removed, no VP), any time later in the turn."""

    name = "recalled"

    def post_answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        """Right after the sinking: if an interceptor sank it and is still afloat."""
        ok = ctx["kind"] == "interception" and in_force(S, ctx["ship"], S["this_turn"]["seat"])
        return [{}] if ok else None

    def late_answers(self, S: State, seat: int,
                     sinkings: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """Later in the turn: each interceptor of an unanswered sinking still afloat."""
        ph = S["this_turn"]["seat"]
        ships: list[int] = []
        for rec in sinkings:
            if (
                rec["ship"] is not None
                and in_force(S, rec["ship"], ph)
                and rec["ship"] not in ships
            ):
                ships.append(rec["ship"])
        return [{"ship": x} for x in ships] or None

    @staticmethod
    def answer(S: State, seat: int, ship: int, ev: Events) -> None:
        to_used(S, ship, ev, "recalled")


class MistakenIdentity(ReactionType):
    """R 3.3.23 (A-11): the sunk merchant's card is swapped with one of the defender's
    own VP pile's sunk merchants."""

    name = "mistaken_identity"

    @staticmethod
    def _own_sunk(S: State, seat: int) -> list[int]:
        """The merchants this seat sank (its VP pile's ``sunk_m`` entries)."""
        return sorted({e["ship"] for e in S["players"][seat]["vp_pile"]
                       if e.get("how") == "sunk_m"})

    def post_answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        return [{"swap": s} for s in self._own_sunk(S, ctx["defender"])] or None

    def late_answers(self, S: State, seat: int,
                     sinkings: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """Later in the turn: for each sunk merchant still in the attacker's pile."""
        ph = S["this_turn"]["seat"]
        mine = self._own_sunk(S, seat)
        swaps: list[dict[str, Any]] = []
        for rec in sinkings:
            if any(e.get("ship") == rec["merchant"] and e["how"] == "sunk_m"
                   for e in S["players"][ph]["vp_pile"]):
                swaps += [{"swap": x, "took": rec["merchant"]} for x in mine]
        return swaps or None

    @staticmethod
    def answer(S: State, seat: int, attacker: int, gave: int, took: int, ev: Events) -> None:
        mine = next(e for e in S["players"][seat]["vp_pile"]
                    if e.get("ship") == gave and e["how"] == "sunk_m")
        theirs = next(e for e in S["players"][attacker]["vp_pile"] if e.get("ship") == took)
        mine["ship"], theirs["ship"] = theirs["ship"], mine["ship"]
        ev.append({"type": "swapped", "seat": seat, "gave": gave, "took": took})


REACTION_CARDS: tuple[ReactionType, ...] = (
    Trap(), AMC(), PullThePlug(), BreakContact(), ShallowRun(), FastShip(), NonCombatant(),
    QQQ(), SlimPickings(), Reflag(), Minesweeper(), RazzleDazzle(), SailQShip(),
    QShip(), Recalled(), MistakenIdentity(),
)
