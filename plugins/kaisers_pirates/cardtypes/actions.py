"""The Normal and Team Action cards (digest 6.2, R 3.3.x): one class per card type.

Each class holds when the card may be played once committed for its action
(``plays``), its effect (``perform``) and what the solitaire phantom does with it
(``phantom_target`` / ``phantom``). Interceptions, mines and torpedoes push a
context (:mod:`..combat`) that :mod:`..fights` then steps through; the rest happens
at once, apart from Intelligence's reordering, Exchange Information and a team
Breakout, which ask a further decision (``follow_up``).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any, ClassVar

from ..combat import passage, start_aimed, start_bi, start_mines, start_torpedo
from ..data import ACTIONS, SHIPS
from ..masked import is_masked, marker
from ..piles import action_left, look_at_top
from ..rules import (
    attack_targets,
    can_intercept,
    challenge,
    coal_sails,
    damage,
    draw_ship,
    enemy_ships,
    hidden,
    in_refuge,
    kind,
    move_to_mate,
    opp_seats,
    other,
    place_ship,
    targetable,
    to_used,
)
from .base import HUMAN, PHANTOM, Action, CardData, CardType, Events, State, best, play, pseudo

if TYPE_CHECKING:
    import random

_ISLAND = next(c for c in ACTIONS if c["type"] == "island_refuge")


class FollowUp:
    """A card whose effect asks a further decision (``S["pending"]["kind"] == follow_up``)."""

    follow_up: ClassVar[str]

    def follow_up_offers(self, S: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def follow_up_apply(self, S: State, seat: int, action: Action, ev: Events) -> None:
        raise NotImplementedError


class BlockadeRunner(CardType):
    """R 3.3.2: each Limited-Supply ship tries to resupply (+2 with a prize)."""

    name = "blockade_runner"
    phantom_entries = ("blockade_runner",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return (
            [play(c)]
            if any(S["ships"][s]["limited_supply"] for s in S["players"][seat]["german"])
            else []
        )

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        P = S["players"][seat]
        bonus = 2 if any(S["ships"][s]["prize"] for s in P["german"]) else 0
        for s in [s for s in P["german"] if S["ships"][s]["limited_supply"]]:
            mod = bonus + coal_sails(S, s, -1, 1)
            ok, _c, _r = challenge(S, rng, ev, "blockade_runner", seat, cd["ch"], mod,
                                   other(S, seat), cd["re"])
            if ok:
                S["ships"][s]["limited_supply"] = False
                ev.append({"type": "resupplied", "ship": s})

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        return (
            {}
            if any(S["ships"][s]["limited_supply"] for s in S["players"][PHANTOM]["german"])
            else None
        )


class Collier(BlockadeRunner):
    """R 3.3.8: every Limited-Supply ship is resupplied, no roll."""

    name = "collier"
    phantom_entries = ("collier",)

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        for s in S["players"][seat]["german"]:
            if S["ships"][s]["limited_supply"]:
                S["ships"][s]["limited_supply"] = False
                ev.append({"type": "resupplied", "ship": s})


class BoundingMain(CardType):
    """Team card, R 3.3.4 (A-41): the next player skips his turn."""

    name = "bounding_main"
    kind = "T"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c)] if S["mode"] == "team" else []

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        nxt = (seat + 1) % S["n_players"]
        S["players"][nxt]["skip"] = True
        ev.append({"type": "turn_will_be_skipped", "seat": nxt})


class Breakdown(CardType):
    """R 3.3.6: an undamaged enemy Warship or Raider may be damaged."""

    name = "breakdown"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target=s) for _o, s in enemy_ships(S, seat)
                if kind(S, s) in ("warship", "raider") and S["ships"][s]["damage"] == 0]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        tg = action["target"]
        o = S["ships"][tg]["owner"]
        ok, _c, _r = challenge(S, rng, ev, "breakdown", seat, cd["ch"], 0, o, cd["re"])
        if ok:
            damage(S, tg, ev)


class Breakout(CardType, FollowUp):
    """R 3.3.7: draw one German ship, two at double; 8.1 4.7 the team may share them."""

    name = "breakout"
    phantom_entries = ("breakout",)
    follow_up = "give_ships"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        ok, cv, rv = challenge(S, rng, ev, "breakout", seat, cd["ch"], 0, other(S, seat), cd["re"])
        n = (2 if cv >= 2 * rv else 1) if ok else 0
        got = []
        for _ in range(n):
            s = draw_ship(S, rng, True, ev)
            if s is not None:
                place_ship(S, seat, s)
                got.append(s)
                ev.append({"type": "ship_drawn", "seat": seat, "ship": s})
        if S["mode"] == "team" and len(got) == 2:  # 8.1 4.7: either or both to the teammate
            S["stack"].append({"kind": "give_ships", "ships": got})
            S["pending"] = {"kind": "give_ships", "seat": seat}

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        return {}

    def follow_up_offers(self, S: State, seat: int) -> list[Action]:
        a, b = S["stack"][-1]["ships"]
        return [{"type": "to_mate", "ships": x} for x in ([], [a], [b], [a, b])]

    def follow_up_apply(self, S: State, seat: int, action: Action, ev: Events) -> None:
        S["stack"].pop()
        move_to_mate(S, seat, action["ships"], ev)


class DamageControl(CardType):
    """R 3.3.9: repair one of your damaged ships (one marker with 6.8)."""

    name = "damage_control"
    phantom_entries = ("damage_control",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        P = S["players"][seat]
        return [play(c, target=s) for s in P["german"] + P["merchants"] if S["ships"][s]["damage"]]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        tg = action["target"]
        S["ships"][tg]["damage"] -= (
            1 if S["options"]["additional_damage"] else S["ships"][tg]["damage"]
        )
        ev.append({"type": "repaired", "ship": tg})

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        P = S["players"][PHANTOM]
        tg = [s for s in P["german"] + P["merchants"] if S["ships"][s]["damage"]]
        return {"target": best(rng, tg)} if tg else None


class Waiting(CardType):
    """Deception and Fog Bank wait on an opponent and act at his next turn."""

    stays_in_play = True

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [
            play(c, target_seat=o) for o in opp_seats(S, seat) if S["players"][o]["wait"] is None
        ]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        ts = action["target_seat"]
        S["players"][ts]["wait"] = {"card_type": self.name, "card": c}
        ev.append({"type": "placed_on", "card": c, "seat": ts})

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        ok = targetable(S, HUMAN) and S["players"][HUMAN]["wait"] is None
        return {"target_seat": HUMAN} if ok else None


class Deception(Waiting):
    """R 3.3.10: the victim's next turn plays one random card of his hand, nothing else."""

    name = "deception"
    phantom_entries = ("deception",)

    def begin_turn(self, S: State, rng: random.Random, seat: int, ev: Events) -> None:
        """The victim's turn: a random hand card is committed and must be played."""
        T = S["this_turn"]
        P = S["players"][seat]
        T["deception"] = True
        T["stage"] = "resolve"
        if not P["hand"]:
            return
        c = P["hand"].pop(int(rng.random() * len(P["hand"])))
        if is_masked(c):  # a hidden deck: turned over first, its use set then (.hidden)
            T["committed"].append({"card": c, "use": "act", "ship": None, "played": False,
                                   "deceived": True})
            marker(ev, "open", [c])
            return
        use = "act"
        ship = None
        if ACTIONS[c]["type"] == "lay_mines":
            miners = [s for s in P["german"] if kind(S, s) == "raider" and SHIPS[s]["mines"]
                      and S["ships"][s]["refuge"] is None]
            if miners:
                use, ship = "mines", miners[0]
        T["committed"].append({"card": c, "use": use, "ship": ship, "played": False})
        ev.append({"type": "deception_card", "seat": seat, "card": c, "to": [seat]})


