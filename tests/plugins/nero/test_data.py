"""The map and the cards agree with every fact of the digest (sections 2, 3, 6, 8.2)."""

from __future__ import annotations

from collections import Counter, deque

from lantable.plugins.nero import data as D


def _adjacent(a: str, b: str, kind: str = "any") -> bool:
    table = {"land": D.LAND, "naval": D.NAVAL, "any": D.ADJ}[kind]
    return D.ID[b] in table[D.ID[a]] and D.ID[a] in table[D.ID[b]]


def test_3_1_22_provinces_4_areas_of_5_and_italy() -> None:
    assert D.NPROV == 22
    assert Counter(D.AREA_OF) == {D.WEST: 5, D.CENTRAL: 5, D.EAST: 5, D.ASIA: 5, None: 2}
    assert [D.NAMES[p] for p in D.ITALY] == ["Italia del Nord", "Italia del Sud"]
    assert D.NAMES[D.ROME] == "Roma"


def test_3_2_named_provinces_in_their_areas() -> None:
    area = {D.NAMES[i]: a for i, a in enumerate(D.AREA_OF)}
    for name in ("Dacia", "Moesia", "Thracia", "Dalmatia", "Achaea"):
        assert area[name] == D.EAST
    for name in ("Britannia", "Gallia Narbonensis", "Hispania", "Lusitania"):
        assert area[name] == D.WEST
    for name in ("Germania Superior", "Germania Inferior"):
        assert area[name] == D.CENTRAL
    for name in ("Judaea", "Syria", "Aegyptus", "Asia Minor"):
        assert area[name] == D.ASIA
    assert "Gallia Lugdunensis" in area


def test_3_2_ports_revolt_and_germania() -> None:
    for name in ("Thracia", "Dalmatia", "Achaea"):
        assert D.PORT[D.ID[name]]
    assert {D.NAMES[p] for p in D.REVOLT.values()} == {
        "Britannia", "Germania Superior", "Achaea", "Judaea"}
    assert D.REVOLT[D.WEST] == D.ID["Britannia"]
    assert D.REVOLT[D.ASIA] == D.ID["Judaea"]
    assert sorted(D.NAMES[p] for p in D.GERMANIA) == ["Germania Inferior", "Germania Superior"]


def test_3_3_every_connection_the_digest_quotes() -> None:
    for b in ("Gallia Lugdunensis", "Hispania", "Germania Superior", "Italia del Nord"):
        assert _adjacent("Gallia Narbonensis", b, "land")
    assert _adjacent("Britannia", "Gallia Lugdunensis", "naval")
    assert _adjacent("Britannia", "Germania Superior", "naval")
    for a, b in (("Germania Inferior", "Germania Superior"), ("Aegyptus", "Judaea"),
                 ("Judaea", "Syria"), ("Syria", "Asia Minor"), ("Thracia", "Dalmatia"),
                 ("Dalmatia", "Italia del Nord"), ("Italia del Nord", "Italia del Sud")):
        assert _adjacent(a, b)


def test_3_4_rome_only_from_italy_and_only_for_leaders() -> None:
    assert D.LEADER_ADJ[D.ROME] == D.ITALY
    assert all(D.ROME not in D.ADJ[p] for p in range(D.NPROV))
    assert all(D.ROME in D.LEADER_ADJ[p] for p in D.ITALY)
    assert sum(D.ROME in D.LEADER_ADJ[p] for p in range(D.NPROV)) == 2


def test_3_map_is_connected_and_symmetric() -> None:
    seen = {0}
    todo = deque([0])
    while todo:
        for q in D.ADJ[todo.popleft()]:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    assert seen == set(range(D.NPROV))
    for p in range(D.NPROV):
        for q in D.ADJ[p]:
            assert p in D.ADJ[q]
        assert p not in D.ADJ[p]


def test_2_55_cards_14_events() -> None:
    assert D.NCARDS == 55
    assert set(D.EVENTS) == {c["ev"] for c in D.CARDS}
    assert len(D.EVENTS) == 14
    assert all(1 <= c["mp"] <= 5 and 1 <= c["bp"] <= 3 for c in D.CARDS)


def test_6_1_example_values_exist() -> None:
    mps = {c["mp"] for c in D.CARDS}
    bps = {c["bp"] for c in D.CARDS}
    assert {4, 5} <= mps
    assert {2, 3} <= bps
    assert len([c for c in D.CARDS if c["ev"] == "traitor"]) >= 3  # R 12.0: "3 Traitor cards"


def test_5_3_timing_symbols() -> None:
    timing = {k: v[2] for k, v in D.EVENTS.items()}
    assert timing["traitor"] == D.ONCE
    for k in ("bad_omens", "bad_weather", "corruption", "praetorian", "wounded"):
        assert timing[k] == D.ANY
    for k in ("assassin", "crisis", "galley", "germanic", "legion_declares", "rebel", "revolt",
              "senate"):
        assert timing[k] == D.OWN


def test_4_hand_sizes() -> None:
    assert D.HAND == {(4, False): 10, (4, True): 6, (3, False): 13, (3, True): 8}
    assert 4 * 10 <= D.NCARDS and 3 * 13 <= D.NCARDS
