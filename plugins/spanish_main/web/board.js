// Pirates of the Spanish Main in the browser: the table at true scale (1 unit of the
// view is 1/100 mm), drawn from the seat's view only; ship cards and hull sizes come
// from cards.json (an export of the game's data.json).
//
// Sailing by hand: press on one of your ships and drag the way it should sail. The
// distance snaps to the ship's measures (S, L), or to a docking approach when the
// pointer is over an island; a dashed ghost hull shows where the ship would stop (the
// game's `sail` query), and letting go sends the move. Targets of your other choices
// (shots, rams, tows, explorations, home islands) glow: tap one to choose it. Drag the
// sea to pan, pinch or use the wheel or the +/- buttons to zoom.
"use strict";

(function () {
  const GAME = "pirates-spanish-main";
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00"];
  const TURN = 3600;
  let CARDS = null;
  // What survives a redraw: the selected ship, the zoom, an open chooser, the ghost.
  const UI = { key: null, vb: null, sel: null, chooser: null, hint: null, ghost: null,
               approaches: new Map(), last: null };

  fetch(`/games/${GAME}/cards.json`).then((r) => r.json()).then((data) => {
    CARDS = data;
    if (UI.last) UI.last();
  }).catch((e) => console.error("cards.json", e));

  // -- geometry (the view's frame: y up, headings counter-clockwise from east) -------

  const rad = (h) => (h * Math.PI) / 1800;
  function local(pose, lx, ly) {  // a point of the ship's frame (units) on the table
    const c = Math.cos(rad(pose[2])), s = Math.sin(rad(pose[2]));
    return [pose[0] + lx * c - ly * s, pose[1] + lx * s + ly * c];
  }
  function hullOf(masts) {
    const h = CARDS && CARDS.hulls[String(masts)];
    if (!h) return { length: 7500, beam: 1800, taper: 1500, masts: [2000, 3800, 5600].slice(0, masts) };
    return { length: h.length * 100, beam: h.beam * 100, taper: h.taper * 100,
             masts: h.masts.map((m) => m * 100) };
  }
  function hullPoints(masts, pose) {
    const h = hullOf(masts), w = h.beam / 2;
    return [[0, 0], [-h.taper, w], [-h.length, w], [-h.length, -w], [-h.taper, -w]]
      .map(([x, y]) => local(pose, x, y));
  }
  function mastPoints(masts, pose) {
    return hullOf(masts).masts.map((m) => local(pose, -m, 0));
  }
  function headingOf(dx, dy) {
    return ((Math.round((Math.atan2(dy, dx) * 1800) / Math.PI) % TURN) + TURN) % TURN;
  }
  function angleGap(a, b) {
    const d = Math.abs(a - b) % TURN;
    return Math.min(d, TURN - d);
  }
  function inside(p, poly) {
    let hit = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i], [xj, yj] = poly[j];
      if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) hit = !hit;
    }
    return hit;
  }
  function centroid(poly) {
    const n = poly.length;
    return [poly.reduce((a, p) => a + p[0], 0) / n, poly.reduce((a, p) => a + p[1], 0) / n];
  }
  const mm = (u) => `${(u / 100).toFixed(1)} mm`;
  const deg = (h) => `${(h / 10).toFixed(0)}°`;

  // -- cards ---------------------------------------------------------------------

  function card(ship) { return (CARDS && CARDS.ships[ship.card]) || null; }
  function cannonOf(ship, mast) {
    if (mast === "musket") return (CARDS && CARDS.musket) || "3S";
    const c = card(ship);
    return c ? c.cannons[mast] : "?";
  }
  function hitsOn(code) { return Math.max(2, Number(code[0]) + 1); }
  function chance(code) { return Math.round(((7 - hitsOn(code)) / 6) * 100); }
  function cannonName(ship, mast) {
    return mast === "musket" ? "musket" : `mast ${mast + 1}`;
  }

  // -- the renderer --------------------------------------------------------------

  function moveTemplate(update, sid) {
    const i = (update.legal || []).findIndex((a) => a.type === "move" && a.ship === sid && a.params);
    return i < 0 ? null : { i, a: update.legal[i] };
  }

  function fill(template, segments, heading) {  // a template's keys, its params given
    const out = {};
    for (const [k, v] of Object.entries(template)) if (k !== "params") out[k] = v;
    if (segments) out.segments = segments;
    if (heading !== undefined) out.heading = heading;
    return out;
  }

  function render(holder, update, ctx) {
    UI.last = () => render(holder, update, ctx);
    const v = update.view;
    const s = ctx.svg, el = ctx.el;
    const [W, H] = v.table;
    const key = `${v.table.join("x")}/${v.seat}/${v.n_players}`;
    if (UI.key !== key) {
      Object.assign(UI, { key, vb: { x: 0, y: 0, w: W / 100, h: H / 100 }, sel: null,
                          chooser: null, hint: null, ghost: null });
      UI.approaches.clear();
    }
    const ships = v.ships;
    const byId = new Map(ships.map((x) => [x.id, x]));
    const islands = new Map(v.islands.map((x) => [x.id, x]));
    const legal = update.legal || [];
    const labels = update.labels || [];
    const mine = (x) => x.owner === v.seat;
    if (UI.sel && !(byId.get(UI.sel) && mine(byId.get(UI.sel)))) UI.sel = null;
    const onTable = (x) => x.placed && (!x.sunk || x.wreck);

    const X = (x) => x / 100, Y = (y) => (H - y) / 100;
    const pts = (poly) => poly.map(([x, y]) => `${X(x).toFixed(2)},${Y(y).toFixed(2)}`).join(" ");
    // sizes that stay readable whatever the zoom: px on screen -> mm of the table
    const boxW = holder.clientWidth || Math.min(window.innerWidth, 1100);
    const boxH = Math.min(window.innerHeight * 0.72, boxW);
    const pxmm = Math.min(boxW / UI.vb.w, boxH / UI.vb.h);
    const px = (n) => n / pxmm;

    // -- what can be tapped: the non-template choices that name a ship or an island --
    function actionsFor(id) {
      const out = [];
      legal.forEach((a, i) => {
        if (a.params) return;
        let hit = a.target === id || ((a.type === "choose_home" || a.type === "build_fort") && a.island === id);
        if (a.type === "explore" && byId.get(a.ship) && byId.get(a.ship).docked === id) hit = true;
        if (!hit) return;
        if (UI.sel && a.ship && a.ship !== UI.sel && ["fire", "broadside", "explore_ship"].includes(a.type)) return;
        out.push({ a, i, label: labels[i] || a.type });
      });
      return out;
    }
    function choose(id) {
      const acts = actionsFor(id);
      const ship = byId.get(id);
      if (ship && mine(ship) && (UI.sel !== id || !acts.length)) {
        UI.sel = UI.sel === id && !acts.length ? null : id;
        UI.chooser = null;
        UI.ghost = null;
        return redraw();
      }
      if (acts.length === 1 && !ctx.busy) { UI.chooser = null; return ctx.act(acts[0].a); }
      UI.chooser = acts.length ? { id, acts } : null;
      return redraw();
    }
    function redraw() { render(holder, update, ctx); }

    // -- layers ------------------------------------------------------------------------
    const sea = s("rect", { x: 0, y: 0, width: W / 100, height: H / 100, fill: "#bfe3f2",
                            stroke: "#5b8aa6", "stroke-width": px(2), "data-sea": "" });
    const ground = [sea];
    for (const t of v.terrain || []) {
      const style = { fog: { fill: "#e8eef2", opacity: 0.85, stroke: "#9aa9b3" },
                      reef: { fill: "#d9b48a", opacity: 0.8, stroke: "#8a5a2b" },
                      sargasso: { fill: "#7fb069", opacity: 0.7, stroke: "#3c6e2f" } }[t.kind]
        || { fill: "#ccc", stroke: "#888" };
      const c = centroid(t.poly);
      ground.push(s("g", { "data-terrain": t.id },
        s("polygon", { points: pts(t.poly), ...style, "stroke-width": px(1.5), "stroke-dasharray": `${px(4)} ${px(3)}` }),
        s("text", { x: X(c[0]), y: Y(c[1]), "font-size": px(11), "text-anchor": "middle", fill: "#37474f",
                    text: `${t.kind === "sargasso" ? "Sargasso sea" : t.kind === "fog" ? "fog bank" : "reef"} ${t.id}` +
                          (t.danger ? ` (danger ${t.danger})` : "") })));
    }

    // a centred label kept inside the table (about 0.75 of the font size per letter, generously)
    const clampX = (x, text, size) => {
      const half = (text.length * 0.75 * px(size)) / 2;
      return Math.min(Math.max(x, half + px(2)), W / 100 - half - px(2));
    };
    const coins = (list, x0, y0, what) => list.map((t, k) => {
      const tr = v.treasure.find((q) => q.id === t);
      const known = tr && tr.gold !== null && tr.gold !== undefined;
      return s("g", { "data-treasure": t, "data-where": what },
        s("circle", { cx: x0 + k * px(11), cy: y0, r: px(5), fill: known ? "#ffd166" : "#c9a227",
                      stroke: "#7a5c00", "stroke-width": px(1) }),
        known ? s("text", { x: x0 + k * px(11), y: y0 + px(3.5), "font-size": px(9), "text-anchor": "middle",
                            fill: "#3d2c00", text: String(tr.gold) }) : null,
        s("title", { text: known ? `${t}: ${tr.gold} gold${tr.unique ? " (" + tr.unique + ")" : ""}` : `${t}: face down` }));
    });

    // islands, with their ids, home owners and treasure
    const isleLayer = [];
    for (const isl of v.islands) {
      const c = centroid(isl.poly);
      const acts = actionsFor(isl.id);
      const home = isl.home;
      const homeTreasure = v.treasure.filter((t) => t.where === "home" && t.home_of === home && home !== null).map((t) => t.id);
      const landed = v.crew.filter((c0) => c0.island === isl.id && !c0.gone);
      const words = isl.id;
      const owner = home === null ? null : `${ctx.names[home] || "seat " + home}'s home`;
      const sub = home === null
        ? `${isl.treasure.length} treasure`
        : `${v.home_gold[home]} gold${v.home_hidden && v.home_hidden[home] ? ` + ${v.home_hidden[home]} face down` : ""}`;
      isleLayer.push(s("g", { "data-island": isl.id, class: acts.length ? "tap" : null,
                              role: acts.length ? "button" : null, style: acts.length ? "cursor:pointer" : null },
        s("polygon", { points: pts(isl.poly), fill: "#e9d8a6",
                       stroke: home === null ? "#a07c3b" : SEAT_COLOUR[home % 4],
                       "stroke-width": home === null ? px(1.5) : px(4) }),
        acts.length ? s("polygon", { points: pts(isl.poly), fill: "none", stroke: "#ffb703",
                                     "stroke-width": px(3), "stroke-dasharray": `${px(6)} ${px(4)}` }) : null,
        s("text", { x: X(c[0]), y: Y(c[1]) - px(6), "font-size": px(13), "font-weight": 700,
                    "text-anchor": "middle", fill: "#3b2f1e", text: words }),
        owner ? s("text", { x: clampX(X(c[0]), owner, 10), y: Y(c[1]) - px(20), "font-size": px(10),
                            "font-weight": 600, "text-anchor": "middle", fill: SEAT_COLOUR[home % 4],
                            stroke: "#ffffffcc", "stroke-width": px(3), "paint-order": "stroke",
                            text: owner }) : null,
        s("text", { x: X(c[0]), y: Y(c[1]) + px(8), "font-size": px(11), "text-anchor": "middle",
                    fill: "#5c4a2e", text: sub }),
        coins(home === null ? isl.treasure : homeTreasure, X(c[0]) - px(11) * ((home === null ? isl.treasure : homeTreasure).length - 1) / 2,
              Y(c[1]) + px(20), home === null ? isl.id : "home"),
        landed.map((c0, k) => s("rect", { "data-crew": c0.id, x: X(c[0]) + px(14) * k - px(14) * (landed.length - 1) / 2 - px(4),
                                           y: Y(c[1]) + px(30), width: px(8), height: px(8),
                                           fill: SEAT_COLOUR[c0.owner % 4] },
          s("title", { text: `crew ${c0.id}${c0.kind ? " (" + c0.kind + ")" : ""}` }))),
        acts.length ? s("title", { text: acts.map((x) => x.label).join("\n") }) : null));
    }
    for (const f of v.forts || []) {
      if (!f.poly) continue;
      const c = centroid(f.poly);
      isleLayer.push(s("g", { "data-fort": f.id },
        s("polygon", { points: pts(f.poly), fill: f.destroyed ? "#999" : "#8d99ae", stroke: SEAT_COLOUR[f.owner % 4],
                       "stroke-width": px(2) }),
        s("text", { x: X(c[0]), y: Y(c[1]), "font-size": px(10), "text-anchor": "middle", fill: "#1b1f24",
                    text: `fort ${f.id}` }),
        coins(f.hold.map((t) => `t${t}`), X(c[0]), Y(c[1]) + px(12), f.id)));
    }

    // ships from their hull data: masts (lost ones crossed), cannons, crew, cargo
    const sel = UI.sel && byId.get(UI.sel);
    const fireFrom = new Map();  // target id -> lines "mast 2 3L: 4+ (50%)"
    legal.forEach((a) => {
      if (a.type !== "fire" || (sel && a.ship !== sel.id)) return;
      const from = byId.get(a.ship);
      if (!from) return;
      const code = cannonOf(from, a.cannon);
      const line = `${sel ? "" : from.name + " "}${cannonName(from, a.cannon)} ${code}: ${hitsOn(code)}+ (${chance(code)}%)`;
      fireFrom.set(a.target, [...(fireFrom.get(a.target) || []), line]);
    });
    const shipLayer = [];
    for (const x of ships) {
      if (!onTable(x)) continue;
      const pose = x.pose, hull = hullPoints(x.masts, pose), h = hullOf(x.masts);
      const colour = SEAT_COLOUR[x.owner % 4];
      const acts = actionsFor(x.id);
      const tpl = moveTemplate(update, x.id);
      const selected = UI.sel === x.id;
      const mid = local(pose, -h.length / 2, 0);
      const cargo = card(x) ? `${x.hold.length}/${card(x).cargo}` : String(x.hold.length);
      const kids = [
        s("polygon", { points: pts(hull), fill: x.wreck ? "#6d6d6d" : colour,
                       "fill-opacity": x.ghost || x.submerged ? 0.35 : 0.9,
                       stroke: selected ? "#ffb703" : tpl && !ctx.busy ? "#fff" : "#1b1f24",
                       "stroke-width": selected ? px(3) : px(1.2) }),
      ];
      mastPoints(x.masts, pose).forEach(([mx, my], i) => {
        const up = x.masts_up[i];
        const code = cannonOf(x, i);
        kids.push(s("g", { "data-cannon": `${x.id}:${i}`, "data-up": up ? "1" : "0" },
          s("circle", { cx: X(mx), cy: Y(my), r: Math.max(h.beam / 100 * 0.28, px(3)),
                        fill: up ? "#fffdf5" : "#5b0000", stroke: "#1b1f24", "stroke-width": px(0.8) }),
          up ? null : s("path", { d: `M${X(mx) - px(4)},${Y(my) - px(4)} l${px(8)},${px(8)} m0,${-px(8)} l${-px(8)},${px(8)}`,
                                 stroke: "#ff4d4d", "stroke-width": px(1.5) }),
          s("title", { text: `${cannonName(x, i)}: cannon ${code} (hits on ${hitsOn(code)}+, ${code.endsWith("L") ? "long" : "short"} range)${up ? "" : ", mast lost"}` })));
        if (pxmm > 1.6) {
          kids.push(s("text", { x: X(mx), y: Y(my) - px(6), "font-size": px(9), "text-anchor": "middle",
                                fill: "#1b1f24", text: code }));
        }
      });
      x.crew.forEach((cid, k) => {
        const p = local(pose, -h.taper + 300 - k * 500, -h.beam / 2 + 250);
        kids.push(s("circle", { "data-crew": cid, cx: X(p[0]), cy: Y(p[1]), r: px(2.2), fill: "#111" }));
      });
      x.hold.forEach((t, k) => {
        const p = local(pose, -h.length + 400 + k * 600, h.beam / 2 - 300);
        const tr = v.treasure.find((q) => q.id === t);
        kids.push(s("circle", { "data-treasure": t, "data-where": x.id, cx: X(p[0]), cy: Y(p[1]), r: px(3),
                                fill: "#ffd166", stroke: "#7a5c00", "stroke-width": px(0.6) },
          s("title", { text: tr && tr.gold !== null ? `${t}: ${tr.gold} gold` : `${t}: face down` })));
      });
      const caption = `${x.name}${x.derelict ? " (derelict)" : ""}${x.wreck ? " (wreck)" : ""}`;
      // the name beside the stern, away from the bow (which is where the ship touches)
      const tag = local(pose, -h.length - 600, 0);
      kids.push(s("text", { x: X(tag[0]), y: Y(tag[1]) + px(4), "font-size": px(10), "font-weight": 600,
                            "text-anchor": "middle", fill: "#0b1d2a", stroke: "#ffffffcc",
                            "stroke-width": px(3), "paint-order": "stroke", text: caption }));
      if (acts.length) {
        kids.push(s("circle", { cx: X(mid[0]), cy: Y(mid[1]), r: h.length / 200 + px(6), fill: "none",
                                stroke: "#ffb703", "stroke-width": px(3), "stroke-dasharray": `${px(5)} ${px(3)}` }));
      }
      const lines = fireFrom.get(x.id);
      if (lines) {
        lines.forEach((line, k) => kids.push(s("text", {
          x: X(mid[0]), y: Y(mid[1]) + px(18) + k * px(12), "font-size": px(10), "text-anchor": "middle",
          fill: "#7a0000", stroke: "#fff", "stroke-width": px(2.5), "paint-order": "stroke", text: `🎯 ${line}` })));
      }
      shipLayer.push(s("g", {
        "data-ship": x.id, "data-owner": x.owner, "data-pose": pose.join(","),
        class: [acts.length ? "tap" : "", tpl ? "sailable" : ""].join(" ").trim() || null,
        style: acts.length || mine(x) ? "cursor:pointer" : null,
        role: acts.length || mine(x) ? "button" : null,
      }, kids, s("title", { text: [`${x.name} (${ctx.names[x.owner] || "seat " + x.owner}, ${x.id}): crew ${x.crew.length}, cargo ${cargo}`,
                                   ...acts.map((q) => q.label)].join("\n") })));
    }

    const ghostLayer = s("g", { "data-ghost-layer": "", "pointer-events": "none" });
    const svg = s("svg", {
      class: "spanish-main", viewBox: `${UI.vb.x} ${UI.vb.y} ${UI.vb.w} ${UI.vb.h}`,
      preserveAspectRatio: "xMidYMid meet",
      style: `width:100%;height:${Math.round(boxH)}px;display:block;touch-action:none;background:#8fc1d4;user-select:none`,
    }, s("style", { text: "text{pointer-events:none}" }), ground, isleLayer, shipLayer, ghostLayer);

    // -- the ghost of a course, and sailing by hand -----------------------------------
    function drawGhost() {
      ghostLayer.replaceChildren();
      const g = UI.ghost;
      if (!g) return;
      const ship = byId.get(g.sid);
      if (!ship) return;
      const [bx, by] = ship.pose;
      const end = [bx + Math.cos(rad(g.heading)) * g.distance, by + Math.sin(rad(g.heading)) * g.distance];
      ghostLayer.append(s("line", { x1: X(bx), y1: Y(by), x2: X(end[0]), y2: Y(end[1]), stroke: "#1b1f24",
                                     "stroke-width": px(2), "stroke-dasharray": `${px(6)} ${px(4)}` }));
      for (const len of g.lengths) {
        const p = [bx + Math.cos(rad(g.heading)) * len, by + Math.sin(rad(g.heading)) * len];
        ghostLayer.append(s("circle", { cx: X(p[0]), cy: Y(p[1]), r: px(3.5), fill: "#fff", stroke: "#1b1f24",
                                         "stroke-width": px(1) }));
      }
      const ans = g.answer;
      let text = `${deg(g.heading)}, ${mm(g.distance)}`;
      if (ans && ans.blocked) {
        text = `Cannot sail there: ${ans.blocked}`;
      } else if (ans) {
        const hull = hullPoints(ship.masts, ans.end);
        ghostLayer.append(s("polygon", { "data-ghost": g.sid, "data-end": ans.end.join(","), points: pts(hull),
                                          fill: SEAT_COLOUR[ship.owner % 4], "fill-opacity": 0.3, stroke: "#1b1f24",
                                          "stroke-width": px(1.5), "stroke-dasharray": `${px(4)} ${px(3)}` }));
        const c = ans.contact;
        const isl = c && c[0] === "island" ? islands.get(c[1]) : null;
        const docks = isl && (isl.home === null || isl.home === ship.owner) && !ship.ghost;
        text = `${deg(g.heading)}: sails ${mm(ans.distance)}` +
          (docks ? `, docks at ${c[1]}` : c && c[0] === "edge" ? ", stops at the table's edge"
            : c ? `, stops touching ${c[0] === "island" ? c[1] : (byId.get(c[1]) || {}).name || c[1]}` : "");
      }
      ghostLayer.append(s("text", { x: X(end[0]), y: Y(end[1]) - px(14), "font-size": px(12), "font-weight": 700,
                                     "text-anchor": "middle", fill: "#0b1d2a", stroke: "#fff",
                                     "stroke-width": px(3), "paint-order": "stroke", text }));
      hint.textContent = text;
    }

    function ask(g) {  // one sail query in flight; the latest wish wins
      const want = `${g.heading}/${g.distance}`;
      g.want = want;
      if (g.flight) return g.flight;
      g.flight = ctx.query({ type: "sail", ship: g.sid, heading: g.heading, distance: g.distance })
        .then((answer) => ({ answer }), (err) => ({ answer: { blocked: err.message || String(err.code) } }))
        .then(({ answer }) => {
          g.flight = null;
          const got = g.asked;
          if (got === g.want) { g.answer = answer; g.answered = got; }
          if (UI.ghost === g) drawGhost();
          if (g.want !== got && UI.ghost === g) return ask(g);
          return answer;
        });
      g.asked = want;
      return g.flight;
    }

    async function approachesOf(ship, iid) {
      const k = `${ship.id}@${ship.pose.join(",")}>${iid}`;
      if (!UI.approaches.has(k)) {
        UI.approaches.set(k, ctx.query({ type: "dock_approaches", ship: ship.id, island: iid })
          .catch(() => []));
      }
      return UI.approaches.get(k);
    }

    function toWorld(evt) {
      const m = svg.getScreenCTM();
      if (!m) return null;
      const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
      return [p.x * 100, H - p.y * 100];
    }

    const pointers = new Map();
    let drag = null;
    svg.addEventListener("pointerdown", (evt) => {
      pointers.set(evt.pointerId, [evt.clientX, evt.clientY]);
      if (pointers.size === 2) {  // pinch
        const [a, b] = [...pointers.values()];
        drag = { kind: "pinch", d0: Math.hypot(a[0] - b[0], a[1] - b[1]), vb0: { ...UI.vb } };
        return;
      }
      const node = evt.target.closest && evt.target.closest("[data-ship]");
      const sid = node && node.getAttribute("data-ship");
      const ship = sid && byId.get(sid);
      const tpl = ship && mine(ship) && moveTemplate(update, sid);
      svg.setPointerCapture(evt.pointerId);
      if (tpl && !ctx.busy) {
        const lengths = (tpl.a.params.segments.lengths || [v.L_length]).slice();
        drag = { kind: "sail", sid, tpl, x0: evt.clientX, y0: evt.clientY, lengths,
                 ghost: { sid, heading: ship.pose[2], distance: 0, lengths } };
      } else {
        // the pressed piece (pointer capture sends the release to the svg itself)
        const hit = evt.target.closest && evt.target.closest("[data-ship],[data-island]");
        drag = { kind: "pan", x0: evt.clientX, y0: evt.clientY, vb0: { ...UI.vb }, moved: false, hit };
      }
      evt.preventDefault();
    });
    svg.addEventListener("pointermove", async (evt) => {
      if (!drag || !pointers.has(evt.pointerId)) return;
      pointers.set(evt.pointerId, [evt.clientX, evt.clientY]);
      if (drag.kind === "pinch" && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const f = drag.d0 / Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1]));
        zoomTo(drag.vb0, f, [drag.vb0.x + drag.vb0.w / 2, drag.vb0.y + drag.vb0.h / 2]);
        return;
      }
      if (drag.kind === "pan") {
        const dx = evt.clientX - drag.x0, dy = evt.clientY - drag.y0;
        if (Math.hypot(dx, dy) > 6) drag.moved = true;
        if (!drag.moved) return;
        UI.vb = { ...drag.vb0, x: drag.vb0.x - dx / pxmm, y: drag.vb0.y - dy / pxmm };
        svg.setAttribute("viewBox", `${UI.vb.x} ${UI.vb.y} ${UI.vb.w} ${UI.vb.h}`);
        return;
      }
      if (drag.kind !== "sail") return;
      const w = toWorld(evt);
      if (!w) return;
      const ship = byId.get(drag.sid);
      if (Math.hypot(evt.clientX - drag.x0, evt.clientY - drag.y0) < 8) return;
      drag.moved = true;
      let heading = headingOf(w[0] - ship.pose[0], w[1] - ship.pose[1]);
      const raw = Math.hypot(w[0] - ship.pose[0], w[1] - ship.pose[1]);
      const shortest = Math.min(...drag.lengths), longest = Math.max(...drag.lengths);
      let distance = raw < 0.4 * shortest ? Math.max(100, Math.round(raw / 100) * 100)
        : drag.lengths.reduce((best, l) => (Math.abs(l - raw) < Math.abs(best - raw) ? l : best), longest);
      // over an island: snap to the nearest docking approach
      const isl = v.islands.find((i) => (i.home === null || i.home === ship.owner) && inside(w, i.poly));
      drag.dock = null;
      if (isl) {
        const mine0 = drag;
        const seq = (mine0.seq = (mine0.seq || 0) + 1);
        const list = await approachesOf(ship, isl.id);
        if (drag !== mine0 || seq !== mine0.seq) return;
        let best = null;
        for (const a of list) if (!best || angleGap(a.heading, heading) < angleGap(best.heading, heading)) best = a;
        if (best && angleGap(best.heading, heading) <= 200) {
          heading = best.heading;
          distance = best.distance;
          drag.dock = isl.id;
        }
      }
      const g = drag.ghost;
      g.heading = heading;
      g.distance = Math.min(distance, longest);
      UI.ghost = g;
      drawGhost();
      ask(g);
    });
    async function release(evt) {
      pointers.delete(evt.pointerId);
      const d = drag;
      if (!d) return;
      if (d.kind === "pinch") { if (pointers.size === 0) { drag = null; redraw(); } return; }
      drag = null;
      if (d.kind === "pan") {
        if (d.moved) return redraw();
        const node = d.hit;
        const id = node && (node.getAttribute("data-ship") || node.getAttribute("data-island"));
        if (id) return choose(id);
        if (UI.chooser || UI.sel) { UI.chooser = null; UI.sel = null; return redraw(); }
        return;
      }
      if (!d.moved) return choose(d.sid);
      const g = d.ghost;
      const answer = g.answered === `${g.heading}/${g.distance}` ? g.answer : await ask(g);
      if (!answer || answer.blocked || UI.ghost !== g) return;
      if (answer.distance === 0 && !answer.contact) { UI.ghost = null; return drawGhost(); }
      UI.sel = d.sid;
      UI.ghost = null;
      ctx.act(fill(d.tpl.a, [{ heading: g.heading, distance: g.distance }]));
    }
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", (evt) => { pointers.delete(evt.pointerId); drag = null; });
    svg.addEventListener("wheel", (evt) => {
      evt.preventDefault();
      const m = svg.getScreenCTM();
      const p = m ? new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse()) : null;
      zoomTo(UI.vb, evt.deltaY > 0 ? 1.2 : 1 / 1.2, p ? [p.x, p.y] : null);
      clearTimeout(UI.wheelTimer);
      UI.wheelTimer = setTimeout(redraw, 150);
    }, { passive: false });

    function zoomTo(vb0, factor, at) {
      const full = W / 100;
      const w = Math.min(full * 1.1, Math.max(full / 12, vb0.w * factor));
      const h = (vb0.h / vb0.w) * w;
      const [cx, cy] = at || [vb0.x + vb0.w / 2, vb0.y + vb0.h / 2];
      UI.vb = { x: cx - ((cx - vb0.x) / vb0.w) * w, y: cy - ((cy - vb0.y) / vb0.h) * h, w, h };
      svg.setAttribute("viewBox", `${UI.vb.x} ${UI.vb.y} ${UI.vb.w} ${UI.vb.h}`);
    }

    // -- around the table: players, tools, the selected ship, a chooser ---------------
    const players = el("div", { class: "sm-players", style: "display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0;font-size:14px" },
      ctx.names.map((name, p) => {
        const afloat = ships.filter((x) => x.owner === p && !x.sunk).length;
        const hidden = v.home_hidden && v.home_hidden[p] ? ` + ${v.home_hidden[p]} face down` : "";
        return el("span", { "data-seat": p },
          el("span", { style: `display:inline-block;width:10px;height:10px;border-radius:50%;background:${SEAT_COLOUR[p % 4]};margin-right:4px` }),
          `${name}${p === v.turn && v.phase === "play" ? " ⚑" : ""}: ${v.home_gold[p]} gold at home${hidden}, ${afloat} ship${afloat === 1 ? "" : "s"}`);
      }),
      el("span", { class: "muted" }, v.phase === "home" ? "Choosing home islands"
        : v.phase === "over" ? `Game over after round ${Math.min(v.round, v.max_rounds)}`
        : `Round ${v.round} of ${v.max_rounds}` + (v.gold_to_win ? ` · ${v.gold_to_win} gold wins` : " · most gold at the end wins")));
    const hint = el("p", { class: "sm-hint", id: "sm-hint", style: "margin:4px 0;font-size:14px;min-height:1.3em" },
      UI.hint || (legal.some((a) => a.type === "move" && a.params)
        ? "Press on one of your ships (white outline) and drag where it should sail; let go to sail."
        : legal.some((a) => a.type === "choose_home") ? "Tap a glowing island to choose it as a home island."
        : legal.length ? "Glowing ships and islands can be tapped; the buttons below list every choice." : ""));
    const tools = el("div", { class: "sm-tools", style: "display:flex;gap:6px;margin:4px 0" },
      el("button", { type: "button", "data-zoom": "in", "aria-label": "zoom in", onclick: () => { zoomTo(UI.vb, 1 / 1.5); redraw(); } }, "+"),
      el("button", { type: "button", "data-zoom": "out", "aria-label": "zoom out", onclick: () => { zoomTo(UI.vb, 1.5); redraw(); } }, "−"),
      el("button", { type: "button", "data-zoom": "fit", onclick: () => { UI.vb = { x: 0, y: 0, w: W / 100, h: H / 100 }; redraw(); } }, "Whole table"));

    const panel = el("div", { class: "sm-panel", style: "font-size:14px" });
    if (UI.chooser) {
      panel.append(el("p", {}, "Choose:"), el("div", { style: "display:flex;flex-wrap:wrap;gap:6px" },
        UI.chooser.acts.map((x) => el("button", { type: "button", class: "sm-choose", disabled: ctx.busy,
                                                  onclick: () => { UI.chooser = null; ctx.act(x.a); } }, x.label)),
        el("button", { type: "button", onclick: () => { UI.chooser = null; redraw(); } }, "Cancel")));
    }
    if (sel) {
      const c = card(sel);
      const crew = sel.crew.map((cid) => v.crew.find((q) => q.id === cid)).filter(Boolean)
        .map((q) => q.kind || "face-down crew");
      const hold = sel.hold.map((t) => v.treasure.find((q) => q.id === t))
        .map((t) => (t && t.gold !== null ? `${t.gold} gold` : "face-down treasure"));
      panel.append(el("div", { class: "sm-ship", "data-selected": sel.id },
        el("strong", {}, `${sel.name} (${sel.id})`),
        c ? ` · moves ${c.move.join("+")} · ${c.nation}${c.keywords.length ? " · " + c.keywords.join(", ") : ""}` : "",
        el("ul", { style: "margin:4px 0;padding-left:18px" },
          sel.masts_up.map((up, i) => {
            const code = cannonOf(sel, i);
            return el("li", {}, `${cannonName(sel, i)}: ${up ? "" : "lost — "}cannon ${code}, hits on ${hitsOn(code)}+ (${chance(code)}%) at ${code.endsWith("L") ? "L" : "S"} range`);
          })),
        el("div", {}, `Crew: ${crew.length ? crew.join(", ") : "none"} · Cargo: ${hold.length ? hold.join(", ") : "empty"}`
          + (c ? ` (${sel.hold.length + crew.length} of ${c.cargo} spaces)` : "")),
        el("div", { class: "muted" }, [sel.docked ? `docked at ${sel.docked}` : "at sea", sel.pinned ? "pinned" : "",
          sel.derelict ? "derelict" : "", sel.acted ? `has acted (${sel.acted})` : ""].filter(Boolean).join(" · "))));
    }
    const off = ships.filter((x) => !onTable(x));
    const gone = v.treasure.filter((t) => t.where === "gone");
    if (off.length || gone.length) {
      panel.append(el("p", { class: "muted sm-off" },
        off.length ? "Not on the table: " : "",
        off.map((x, k) => el("span", { "data-ship": x.id, "data-off": x.sunk ? "sunk" : "unplaced" },
          `${k ? ", " : ""}${x.name} (${ctx.names[x.owner] || x.owner}, ${x.sunk ? "sunk" : "not placed yet"})`)),
        gone.length ? `${off.length ? " · " : ""}Treasure lost at sea: ` : "",
        gone.map((t, k) => el("span", { "data-treasure": t.id, "data-where": "gone" }, `${k ? ", " : ""}${t.id}`))));
    }

    holder.replaceChildren(players, tools, hint, svg, panel);
    if (UI.ghost) drawGhost();
  }

  lantable.registerRenderer(GAME, {
    render,
    // The move templates are sailed by hand on the board; the generic list keeps the rest.
    picker(update, ctx) {
      const handled = [];
      const turns = [];
      (update.legal || []).forEach((a, i) => {
        if (!a.params) return;
        if (a.type === "move") handled.push(i);
        else if (a.params.heading && Object.keys(a.params).length === 1) { handled.push(i); turns.push(i); }
      });
      if (!handled.length) return null;
      const shipName = (sid) => {
        const ship = update.view.ships.find((x) => x.id === sid);
        return ship ? ship.name : sid;
      };
      const sailing = handled.filter((i) => !turns.includes(i)).map((i) => shipName(update.legal[i].ship));
      const el = ctx.el;
      const POINTS = ["east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east"];
      // pivots and turns (a heading each): pick a compass point, or type degrees
      const forms = turns.map((i) => {
        const a = update.legal[i];
        const pick = el("select", { "data-heading-for": i, "aria-label": "new heading" },
          POINTS.map((name, k) => el("option", { value: String(k * 450) }, `${name} (${k * 45}°)`)));
        return el("div", { class: "sm-turn", style: "display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0" },
          el("span", {}, (update.labels && update.labels[i] || a.type).replace(/, type the new heading$/, "") + ":"),
          pick,
          el("button", { type: "button", disabled: ctx.busy, "data-turn": i,
                         onclick: () => ctx.act(fill(a, null, Number(pick.value))) }, "Turn"));
      });
      return {
        handled,
        node: el("div", {},
          sailing.length ? el("p", { class: "sm-picker" },
            `Sail ${sailing.join(", ")} on the board: press on the ship, drag the way it should go ` +
            "(the distance snaps to its measures, or to a docking when you point at an island), " +
            "check the dashed ghost, and let go to sail.") : null,
          forms),
      };
    },
  });
})();
