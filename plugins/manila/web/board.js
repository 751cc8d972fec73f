// Manila's board for the lantable web app: the river, the three boats and their crews,
// Manila's docks and the shipyard (where wrecked boats lie), pirates, pilots,
// insurance, the share prices, every player's purse, your own (hidden) shares, and what
// the last voyage paid to whom. Drawn from the seat's view (and, for the voyage's
// payouts, the events of the update that ended it).
//
// Spaces on the board that match one of your legal actions glow and can be tapped; the
// buttons under the board stay the complete list (with the game's own labels), except
// the harbour master's load step, which is one picker per boat (`picker` below): the
// ~100 launch actions are never listed one by one.
//
// Every piece drawn carries data- attributes naming what it shows (data-boat,
// data-crew, data-space, data-good/data-price, data-player, data-my-share,
// data-payout), so tests can check the board against the view.
"use strict";

(function () {
  const GOODS = ["nutmeg", "silk", "ginseng", "jade"];
  const GOOD_COLOUR = { nutmeg: "#9c6b3c", silk: "#4c6ef5", ginseng: "#c99a1e", jade: "#2f9e7a" };
  const SEAT_COSTS = { nutmeg: [2, 3, 4], silk: [3, 4, 5], ginseng: [1, 2, 3], jade: [3, 4, 5, 5] };
  const PROFIT = { nutmeg: 24, silk: 30, ginseng: 18, jade: 36 };
  const PRICES = [0, 5, 10, 20, 30];
  const DOCK = { cost: [4, 3, 2], pay: [6, 8, 15] };
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00", "#7b2cbf"];
  const SPACES = 14;  // river spaces 0..13; beyond 13 is Manila
  const START_SUM = 9, MAX_START = 5;  // 4.2c: three start spaces 0-5 adding up to 9
  const SEA = 0, PORT = 1, YARD = 2;
  const W = 360;

  // What the last voyage paid, per table: {voyage, lines: [{seat, why, amount}], ...},
  // gathered from the events of the update that ended it (the view is already the next
  // voyage's by then).
  const summaries = {};
  // The harbour master's load picker, per table: the goods and starts being chosen.
  const loads = {};

  function sameAction(a, want) {
    return Object.entries(want).every(([k, v]) => a[k] === v) &&
      Object.keys(a).every((k) => k in want);
  }
  function nameOf(ctx, seat) { return ctx.names[seat] || `seat ${seat}`; }

  // -- the voyage summary: what was paid to whom when the boats came in (4.9) ------------
  function noteVoyage(update) {
    const evs = update.events || [];
    const end = evs.findIndex((e) => e.type === "prices");
    if (end < 0) return;
    let start = 0;  // the payouts follow the last roll of the voyage
    for (let i = end; i >= 0; i--) if (evs[i].type === "roll") { start = i; break; }
    const voyage = (update.view.voyage || 1) - (evs.some((e) => e.type === "voyage") ? 1 : 0);
    const lines = [], boats = [];
    for (const e of evs.slice(start, end)) {
      if (e.type === "cash" && e.why !== "mortgage") lines.push({ seat: e.seat, why: e.why, amount: e.delta });
      else if (e.type === "insured") lines.push({ seat: e.seat, why: `shipyard ${e.space} (own insurance)`, amount: 0 });
      else if (e.type === "bank_covers") lines.push({ seat: e.seat, why: "the bank covers the rest", amount: e.amount, bank: true });
      else if (e.type === "arrived") boats.push(`${e.good} reached Manila (dock ${e.dock})`);
      else if (e.type === "shipyard") boats.push(`${e.good} was wrecked (shipyard ${e.space})`);
      else if (e.type === "plundered") boats.push(`${e.good} was plundered`);
    }
    summaries[update.table] = { voyage, lines, boats, over: evs.some((e) => e.type === "game_over") };
  }

  function whyWords(why, many) {
    if (why === "crew") return many ? "seats on boats in Manila" : "a seat on a boat in Manila";
    if (why === "plunder") return "plunder";
    if (why === "insurance") return many ? "boats in the shipyard (insurance)" : "a boat in the shipyard (insurance)";
    return why;  // "dock A", "shipyard B", "shipyard C (own insurance)"
  }

  // Each seat's payouts, in one sentence per seat: "ann: +36 (12 ×3 for seats on boats)".
  function summaryRows(sum, ctx) {
    const bySeat = new Map();
    for (const l of sum.lines) {
      if (l.bank) continue;
      if (!bySeat.has(l.seat)) bySeat.set(l.seat, []);
      bySeat.get(l.seat).push(l);
    }
    return [...bySeat.entries()].map(([seat, ls]) => {
      const total = ls.reduce((t, l) => t + l.amount, 0);
      const groups = new Map();
      for (const l of ls) {
        if (!groups.has(l.why)) groups.set(l.why, []);
        groups.get(l.why).push(l.amount);
      }
      const parts = [...groups.entries()].map(([why, amounts]) => {
        const a = amounts.reduce((t, x) => t + x, 0);
        const each = amounts.length > 1 ? ` (${amounts.map(Math.abs).join(" + ")})` : "";
        if (a === 0) return `nothing for ${whyWords(why, false)}`;
        return `${a < 0 ? `pays ${-a}` : a} for ${whyWords(why, amounts.length > 1)}${each}`;
      });
      return { seat, total, text: `${total >= 0 ? "+" : ""}${total}: ${parts.join(", ")}` };
    });
  }

  // -- the load step (4.2b, c): one picker per boat --------------------------------------
  function launchIndices(update) {
    const out = [];
    (update.legal || []).forEach((a, i) => { if (a.type === "launch") out.push(i); });
    return out;
  }

  function defaultLoad(v) {
    // The goods you hold most of go to sea (ties: board order); each starts on space 3.
    const mine = v.my_shares || {};
    const order = GOODS.slice().sort((a, b) => (mine[b] || 0) - (mine[a] || 0) || GOODS.indexOf(a) - GOODS.indexOf(b));
    const goods = order.slice(0, 3).sort((a, b) => GOODS.indexOf(a) - GOODS.indexOf(b));
    return { goods, starts: [3, 3, 3] };
  }

  // The one legal launch action the picker's choice names, or -1.
  function matchLaunch(update, load) {
    const pairs = load.goods.map((g, b) => [g, load.starts[b]])
      .sort((a, b) => GOODS.indexOf(a[0]) - GOODS.indexOf(b[0]));
    const goods = pairs.map((p) => p[0]), starts = pairs.map((p) => p[1]);
    const found = launchIndices(update).filter((i) => {
      const a = update.legal[i];
      return a.goods.length === 3 && a.goods.every((g, k) => g === goods[k]) &&
        a.starts.every((s, k) => s === starts[k]);
    });
    return found.length === 1 ? found[0] : -1;
  }

  function loadPicker(update, ctx) {
    const handled = launchIndices(update);
    if (!handled.length) return null;
    const v = update.view;
    const key = `${update.table}:${v.voyage}`;
    if (!loads[key]) loads[key] = defaultLoad(v);
    const load = loads[key];
    const el = ctx.el;
    const redraw = () => {
      const fresh = loadPicker(update, ctx);
      if (fresh) box.replaceWith(fresh.node);
    };
    const sum = load.starts.reduce((a, b) => a + b, 0);
    const chosen = matchLaunch(update, load);
    const btn = "min-height:40px;min-width:40px;border-radius:8px;border:1px solid #8a94a0;" +
      "font:inherit;padding:4px 10px;cursor:pointer;";
    const rows = load.goods.map((good, b) => {
      const chips = GOODS.map((g) => {
        const on = g === good;
        return el("button", {
          type: "button", class: "load-good", "data-boat": b, "data-good": g,
          "aria-pressed": on ? "true" : "false", disabled: ctx.busy,
          style: btn + (on ? `background:${GOOD_COLOUR[g]};color:#fff;border-color:${GOOD_COLOUR[g]};font-weight:700;`
            : "background:#fff;color:#1b1f24;"),
          onclick: () => {
            const other = load.goods.indexOf(g);
            if (other >= 0) load.goods[other] = load.goods[b];  // swap with the boat that had it
            load.goods[b] = g;
            redraw();
          },
        }, g);
      });
      const step = (d) => el("button", {
        type: "button", class: d < 0 ? "load-less" : "load-more", "data-boat": b, style: btn + "background:#fff;",
        disabled: ctx.busy || load.starts[b] + d < 0 || load.starts[b] + d > MAX_START,
        "aria-label": `${d < 0 ? "one space back" : "one space on"} for the ${good} boat`,
        onclick: () => { load.starts[b] += d; redraw(); },
      }, d < 0 ? "−" : "+");
      return el("div", { class: "load-boat", "data-boat": b, style: "display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0;" },
        el("strong", { style: "min-width:4.2em" }, `Boat ${b + 1}`),
        el("span", { style: "display:flex;flex-wrap:wrap;gap:4px" }, chips),
        el("span", { style: "display:flex;gap:4px;align-items:center;margin-left:auto" },
          step(-1), el("span", { class: "load-start", "data-boat": b, style: "min-width:5.5em;text-align:center" },
            `starts on ${load.starts[b]}`), step(+1)));
    });
    const out = GOODS.find((g) => !load.goods.includes(g));
    let status;
    if (sum !== START_SUM) {
      status = `The starts add up to ${sum}; they must add up to ${START_SUM} ` +
        `(${sum < START_SUM ? `${START_SUM - sum} more` : `${sum - START_SUM} less`}).`;
    } else {
      status = `${out[0].toUpperCase() + out.slice(1)} stays home. The starts add up to ${START_SUM}.`;
    }
    const send = el("button", {
      type: "button", class: "load-send", "data-index": chosen,
      disabled: ctx.busy || chosen < 0,
      style: btn + "width:100%;margin-top:6px;background:#1d3557;color:#fff;font-weight:700;" +
        (chosen < 0 ? "opacity:.5;" : ""),
      onclick: () => { if (chosen >= 0) ctx.act(update.legal[chosen]); },
    }, chosen >= 0 ? (ctx.labels[chosen] || "Load the boats")
      .replace(/^load /, "Load ") : "Load the boats");
    const box = el("div", { class: "manila-load", "data-picker": "load",
      style: "border:1px solid #d9d2c0;border-radius:10px;padding:8px 10px;background:#fffdf8;" },
    el("p", { style: "margin:0 0 4px" }, el("strong", {}, "Load the boats. "),
      "Choose the good on each boat and the space it starts on (0 to 5). " +
      "The fourth good stays home."),
    rows,
    el("p", { class: "load-status", style: `margin:6px 0 0;color:${sum === START_SUM ? "#2b6a3a" : "#9a3412"}` }, status),
    send);
    return { node: box, handled };
  }

  lantable.registerRenderer("manila", {
    picker(update, ctx) {
      if (!update.view || update.view.phase !== "launch") return null;
      return loadPicker(update, ctx);
    },

    render(host, update, ctx) {
      const v = update.view;
      const s = ctx.svg;
      const n = v.n;
      const parts = [];
      let y = 0;
      noteVoyage(update);

      // A space that can be tapped when one legal action matches it exactly.
      function tappable(node, want, title) {
        const i = ctx.legal.findIndex((a) => sameAction(a, want));
        if (i < 0 || ctx.busy) return node;
        node.setAttribute("class", (node.getAttribute("class") || "") + " tap");
        node.setAttribute("role", "button");
        node.setAttribute("data-action", JSON.stringify(want));
        node.append(s("title", { text: ctx.labels[i] || title }));
        node.addEventListener("click", () => ctx.act(ctx.legal[i]));
        return node;
      }
      function token(x, y0, seat, r = 6) {
        return seat === null || seat === undefined ? null : s("circle", {
          cx: x, cy: y0, r, fill: SEAT_COLOUR[seat % 5], stroke: "#fff", "stroke-width": 1.5,
          "data-seat": seat,
        }, s("title", { text: nameOf(ctx, seat) }));
      }
      function label(x, y0, text, attrs = {}) {
        return s("text", { x, y: y0, "font-size": 11, fill: "#1b1f24", ...attrs, text });
      }

      // Lines of at most `width` units at `size` (about 0.56 em a character, a little
      // generous for the system sans), broken between words.
      function wrap(text, size, width) {
        const most = Math.max(12, Math.floor(width / (size * 0.56)));
        const lines = [];
        let line = "";
        for (const word of String(text).split(" ")) {
          if (line && (line + " " + word).length > most) { lines.push(line); line = word; }
          else line = line ? line + " " + word : word;
        }
        if (line) lines.push(line);
        return lines.length ? lines : [""];
      }

      // -- header: voyage and phase, then the harbour master on a line of its own ---------
      const phase = {
        auction: "Auction for harbour master",
        buy: "The harbour master may buy a share", launch: "The harbour master loads the boats",
        place: "Placing accomplices", step: v.over ? "Game over" : "The boats sail",
        pilot_small: "The small pilot moves a boat", pilot_large: "The large pilot moves boats",
        plunder: "The pirate captain sends a plundered boat", board: "Pirates may board",
      }[v.phase] || v.phase.replace(/_/g, " ");
      const hm = v.hm !== null && v.hm !== undefined;
      parts.push(s("rect", { x: 0, y: 0, width: W, height: 40, fill: "#1d3557" }),
        label(8, 16, `Voyage ${v.voyage} · ${phase}`, { fill: "#fff", "font-weight": 600, "font-size": 12, "data-header": "phase" }),
        label(8, 33, hm ? `♛ Harbour master: ${nameOf(ctx, v.hm)}`
          : v.bid ? `Highest bid: ${v.bid} by ${nameOf(ctx, v.leader)}` : "No bid yet",
          { fill: "#ffd166", "font-size": 11, "data-header": "hm" }),
        label(W - 8, 33, `dice rolled ${v.rolls || 0} of 3`, { fill: "#dbe4f0", "font-size": 9, "text-anchor": "end" }));
      y = 50;

      // -- the river, Manila at its end ------------------------------------------------------
      const riverX = 26, cell = 17, laneH = 34;
      const portX = riverX + SPACES * cell + 10;  // boats that reached Manila
      const lanes = 3;
      parts.push(s("rect", { x: riverX - 4, y: y - 4, width: SPACES * cell + 8, height: lanes * laneH + 8,
        rx: 6, fill: "#a9d6e5" }));
      for (let i = 0; i < SPACES; i++) {
        const x = riverX + i * cell;
        parts.push(s("line", { x1: x, y1: y, x2: x, y2: y + lanes * laneH, stroke: "#ffffff88" }),
          label(x + cell / 2, y + lanes * laneH + 14, String(i), { "text-anchor": "middle", "font-size": 8, fill: "#5c6670" }));
      }
      parts.push(s("text", { x: riverX + 13 * cell + cell / 2, y: y + lanes * laneH - 3, "font-size": 11, "text-anchor": "middle", text: "☠" },
        s("title", { text: "space 13: pirates board here" })));
      parts.push(s("rect", { x: portX - 4, y: y - 4, width: W - portX, height: lanes * laneH + 8, rx: 6,
        fill: "#e9e2cf" }), label(portX + (W - portX - 4) / 2, y + lanes * laneH + 14, "Manila", { "font-size": 9, "font-weight": 600, fill: "#5c6670", "text-anchor": "middle" }));
      if (!v.goods.length) {
        parts.push(label(riverX + 4, y + laneH + 4, v.phase === "launch"
          ? "The harbour master is loading the boats." : "The boats are loaded after the auction.",
        { fill: "#1d3557", "font-size": 10 }));
      }

      function boatShape(b, bx, ly, opts) {
        const good = GOODS[v.goods[b]];
        const seats = SEAT_COSTS[good];
        const width = opts.width;
        const where = v.where[b];
        const g = s("g", { class: "boat", "data-boat": b, "data-good": good, "data-pos": v.pos[b],
          "data-where": ["sea", "manila", "shipyard"][where], "data-plundered": v.plundered[b] ? "1" : "0" },
        s("path", { d: `M${bx} ${ly + 8} h${width} l-6 18 h${-(width - 12)} z`,
          fill: GOOD_COLOUR[good], opacity: where === YARD ? 0.6 : 1,
          stroke: v.plundered[b] ? "#b3261e" : "#1b1f24", "stroke-width": v.plundered[b] ? 2.5 : 1 }),
        label(bx + 2, ly + 6, opts.title, { "font-size": 9, "font-weight": 600 }));
        seats.forEach((cost, k) => {
          const cx = bx + 10 + k * 13, cy = ly + 17;
          const who = (v.crew[b] || [])[k];
          g.append(who === undefined
            ? s("circle", { cx, cy, r: 5, fill: "#ffffffaa", stroke: "#1b1f24", "stroke-width": .5 },
              s("title", { text: `seat ${k + 1}: costs ${cost}` }))
            : s("g", { "data-crew": `${b}:${k}` }, token(cx, cy, who, 5)));
        });
        return g;
      }

      const wrecks = [];
      v.goods.forEach((g, b) => {
        const good = GOODS[g];
        const ly = y + b * laneH;
        const where = v.where[b];
        const width = Math.max(cell * 2.2, SEAT_COSTS[good].length * 13 + 8);
        if (where === YARD) {  // drawn in the shipyard below; its lane says where it went
          parts.push(label(riverX + 4, ly + 20, `${good}: wrecked, in the shipyard ↓`, { "font-size": 9, fill: "#5c6670" }));
          wrecks.push(b);
          return;
        }
        const x = where === SEA ? riverX + Math.min(v.pos[b], 13) * cell : portX;
        // At sea the bow is on the boat's space; in Manila the boat lies at the quay.
        const bx = where === SEA ? Math.max(riverX - 4, x + cell - width) : x;
        const title = where === SEA ? `${good} on ${v.pos[b]}` : `${good} docked`;
        const boat = boatShape(b, bx, ly, { width, title });
        if (where === SEA || where === PORT) tappable(boat, { type: "place", space: "boat", good }, `a seat on the ${good} boat`);
        parts.push(boat);
      });
      y += lanes * laneH + 40;

      // -- Manila's docks and the shipyard -----------------------------------------------------
      function spot(x, y0, w, title, sub, seat, want, space) {
        const g = s("g", { class: "spot", "data-space": space, "data-seat": seat === null || seat === undefined ? "" : seat },
          s("rect", { x, y: y0, width: w, height: 34, rx: 5, fill: "#fffdf8", stroke: "#d9d2c0" }),
          label(x + 5, y0 + 13, title, { "font-size": 10, "font-weight": 600 }),
          label(x + 5, y0 + 27, sub, { "font-size": 9, fill: "#5c6670" }),
          token(x + w - 10, y0 + 17, seat));
        return want ? tappable(g, want, title) : g;
      }
      const half = (W - 16 - 8) / 2;
      const wreckH = wrecks.length ? 36 : 0;
      parts.push(s("rect", { x: 4, y: y - 16, width: half + 8, height: 58 + wreckH, rx: 6, fill: "#f1ece0" }),
        s("rect", { x: 8 + half + 4, y: y - 16, width: half + 4, height: 58 + wreckH, rx: 6, fill: "#e6e2da" }),
        label(10, y - 4, "Manila docks (pay on arrival)", { "font-weight": 600, "font-size": 9.5 }),
        label(W / 2 + 6, y - 4, "Shipyard (pays for wrecks)", { "font-weight": 600, "font-size": 9.5 }));
      const sw = (half - 8) / 3;
      ["A", "B", "C"].forEach((slot, i) => {
        parts.push(spot(8 + i * (sw + 4), y, sw, `Dock ${slot}`, `${DOCK.cost[i]} → ${DOCK.pay[i]}`, v.docks[i],
          { type: "place", space: "dock", slot }, `dock ${slot}`));
        parts.push(spot(W / 2 + 4 + i * (sw + 4), y, sw, `Yard ${slot}`, `${DOCK.cost[i]} → ${DOCK.pay[i]}`, v.yards[i],
          { type: "place", space: "shipyard", slot }, `shipyard ${slot}`));
      });
      y += 40;
      wrecks.forEach((b, k) => {  // the wrecked boats lie in the shipyard
        const good = GOODS[v.goods[b]];
        const width = Math.max(cell * 2.2, SEAT_COSTS[good].length * 13 + 8);
        const bx = W / 2 + 4 + k * ((half - 4) / 3);
        parts.push(boatShape(b, Math.min(bx, W - width - 6), y, { width: Math.min(width, (half - 4) / 3 - 2), title: good }));
      });
      y += wreckH + 10;

      // -- pirates, pilots, insurance ----------------------------------------------------------
      const w5 = (W - 16 - 16) / 5;
      const specials = [
        ["Captain", "pirate, 5", v.pirates[0], { type: "place", space: "pirate" }, "pirate captain"],
        ["2nd pirate", "5", v.pirates[1], null, "second pirate"],
        ["Pilot", "small, 2", v.pilots[0], { type: "place", space: "pilot_small" }, "small pilot"],
        ["Pilot", "large, 5", v.pilots[1], { type: "place", space: "pilot_large" }, "large pilot"],
        ["Insurance", "free, +10", v.insurance, { type: "place", space: "insurance" }, "insurance"],
      ];
      // The second pirate's space takes the same action once the captain is placed.
      if (v.pirates[0] !== null && v.pirates[0] !== undefined) { specials[1][3] = specials[0][3]; specials[0][3] = null; }
      specials.forEach(([t, sub, seat, want, space], i) => parts.push(spot(8 + i * (w5 + 4), y, w5, t, sub, seat, want, space)));
      y += 48;

      // -- share prices ------------------------------------------------------------------
      parts.push(label(8, y, "Share prices", { "font-weight": 600 }),
        label(W - 8, y, "shares left · a boat pays", { "text-anchor": "end", "font-size": 9, fill: "#5c6670" }));
      y += 6;
      GOODS.forEach((good, g) => {
        const row = s("g", { class: "price", "data-good": good, "data-price": v.prices[good], "data-supply": v.supply[g] });
        const ry = y + g * 20;
        row.append(s("rect", { x: 8, y: ry, width: 62, height: 16, rx: 3, fill: GOOD_COLOUR[good] }),
          label(12, ry + 12, good, { fill: "#fff", "font-weight": 600 }));
        PRICES.forEach((p, k) => {
          const cx = 78 + k * 32;
          const here = v.prices[good] === p;
          row.append(s("rect", { x: cx, y: ry, width: 29, height: 16, rx: 3,
            fill: here ? GOOD_COLOUR[good] : "#fffdf8", stroke: "#d9d2c0" }),
          label(cx + 14.5, ry + 12, p === 30 ? "30 ★" : String(p), { "text-anchor": "middle",
            fill: here ? "#fff" : "#5c6670", "font-weight": here ? 700 : 400 }));
        });
        row.append(label(W - 8, ry + 12, `${v.supply[g]} left · ${PROFIT[good]}`, { "text-anchor": "end", "font-size": 10 }));
        tappable(row, { type: "buy", good }, `buy a ${good} share`);
        parts.push(row);
      });
      y += 4 * 20 + 2;
      parts.push(label(8, y + 8, "★ The game ends when a price reaches 30.", { "font-size": 9, fill: "#5c6670" }));
      y += 18;

      // -- players -------------------------------------------------------------------------
      parts.push(label(8, y + 4, "Players", { "font-weight": 600 }),
        label(W - 8, y + 4, "cash · shares (mortgaged) · accomplices left", { "text-anchor": "end", "font-size": 9, fill: "#5c6670" }));
      y += 10;
      for (let p = 0; p < n; p++) {
        const py = y + p * 22;
        const me = p === ctx.seat;
        const toAct = update.to_act.includes(p);
        const cash = v.cash ? v.cash[p] : me ? v.my_cash : "?";
        const who = `${nameOf(ctx, p)}${me && !ctx.replay ? " (you)" : ""}${p === v.hm ? " ♛" : ""}`;
        parts.push(s("g", { class: "player", "data-player": p, "data-cash": cash, "data-shares": v.shares[p],
          "data-mortgaged": v.mortgaged[p], "data-left": v.left[p] },
        s("rect", { x: 8, y: py, width: W - 16, height: 19, rx: 4,
          fill: toAct ? "#ffe8cc" : me ? "#e7eef8" : "#fffdf8", stroke: me ? "#1d3557" : "#d9d2c0" }),
        token(20, py + 9.5, p, 6),
        label(32, py + 13, who.length > 24 ? who.slice(0, 23) + "…" : who, { "font-weight": me ? 700 : 400 },
        ),
        label(W - 12, py + 13, `${cash} · ${v.shares[p]}${v.mortgaged[p] ? ` (${v.mortgaged[p]})` : ""} · ${v.left[p]}`,
          { "text-anchor": "end" })));
      }
      y += n * 22 + 6;

      // -- your hidden shares ---------------------------------------------------------------
      if (v.my_shares) {
        parts.push(s("rect", { x: 8, y, width: W - 16, height: 40, rx: 6, fill: "#1d3557" }),
          label(16, y + 15, ctx.replay ? `${nameOf(ctx, ctx.seat)}'s shares (only they saw these)`
            : "Your shares (only you see these)", { fill: "#fff", "font-weight": 600, "font-size": 10 }));
        let sx = 16;
        GOODS.forEach((good, g) => {
          const count = v.my_shares[good];
          if (!count) return;
          const mort = v.my_mort ? v.my_mort[g] : 0;
          const text = `${count}× ${good}${mort ? `, ${mort} mortgaged` : ""}`;
          const w = text.length * 6 + 10;
          parts.push(s("g", { class: "my-share", "data-my-share": good, "data-count": count, "data-mortgaged": mort },
            s("rect", { x: sx, y: y + 21, width: w, height: 14, rx: 3, fill: GOOD_COLOUR[good] }),
            label(sx + 5, y + 32, text, { fill: "#fff", "font-size": 9, "font-weight": 600 })));
          sx += w + 4;
        });
        if (sx === 16) parts.push(label(16, y + 32, "none", { fill: "#fff" }));
        y += 46;
      }

      // -- what the last voyage paid --------------------------------------------------------
      const sum = summaries[update.table];
      if (sum && (sum.over || sum.voyage === v.voyage - 1 || v.over)) {
        const rows = summaryRows(sum, ctx).map((r) => ({
          ...r, lines: wrap(`${nameOf(ctx, r.seat)} ${r.text}`, 9.5, W - 46) }));
        const boatLines = sum.boats.length ? wrap(sum.boats.join("; ") + ".", 8.5, W - 32) : [];
        const rowLines = rows.reduce((n, r) => n + r.lines.length, 0);
        const boxH = 26 + Math.max(1, rowLines) * 14 + boatLines.length * 12 + (boatLines.length ? 2 : 0);
        const g = s("g", { class: "voyage-summary", "data-voyage": sum.voyage },
          s("rect", { x: 8, y, width: W - 16, height: boxH, rx: 6, fill: "#fff8e6", stroke: "#e0c98a" }),
          label(16, y + 15, `Voyage ${sum.voyage} paid out`, { "font-weight": 700, "font-size": 10.5 }));
        let ly = y + 29;
        boatLines.forEach((line) => {
          g.append(label(16, ly, line, { "font-size": 8.5, fill: "#5c6670" }));
          ly += 12;
        });
        if (boatLines.length) ly += 2;
        if (!rows.length) g.append(label(16, ly, "Nobody was paid.", { "font-size": 9.5 }));
        rows.forEach((r) => {
          const row = s("g", { "data-payout": r.seat, "data-total": r.total }, token(20, ly - 3.5, r.seat, 4.5));
          r.lines.forEach((line) => {  // a long sentence goes on over several lines (svg text does not wrap)
            row.append(label(30, ly, line, { "font-size": 9.5 }));
            ly += 14;
          });
          g.append(row);
        });
        parts.push(g);
        y += boxH + 6;
      }

      const svg = s("svg", { viewBox: `0 0 ${W} ${y}`, class: "manila", role: "img",
        "aria-label": "Manila board" }, s("style", { text:
          ".tap{cursor:pointer}.tap rect,.tap path{stroke:#e07a1f!important;stroke-width:2.5!important}" +
          ".tap:hover rect,.tap:hover path{filter:brightness(1.08)}" }), parts);
      host.replaceChildren(svg);
    },
  });
})();
