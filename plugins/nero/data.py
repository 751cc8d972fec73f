"""Nero's map and its 55 cards, as data.

HEADER -- where each value comes from (digest: the project's ``docs/rules/nero.md``,
which cites the rulebook's own section numbers as ``R x.y``).

RULEBOOK FACTS
  * 4 Areas of 5 provinces (West, Central, East Europe, Asia/Africa), plus Italia del
    Nord and Italia del Sud in no Area: 22 provinces (R 2.1). Rome is a city, not a
    province, reachable only from the two Italian provinces, and only by Leaders (R 5.8).
  * Province names: all of East Europe (Dacia, Moesia, Thracia, Dalmatia, Achaea);
    Britannia, Gallia Narbonensis, Spagna (Hispania), Lusitania in West Europe;
    Gallia Lugdunensis; Germania Superior and Inferior; Judaea, Syria, Aegyptus,
    Asia Minor (R 2.1, 5.0, 5.4, 7.1, 11.2).
  * Ports: Thracia, Dalmatia, Achaea (R 2.1 example).
  * Connections quoted by examples (R 5.0, 5.4, 5.5, 5.6, 6): Narbonensis with
    Lugdunensis, Spagna, Germania Superior and Italia del Nord by land; Britannia with
    Lugdunensis and Germania Superior by Naval Passage; Germania Inferior-Superior,
    Aegyptus-Judaea, Judaea-Syria, Syria-Asia Minor, Thracia-Dalmatia (1 MP),
    Dalmatia-Italia del Nord.
  * Revolt provinces: Britannia, Germania Superior, Achaea, Judaea (R 3.2).
  * Germania provinces: Germania Superior and Inferior (Germanic Tribes card).
  * 55 cards; each has MP, BP, an Event and a timing symbol (R 2.5); the 14 Events
    (card texts); Traitor carries the "once" symbol (R 12.0); MP 4 and 5 and BP 2
    and 3 exist (examples of R 5.4, 6). Bad Omens, Bad Weather, Corruption,
    Praetorian Guard and Wounded General "may be played at any time" (card texts); the
    other events "must be played in your round".

DESIGNED HERE (M1, M2, M4-M6 of the digest; each marked DESIGNED below)
  * The missing provinces, from the Roman provinces of AD 69 that fill each Area:
    Gallia Lugdunensis goes to West Europe (it borders Britannia by sea and
    Narbonensis by land); Raetia, Noricum and Pannonia complete Central Europe (the
    Danube provinces between the Germanies and Dacia); Africa (Proconsularis, with
    Cyrenaica folded in) completes Asia/Africa.
  * Every connection not quoted above, from Roman geography: land where the
    provinces touch (small provinces such as Macedonia, Aquitania, Cilicia are folded
    into a neighbour, which is why Thracia-Dalmatia is a land border), Naval Passages
    for the short crossings (Hellespont, Strait of Otranto, Sicily channel, Strait of
    Gibraltar). The six connections whose type the rulebook does not state (M11) are
    land.
  * Ports beyond the three stated: the provinces with a Roman fleet base or a great
    harbour (Britannia: Dubris; Germania Inferior: the classis Germanica; Narbonensis:
    Massilia; Hispania: Tarraco; Lusitania: Olisipo; Asia Minor: Ephesus; Syria:
    Seleucia; Judaea: Caesarea; Aegyptus: Alexandria; Africa: Carthage; Italia del
    Nord: Ravenna; Italia del Sud: Misenum).
  * The card list: how many copies of each Event (the deck's 55 split so that the
    cards every road to the throne needs are common), each card's MP 1-5 and BP 1-3
    (strong events carry weak numbers, as in most card-driven games, so that playing
    an event costs something), and the timing symbols (the card texts' wording).
  * One Germanic Tribes marker for each Germania province (M6; 2 of the 18 markers),
    so both may be overrun at once.
"""

from __future__ import annotations

from typing import Final

WEST, CENTRAL, EAST, ASIA = "west", "central", "east", "asia"
AREAS: Final = [WEST, CENTRAL, EAST, ASIA]
AREA_NAMES: Final = {WEST: "West Europe", CENTRAL: "Central Europe", EAST: "East Europe",
                     ASIA: "Asia/Africa"}

