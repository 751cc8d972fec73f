"""Card data for Kaiser's Pirates: every ship, Action card and Solitaire card.

HEADER -- where each value comes from (the rules: docs/rules/kaisers-pirates.md)

RULEBOOK FACTS (digest sections 2, 6, 9, 10 "known data points"):
  * deck sizes (20 German ships = 6 Warships + 14 Raiders, 60 Merchants, 100 Action
    cards in 47 types with the counts of digest 6.1, 20 Solitaire cards);
  * the names of the 6 Warships and 12 Raiders, 34 merchant names, the 12 sailing
    merchants, the 5 fast raiders, Meteor's mines, Seeadler's sails, Wolf's Woelfchen,
    all Warships carrying the coal symbol, Prinz Eitel Friedrich and Leopard having
    no mines;
  * the ships on Action cards (AMC Alcantara/Carmania, Q-7 Penhurst, Q-19 Privet,
    Q-21 Prize, U-27, U-41, UC-16, UC-29, the four named British interceptors);
  * the example dice: Leipzig attack 10/8/4, Prinz Eitel Friedrich attack 10/8,
    Leopard defence 8 (attack rolled as 10/8/4), merchant defences Matheran 8,
    Lovat 8, Maria 6, Bowes Castle 6, Invercoe 4, Mount Temple 10, Lundy Island 6,
    Appam 8, Kaipara 8, Matheran passage 6 vs 8, Recalled British interception
    10/8, Lay Mines mine attack 10/4, U-27 torpedo 10/6/4, Shallow Run 10/4 vs 10,
    Interned 10/8 vs 10, Q-Ship lure 10/4 vs 10; merchants of 5, 7 and 9 VP exist.

DESIGNED HERE (the rulebook does not print card faces; marked DESIGNED below):
  * every other die indicator, every VP value, every Night -1 symbol;
  * the two unnamed Raiders (Moewe, Greif -- historical raiders), 26 merchant names
    (historical ships taken by German raiders), which raiders carry coal and which
    lay mines besides Meteor (Berlin, Moewe, Wolf -- historical minelayers);
  * the 20 Solitaire cards;
  * third-party hints used as designed values: City of Winchester 7 VP,
    William P. Frye 5 VP, Lundy Island 5 VP.

The 8 expansion Action cards are not described anywhere in the rulebook and are
not included.

An indicator is a list of die sizes (subset of 4, 6, 8, 10, at most one of each);
the result of a roll is the single highest die (digest 2.4).
"""

from __future__ import annotations

from typing import Any, Final

# ---------------------------------------------------------------------------
# German ships: id 0..19.  (name, kind, attack, defence, vp, flags)
# flags: m = mines, c = coal, s = sails, w = Woelfchen, f = fast raider
# ---------------------------------------------------------------------------
_GERMAN: Final = [
    # Warships (all coal: FACT). Dice and VP: DESIGNED except Leipzig attack (FACT).
    ("Dresden", "warship", [10, 8, 4], [10, 4], 9, "c"),
    ("Emden", "warship", [10, 8, 4], [10, 4], 9, "c"),
    ("Karlsruhe", "warship", [10, 8, 6], [10, 6], 10, "c"),
    ("Koenigsberg", "warship", [10, 8, 4], [10, 4], 9, "c"),
    ("Leipzig", "warship", [10, 8, 4], [10, 6], 9, "c"),
    ("Nuernberg", "warship", [10, 8, 4], [10, 4], 9, "c"),
    # Raiders. Flags m/s/w/f for Meteor, Seeadler, Wolf and the fast five: FACT.
    ("Berlin", "raider", [10, 6], [8, 4], 6, "fmc"),
    ("Cap Trafalgar", "raider", [10, 6, 4], [8], 6, "fc"),
    ("Kaiser Wilhelm der Grosse", "raider", [10, 6], [8, 4], 6, "fc"),
    ("Kronprinz Wilhelm", "raider", [10, 6, 4], [8], 7, "fc"),
    ("Prinz Eitel Friedrich", "raider", [10, 8], [8], 7, "f"),  # attack 10/8: FACT
    ("Cormoran", "raider", [8, 6], [6, 4], 4, "c"),
    ("Geier", "raider", [8, 6], [6], 4, ""),
    ("Iltis", "raider", [8, 4], [6], 4, ""),
    ("Meteor", "raider", [10, 4], [6, 4], 5, "m"),
    ("Seeadler", "raider", [8, 6], [6], 6, "s"),
    ("Wolf", "raider", [10, 8], [8], 8, "mw"),
    ("Leopard", "raider", [10, 8, 4], [8], 6, ""),  # defence 8, rolled 10/8/4: FACT
    ("Moewe", "raider", [10, 8], [8, 4], 8, "m"),  # name DESIGNED
    ("Greif", "raider", [10, 6], [6], 5, ""),  # name DESIGNED
]