class FogBank(Waiting):
    """R 3.3.14: the victim's next turn is lost; only Heavy Weather may target him."""

    name = "fog_bank"
    phantom_entries = ("fog_bank",)

    def begin_turn(self, S: State, rng: random.Random, seat: int, ev: Events) -> None:
        T = S["this_turn"]
        T["fog"] = True
        T["stage"] = "end"
        ev.append({"type": "fog_bank_turn", "seat": seat})


class ExchangeInformation(CardType, FollowUp):
    """Team card, R 3.3.11: both teammates give cards blind, then swap."""

    name = "exchange_information"
    kind = "T"
    follow_up = "exchange"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c)] if S["mode"] == "team" else []

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        mate = (seat + 2) % 4
        S["stack"].append({"kind": "exchange", "seats": [seat, mate], "index": 0})

    def follow_up_offers(self, S: State, seat: int) -> list[Action]:
        P = S["players"][seat]
        return [{"type": "done"}] + [{"type": "give", "card": c} for c in sorted(P["hand"])
                                     if c not in P["giving"]]

    def follow_up_apply(self, S: State, seat: int, action: Action, ev: Events) -> None:
        ctx = S["stack"][-1]
        if action["type"] == "give":
            S["players"][seat]["giving"].append(action["card"])
            return
        ctx["index"] += 1
        if ctx["index"] < 2:
            return
        S["stack"].pop()
        a, b = ctx["seats"]
        ga, gb = S["players"][a]["giving"], S["players"][b]["giving"]
        for src, dst, cards in ((a, b, ga), (b, a, gb)):
            for c in cards:
                S["players"][src]["hand"].remove(c)
                S["players"][dst]["hand"].append(c)
            marker(ev, "give", list(cards), dst)
        ev.append({"type": "exchanged", "seats": [a, b], "n": [len(ga), len(gb)]})
        ev.append({"type": "exchanged_cards", "cards": [list(ga), list(gb)], "to": [a, b]})
        S["players"][a]["giving"] = []
        S["players"][b]["giving"] = []