# (name, area or None, port). Index = province id; ROME is the extra id 22.
PROVINCES: Final = [
    # West Europe
    ("Britannia", WEST, True),            # port DESIGNED
    ("Gallia Lugdunensis", WEST, False),  # Area DESIGNED
    ("Gallia Narbonensis", WEST, True),   # port DESIGNED
    ("Hispania", WEST, True),             # "Spagna"; port DESIGNED
    ("Lusitania", WEST, True),            # port DESIGNED
    # Central Europe
    ("Germania Inferior", CENTRAL, True),  # Area inferred (digest 3.2); port DESIGNED
    ("Germania Superior", CENTRAL, False),
    ("Raetia", CENTRAL, False),            # DESIGNED
    ("Noricum", CENTRAL, False),           # DESIGNED
    ("Pannonia", CENTRAL, False),          # DESIGNED
    # East Europe (all FACT, ports FACT)
    ("Dacia", EAST, False),
    ("Moesia", EAST, False),
    ("Thracia", EAST, True),
    ("Dalmatia", EAST, True),
    ("Achaea", EAST, True),
    # Asia/Africa
    ("Asia Minor", ASIA, True),   # Area inferred (digest 3.2); port DESIGNED
    ("Syria", ASIA, True),        # port DESIGNED
    ("Judaea", ASIA, True),       # port DESIGNED
    ("Aegyptus", ASIA, True),     # port DESIGNED
    ("Africa", ASIA, True),       # DESIGNED
    # Italy: no Area
    ("Italia del Nord", None, True),  # port DESIGNED
    ("Italia del Sud", None, True),   # port DESIGNED
]
NPROV: Final = len(PROVINCES)
ROME: Final = NPROV  # the city: a location for Leaders only
NAMES: Final = [p[0] for p in PROVINCES] + ["Roma"]
ID: Final = {name: i for i, name in enumerate(NAMES)}
ITALY: Final = [ID["Italia del Nord"], ID["Italia del Sud"]]
GERMANIA: Final = [ID["Germania Superior"], ID["Germania Inferior"]]
REVOLT: Final = {WEST: ID["Britannia"], CENTRAL: ID["Germania Superior"],
                 EAST: ID["Achaea"], ASIA: ID["Judaea"]}
AREA_OF: Final = [p[1] for p in PROVINCES]
PORT: Final = [p[2] for p in PROVINCES]
IN_AREA: Final = {a: [i for i, p in enumerate(PROVINCES) if p[1] == a] for a in AREAS}

# Land borders. FACT where the comment says so, every other one DESIGNED.
_LAND: Final = [
    ("Gallia Narbonensis", "Gallia Lugdunensis"),  # FACT R 5.0
    ("Gallia Narbonensis", "Hispania"),            # FACT R 5.0
    ("Gallia Narbonensis", "Germania Superior"),   # FACT R 5.0
    ("Gallia Narbonensis", "Italia del Nord"),     # FACT R 5.0
    ("Germania Inferior", "Germania Superior"),    # FACT R 6 (type M11)
    ("Aegyptus", "Judaea"),                        # FACT R 5.4 (type M11)
    ("Judaea", "Syria"),                           # FACT R 5.4 (type M11)
    ("Syria", "Asia Minor"),                       # FACT R 5.4 (type M11)
    ("Thracia", "Dalmatia"),                       # FACT R 5.5 (type M11; Macedonia folded in)
    ("Dalmatia", "Italia del Nord"),               # FACT R 5.5 (type M11; via Histria)
    ("Gallia Lugdunensis", "Hispania"),            # Aquitania folded into Lugdunensis
    ("Gallia Lugdunensis", "Germania Inferior"),
    ("Gallia Lugdunensis", "Germania Superior"),
    ("Hispania", "Lusitania"),
    ("Germania Superior", "Raetia"),
    ("Raetia", "Noricum"),
    ("Raetia", "Italia del Nord"),
    ("Noricum", "Pannonia"),
    ("Noricum", "Italia del Nord"),
    ("Pannonia", "Dalmatia"),
    ("Pannonia", "Moesia"),
    ("Pannonia", "Dacia"),
    ("Dacia", "Moesia"),
    ("Moesia", "Thracia"),
    ("Moesia", "Dalmatia"),
    ("Thracia", "Achaea"),
    ("Dalmatia", "Achaea"),                        # Epirus folded into Achaea
    ("Aegyptus", "Africa"),                        # Cyrenaica folded into Africa
    ("Italia del Nord", "Italia del Sud"),         # digest 3.3 (Inferred)
]
# Naval Passages: FACT where marked, every other one DESIGNED.
_NAVAL: Final = [
    ("Britannia", "Gallia Lugdunensis"),  # FACT R 5.0
    ("Britannia", "Germania Superior"),   # FACT R 5.0
    ("Thracia", "Asia Minor"),            # Hellespont
    ("Achaea", "Asia Minor"),             # the Aegean islands
    ("Achaea", "Italia del Sud"),         # Strait of Otranto
    ("Africa", "Italia del Sud"),         # Sicily
    ("Africa", "Hispania"),               # Strait of Gibraltar
]


