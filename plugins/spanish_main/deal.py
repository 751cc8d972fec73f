"""Setting up a game (digest section 3 and 6): fleets, islands, homes, crew, treasure.

The state is plain data. Ids: ships ``s0..``, crew ``c0..``, treasure ``t0..``,
islands ``I1..``. Lengths are units of 1/100 mm (:mod:`.geometry`).

``state`` keys: ``n_players`` seats, ``options`` the table options,
``S_length``/``L_length`` the S and L measures (2.3), ``table`` size (width, height),
``phase`` (``home`` while home islands are chosen, then ``play``, then ``over``),
``first``/``turn``/``round``, ``islands``, ``ships``, ``crew``, ``treasure``,
``home_gold`` (gold unloaded at each home island, a number per seat), ``gold_dealt``
(the gold of the treasure dealt at set-up, 3.7), ``home_queue`` (who chooses whose
home island next, ``{"chooser", "for_seat"}``), ``pending`` (a stack of decisions owed
before play goes on), ``log`` (public set-up rolls), ``winner`` and ``end``,
``gold_lost`` / ``gold_made`` (gold scuttled away, gold that entered play later: the
books balance), and for the multiplayer sheet (:mod:`.multiplayer`) ``end_token``
(the ship that loaded the last treasure) and ``revealed`` (everything turned face up
at the end). A ship's ``masts_up`` says which of its masts still stand (one flag per
mast, bow first); its ``pose`` is ``[x, y, heading]`` of the bow tip.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import data, forts, hull, monsters, motion, terrain, world
from . import geometry as g

State = dict[str, Any]

OPTIONAL_RULES = ("forts", "monsters", "hidden_deck")  # options kept in the state only when on


def roll(rng: random.Random) -> int:
    return rng.randint(1, 6)


# -- fleets (3.1) ----------------------------------------------------------------------


def sample_fleet(seat: int) -> list[dict[str, Any]]:
    """The designed sample fleets of 9.3: A for even seats, B for odd ones."""
    return data.load()["fleets"]["AB"[seat % 2]]


def random_fleet(points: int, rng: random.Random) -> list[dict[str, Any]]:
    """A random legal fleet of at most ``points`` (ships first, then generic crew of
    the ship's nation within its crew-point cap and cargo, 5.9; now and then one of
    the designed named crew of that nation, 9.3, each at most once; Black Tom may
    sail as Cursed, 5.15, for a point more)."""
    ships = sorted(data.ships().values(), key=lambda s: s["id"])
    kinds = sorted(k for k in data.load()["crew_types"] if not k.startswith("_"))
    fleet: list[dict[str, Any]] = []
    used: set[str] = set()
    left = points
    while True:
        options = [s for s in ships if s["points"] <= left]
        if not options or (fleet and rng.random() < 0.15):
            break
        s = rng.choice(options)
        fleet.append({"ship": s["id"], "crew": []})
        left -= s["points"]
    for entry in fleet:
        s = data.ship(entry["ship"])
        crew_pts, slots = 0, s["cargo"] - 1  # keep one cargo space for treasure
        for kind in rng.sample(kinds, len(kinds)):
            cost = data.crew_points(kind)
            takes = 0 if kind == "Oarsman" else 1
            if cost <= left and crew_pts + cost <= s["points"] and takes <= slots \
                    and rng.random() < 0.4:
                entry["crew"].append([kind, s["nation"]])
                left -= cost
                crew_pts += cost
                slots -= takes
        for card, c in sorted(data.named_crew().items()):
            cursed = "Black Mark" in c.get("keywords", []) and rng.random() < 0.5
            cost = c["points"] + (1 if cursed else 0)
            if (c["nation"] == s["nation"] and card not in used and cost <= left
                    and crew_pts + cost <= s["points"] and slots >= 1 and rng.random() < 0.3):
                entry["crew"].append([c["ability"], c["nation"], card, cursed])
                used.add(card)
                left -= cost
                crew_pts += cost
                slots -= 1
    return fleet


def entry_points(entry: dict[str, Any]) -> int:
    """A fleet entry's cost: the ship and its crew (a Cursed Black Mark costs 1 more)."""
    pts = data.ship(entry["ship"])["points"]
    for kind, _nation, *named in entry["crew"]:
        if named and named[0]:
            pts += data.named_crew()[named[0]]["points"] + (1 if named[1:] and named[1] else 0)
        else:
            pts += data.crew_points(kind)
    return int(pts)