class FairSeas(CardType):
    """R 3.3.12: one undamaged merchant or prize tries Passage at +1."""

    name = "fair_seas"
    phantom_entries = ("fair_seas",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        P = S["players"][seat]
        return [play(c, target=s) for s in P["merchants"] + P["german"]
                if kind(S, s) in ("merchant", "prize") and S["ships"][s]["damage"] == 0]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        passage(S, rng, action["target"], 1, ev)

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        P, sh = S["players"][PHANTOM], S["ships"]
        tg = [s for s in P["german"] if sh[s]["prize"] and not sh[s]["damage"]] or \
             [s for s in P["merchants"] if not sh[s]["damage"]]
        return {"target": best(rng, tg)} if tg else None


class HeavyWeather(CardType):
    """R 3.3.16: every ship of one player at sea may be lost (Fog Bank no shelter)."""

    name = "heavy_weather"
    phantom_entries = ("heavy_weather",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target_seat=o) for o in opp_seats(S, seat, heavy=True)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        ts = action["target_seat"]
        p = S["players"][ts]
        for s in list(p["german"] + p["merchants"]):
            if in_refuge(S, s):
                continue
            ok, _c, _r = challenge(S, rng, ev, "heavy_weather", seat, cd["ch"], 0, ts, cd["re"])
            if ok:
                to_used(S, s, ev, "heavy_weather")

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        return {"target_seat": HUMAN}


class Intelligence(CardType, FollowUp):
    """R 3.3.17: look at an opponent's hand, or at the top of the deck and reorder it."""

    name = "intelligence"
    follow_up = "order"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        out = [play(c, mode="hand", target_seat=o) for o in opp_seats(S, seat)]
        return out + ([play(c, mode="deck")] if action_left(S) else [])

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        P = S["players"][seat]
        if action["mode"] == "hand":
            ts = action["target_seat"]
            hand = sorted(S["players"][ts]["hand"])
            marker(ev, "show", hand, seat)
            P["seen"] = {"seat": ts, "cards": hand, "turn": S["turns_begun"]}
            ev.append({"type": "seen_hand", "seat": ts, "cards": hand, "to": [seat]})
        else:
            n = min(S["seats"] if S["mode"] != "solo" else 2, action_left(S))
            top = look_at_top(S, rng, n)
            marker(ev, "show", top, seat)
            ev.append({"type": "seen_deck_top", "cards": top, "to": [seat]})
            P["known_deck_top"] = list(top)  # known from now on (view and sampler)
            S["stack"].append({"kind": "order", "n": n})
            S["pending"] = {"kind": "order", "seat": seat}

    def follow_up_offers(self, S: State, seat: int) -> list[Action]:
        """Every order of the top N cards, listed top first."""
        n = S["stack"][-1]["n"]
        top = S["action_deck_top"][:n]
        return [{"type": "order", "cards": list(p)} for p in permutations(sorted(top))]

    def follow_up_apply(self, S: State, seat: int, action: Action, ev: Events) -> None:
        n = S["stack"].pop()["n"]
        S["action_deck_top"][:n] = action["cards"]
        S["players"][seat]["known_deck_top"] = list(action["cards"])
        ev.append({"type": "deck_reordered", "seat": seat, "n": n})


class Aimed(CardType):
    """Interned and Transfer Command: at a revealed enemy ship (A-17: revealed prizes
    only), which its owner may first hide with Reflag (R 3.3.32)."""

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target=s) for _o, s in enemy_ships(S, seat) if not hidden(S, s)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        start_aimed(S, c, cd, seat, action["target"])


