"""Solitaire (digest 8.2): the phantom player (seat 1), driven by the Solitaire deck.

The engine plays the phantom: its turns (R 5.4.3, one loop step per call of
``phantom_turn``), its reactions (R 5.3.3, one Solitaire card per reaction window)
and its keep choice (A-25). Where the rulebook says "choose the best", the phantom
takes the highest-VP target and breaks ties with the rng.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, fights
from .data import SHIPS, SOLO, SOLO_ENTRY_PAIRS
from .rules import hidden, in_refuge, kind, roll, targetable

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
PHANTOM = 1
HUMAN = 0

# Solitaire column entries that are ordinary Action-card effects
_AS_CARD = {"blockade_runner", "breakout", "heavy_weather", "scuttle", "rendezvous_missed",
            "transfer_command", "island_refuge", "deception", "fog_bank", "interned",
            "fair_seas", "damage_control", "monitor", "collier"}


def pseudo(sc: dict[str, Any], t: str) -> dict[str, Any]:
    """Card data for the phantom's action or reaction: the Solitaire card's indicators,
    except the pairs ``SOLO_ENTRY_PAIRS`` fixes for some entries (Heavy Weather)."""
    cd = {"type": t, "ch": sc["ch"], "re": sc["re"], "ch2": sc["ch"], "re2": sc["re"],
          "att": sc["att"], "icpt": sc["att"], "def": sc["def"], "night": sc["night"],
          "torp": sc["torp"], "mine": sc["mine"], "gun": sc["att"], "dc": sc["att"], "vp": 0}
    cd.update(SOLO_ENTRY_PAIRS.get(t, {}))
    return cd


def reshuffle(S: State, rng: random.Random, ev: Events) -> None:
    """R 5.4.1 / 5.2.5: every Solitaire card back into the deck, shuffled."""
    S["solo"]["deck"] = list(range(len(SOLO)))
    rng.shuffle(S["solo"]["deck"])
    ev.append({"type": "solitaire_shuffle"})


def _draw(S: State, rng: random.Random, ev: Events) -> dict[str, Any]:
    sd = S["solo"]
    if not sd["deck"]:  # R 5.4.1: all cards used
        reshuffle(S, rng, ev)
    c = sd["deck"].pop()
    ev.append({"type": "solitaire_card", "card": c})
    return SOLO[c]


def _red(rng: random.Random, ev: Events) -> int:
    face = roll(rng, [4])[0]
    ev.append({"type": "red_die", "face": face})
    return face


def _best(S: State, rng: random.Random, ships: list[int], low: bool = False) -> int:
    key = [SHIPS[s]["vp"] for s in ships]
    want = min(key) if low else max(key)
    tied = [s for s, k in zip(ships, key, strict=True) if k == want]
    return tied[int(rng.random() * len(tied))]


# ---------------------------------------------------------------------------
# reactions and other decisions of the phantom
# ---------------------------------------------------------------------------


def decide(S: State, rng: random.Random, offers: list[dict[str, Any]],
           ev: Events) -> dict[str, Any] | None:
    """Take the phantom's pending decision, given its legal ``offers``.

    Reactions, pursuit and Passage are applied here; for any other decision the
    chosen action is returned for the turn to apply (so this module never needs
    the turn's, and ``turn`` alone drives the phantom).
    """
    pend = S["pend"]
    k = pend["k"]
    if k == "react":  # R 5.3.3: one Solitaire card, red die 1/3 or 2/4
        sc = _draw(S, rng, ev)
        face = _red(rng, ev)
        want = sc["def13"] if face in (1, 3) else sc["def24"]
        cand = [a for a in offers if a.get("ctype") == want]
        ev.append({"type": "phantom_reaction", "reaction": want, "applies": bool(cand)})
        S["pend"] = None
        if cand:
            fights.decide(S, rng, pend, cand[0], ev, cd=pseudo(sc, want))
        return None
    if k in ("pursue", "passage"):  # in its best interest: always pursue, always try
        S["pend"] = None
        fights.decide(S, rng, pend, offers[-1], ev)
        return None
    return offers[0]  # pass / done


def phantom_keep(S: State) -> list[int]:
    """A-25: the phantom keeps its highest-VP surviving Warship or Raider."""
    ships = [s for s in S["p"][PHANTOM]["ger"] if not S["sh"][s]["prize"]]
    if not ships:
        return []
    return [max(ships, key=lambda s: (SHIPS[s]["vp"], -s))]


# ---------------------------------------------------------------------------
# the phantom's turn (R 5.4)
# ---------------------------------------------------------------------------


def phantom_turn(S: State, rng: random.Random, ev: Events) -> None:
    """One step of the phantom's loop; contexts it starts run in between."""
    T = S["T"]
    sd = S["solo"]
    if not T.get("pl"):  # the deck was reshuffled at the end of its last turn (R 5.4.1)
        T["pl"] = 1
        for s in S["p"][PHANTOM]["ger"]:  # item 7: leave refuge once repaired and resupplied
            st = S["sh"][s]
            if st["ref"] == -1 and st["reft"] < S["tno"] and not st["dmg"] and not st["ls"]:
                st["ref"] = None
                ev.append({"type": "left_refuge", "ship": s})
        if T["dec"] or sd["recon"]:  # items 9-10: one card, column 3 or 4
            sd["recon"] = False
            sc = _draw(S, rng, ev)
            face = _red(rng, ev)
            _perform(S, rng, sc, sc["cols"][2 if face in (1, 3) else 3][0], ev)
            T["pend_end"] = True
            return
    if T.get("pend_end"):
        _end(S, rng, ev)
        return
    sc = _draw(S, rng, ev)
    face = _red(rng, ev)
    entry, ends = sc["cols"][face - 1]
    if face == 1:
        _end(S, rng, ev)
    elif face == 2:
        if not _intercept(S, rng, sc, entry, ev):
            _end(S, rng, ev)
    else:
        done = _perform(S, rng, sc, entry, ev)
        ev.append({"type": "phantom_action", "entry": entry, "done": done})
        if ends:
            T["pend_end"] = True


def _end(S: State, rng: random.Random, ev: Events) -> None:
    """Item 12: a revealed phantom ship may Reflag; then the turn ends."""
    revealed = [s for s in S["p"][PHANTOM]["ger"] if kind(S, s) != "warship" and S["sh"][s]["rev"]]
    if revealed:
        sc = _draw(S, rng, ev)
        if sc["special"] == "reflag":
            s = _best(S, rng, revealed)
            S["sh"][s]["rev"] = False
            ev.append({"type": "hidden", "ship": s})
    S["T"]["ph"] = "end"


def _specials(S: State, rng: random.Random, ev: Events, legal: set[str]) -> list[str]:
    """Item 3: draw Special Actions until a blank, a duplicate or an illegal one."""
    got: list[str] = []
    while True:
        sp = _draw(S, rng, ev)["special"]
        if sp is None or sp in got or sp not in legal:
            break
        got.append(sp)
    ev.append({"type": "phantom_specials", "specials": got})
    return got


def _intercept(S: State, rng: random.Random, sc: dict[str, Any], entry: str, ev: Events) -> bool:
    T = S["T"]
    if not targetable(S, HUMAN):
        return False
    H = S["p"][HUMAN]
    if entry == "intercept_british":
        tg = [s for s in H["ger"] if not hidden(S, s) and not in_refuge(S, s)
              and s not in T["icpt"]]
        if not tg:
            return False
        got = _specials(S, rng, ev, {"surprise_attack"})
        ctx = fights.start_bi(S, None, _best(S, rng, tg), "brit", pseudo(sc, "british"))
        ctx["sa"] = "surprise_attack" in got
        ctx["st"] = "react"
        return True
    want = "warship" if entry.endswith("warship") else "raider"
    ships = [s for s in S["p"][PHANTOM]["ger"] if kind(S, s) == want and not in_refuge(S, s)
             and s not in T["acted"]]
    merch = [m for m in H["mer"] if m not in T["icpt"]]
    if not ships or not merch:
        return False
    ship = max(ships, key=lambda s: (max(SHIPS[s]["att"]), len(SHIPS[s]["att"]), -s))
    target = _best(S, rng, merch)
    legal = {"surprise_attack"}
    if S["sh"][target]["dmg"] == 0:
        legal.add("boarding_party")
    if len(merch) > 1:
        legal.add("good_hunting" if want == "raider" else "shipping_lanes")
    got = _specials(S, rng, ev, legal)
    ctx = fights.start_gi(S, None, ship, target, night=sc["night"])
    ctx["sa"] = "surprise_attack" in got
    if "boarding_party" in got:
        ctx["bp"] = [target]
    rest = [m for m in merch if m != target]
    if "good_hunting" in got:
        extra = [_best(S, rng, rest)]
    elif "shipping_lanes" in got:
        extra = sorted(rest)
    else:
        extra = []
    ctx["tg"] += extra
    T["icpt"] += extra
    return True


def _perform(S: State, rng: random.Random, sc: dict[str, Any], entry: str, ev: Events) -> bool:
    """Items 4-11: perform a column-3/4 entry if possible; False when it is ignored."""
    T = S["T"]
    P = S["p"][PHANTOM]
    H = S["p"][HUMAN]
    open_ = targetable(S, HUMAN)
    action: dict[str, Any] = {}
    t = entry
    if entry.startswith("interrogate"):
        t = "interrogate"
        tg = [s for s in H["ger"] if hidden(S, s) and not in_refuge(S, s) and s not in T["icpt"]]
        if not tg or not open_:
            return False
        if entry == "interrogate_random":
            action["target"] = tg[int(rng.random() * len(tg))]
        else:
            action["target"] = _best(S, rng, tg, low=entry == "interrogate_low")
    elif entry == "second_chance":
        if T["extra"]:
            return False
        T["sc"] = True
        return True
    elif entry in ("submarine_torpedo", "submarine_mine", "lay_mines"):
        if not open_ or not H["mer"]:
            return False
        if entry == "submarine_torpedo":
            t = "submarine_u"
            action["target"] = _best(S, rng, H["mer"])
        elif entry == "submarine_mine":
            t = "submarine_uc"
            action.update({"mode": "mines", "target_seat": HUMAN})
        else:
            miners = [s for s in P["ger"] if kind(S, s) == "raider" and SHIPS[s]["mines"]
                      and not in_refuge(S, s) and s not in T["acted"]]
            if not miners:
                return False
            fights.start_mines(S, None, HUMAN, sc["mine"], miners[0])
            return True
    elif entry == "recon_aircraft":  # item 8: two random cards discarded face down
        if not open_ or not H["hand"]:
            return False
        for _ in range(min(2, len(H["hand"]))):
            S["adisc"].append(H["hand"].pop(int(rng.random() * len(H["hand"]))))
        ev.append({"type": "cards_discarded_by_phantom", "seat": HUMAN})
        return True
    elif entry in _AS_CARD:
        target = _target(S, rng, entry)
        if target is False:
            return False
        if isinstance(target, dict):
            action.update(target)
    else:
        return False
    cards.perform(S, rng, PHANTOM, pseudo(sc, t), None, action, ev)
    return True


def _target(S: State, rng: random.Random, entry: str) -> Any:
    """Targets for column entries that are ordinary card effects; False if impossible."""
    P = S["p"][PHANTOM]
    H = S["p"][HUMAN]
    sh = S["sh"]
    open_ = targetable(S, HUMAN)
    if entry in ("blockade_runner", "collier"):
        return {} if any(sh[s]["ls"] for s in P["ger"]) else False
    if entry == "breakout":
        return {}
    if entry == "heavy_weather":
        return {"target_seat": HUMAN}
    if entry == "rendezvous_missed":
        return {"target_seat": HUMAN} if open_ else False
    if entry in ("deception", "fog_bank"):
        return {"target_seat": HUMAN} if open_ and H["wait"] is None else False
    if entry == "scuttle":
        tg = [s for s in P["ger"] if sh[s]["dmg"]]
    elif entry == "damage_control":
        tg = [s for s in P["ger"] + P["mer"] if sh[s]["dmg"]]
    elif entry == "fair_seas":
        tg = [s for s in P["ger"] if sh[s]["prize"] and not sh[s]["dmg"]] or \
             [s for s in P["mer"] if not sh[s]["dmg"]]
    elif entry == "island_refuge":
        ships = [s for s in P["ger"] if kind(S, s) in ("warship", "raider") and not in_refuge(S, s)]
        tg = [s for s in ships if sh[s]["dmg"] or sh[s]["ls"] or sh[s]["rev"]] or ships
    elif entry == "interned":
        tg = [s for s in H["ger"] if not hidden(S, s) and not in_refuge(S, s)] if open_ else []
    elif entry == "transfer_command":  # R 3.3.45: a revealed ship in a refuge too
        tg = [s for s in H["ger"] if not hidden(S, s)] if open_ else []
    elif entry == "monitor":
        tg = [s for s in H["ger"] if in_refuge(S, s) and s not in S["T"]["icpt"]] if open_ else []
        if tg:
            S["T"]["att"] = HUMAN
    else:
        return False
    if not tg:
        return False
    return {"target": _best(S, rng, tg)}