# ---------------------------------------------------------------------------
# Merchants: id 20..79. (name, vp, defence, passage challenge, passage response, sailing)
# ---------------------------------------------------------------------------
_MERCHANTS: Final = [
    # named in the rulebook (defences of the examples: FACT; rest DESIGNED)
    ("Matheran", 7, [8], [6], [8], False),  # passage 6 vs 8: FACT
    ("Lovat", 5, [8], [8], [8], False),
    ("Maria", 5, [6], [6], [8], False),
    ("Bowes Castle", 7, [6], [8], [8], False),
    ("Invercoe", 5, [4], [6], [8], True),
    ("Mount Temple", 9, [10], [8], [10], False),
    ("Lundy Island", 5, [6], [8], [6], False),
    ("Appam", 9, [8], [10], [10], False),
    ("Kaipara", 7, [8], [10], [8], False),
    ("William P. Frye", 5, [4], [6], [6], True),
    ("Anne de Bretagne", 5, [4], [6], [8], True),
    ("Banksfield", 5, [6], [8], [8], False),
    ("City of Winchester", 7, [8], [8], [8], False),
    ("Diplomat", 9, [8], [10], [10], False),
    ("Elsinor", 5, [6], [8], [6], False),
    ("Hyades", 5, [6], [8], [8], False),
    ("Indrani", 7, [6], [8], [8], False),
    ("King Lud", 5, [6], [6], [6], False),
    ("La Correntina", 9, [8], [10], [8], False),
    ("Manchester Commerce", 7, [8], [8], [10], False),
    ("Pontoporos", 3, [4], [6], [6], False),
    ("Rio Iguassu", 3, [4], [6], [8], False),
    ("Ryazan", 5, [6], [8], [8], False),
    ("Troilus", 9, [10], [10], [10], False),
    ("Vandyck", 9, [8], [10], [8], False),
    ("Buenos Ayres", 3, [4], [4], [6], True),
    ("Charles Gounod", 3, [4], [6], [6], True),
    ("Dee", 3, [4], [4], [6], True),
    ("Dupleix", 5, [4], [6], [8], True),
    ("Isabel Browne", 3, [4], [4], [6], True),
    ("John H. Kirby", 3, [4], [6], [6], True),
    ("Marechal Davout", 5, [6], [6], [8], True),
    ("Staut", 3, [4], [4], [6], True),
    ("Storebror", 3, [4], [6], [6], True),
    # names DESIGNED (historical ships taken by German raiders)
    ("Hudson Maru", 5, [6], [8], [8], False),
    ("Highland Brae", 7, [6], [8], [8], False),
    ("Clan Mactavish", 7, [8], [8], [8], False),
    ("Indian Prince", 5, [6], [8], [6], False),
    ("Tymeric", 3, [6], [6], [6], False),
    ("Wordsworth", 5, [6], [8], [8], False),
    ("Potaro", 5, [6], [8], [8], False),
    ("Highland Hope", 7, [6], [8], [8], False),
    ("Hitachi Maru", 9, [8], [10], [8], False),
    ("Igotz Mendi", 5, [6], [6], [8], False),
    ("Matunga", 7, [8], [8], [8], False),
    ("Wairuna", 5, [6], [8], [8], False),
    ("Jumna", 5, [6], [6], [8], False),
    ("Otaki", 9, [10], [10], [10], False),
    ("Georgic", 9, [8], [10], [10], False),
    ("Voltaire", 7, [8], [8], [8], False),
    ("Saint Theodore", 5, [6], [8], [8], False),
    ("Cambridge", 5, [6], [8], [6], False),
    ("Yarrowdale", 7, [8], [8], [8], False),
    ("Radnorshire", 5, [6], [8], [8], False),
    ("Esmeraldas", 5, [6], [6], [8], False),
    ("Netherby Hall", 7, [6], [8], [8], False),
    ("Dramatist", 7, [8], [8], [8], False),
    ("Ben Cruachan", 3, [4], [6], [6], False),
    ("Clan Grant", 5, [6], [8], [8], False),
    ("Exford", 5, [6], [8], [8], False),
]