class Interned(Aimed):
    """R 3.3.18: the target is interned (+2 per damage and Limited Supply, A-30)."""

    name = "interned"
    phantom_entries = ("interned",)

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        H = S["players"][HUMAN]
        tg = ([s for s in H["german"] if not hidden(S, s) and not in_refuge(S, s)]
              if targetable(S, HUMAN) else [])
        return {"target": best(rng, tg)} if tg else None


class TransferCommand(Aimed):
    """R 3.3.45: the target changes sides, status and refuge included."""

    name = "transfer_command"
    phantom_entries = ("transfer_command",)

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        H = S["players"][HUMAN]  # R 3.3.45: a revealed ship in a refuge too
        tg = [s for s in H["german"] if not hidden(S, s)] if targetable(S, HUMAN) else []
        return {"target": best(rng, tg)} if tg else None


class Interrogate(CardType):
    """R 3.3.19: reveal a hidden ship, then a British-forces attack on it."""

    name = "interrogate"
    phantom_entries = ("interrogate_random", "interrogate_high", "interrogate_low")

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [
            play(c, target=s)
            for o in attack_targets(S, seat)
            for s in S["players"][o]["german"]
            if hidden(S, s) and can_intercept(S, s)
        ]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        tg = action["target"]
        o = S["ships"][tg]["owner"]
        S["this_turn"]["attacked_seat"] = o
        ok, _c, _r = challenge(S, rng, ev, "interrogate", seat, cd["ch"], 0, o, cd["re"])
        if ok:
            S["ships"][tg]["revealed"] = True
            ev.append({"type": "revealed", "ship": tg})
            start_bi(S, c, tg, "interrogate", cd)

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        T, H = S["this_turn"], S["players"][HUMAN]
        tg = [
            s
            for s in H["german"]
            if hidden(S, s) and not in_refuge(S, s) and s not in T["intercepted"]
        ]
        if not tg or not targetable(S, HUMAN):
            return False
        if entry == "interrogate_random":
            target = tg[int(rng.random() * len(tg))]
        else:
            target = best(rng, tg, low=entry == "interrogate_low")
        self.perform(S, rng, PHANTOM, pseudo(sc, self.name), None, {"target": target}, ev)
        return True


class IslandRefuge(CardType):
    """R 3.3.20: a ship hides in a refuge, rolling to repair and resupply each turn."""

    name = "island_refuge"
    stays_in_play = True
    phantom_entries = ("island_refuge",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target=s) for s in S["players"][seat]["german"]
                if kind(S, s) in ("warship", "raider") and not in_refuge(S, s)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        tg = action["target"]
        st = S["ships"][tg]
        st["refuge"], st["refuge_turn"] = (c if c is not None else -1), S["turns_begun"]
        if st["revealed"]:
            st["revealed"] = False
            ev.append({"type": "hidden", "ship": tg})
        ev.append({"type": "entered_refuge", "ship": tg})
        self.refuge_rolls(S, rng, tg, ev)

    def refuge_rolls(self, S: State, rng: random.Random, sid: int, ev: Events) -> None:
        """A-15: one repair and one resupply attempt per own turn in refuge."""
        st = S["ships"][sid]
        cd = ACTIONS[st["refuge"]] if st["refuge"] >= 0 else _ISLAND  # -1: the phantom's refuge
        seat = st["owner"]
        if st["damage"]:
            ok, _c, _r = challenge(S, rng, ev, "refuge_repair", seat, cd["ch"], 0,
                                   other(S, seat), cd["re"])
            if ok:
                st["damage"] -= 1 if S["options"]["additional_damage"] else st["damage"]
                ev.append({"type": "repaired", "ship": sid})
        if st["limited_supply"]:
            ok, _c, _r = challenge(S, rng, ev, "refuge_resupply", seat, cd["ch2"],
                                   coal_sails(S, sid, -1, 1), other(S, seat), cd["re2"])
            if ok:
                st["limited_supply"] = False
                ev.append({"type": "resupplied", "ship": sid})

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        P, sh = S["players"][PHANTOM], S["ships"]
        ships = [
            s for s in P["german"] if kind(S, s) in ("warship", "raider") and not in_refuge(S, s)
        ]
        tg = [
            s for s in ships if sh[s]["damage"] or sh[s]["limited_supply"] or sh[s]["revealed"]
        ] or ships
        return {"target": best(rng, tg)} if tg else None