def _adjacency() -> tuple[list[list[int]], list[list[int]]]:
    land: list[list[int]] = [[] for _ in range(NPROV + 1)]
    naval: list[list[int]] = [[] for _ in range(NPROV + 1)]
    for table, pairs in ((land, _LAND), (naval, _NAVAL)):
        for a, b in pairs:
            table[ID[a]].append(ID[b])
            table[ID[b]].append(ID[a])
    for x in land + naval:
        x.sort()
    return land, naval


LAND, NAVAL = _adjacency()
# Every move a Legion may make (land or Naval Passage, 1 MP each).
ADJ: Final = [sorted(set(LAND[i]) | set(NAVAL[i])) for i in range(NPROV + 1)]
# Leaders also reach Rome from Italy (R 5.8).
LEADER_ADJ: Final = [list(a) for a in ADJ]
for _i in ITALY:
    LEADER_ADJ[_i] = sorted(LEADER_ADJ[_i] + [ROME])
LEADER_ADJ[ROME] = list(ITALY)

# --- cards --------------------------------------------------------------------------

OWN, ANY, ONCE = "own", "any", "once"
# Event key -> (English name, Italian name, timing). Timing FACT (card texts, R 12.0).
EVENTS: Final = {
    "assassin": ("Assassin", "Assassino", OWN),
    "bad_omens": ("Bad Omens", "Cattivi Presagi", ANY),
    "bad_weather": ("Bad Weather", "Cattivo Tempo", ANY),
    "corruption": ("Corruption", "Corruzione", ANY),
    "wounded": ("Wounded General/Contender", "Generale/Contendente Ferito", ANY),
    "crisis": ("Crisis in Rome", "Crisi a Roma", OWN),
    "galley": ("Galley Fleet", "Flotta di Galee", OWN),
    "germanic": ("Germanic Tribes Attack", "Attacco delle tribù germaniche", OWN),
    "legion_declares": ("Legion Declares Emperor", "Legione Dichiara Imperatore", OWN),
    "rebel": ("Rebel Legions", "Legioni Ribelli", OWN),
    "praetorian": ("Praetorian Guard", "Guardia Pretoriana", ANY),
    "revolt": ("Revolt in the Provinces", "Rivolte nelle province", OWN),
    "senate": ("Senate Influence", "Influenza al Senato", OWN),
    "traitor": ("Traitor", "Traditore", ONCE),
}

# The deck, DESIGNED (M2): per Event, the (MP, BP) of each copy. 55 cards in all.
_DECK: Final = {
    "assassin": [(2, 1), (3, 1), (2, 2)],
    "bad_omens": [(3, 1), (2, 2), (4, 1), (3, 2)],
    "bad_weather": [(3, 2), (4, 1), (2, 2), (3, 1), (4, 2)],
    "corruption": [(3, 1), (4, 1), (2, 2), (3, 2), (5, 1)],
    "wounded": [(4, 1), (3, 2), (2, 3), (4, 2)],
    "crisis": [(5, 2), (4, 3)],
    "galley": [(3, 2), (2, 3), (4, 2), (3, 3)],
    "germanic": [(5, 1), (4, 2)],
    "legion_declares": [(2, 2), (3, 1), (2, 3), (1, 3), (3, 2)],
    "rebel": [(4, 2), (5, 1), (3, 3)],
    "praetorian": [(2, 2), (3, 2), (1, 3), (4, 1), (2, 3), (3, 3)],
    "revolt": [(4, 3), (5, 2), (5, 3)],
    "senate": [(3, 2), (2, 3), (4, 1), (3, 3), (1, 2), (2, 1)],
    "traitor": [(5, 2), (4, 3), (5, 3)],
}
# Card id -> {"ev", "mp", "bp"}; ids follow the order above.
CARDS: Final = [{"ev": ev, "mp": mp, "bp": bp} for ev, faces in _DECK.items() for mp, bp in faces]
NCARDS: Final = len(CARDS)

LEGIONS_PER_SEAT: Final = 7
MAX_UNCONTROLLED: Final = 4
LEGION_MARKERS: Final = 20  # R 2.0: 20 Legion markers per colour (the A22 cap option)
HAND: Final = {(4, False): 10, (4, True): 6, (3, False): 13, (3, True): 8}
GAME_TURNS: Final = 4
MAX_EMPERORS: Final = 2
DP_NEEDED: Final = 5