# ---------------------------------------------------------------------------
# Action card types (key, English name, kind, count): FACT (digest 6.1).
# kind: N normal, R reaction, A assist, T team
# ---------------------------------------------------------------------------
TYPES: Final = [
    ("amc", "AMC", "R", 2),
    ("blockade_runner", "Blockade Runner", "N", 2),
    ("boarding_party", "Boarding Party", "A", 6),
    ("bounding_main", "Bounding Main", "T", 1),
    ("break_contact", "Break Contact", "R", 2),
    ("breakdown", "Breakdown", "N", 1),
    ("breakout", "Breakout", "N", 3),
    ("collier", "Collier", "N", 1),
    ("damage_control", "Damage Control", "N", 4),
    ("deception", "Deception", "N", 2),
    ("exchange_information", "Exchange Information", "T", 1),
    ("fair_seas", "Fair Seas", "N", 2),
    ("fast_ship", "Fast Ship", "R", 2),
    ("fog_bank", "Fog Bank", "N", 2),
    ("good_hunting", "Good Hunting", "A", 4),
    ("heavy_weather", "Heavy Weather", "N", 2),
    ("intelligence", "Intelligence", "N", 2),
    ("interned", "Interned", "N", 1),
    ("interrogate", "Interrogate", "N", 5),
    ("island_refuge", "Island Refuge", "N", 2),
    ("lay_mines", "Lay Mines", "N", 2),
    ("minesweeper", "Minesweeper", "R", 2),
    ("mistaken_identity", "Mistaken Identity", "R", 1),
    ("monitor", "Monitor", "N", 1),
    ("non_combatant", "Non-Combatant", "R", 3),
    ("pull_the_plug", "Pull the Plug", "R", 1),
    ("qqq", "QQQ", "R", 2),
    ("q_ship", "Q-Ship", "R", 2),
    ("razzle_dazzle", "Razzle-Dazzle", "R", 1),
    ("recalled", "Recalled", "R", 1),
    ("recon_aircraft", "Recon Aircraft", "N", 2),
    ("reflag", "Reflag", "R", 5),
    ("rendezvous_missed", "Rendezvous Missed", "N", 2),
    ("sail_q_ship", "Sail Q-Ship", "R", 1),
    ("scuttle", "Scuttle", "N", 2),
    ("searchlight", "Searchlight", "A", 1),
    ("second_chance", "Second Chance", "N", 2),
    ("shallow_run", "Shallow Run", "R", 2),
    ("shipping_lanes", "Shipping Lanes", "A", 4),
    ("slim_pickings", "Slim Pickings", "R", 2),
    ("special_cargo", "Special Cargo", "A", 1),
    ("submarine_u", "Submarine", "N", 2),
    ("submarine_uc", "Submarine (UC)", "N", 2),
    ("surprise_attack", "Surprise Attack", "A", 3),
    ("transfer_command", "Transfer Command", "N", 2),
    ("trap", "Trap", "R", 2),
    ("wireless_intercept", "Wireless Intercept", "N", 2),
]