class LayMines(CardType):
    """R 3.3.21, 5.7: committed on a mine-laying raider; a mine attack on every merchant of
    one opponent."""

    name = "lay_mines"
    phantom_entries = ("lay_mines",)

    def own_uses(self, c: int, miners: list[int], team: bool) -> list[Action]:
        return [{"type": "commit", "card": c, "use": "mines", "ship": s} for s in miners]

    def acts_when_committed(self, team: bool) -> bool:
        return False

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        if not targetable(S, HUMAN) or not S["players"][HUMAN]["merchants"]:
            return False
        miners = [
            s
            for s in S["players"][PHANTOM]["german"]
            if kind(S, s) == "raider"
            and SHIPS[s]["mines"]
            and not in_refuge(S, s)
            and s not in S["this_turn"]["acted"]
        ]
        if not miners:
            return False
        start_mines(S, None, HUMAN, sc["mine"], miners[0])
        return True


class Monitor(CardType):
    """R 3.3.24: a British-forces attack (+2) on a ship in an Island Refuge."""

    name = "monitor"
    phantom_entries = ("monitor",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [
            play(c, target=s)
            for o in attack_targets(S, seat)
            for s in S["players"][o]["german"]
            if in_refuge(S, s) and s not in S["this_turn"]["intercepted"]
        ]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        start_bi(S, c, action["target"], "monitor", cd)

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        H = S["players"][HUMAN]
        tg = ([s for s in H["german"] if in_refuge(S, s) and s not in S["this_turn"]["intercepted"]]
              if targetable(S, HUMAN) else [])
        if not tg:
            return None
        S["this_turn"]["attacked_seat"] = HUMAN
        return {"target": best(rng, tg)}


class ReconAircraft(CardType):
    """R 3.3.31: take two random cards from an opponent's hand."""

    name = "recon_aircraft"
    phantom_entries = ("recon_aircraft",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target_seat=o) for o in opp_seats(S, seat) if S["players"][o]["hand"]]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        ts = action["target_seat"]
        hand = S["players"][ts]["hand"]
        got = []
        for _ in range(min(2, len(hand))):
            got.append(hand.pop(int(rng.random() * len(hand))))
        S["players"][seat]["hand"] += got
        marker(ev, "give", got, seat)
        ev.append({"type": "cards_taken", "from": ts, "seat": seat, "n": len(got)})
        ev.append({"type": "cards_taken_were", "cards": got, "to": [seat, ts]})
        if S["mode"] == "solo" and ts == PHANTOM:
            S["solo"]["recon"] = True  # R 5.4.3 item 10
        if S["options"]["a7_recon_immediate"] and c is not None:
            S["this_turn"]["recon_cards"] += got  # A-7 option: playable this turn

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        """Item 8: two random cards of the human's hand discarded face down."""
        H = S["players"][HUMAN]
        if not targetable(S, HUMAN) or not H["hand"]:
            return False
        for _ in range(min(2, len(H["hand"]))):
            S["discards"].append(H["hand"].pop(int(rng.random() * len(H["hand"]))))
        ev.append({"type": "cards_discarded_by_phantom", "seat": HUMAN})
        return True


