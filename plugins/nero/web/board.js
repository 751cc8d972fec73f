// Nero for the lantable web app: the Empire as a map (provinces by Area, land borders,
// Naval Passages, Rome, the seas of the Galley Fleet), every seat's Legions (counts),
// Leaders, Retreat markers, the Uncontrolled and the Germanic Tribes; the VP track, the
// battle under way, a prompt for the answer windows, and your hand as cards (tap one for
// its text). Where a choice is a province (a step, a retreat, a withdrawal, setup), the
// province is highlighted on the map and a tap sends it; the list of choices under the
// board stays complete. Drawn from the seat's view only (docs/games/nero.md); the map
// and card faces come from map.json (plugins/nero/data.py, exported and checked).
"use strict";

(function () {
  const SEAT_COLOUR = ["#c1121f", "#1d70b8", "#2b9348", "#e36414"];
  const UNC_COLOUR = "#6c757d";
  const AREA_FILL = { west: "#f6e7c8", central: "#e3ecd4", east: "#e9dcef", asia: "#f3dccb" };
  const ITALY_FILL = "#f8f3e6";
  const RANK = { general: "General", contender: "Contender", emperor: "Emperor" };
  const RANK_LETTER = { general: "G", contender: "C", emperor: "E" };
  const ANSWERS = { bad_omens: "Bad Omens", bad_weather: "Bad Weather", wounded: "Wounded General",
    corruption: "Corruption", praetorian: "Praetorian Guard" };
  const EVENT_NAME = {};
  const BOX_W = 184, BOX_H = 92, W = 1000, H = 500;

  fetch("/games/nero/map.json").then((r) => r.json()).then((map) => {
    for (const c of map.cards) EVENT_NAME[c.event] = c.name;
    lantable.registerRenderer("nero", { render: (holder, u, ctx) => render(holder, u, ctx, map) });
  });

  function render(holder, update, ctx, map) {
    const v = update.view;
    const name = (seat) => (seat < 0 ? "the Uncontrolled" : ctx.names[seat] || `seat ${seat}`);
    const place = (p) => (p === map.rome.id ? map.rome.name : map.provinces[p].name);
    holder.append(header(v, update, ctx, name, place));
    holder.append(mapSvg(v, update, ctx, map, name, place));
    holder.append(players(v, update, ctx, name, map));
    const battle = battlePanel(v, ctx, name, place);
    if (battle) holder.append(battle);
    if (v.hand) holder.append(hand(v, ctx, map));
  }

  // -- the header: Game Turn, whose round, and what is asked now ---------------------------

  function header(v, update, ctx, name, place) {
    const el = ctx.el;
    const turn = v.over ? "Game over" : v.setup ? "Setup" : `Game Turn ${v.game_turn} of 4`;
    const round = v.over ? (v.automatic_winner !== null ? `${name(v.automatic_winner)} wins outright`
      : `after Game Turn ${v.game_turn}: ${v.vp.map((x, seat) => `${name(seat)} ${x}`).join(", ")} VP`)
      : v.setup ? "Bases, Legions and Generals are placed"
      : `${name(v.active)}'s round${v.final_round ? " (the last one)" : ""}, `
        + `${v.cards_used} of 4 cards used`;
    const box = el("div", { class: "nero-head" },
      el("div", { class: "nero-turn" }, el("strong", {}, turn), " · ", round));
    const prompt = promptText(v, update, ctx, name, place);
    if (prompt) {
      box.append(el("div", { class: `nero-prompt${prompt.mine ? " mine" : ""}`, "data-prompt": prompt.kind },
        prompt.text));
    }
    return box;
  }

  function moment(v, name, place) {  // what the window on top of the stack is about
    const pend = v.pending;
    const top = pend[pend.length - 1];
    const below = pend.length > 1 ? pend[pend.length - 2] : {};
    const act = name(v.active);
    if (top.kind === "assassination") return `${act}'s assassination attempt`;
    const group = v.movement && v.movement.group;
    const where = group ? ` in ${place(group.at)}` : "";
    if (top.about === "move") return `${act}'s army on the move${where}`;
    if (top.about === "attack") return `${act}'s attack on ${name(below.defender)}${where}`;
    if (top.about === "retreat" && below.province !== undefined) {
      return `${name(below.seat)}'s retreat from ${place(below.province)} to ${place(below.to)}`;
    }
    if (top.about === "declare") return `${act}'s declaration in Rome`;
    const ev = below.event ? EVENT_NAME[below.event] || below.event : (ANSWERS[below.what] || below.what);
    return `${name(below.seat)}'s ${ev}`;
  }

  function promptText(v, update, ctx, name, place) {
    const pend = v.pending;
    if (!pend.length) return null;
    const top = pend[pend.length - 1];
    const asked = update.to_act || [];
    const mine = asked.includes(ctx.seat);
    const who = mine ? "You are asked" : `${asked.map(name).join(" and ")} ${asked.length > 1 ? "are" : "is"} asked`;
    if (top.kind === "window") {
      const cards = top.answers.map((k) => ANSWERS[k] || k).join(" or ");
      return { kind: "window", mine, text: `${cards} against ${moment(v, name, place)}? ${who}.` };
    }
    if (top.kind === "assassination") {
      return { kind: "assassination", mine,
        text: `Praetorian Guard or Corruption against ${moment(v, name, place)}? ${who}.` };
    }
    if (top.kind === "passage") {
      return { kind: "passage", mine, text: `${name(v.active)} asks passage through `
        + `${place(v.movement.group.at)}. ${mine ? "Grant it or refuse" : `${who} to grant it`}.` };
    }
    if (top.kind === "retreat") {
      return { kind: "retreat", mine, text: `${mine ? "Your" : `${name(top.seat)}'s`} Legions in `
        + `${place(top.province)} may retreat${top.after_battle ? " after the battle" : ""}`
        + `${mine ? ": tap a highlighted province, or stay." : "."}` };
    }
    if (top.kind === "battle") {
      return { kind: "battle", mine, text: `Battle in ${place(top.province)}: ${name(top.attacker)} `
        + `attacks ${name(top.defender)}. ${mine ? "Commit your battle cards face down." : "Cards are laid face down."}` };
    }
    if (top.kind === "germanic") {
      return { kind: "germanic", mine, text: `The Germanic Tribes overrun ${place(top.province)}: `
        + `${name(top.owners[top.index])}'s pieces withdraw${mine ? " (tap where)" : ""}.` };
    }
    if (top.kind === "revolt") {
      return { kind: "revolt", mine, text: `Revolt in ${place(top.province)}: ${name(top.owner)} `
        + `brings ${top.left} more Legion${top.left === 1 ? "" : "s"}${mine ? " (tap where from)" : ""}.` };
    }
    const yours = { base: "Pick your Base Area.",
      place: "Place a Legion in your Base: tap a highlighted province.",
      general: "Place your General in your Base: tap a highlighted province." };
    const theirs = { base: "picks a Base Area", place: "places a Legion in the Base",
      general: "places the General in the Base" };
    if (yours[top.kind]) {
      return { kind: top.kind, mine, text: mine ? yours[top.kind] : `${name(top.seat)} ${theirs[top.kind]}.` };
    }
    return null;
  }

  // -- the map ------------------------------------------------------------------------------

  function control(v) {  // province -> seat that controls it (5.7), never sent: computed
    const n = v.n_players;
    const counts = map0(v, () => new Array(n).fill(0));
    for (const lg of v.legions) if (lg.owner >= 0) counts[lg.province][lg.owner] += 1;
    return counts.map((row, p) => {
      if (v.germanic_tribes.includes(p)) return null;
      const total = row.reduce((a, b) => a + b, 0);
      const seat = row.findIndex((k) => k && k > total - k);
      return seat >= 0 ? seat : null;
    });
  }
  function map0(v, f) { return Array.from({ length: 22 }, f); }

  // The choices that are a province: province id -> the index of the legal action.
  function tappable(update, map) {
    const out = new Map();
    const legal = update.legal || [];
    const costs = new Map();
    legal.forEach((a, i) => {
      let p = null;
      if (a.type === "step" || a.type === "retreat" || a.type === "go") p = a.to;
      else if (a.type === "place" || a.type === "general") p = a.prov;
      else if (a.type === "bring") p = a.from;
      if (p !== null && p !== undefined && !out.has(p)) out.set(p, i);
    });
    return out;
  }

  function stepCost(v, to) {  // 5.4.2-5.4.3: 1 MP (3 into the Germanic Tribes) + fatigue
    const g = v.movement && v.movement.group;
    if (!g) return null;
    let base = 1;
    if (v.germanic_tribes.includes(to)) base = v.options.a15_germanic === "extra" ? 4 : 3;
    return base + (g.legions.length ? g.battles : 0);
  }

  function mapSvg(v, update, ctx, map, name, place) {
    const s = ctx.svg;
    const taps = tappable(update, map);
    const legal = update.legal || [];
    const labels = update.labels || [];
    const owner = control(v);
    const at = (p) => (p === map.rome.id ? map.rome : map.provinces[p]);
    const svg = s("svg", { class: "nero-map", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": "The Roman Empire: provinces, Legions and Leaders" });
    svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#cfe3f0" }));
    for (const sea of map.seas) {
      svg.append(s("text", { x: sea.x, y: sea.y, "text-anchor": "middle", class: "sea",
        "font-size": 26, "font-style": "italic", fill: "#4d7a99", text: sea.name }));
    }
    for (const [a, b] of map.naval) {
      svg.append(s("line", { x1: at(a).x, y1: at(a).y, x2: at(b).x, y2: at(b).y, stroke: "#2f6690",
        "stroke-width": 4, "stroke-dasharray": "10 8", class: "naval" }));
    }
    for (const [a, b] of map.land) {
      svg.append(s("line", { x1: at(a).x, y1: at(a).y, x2: at(b).x, y2: at(b).y, stroke: "#8d7b68",
        "stroke-width": 6, class: "land" }));
    }
    for (const p of map.rome.reached_from) {
      svg.append(s("line", { x1: at(p).x, y1: at(p).y, x2: map.rome.x, y2: map.rome.y,
        stroke: "#b08d2b", "stroke-width": 5, "stroke-dasharray": "3 6", class: "via" }));
    }
    const group = v.movement && v.movement.group;
    const pieces = piecesByProvince(v);
    for (const prov of map.provinces) {
      const p = prov.id;
      const x = prov.x - BOX_W / 2, y = prov.y - BOX_H / 2;
      const idx = taps.get(p);
      const ctl = owner[p];
      const g = s("g", { class: `province${idx !== undefined ? " tap" : ""}`, "data-province": p });
      g.append(s("rect", { x, y, width: BOX_W, height: BOX_H, rx: 12,
        fill: prov.area ? AREA_FILL[prov.area] : ITALY_FILL,
        stroke: idx !== undefined ? "#ffb703" : ctl !== null ? SEAT_COLOUR[ctl % 4] : "#8d7b68",
        "stroke-width": idx !== undefined ? 9 : ctl !== null ? 6 : 2 }));
      if (v.empty_area && prov.area === v.empty_area) {
        g.append(s("rect", { x, y, width: BOX_W, height: BOX_H, rx: 12, fill: "#000", "fill-opacity": 0.07 }));
      }
      g.append(s("text", { x: prov.x, y: y + 25, "text-anchor": "middle", "font-size": 25,
        "font-weight": 700, fill: "#1b1f24", text: prov.short },
      s("title", { text: `${prov.name}${prov.area ? ` (${map.areas[prov.area]})` : " (Italy)"}`
        + `${prov.port ? ", port" : ""}${ctl !== null ? `, controlled by ${name(ctl)}` : ""}` })));
      if (prov.port) g.append(s("text", { x: x + 6, y: y + BOX_H - 6, "font-size": 20, fill: "#2f6690", text: "⚓" }, s("title", { text: "a port: the Galley Fleet sails from and to it" })));
      if (v.germanic_tribes.includes(p)) {
        g.append(s("g", { "data-piece": "germanic", "data-province": p },
          s("rect", { x: x + 30, y: y + BOX_H - 28, width: 92, height: 24, rx: 5, fill: "#7f4f24" }),
          s("text", { x: x + 76, y: y + BOX_H - 10, "text-anchor": "middle", "font-size": 18, fill: "#fff", text: "Germani" },
            s("title", { text: "Germanic Tribes: 3 MP to enter, nobody controls it" }))));
      }
      drawPieces(s, g, pieces[p], prov.x, y + 36, v, name);
      if (group && group.at === p) {
        g.append(s("rect", { x: x - 5, y: y - 5, width: BOX_W + 10, height: BOX_H + 10, rx: 15,
          fill: "none", stroke: "#1b1f24", "stroke-width": 3, "stroke-dasharray": "8 5", class: "army-here" },
        s("title", { text: `${name(v.active)}'s army is here` })));
        // Passage (5.4.5): who blocks the army here, and whether it was asked.
        const top = v.pending[v.pending.length - 1];
        const asking = top && top.kind === "passage";
        if (group.blocked_by.length || asking) {
          const text = asking ? "passage asked" : group.passage_asked ? "passage refused" : "blocked";
          g.append(s("g", { class: "passage", "data-passage": text },
            s("rect", { x: x + 10, y: y - 18, width: BOX_W - 20, height: 26, rx: 6, fill: asking ? "#ffb703" : "#9d0208" }),
            s("text", { x: prov.x, y: y + 1, "text-anchor": "middle", "font-size": 18, "font-weight": 700,
              fill: asking ? "#1b1f24" : "#fff", text }),
            s("title", { text: `${text}: ${(asking ? top.seats : group.blocked_by).map(name).join(", ")}` })));
        }
      }
      if (idx !== undefined) {
        const a = legal[idx];
        const cost = a.type === "step" ? stepCost(v, p) : null;
        if (cost !== null) {
          g.append(s("g", { class: "cost" },
            s("rect", { x: x + BOX_W - 70, y: y + BOX_H - 28, width: 66, height: 25, rx: 6, fill: "#9d0208" }),
            s("text", { x: x + BOX_W - 37, y: y + BOX_H - 9, "text-anchor": "middle", "font-size": 19,
              "font-weight": 700, fill: "#fff", text: `${cost} MP` })));
        }
        g.append(s("title", { text: labels[idx] || a.type }));
        g.setAttribute("data-action", idx);
        g.style.cursor = "pointer";
        g.addEventListener("click", () => { if (!ctx.busy) ctx.act(a); });
      }
      svg.append(g);
    }
    // Rome: a city for Leaders only
    const r = map.rome;
    const rIdx = taps.get(r.id);
    const rome = s("g", { class: `province rome${rIdx !== undefined ? " tap" : ""}`, "data-province": r.id },
      s("circle", { cx: r.x, cy: r.y, r: 46, fill: "#fff3c4", stroke: rIdx !== undefined ? "#ffb703" : "#b08d2b",
        "stroke-width": rIdx !== undefined ? 9 : 4 }),
      s("text", { x: r.x, y: r.y - 16, "text-anchor": "middle", "font-size": 24, "font-weight": 700, fill: "#7a5c00", text: "Roma" },
        s("title", { text: "Rome: only Leaders enter, from Italy" })));
    drawPieces(s, rome, pieces[r.id], r.x, r.y - 4, v, name);
    if (rIdx !== undefined) {
      const a = legal[rIdx];
      const cost = a.type === "step" ? stepCost(v, r.id) : null;
      if (cost !== null) rome.append(s("text", { x: r.x + 50, y: r.y + 40, "font-size": 21, "font-weight": 700, fill: "#9d0208", text: `${cost} MP` }));
      rome.setAttribute("data-action", rIdx);
      rome.style.cursor = "pointer";
      rome.addEventListener("click", () => { if (!ctx.busy) ctx.act(a); });
    }
    svg.append(rome);
    return ctx.el("div", { class: "nero-map-wrap" }, svg);
  }

  function piecesByProvince(v) {
    const out = Array.from({ length: 23 }, () => ({ legions: new Map(), marked: new Map(), leaders: [] }));
    for (const lg of v.legions) {
      const at = out[lg.province];
      at.legions.set(lg.owner, (at.legions.get(lg.owner) || 0) + 1);
      if (lg.retreat_marker) at.marked.set(lg.owner, (at.marked.get(lg.owner) || 0) + 1);
    }
    v.leaders.forEach((ld, seat) => { if (ld.location !== null) out[ld.location].leaders.push([seat, ld]); });
    return out;
  }

  function drawPieces(s, g, here, cx, y, v, name) {
    const chips = [];
    const owners = [...here.legions.keys()].sort((a, b) => (a < 0) - (b < 0) || a - b);
    for (const seat of owners) {
      const count = here.legions.get(seat);
      const marked = here.marked.get(seat) || 0;
      const fill = seat < 0 ? UNC_COLOUR : SEAT_COLOUR[seat % 4];
      const chip = s("g", { class: "legions", "data-piece": "legions", "data-seat": seat, "data-count": count },
        s("rect", { x: 0, y: 0, width: 40, height: 32, rx: 6, fill, stroke: "#fff", "stroke-width": 2 }),
        s("text", { x: 20, y: 25, "text-anchor": "middle", "font-size": 24, "font-weight": 700, fill: "#fff", text: String(count) }),
        s("title", { text: `${count} Legion${count === 1 ? "" : "s"} of ${name(seat)}${marked ? `, ${marked} under a Retreat marker` : ""}` }));
      if (marked) {
        chip.append(s("g", { "data-piece": "retreat", "data-seat": seat, "data-count": marked },
          s("circle", { cx: 38, cy: 2, r: 11, fill: "#ffd60a", stroke: "#1b1f24", "stroke-width": 1.5 }),
          s("text", { x: 38, y: 8, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: "#1b1f24", text: "R" })));
      }
      chips.push([chip, 45]);
    }
    for (const [seat, ld] of here.leaders) {
      const emperor = ld.rank === "emperor";
      const leader = s("g", { class: "leader", "data-piece": "leader", "data-seat": seat, "data-rank": ld.rank },
        s("circle", { cx: 17, cy: 16, r: 16, fill: "#fff", stroke: SEAT_COLOUR[seat % 4], "stroke-width": 6 }),
        s("text", { x: 17, y: 24, "text-anchor": "middle", "font-size": 22, "font-weight": 800,
          fill: emperor ? "#7a5c00" : SEAT_COLOUR[seat % 4], text: RANK_LETTER[ld.rank] }),
        s("title", { text: `${name(seat)}'s ${RANK[ld.rank]}${ld.moved ? " (has moved this round)" : ""}` }));
      if (emperor) leader.append(s("path", { d: "M3 -6 L10 3 L17 -8 L24 3 L31 -6 L28 5 L6 5 Z", fill: "#f4c430", stroke: "#7a5c00" }));
      chips.push([leader, 38]);
    }
    const total = chips.reduce((a, [, w]) => a + w, 0);
    let x = cx - total / 2;
    for (const [chip, w] of chips) {
      chip.setAttribute("transform", `translate(${x.toFixed(1)},${y})`);
      g.append(chip);
      x += w;
    }
  }

  // -- the players and the VP track -----------------------------------------------------------

  function players(v, update, ctx, name, map) {
    const el = ctx.el, s = ctx.svg;
    const list = el("ul", { class: "nero-players" });
    const top = Math.max(20, ...v.vp.map((x) => x + 2));
    v.leaders.forEach((ld, seat) => {
      const legions = v.legions.filter((lg) => lg.owner === seat).length;
      const base = v.bases[seat] ? map.areas[v.bases[seat]] : "no Base yet";
      const me = seat === ctx.seat;
      list.append(el("li", { class: `nero-player${me ? " me" : ""}${(update.to_act || []).includes(seat) ? " to-act" : ""}`,
        "data-seat": seat, "data-vp": v.vp[seat] },
      el("span", { class: "dot", style: `background:${SEAT_COLOUR[seat % 4]}` }),
      el("strong", {}, `${name(seat)}${me && !ctx.replay ? " (you)" : ""}`),
      el("span", {}, ` ${RANK[ld.rank]} · ${v.vp[seat]} VP · ${legions} Legions · ${v.hand_sizes[seat]} cards · Base: ${base}`)));
    });
    const unc = v.legions.filter((lg) => lg.owner < 0).length;
    const notes = [];
    if (unc) notes.push(`${unc} Uncontrolled Legion${unc === 1 ? "" : "s"} (grey)`);
    if (v.empty_area) notes.push(`${map.areas[v.empty_area]} is the empty Area (no VP)`);
    // The VP track: one mark per point, each seat's marker on its score.
    const track = s("svg", { class: "nero-vp", viewBox: `0 0 ${W} 70`, role: "img", "aria-label": "Victory Points" });
    const step = (W - 40) / top;
    for (let i = 0; i <= top; i++) {
      const x = 20 + i * step;
      track.append(s("line", { x1: x, y1: 18, x2: x, y2: i % 5 ? 28 : 36, stroke: "#8d7b68", "stroke-width": 2 }));
      if (i % 5 === 0) track.append(s("text", { x, y: 56, "text-anchor": "middle", "font-size": 20, fill: "#3d4650", text: String(i) }));
    }
    track.append(s("line", { x1: 20, y1: 18, x2: 20 + top * step, y2: 18, stroke: "#8d7b68", "stroke-width": 3 }));
    const same = {};
    v.vp.forEach((vp, seat) => {
      const k = same[vp] = (same[vp] || 0) + 1;
      track.append(s("circle", { cx: 20 + vp * step, cy: 18 - (k - 1) * 12, r: 10, fill: SEAT_COLOUR[seat % 4],
        stroke: "#fff", "stroke-width": 2, "data-vp-seat": seat, "data-vp": vp }, s("title", { text: `${name(seat)}: ${vp} VP` })));
    });
    return el("div", { class: "nero-side" }, el("h3", {}, "Players and Victory Points"), list, track,
      notes.length ? el("p", { class: "muted" }, notes.join(" · ")) : null);
  }

  // -- a battle under way: the cards lie face down until both are in ----------------------------

  function battlePanel(v, ctx, name, place) {
    const el = ctx.el;
    const pend = v.own_pending || v.pending;
    const battle = pend.length && pend[pend.length - 1].kind === "battle" ? pend[pend.length - 1] : null;
    if (!battle) return null;
    const side = (seat) => {
      const c = battle.committed[String(seat)];
      const text = c === undefined ? "choosing" : Array.isArray(c) ? `${c.length} card${c.length === 1 ? "" : "s"} (yours)` : `${c} card${c === 1 ? "" : "s"} face down`;
      return el("span", { class: "side" }, el("span", { class: "dot", style: `background:${seat < 0 ? UNC_COLOUR : SEAT_COLOUR[seat % 4]}` }),
        `${name(seat)}: ${text}`);
    };
    return el("div", { class: "nero-battle", "data-battle": battle.province },
      el("strong", {}, `Battle in ${place(battle.province)}`), " ", side(battle.attacker), " ", side(battle.defender));
  }

  // -- your hand: cards by name, MP and BP; tap for the text ------------------------------------

  function hand(v, ctx, map) {
    const el = ctx.el;
    // A hidden-deck hand holds tokens (hands.py MASKED = NCARDS, plus the position):
    // the card there is what the seat's own client opened (view._hand, the card
    // engine in a browser) or what the host dealt it (hand_cards).
    const opened = Object.assign({}, v.hand_cards || {}, (v._hand && v._hand.events) || {});
    const card = (c) => (c < map.cards.length ? c : opened[String(c - map.cards.length)]);
    const known = v.hand.map(card).filter((c) => c !== undefined && c < map.cards.length);
    const hidden = v.hand.length - known.length;
    const cards = known.map((c) => {
      const card = map.cards[c];
      return el("details", { class: "nero-card", "data-card": c },
        el("summary", {}, el("span", { class: "name" }, card.name),
          el("span", { class: "pts" }, `${card.mp} MP · ${card.bp} BP`)),
        el("p", {}, `${card.text} (${card.timing})`));
    });
    return el("div", { class: "nero-hand" },
      el("h3", {}, `Your hand (${v.hand.length} card${v.hand.length === 1 ? "" : "s"})`),
      cards.length ? el("div", { class: "cards" }, cards) : el("p", { class: "muted" }, "No cards."),
      hidden ? el("p", { class: "muted" }, `${hidden} card${hidden === 1 ? "" : "s"} not shown here`) : null);
  }

  // -- styles (once) ------------------------------------------------------------------------------
  const css = document.createElement("style");
  css.textContent = `
    [data-board=nero] { display: flex; flex-direction: column; gap: 8px; }
    .nero-head { display: flex; flex-direction: column; gap: 6px; }
    .nero-turn { font-size: 15px; }
    .nero-prompt { padding: 8px 10px; border-radius: 8px; background: #e8e2d2; font-weight: 600; }
    .nero-prompt.mine { background: #e36414; color: #fff; }
    .nero-map-wrap svg { width: 100%; height: auto; display: block; border-radius: 8px; }
    .nero-map .tap { cursor: pointer; }
    .nero-side h3, .nero-hand h3 { margin: 4px 0; font-size: 15px; }
    .nero-players { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 3px; font-size: 14px; }
    .nero-player.to-act { background: #ffe8cc; border-radius: 6px; }
    .nero-player .dot, .nero-battle .dot { display: inline-block; width: 12px; height: 12px; border-radius: 50%; margin-right: 6px; vertical-align: -1px; }
    .nero-vp { width: 100%; max-width: 640px; height: auto; display: block; }
    .nero-battle { padding: 8px 10px; border-radius: 8px; background: #fbe3e0; display: flex; flex-wrap: wrap; gap: 10px; }
    .nero-hand .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 6px; }
    .nero-card { background: #fffdf8; border: 1px solid #b8b09c; border-radius: 8px; padding: 6px 8px; font-size: 14px; }
    .nero-card summary { cursor: pointer; display: flex; flex-direction: column; list-style: none; }
    .nero-card summary::-webkit-details-marker { display: none; }
    .nero-card .name { font-weight: 700; }
    .nero-card .pts { color: #3d4650; font-size: 13px; }
    .nero-card p { margin: 6px 0 0; font-size: 13px; }
  `;
  document.head.append(css);
})();