# Interception half of each copy: British attack dice and the Night -1 symbol.
# DESIGNED except Recalled 10/8 (FACT) and the four named British ships being
# stronger than usual (FACT; their dice are DESIGNED).  A cycle of ordinary
# halves is dealt to the copies in type order; every third ordinary half is a night one.
_INTERCEPT_CYCLE: Final = [
    ([10, 6], False), ([10, 8], False), ([10, 4], True), ([8, 6], False),
    ([10, 6, 4], False), ([10, 8], True), ([8, 6, 4], False), ([10, 6], True),
    ([10, 4], False),
]
_NAMED_BRITISH: Final = {
    "breakdown": ("HMS Glasgow", [10, 8, 6], False),
    "mistaken_identity": ("HMS Highflyer", [10, 8, 6], False),
    "searchlight": ("HMS Pegasus", [10, 8, 4], True),
    "special_cargo": ("HMS Sydney", [10, 8, 6, 4], False),
    "recalled": (None, [10, 8], False),  # FACT (3-player example)
}

# Action-half numbers per type (same for every copy unless listed per copy).
# ch/re = Challenge/Response. FACT: interned 10/8 vs 10, shallow_run 10/4 vs 10,
# q_ship lure 10/4 vs 10, lay_mines mine 10/4, U-27 torpedo 10/6/4. Rest DESIGNED.
_ACTION_HALF: Final[dict[str, dict[str, Any]]] = {
    "blockade_runner": {"ch": [10, 6], "re": [10]},
    "break_contact": {"ch": [10, 6], "re": [10]},
    "breakdown": {"ch": [10, 8], "re": [10]},
    "breakout": {"ch": [10, 8], "re": [8]},
    "heavy_weather": {"ch": [4], "re": [10]},
    "interned": {"ch": [10, 8], "re": [10]},
    "interrogate": {"ch": [10, 6], "re": [8], "att": [10, 8]},
    # Island Refuge: repair pair (ch/re) and resupply pair (ch2/re2)
    "island_refuge": {"ch": [10], "re": [8], "ch2": [10], "re2": [6]},
    "mistaken_identity": {"ch": [10, 6], "re": [10]},
    "razzle_dazzle": {"ch": [10, 8], "re": [10]},
    "recalled": {"ch": [10, 6], "re": [10]},
    "rendezvous_missed": {"ch": [8], "re": [10]},
    "shallow_run": {"ch": [10, 4], "re": [10]},
    "transfer_command": {"ch": [10], "re": [10, 4]},
    "lay_mines": {"mine": [10, 4]},
    "monitor": {"att": [10, 8, 6]},
    "trap": {"att": [8, 6]},
}
# Per-copy action halves (ships on cards). FACT names; numbers DESIGNED except U-27 torpedo.
_PER_COPY: Final[dict[str, list[dict[str, Any]]]] = {
    "amc": [
        {"ship": "HMS Alcantara", "att": [10, 8], "def": [10, 6], "vp": 6},
        {"ship": "HMS Carmania", "att": [10, 8, 6], "def": [10, 8], "vp": 7},
    ],
    "q_ship": [
        {"ship": "Q-7 Penhurst", "ch": [10, 4], "re": [10], "gun": [10, 6], "dc": [10, 8],
         "def": [8], "vp": 5},
        {"ship": "Q-19 Privet", "ch": [10, 4], "re": [10], "gun": [10, 8], "dc": [10, 6],
         "def": [8], "vp": 5},
    ],
    "sail_q_ship": [
        {"ship": "Q-21 Prize", "ch": [10, 6], "re": [10], "gun": [8, 6], "def": [6], "vp": 4},
    ],
    "submarine_u": [
        {"ship": "U-27", "torp": [10, 6, 4], "gun": [6], "def": [6], "vp": 5},
        {"ship": "U-41", "torp": [10, 8], "gun": [6, 4], "def": [6], "vp": 5},
    ],
    "submarine_uc": [
        {"ship": "UC-16", "torp": [10, 4], "mine": [10, 6], "gun": [4], "def": [6], "vp": 4},
        {"ship": "UC-29", "torp": [10, 6], "mine": [10, 4], "gun": [6], "def": [6], "vp": 4},
    ],
    "trap": [{"att": [8, 6]}, {"att": [10, 4]}],
}