def extras(options: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The optional pieces every fleet buys (3.1): ``(kind, card, points)``."""
    out = []
    if options.get("forts"):
        out.append(("fort", forts.CARD, data.fort(forts.CARD)["cost"]))
    if options.get("monsters"):
        out.append(("monster", monsters.CARD, data.ship(monsters.CARD)["points"]))
    return out


def trim(fleet: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """[DESIGN] A sample fleet that buys a fort or a monster drops ships (with their
    crew) from the end of its list until it fits ``budget`` (keeping one ship)."""
    fleet = list(fleet)
    while len(fleet) > 1 and sum(entry_points(e) for e in fleet) > budget:
        fleet.pop()
    return fleet


# -- islands (3.3) ---------------------------------------------------------------------


def spacing_ok(polys: list[g.Poly], new: g.Poly, L: int) -> bool:
    """3.3 with A-1: at least 3 L from every island, at most 6 L from the nearest."""
    if not polys:
        return True
    gaps = [g.distance(new, p) for p in polys]
    return min(gaps) >= 3 * L and min(gaps) <= 6 * L


def layout(seats: int, count: int, table: tuple[int, int], L: int,
           rng: random.Random) -> list[g.Poly]:
    """Island polygons on a seeded grid (3 columns for up to 9 islands, 4 for more)
    with the designed shapes, each nudged up to 15 mm where the spacing rule of 3.3
    still holds; the plain grid satisfies it by construction (checked in the tests)."""
    w, h = table
    cols = 3 if count <= 9 else 4
    rows = -(-count // cols)
    shapes = list(data.load()["islands_mm"])
    margin_x = g.mm(70 if cols == 4 else 100)
    grid = []
    for k in range(count):
        r, c = divmod(k, cols)
        cx = margin_x + (w - 2 * margin_x) * c // (cols - 1)
        cy = h * (2 * r + 1) // (2 * rows)
        sw, sh = shapes[rng.randrange(len(shapes))]
        base = g.ellipse_polygon(cx, cy, g.mm(sw), g.mm(sh))
        grid.append([(round(x), round(y)) for x, y in base])
    out: list[g.Poly] = []
    for poly in grid:
        for _ in range(4):
            dx, dy = rng.randint(-1500, 1500), rng.randint(-1500, 1500)
            moved = [(x + dx, y + dy) for x, y in poly]
            if spacing_ok(out, moved, L):
                out.append(moved)
                break
        else:
            if not spacing_ok(out, poly, L):
                return grid  # a nudge crowded this spot: the plain grid
            out.append(poly)
    return out


# -- the whole set-up ----------------------------------------------------------------


def setup(seats: int, options: dict[str, Any], rng: random.Random) -> State:
    d = data.load()
    if options["points"] < 6:
        raise IllegalAction(
            f"points must be at least 6 (the cheapest ship), got {options['points']}")
    if not isinstance(options["terrain"], int) or not 0 <= options["terrain"] <= 3:
        raise IllegalAction(f"terrain must be 0..3 pieces per player, got {options['terrain']!r}")
    S, L = g.mm(options["S_mm"]), g.mm(options["L_mm"])
    if not 1000 <= S <= L <= 20000:
        raise IllegalAction("S and L must be 10..200 mm with S <= L")
    w_mm, h_mm = d["table_mm"][str(seats)]
    table = (g.mm(w_mm), g.mm(h_mm))
    # optional rules that are off are left out of the state: a game without them is
    # the same data as before they existed (saved games, journals, digests)
    opt = {k: v for k, v in options.items() if k not in OPTIONAL_RULES or v}
    state: State = {
        "n_players": seats, "options": opt, "S_length": S, "L_length": L, "table": list(table),
        "phase": "home", "round": 1, "islands": [], "ships": [], "crew": [],
        "treasure": [], "home_gold": [0] * seats, "gold_dealt": 0, "pending": [], "log": [],
        "acted_any": False, "winner": None, "end": None,
        "gold_lost": 0, "gold_made": 0, "terrain": [], "end_token": None, "revealed": False,
    }
    # 3.2: everyone rolls, ties reroll
    while True:
        rolls = [roll(rng) for _ in range(seats)]
        state["log"].append({"type": "first_player_roll", "rolls": rolls})
        if rolls.count(max(rolls)) == 1:
            break
    first = rolls.index(max(rolls))
    state["first"] = state["turn"] = first
    # 3.3 / 6.2: islands (6 for two players, 3 per player beyond)
    count = 6 if seats == 2 else 3 * seats
    # placed in turns from the first player (alternating, 3.3; to the left, 6.2): the
    # game lays them out, ``placed_by`` says whose turn each was
    for k, poly in enumerate(layout(seats, count, table, L, rng)):
        state["islands"].append({"id": f"I{k + 1}", "poly": [[x, y] for x, y in poly],
                                 "placed_by": (first + k) % seats,
                                 "home": None, "treasure": [], "visited": [False] * seats})
    # 3.4: terrain, when asked for (pieces per player)
    terrain.lay_out(state, seats * options["terrain"], rng)
    # 3.1: fleets, with the fort and the sea monster each fleet buys (options)
    bought = extras(options)
    budget = options["points"] - sum(p for _, _, p in bought)
    if bought and budget < 6:
        raise IllegalAction(f"points must leave at least 6 for a ship beside the fort and "
                            f"monster ({options['points'] - budget}), got {options['points']}")
    if any(kind == "fort" for kind, _, _ in bought):
        state["forts"] = []
    for seat in range(seats):
        fleet = (trim(sample_fleet(seat), budget) if options["fleets"] == "sample"
                 else random_fleet(budget, rng))
        for entry in fleet:
            add_ship(state, seat, entry)
        for kind, card, _ in bought:
            if kind == "fort":
                state["forts"].append(forts.new(seat, card))
            else:
                add_ship(state, seat, {"ship": card, "crew": []})
                monsters.make(state["ships"][-1])
    # 3.5 / 6.2: who chooses which home first
    state["home_queue"] = home_order(state)
    return state


def add_ship(state: State, seat: int, entry: dict[str, Any]) -> None:
    c = data.ship(entry["ship"])
    sid = f"s{len(state['ships'])}"
    masts = len(c["cannons"])
    state["ships"].append({
        "id": sid, "card": c["id"], "owner": seat, "origin": seat, "masts": masts,
        "masts_up": [True] * masts, "armor": c.get("armor", 0), "pose": [0, 0, 0],
        "placed": False, "hold": [], "crew": [], "docked": None, "towing": None,
        "towed_by": None, "sunk": False, "acted": None, "fired": [], "rammed": [],
        "ghost": False, "scuttle": False, "scuttle_rolled": False, "fear": "",
        "explore_ok": False, "cannoneer": False, "pivoted": False, "moved": False,
        "fire_closed": False, "pinned_before": False, "lost_in": None, "trapped_in": None,
        "wreck": False,
    })
    for kind, nation, *named in entry["crew"]:
        add_crew(state, seat, sid, kind, nation, *named)


def add_crew(state: State, seat: int, sid: str, kind: str, nation: str,
             card: str | None = None, cursed: bool = False) -> dict[str, Any]:
    """One crew aboard ``sid``: a generic type (``kind``, 2.4) or a designed named
    crew (``card``, whose ability is ``kind``). A Black Mark crew played as Cursed
    (5.15) costs a point more and is placed face up."""
    cid = len(state["crew"])
    points = data.named_crew()[card]["points"] if card else data.crew_points(kind)
    crew = {"id": f"c{cid}", "kind": kind, "nation": nation, "card": card,
            "cursed": cursed, "points": points + (1 if cursed else 0), "owner": seat,
            "ship": sid, "island": None, "face_up": cursed, "gone": False, "moved": False}
    if kind == "Marine":  # its own shot and the hits it took this turn (5.15)
        crew.update(marine_fired=False, marine_hits=0)
    state["crew"].append(crew)
    world.ship(state, sid)["crew"].append(cid)
    return crew


def home_order(state: State) -> list[dict[str, int]]:
    """Who chooses the home island of whom, in order: ``{"chooser", "for_seat"}``
    records (3.5 with A-2; 6.2 for 3+ players)."""
    n, first = state["n_players"], state["first"]
    if n == 2:
        # the second player (who also placed the sixth, last island) chooses the
        # first player's home, then the first player chooses the second's.
        second = 1 - first
        return [{"chooser": second, "for_seat": first}, {"chooser": first, "for_seat": second}]
    last = (first + 3 * n - 1) % n
    return [{"chooser": (last - k) % n, "for_seat": (last - k) % n} for k in range(n)]


def choose_home(state: State, seat: int, iid: Any, rng: random.Random
                ) -> list[dict[str, Any]]:
    for_seat = state["home_queue"][0]["for_seat"]
    isl = world.island(state, iid)
    if isl["home"] is not None:
        raise IllegalAction(f"{iid} is already a home island")
    placed = placement(state, for_seat, isl)
    if placed is None:
        raise IllegalAction(f"there is no room around {iid} for the whole fleet")
    isl["home"] = for_seat
    for sid, p in placed:
        s = world.ship(state, sid)
        # a sea monster starts by its home island but cannot dock (5.16)
        s["pose"], s["placed"] = list(p), True
        s["docked"] = None if world.monster(s) else isl["id"]
    state["home_queue"].pop(0)
    events = [{"type": "home_chosen", "seat": seat, "for": for_seat, "island": isl["id"]}]
    if not state["home_queue"]:
        events += deal_treasure(state, rng)
        state["phase"] = "play"
        events.append({"type": "turn", "seat": state["turn"], "round": 1})
    return events


def placement(state: State, seat: int, isl: dict[str, Any]
              ) -> list[tuple[str, g.Pose]] | None:
    """:func:`place_fleet`, memoised per table geometry (the legal homes are checked
    with it, and the chosen one is placed with the same answer). Do not mutate."""
    key = ("place", seat, isl["id"], tuple(state["table"]),
           tuple(id(terrain.poly(t)) for t in state["terrain"]))
    m = world.memo(state)
    if key not in m:
        m[key] = place_fleet(state, seat, isl)
    return m[key]  # type: ignore[no-any-return]


def place_fleet(state: State, seat: int, isl: dict[str, Any]
                ) -> list[tuple[str, g.Pose]] | None:
    """3.5: every ship of ``seat`` with its bow touching ``isl`` (placed by the game,
    facing the island, fanned out from the side that faces the table's centre)."""
    poly = world.island_poly(isl)
    cx, cy = g.centroid(poly)
    w, h = state["table"]
    towards = g.heading_of(w / 2 - cx, h / 2 - cy)
    obs = [o for o in world.obstacles(state) if o[0] == "island" and o[1] != isl["id"]]
    obs += [("ship", s["id"], world.foot(s)) for s in state["ships"] if s["placed"]]
    # ships start clear of terrain (none begins lost, trapped or on a reef)
    obs += [("terrain", t["id"], terrain.poly(t)) for t in state["terrain"]]
    out: list[tuple[str, g.Pose]] = []
    start = g.bounding_radius(poly, (cx, cy)) + 100  # the bow tip 1 mm off the island
    # every 30 degrees round the island first, then the 15-degree steps between
    offsets = [0, 300, -300, 600, -600, 900, -900, 1200, -1200, 1500, -1500, 1800]
    offsets += [sign * k * 150 for k in range(1, 12, 2) for sign in (1, -1)]
    free = list(offsets)
    for s in state["ships"]:
        if s["owner"] != seat or s["placed"]:
            continue
        masts = s["masts"]
        bodyf = (lambda m: lambda p: [hull.footprint(m, p)])(masts)
        for off in list(free):
            heading = (towards + off + 1800) % g.TURN
            p = motion.snap_to(bodyf, poly, heading, start, obs, world.area(state))
            if p is not None and g.touching(hull.bow_region(masts, p), poly):
                out.append((s["id"], p))
                obs.append(("ship", s["id"], hull.footprint(masts, p)))
                free.remove(off)
                break
        else:
            return None
    return out


def contributions(seats: int, unique: bool) -> list[tuple[int, str | None]]:
    """Every seat's treasure tokens as ``(gold, unique id)``: 8 tokens of 15 gold with
    two players (3.7), 6 of 15 gold with more (6.2: 3 per wild island); with
    ``unique`` one of them is a designed unique treasure worth 0 (A-5)."""
    d = data.load()["treasure"]
    key = "per_player" if seats == 2 else "per_player_3plus"
    pool: list[tuple[int, str | None]] = []
    for seat in range(seats):
        if unique:
            pool += [(v, None) for v in d[key + "_with_unique"]]
            pool.append((0, d["uniques"][seat % len(d["uniques"])]["id"]))
        else:
            pool += [(v, None) for v in d[key]]
    return pool


def deal_treasure(state: State, rng: random.Random) -> list[dict[str, Any]]:
    """3.7: each seat's contribution (:func:`contributions`), shuffled face down,
    dealt round-robin to the wild islands (4 each for two players, 3 for more; A-4)."""
    pool = contributions(state["n_players"], state["options"]["unique_treasure"])
    rng.shuffle(pool)
    wild = [i for i in state["islands"] if i["home"] is None]
    for k, (gold, unique) in enumerate(pool):
        isl = wild[k % len(wild)]
        tid = len(state["treasure"])
        if state["options"].get("hidden_deck"):  # hidden.py: position tid of the deck
            gold, unique = None, None  # type: ignore[assignment]  # nobody at the host knows
        state["treasure"].append({"id": f"t{tid}", "gold": gold, "unique": unique,
                                  "where": isl["id"], "seen": [False] * state["n_players"],
                                  "face_up": False})
        isl["treasure"].append(tid)
    state["gold_dealt"] = sum(gold for gold, _ in pool)
    return [{"type": "treasure_dealt", "islands": {i["id"]: len(i["treasure"]) for i in wild},
             "pieces": len(pool)}]