class RendezvousMissed(CardType):
    """R 3.3.33: an opponent's Warships and Raiders may fall into Limited Supply."""

    name = "rendezvous_missed"
    phantom_entries = ("rendezvous_missed",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target_seat=o) for o in opp_seats(S, seat)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        ts = action["target_seat"]
        pen = -2 if any(S["ships"][s]["prize"] for s in S["players"][ts]["german"]) else 0
        for s in list(S["players"][ts]["german"]):
            if kind(S, s) not in ("warship", "raider") or in_refuge(S, s):
                continue
            mod = pen + coal_sails(S, s, 2, -2)
            ok, _c, _r = challenge(S, rng, ev, "rendezvous_missed", seat, cd["ch"], mod, ts,
                                   cd["re"])
            if ok and not S["ships"][s]["limited_supply"]:
                S["ships"][s]["limited_supply"] = True
                ev.append({"type": "limited_supply", "ship": s})

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        return {"target_seat": HUMAN} if targetable(S, HUMAN) else None


class Scuttle(CardType):
    """R 3.3.35: scuttle one of your damaged ships (no VP for anyone)."""

    name = "scuttle"
    phantom_entries = ("scuttle",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        return [play(c, target=s) for s in S["players"][seat]["german"] if S["ships"][s]["damage"]]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        to_used(S, action["target"], ev, "scuttled")

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        tg = [s for s in S["players"][PHANTOM]["german"] if S["ships"][s]["damage"]]
        return {"target": best(rng, tg)} if tg else None


class SecondChance(CardType):
    """R 3.3.37: one extra turn after this one (never after an extra turn)."""

    name = "second_chance"
    phantom_entries = ("second_chance",)

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        T = S["this_turn"]
        return [] if T["extra"] or T["second_chance"] else [play(c)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        S["this_turn"]["second_chance"] = True

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        if S["this_turn"]["extra"]:
            return False
        S["this_turn"]["second_chance"] = True
        return True


class Submarine(CardType):
    """R 3.3.42-43: a torpedo attack on a merchant (6.9: a hidden prize); the UC
    minelayer may lay mines instead."""

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        out = []
        for o in attack_targets(S, seat):
            out += [play(c, target=m) for m in S["players"][o]["merchants"]]
            if S["options"]["torpedo_prizes"]:  # 6.9 (A-21: unrevealed only)
                out += [play(c, target=s) for s in S["players"][o]["german"]
                        if S["ships"][s]["prize"] and hidden(S, s)]
        if self.name == "submarine_uc":
            out += [play(c, mode="mines", target_seat=o) for o in attack_targets(S, seat)
                    if S["players"][o]["merchants"]]
        return out

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        if action.get("mode") == "mines":
            start_mines(S, c, action["target_seat"], cd["mine"], None)
        else:
            start_torpedo(S, c, action["target"], cd)

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        H = S["players"][HUMAN]
        if not targetable(S, HUMAN) or not H["merchants"]:
            return False
        if self.name == "submarine_u":
            action: Action = {"target": best(rng, H["merchants"])}
        else:
            action = {"mode": "mines", "target_seat": HUMAN}
        self.perform(S, rng, PHANTOM, pseudo(sc, self.name), None, action, ev)
        return True


class SubmarineU(Submarine):
    name = "submarine_u"
    phantom_entries = ("submarine_torpedo",)


class SubmarineUC(Submarine):
    name = "submarine_uc"
    phantom_entries = ("submarine_mine",)


class WirelessIntercept(CardType):
    """R 3.3.47 (A-6): take the top two discards; not in consecutive turns."""

    name = "wireless_intercept"

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        T, P = S["this_turn"], S["players"][seat]
        if (
            T["extra"]
            or T["wireless_used"]
            or P["wireless_turn"] == P["turns"] - 1
            or not S["discards"]
        ):
            return []
        return [play(c)]

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        P = S["players"][seat]
        got = [S["discards"].pop() for _ in range(min(2, len(S["discards"])))]
        P["hand"] += got
        S["this_turn"]["wireless_used"] = True
        P["wireless_turn"] = P["turns"]
        ev.append({"type": "took_discards", "seat": seat, "cards": got})


ACTION_CARDS: tuple[CardType, ...] = (
    BlockadeRunner(), BoundingMain(), Breakdown(), Breakout(), Collier(), DamageControl(),
    Deception(), ExchangeInformation(), FairSeas(), FogBank(), HeavyWeather(), Intelligence(),
    Interned(), Interrogate(), IslandRefuge(), LayMines(), Monitor(), ReconAircraft(),
    RendezvousMissed(), Scuttle(), SecondChance(), SubmarineU(), SubmarineUC(),
    TransferCommand(), WirelessIntercept(),
)