# Optional-rule ship lists (FACT, digest 8.3).
TOURNAMENT_WARSHIPS: Final = ["Dresden", "Emden", "Koenigsberg", "Nuernberg"]
TOURNAMENT_REMOVED: Final = ["Leipzig", "Karlsruhe", "Geier", "Iltis", "Meteor", "Seeadler"]
BEYOND_1914_REMOVED: Final = ["Emden", "Leipzig", "Karlsruhe", "Nuernberg", "Berlin",
                              "Cap Trafalgar", "Kaiser Wilhelm der Grosse", "Cormoran"]
BEYOND_1914_MERCHANTS_REMOVED: Final = [
    "Anne de Bretagne", "Banksfield", "Bowes Castle", "City of Winchester", "Diplomat",
    "Elsinor", "Hyades", "Indrani", "Kaipara", "King Lud", "La Correntina", "Lovat",
    "Manchester Commerce", "Maria", "Pontoporos", "Rio Iguassu", "Ryazan", "Troilus",
    "Vandyck"]
SOLITAIRE_REMOVED: Final = ["intelligence", "intelligence", "wireless_intercept",
                            "wireless_intercept", "bounding_main", "breakdown",
                            "exchange_information", "mistaken_identity", "pull_the_plug",
                            "sail_q_ship", "searchlight", "special_cargo"]  # FACT (5.2)
# Fixed Challenge/Response pairs of optional rules (FACT: 6.6.1 10/4, 6.9.1 and 6.12.2 10/8).
PURSUIT_CHECK: Final = ([10, 4], [10])
PRIZE_TORPEDO_CHECK: Final = ([10, 8], [10])
PRIZE_EXHAUST_CHECK: Final = ([10, 8], [10])


def _build_ships() -> list[dict[str, Any]]:
    ships: list[dict[str, Any]] = []
    for name, kind, att, dfn, vp, flags in _GERMAN:
        ships.append({"id": len(ships), "name": name, "kind": kind, "att": att, "def": dfn,
                      "vp": vp, "mines": "m" in flags, "coal": "c" in flags or kind == "warship",
                      "sails": "s" in flags, "wolf": "w" in flags, "fast": "f" in flags,
                      "sailing": False})
    for name, vp, dfn, pc, pr, sailing in _MERCHANTS:
        ships.append({"id": len(ships), "name": name, "kind": "merchant", "att": [], "def": dfn,
                      "vp": vp, "pch": pc, "pre": pr, "mines": False, "coal": False,
                      "sails": False, "wolf": False, "fast": False, "sailing": sailing})
    return ships


def _build_actions() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    cycle = 0
    for key, name, kind, count in TYPES:
        for copy in range(count):
            card: dict[str, Any] = {"id": len(cards), "type": key, "name": name, "kind": kind}
            if key in _NAMED_BRITISH:
                british, dice, night = _NAMED_BRITISH[key]
                card["british"] = british
            else:
                dice, night = _INTERCEPT_CYCLE[cycle % len(_INTERCEPT_CYCLE)]
                cycle += 1
            card["icpt"] = list(dice)
            card["night"] = night
            card.update({k: (list(v) if isinstance(v, list) else v)
                         for k, v in _ACTION_HALF.get(key, {}).items()})
            if key in _PER_COPY:
                card.update(_PER_COPY[key][copy])
            cards.append(card)
    return cards


# ---------------------------------------------------------------------------
# Solitaire deck (20 cards): entirely DESIGNED from the vocabulary of digest 8.2.1.
# def13/def24: defensive reaction for a red die of 1/3 resp. 2/4 (None = No Response).
# special: Special Action (None = blank).  cols: offensive columns 1..4, each
# (entry, ends_turn).  dice: attack / Challenge / defence / Response indicators
# used when the phantom acts with this card; night: Night -1 on its interceptions.
# ---------------------------------------------------------------------------
_SOLO: Final = [
    (None, "break_contact", "surprise_attack",
     "intercept_merchant_warship", "blockade_runner", "damage_control"),
    ("qqq", None, "boarding_party",
     "intercept_merchant_raider", "submarine_torpedo", "interrogate_random"),
    (None, "shallow_run", None, "intercept_merchant_raider", "recon_aircraft*", "breakout"),
    ("trap", None, "shipping_lanes", "intercept_british", "interrogate_low", "monitor"),
    (None, "minesweeper", "good_hunting", "intercept_merchant_warship", "lay_mines", "collier"),
    ("razzle_dazzle", None, None, "intercept_merchant_raider", "heavy_weather", "interned"),
    (None, "slim_pickings", "reflag", "intercept_british", "fair_seas", "transfer_command"),
    ("amc", None, "surprise_attack",
     "intercept_merchant_raider", "rendezvous_missed*", "submarine_mine"),
    (None, "fast_ship", None, "intercept_merchant_warship", "deception*", "interrogate_high"),
    ("non_combatant", None, "boarding_party",
     "intercept_british", "island_refuge", "damage_control"),
    (None, "reflag", "shipping_lanes",
     "intercept_merchant_warship", "submarine_torpedo", "breakout"),
    ("q_ship", None, None, "intercept_merchant_raider", "fog_bank*", "scuttle"),
    (None, "break_contact", "good_hunting",
     "intercept_merchant_raider", "second_chance*", "interrogate_random"),
    ("shallow_run", None, "reflag", "intercept_british", "transfer_command", "collier"),
    (None, "qqq", "surprise_attack", "intercept_merchant_warship", "interned", "submarine_torpedo"),
    ("slim_pickings", None, None, "intercept_merchant_raider", "breakout", "heavy_weather"),
    (None, "trap", "boarding_party", "intercept_british", "damage_control", "lay_mines"),
    ("minesweeper", None, "good_hunting",
     "intercept_merchant_raider", "blockade_runner", "monitor"),
    (None, "amc", None, "intercept_merchant_warship", "interrogate_high", "island_refuge"),
    ("non_combatant", "razzle_dazzle", "reflag",
     "intercept_british", "submarine_mine", "fair_seas"),
]
# The phantom's Challenge/Response pair for column entries whose odds must not be the
# Solitaire card's generic pair. DESIGNED, like the whole Solitaire deck: Heavy
# Weather keeps the Heavy Weather Action card's own pair (Challenge 4 vs Response 10,
# 15 % per ship). The generic pairs (10/6 or 10/8 vs 10, about 45-55 %) let the
# phantom's storm founder half the player's Force, three times what the card does,
# and no rule gives the phantom a stronger storm than the real player's.
SOLO_ENTRY_PAIRS: Final[dict[str, dict[str, list[int]]]] = {
    "heavy_weather": {"ch": list(_ACTION_HALF["heavy_weather"]["ch"]),
                      "re": list(_ACTION_HALF["heavy_weather"]["re"])},
}
_SOLO_DICE: Final = [  # (att, ch, def, re, night) cycled over the 20 cards, DESIGNED
    ([10, 8], [10, 6], [8], [10], False), ([10, 6, 4], [10, 8], [8, 4], [10], True),
    ([10, 8, 4], [10, 4], [10], [8], False), ([10, 6], [10, 8], [6], [10], False),
    ([10, 8, 6], [10, 6], [8], [10, 4], True),
]


def _build_solo() -> list[dict[str, Any]]:
    cards = []
    for i, (d13, d24, special, c2, c3, c4) in enumerate(_SOLO):
        att, ch, dfn, re, night = _SOLO_DICE[i % len(_SOLO_DICE)]
        cols = [("none", True), (c2, False)]
        for entry in (c3, c4):
            cols.append((entry.rstrip("*"), entry.endswith("*")))
        cards.append({"id": i, "def13": d13, "def24": d24, "special": special,
                      "cols": [[e, et] for e, et in cols], "att": att, "ch": ch,
                      "def": dfn, "re": re, "night": night,
                      "torp": [10, 6, 4], "mine": [10, 4]})  # sub dice: FACT 10/6/4
    return cards


SHIPS: Final = _build_ships()
ACTIONS: Final = _build_actions()
SOLO: Final = _build_solo()
N_GERMAN: Final = 20  # ids 0..19 are Warships & Raiders, 20..79 Merchants
SHIP_BY_NAME: Final = {s["name"]: s["id"] for s in SHIPS}

assert len(SHIPS) == 80
assert len(ACTIONS) == 100
assert len(TYPES) == 47
assert len(SOLO) == 20
