// Manila's board for the lantable web app: the river, the three boats and their crews,
// the docks and the shipyard, pirates, pilots, insurance, the share prices, every
// player's purse, and your own (hidden) shares. Drawn from the seat's view only.
//
// Spaces on the board that match one of your legal actions glow and can be tapped;
// the buttons under the board stay the complete list (with the game's own labels).
"use strict";

(function () {
  const GOODS = ["nutmeg", "silk", "ginseng", "jade"];
  const GOOD_COLOUR = { nutmeg: "#9c6b3c", silk: "#4c6ef5", ginseng: "#e0b83e", jade: "#2f9e7a" };
  const SEAT_COSTS = { nutmeg: [2, 3, 4], silk: [3, 4, 5], ginseng: [1, 2, 3], jade: [3, 4, 5, 5] };
  const PROFIT = { nutmeg: 24, silk: 30, ginseng: 18, jade: 36 };
  const PRICES = [0, 5, 10, 20, 30];
  const DOCK = { cost: [4, 3, 2], pay: [6, 8, 15] };
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00", "#7b2cbf"];
  const SPACES = 14;  // river spaces 0..13; beyond 13 is Manila
  const W = 360;

  function sameAction(a, want) {
    return Object.entries(want).every(([k, v]) => a[k] === v) &&
      Object.keys(a).every((k) => k in want);
  }

  lantable.registerRenderer("manila", {
    render(host, update, ctx) {
      const v = update.view;
      const s = ctx.svg;
      const n = v.n;
      const parts = [];
      let y = 0;

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
        }, s("title", { text: ctx.names[seat] }));
      }
      function label(x, y0, text, attrs = {}) {
        return s("text", { x, y: y0, "font-size": 11, fill: "#1b1f24", ...attrs, text });
      }

      // -- header: phase, voyage, harbour master ------------------------------------
      const phase = {
        auction: `Auction: ${v.bid ? `${v.bid} by ${ctx.names[v.leader]}` : "no bid yet"}`,
        buy: "The harbour master may buy a share", launch: "The harbour master loads the boats",
        place: "Placing accomplices", step: "The boats sail", pilot_small: "Small pilot",
        pilot_large: "Large pilot", plunder: "Pirates board", board: "Pirates board",
      }[v.phase] || v.phase.replace(/_/g, " ");
      parts.push(s("rect", { x: 0, y: 0, width: W, height: 26, fill: "#1d3557" }),
        label(8, 17, `Voyage ${v.voyage} · ${phase}`, { fill: "#fff", "font-weight": 600, "font-size": 12 }));
      if (v.hm !== null && v.hm !== undefined) {
        parts.push(label(W - 8, 17, `♛ ${ctx.names[v.hm]}`, { fill: "#ffd166", "text-anchor": "end", "font-size": 12 }));
      }
      y = 34;

      // -- the river ------------------------------------------------------------------
      const riverX = 26, cell = 17, laneH = 34;
      const portX = riverX + SPACES * cell + 10;  // boats that reached Manila or were wrecked
      const lanes = v.goods.length || 3;
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
        fill: "#e9e2cf" }), label(portX, y + lanes * laneH + 14, "Manila: past 13", { "font-size": 8, fill: "#5c6670" }));
      v.goods.forEach((g, b) => {
        const good = GOODS[g];
        const ly = y + b * laneH;
        const where = v.where[b];  // 0 at sea, 1 Manila, 2 shipyard
        const atSea = where === 0;
        const x = atSea ? riverX + Math.min(v.pos[b], 13) * cell : portX;
        const seats = SEAT_COSTS[good];
        const width = Math.max(cell * 2.2, seats.length * 13 + 8);
        // At sea the bow is on the boat's space; in port the boat sits by the quay.
        const bx = atSea ? Math.max(riverX - 4, x + cell - width) : x;
        const boat = s("g", { class: "boat", "data-good": good, "data-pos": v.pos[b] },
          s("path", { d: `M${bx} ${ly + 8} h${width} l-6 18 h${-(width - 12)} z`,
            fill: GOOD_COLOUR[good], stroke: v.plundered[b] ? "#b3261e" : "#1b1f24", "stroke-width": v.plundered[b] ? 2.5 : 1 }),
          label(bx + 4, ly + 6, `${good} ${atSea ? "@" + v.pos[b] : where === 1 ? "docked" : "wrecked"}`,
            { "font-size": 9, "font-weight": 600 }));
        seats.forEach((cost, k) => {
          const cx = bx + 10 + k * 13, cy = ly + 17;
          const who = (v.crew[b] || [])[k];
          boat.append(who === undefined
            ? s("circle", { cx, cy, r: 5, fill: "#ffffffaa", stroke: "#1b1f24", "stroke-width": .5 },
              s("title", { text: `seat ${k + 1}: costs ${cost}` }))
            : token(cx, cy, who, 5));
        });
        if (atSea) tappable(boat, { type: "place", space: "boat", good }, `place on the ${good} boat`);
        parts.push(boat);
      });
      y += lanes * laneH + 26;

      // -- docks, shipyard, pirates, pilots, insurance -----------------------------------
      function spot(x, y0, w, title, sub, seat, want) {
        const g = s("g", { class: "spot" },
          s("rect", { x, y: y0, width: w, height: 34, rx: 5, fill: "#fffdf8", stroke: "#d9d2c0" }),
          label(x + 5, y0 + 13, title, { "font-size": 10, "font-weight": 600 }),
          label(x + 5, y0 + 27, sub, { "font-size": 9, fill: "#5c6670" }),
          token(x + w - 10, y0 + 17, seat));
        return want ? tappable(g, want, title) : g;
      }
      const colW = (W - 16) / 3;
      parts.push(label(8, y - 4, "Manila docks", { "font-weight": 600 }),
        label(W / 2 + 4, y - 4, "Shipyard (wrecks)", { "font-weight": 600 }));
      ["A", "B", "C"].forEach((slot, i) => {
        const w = colW / 2 - 4;
        parts.push(spot(8 + i * (w + 4), y, w, `Dock ${slot}`, `${DOCK.cost[i]}→${DOCK.pay[i]}`, v.docks[i],
          { type: "place", space: "dock", slot }));
        parts.push(spot(W / 2 + 4 + i * (w + 4), y, w, `Yard ${slot}`, `${DOCK.cost[i]}→${DOCK.pay[i]}`, v.yards[i],
          { type: "place", space: "shipyard", slot }));
      });
      y += 44;
      const w5 = (W - 16 - 16) / 5;
      const specials = [
        ["Pirate 1", "5", v.pirates[0], { type: "place", space: "pirate" }],
        ["Pirate 2", "5", v.pirates[1], null],
        ["Pilot S", "2: ±1", v.pilots[0], { type: "place", space: "pilot_small" }],
        ["Pilot L", "5: ±2", v.pilots[1], { type: "place", space: "pilot_large" }],
        ["Insurance", "+10", v.insurance, { type: "place", space: "insurance" }],
      ];
      specials.forEach(([t, sub, seat, want], i) => parts.push(spot(8 + i * (w5 + 4), y, w5, t, sub, seat, want)));
      y += 48;

      // -- share prices ------------------------------------------------------------
      parts.push(label(8, y, "Share prices", { "font-weight": 600 }),
        label(W - 8, y, `supply · profit per boat`, { "text-anchor": "end", "font-size": 9, fill: "#5c6670" }));
      y += 6;
      GOODS.forEach((good, g) => {
        const row = s("g", { class: "price", "data-good": good });
        const ry = y + g * 20;
        row.append(s("rect", { x: 8, y: ry, width: 62, height: 16, rx: 3, fill: GOOD_COLOUR[good] }),
          label(12, ry + 12, good, { fill: "#fff", "font-weight": 600 }));
        PRICES.forEach((p, k) => {
          const cx = 84 + k * 34;
          const here = v.prices[good] === p;
          row.append(s("rect", { x: cx, y: ry, width: 30, height: 16, rx: 3,
            fill: here ? GOOD_COLOUR[good] : "#fffdf8", stroke: "#d9d2c0" }),
          label(cx + 15, ry + 12, p === 30 ? "30 ★" : String(p), { "text-anchor": "middle",
            fill: here ? "#fff" : "#5c6670", "font-weight": here ? 700 : 400 }));
        });
        row.append(label(W - 8, ry + 12, `${v.supply[g]} · ${PROFIT[good]}`, { "text-anchor": "end" }));
        tappable(row, { type: "buy", good }, `buy a ${good} share`);
        parts.push(row);
      });
      y += 4 * 20 + 10;

      // -- players -----------------------------------------------------------------
      parts.push(label(8, y + 4, "Players", { "font-weight": 600 }),
        label(W - 8, y + 4, "cash · shares (mortgaged) · accomplices", { "text-anchor": "end", "font-size": 9, fill: "#5c6670" }));
      y += 10;
      for (let p = 0; p < n; p++) {
        const py = y + p * 22;
        const me = p === ctx.seat;
        const toAct = update.to_act.includes(p);
        const cash = v.cash ? v.cash[p] : me ? v.my_cash : "?";
        parts.push(s("rect", { x: 8, y: py, width: W - 16, height: 19, rx: 4,
          fill: toAct ? "#ffe8cc" : me ? "#e7eef8" : "#fffdf8", stroke: me ? "#1d3557" : "#d9d2c0" }),
        token(20, py + 9.5, p, 6),
        label(32, py + 13, ctx.names[p] + (me ? " (you)" : "") + (p === v.hm ? " ♛" : ""), { "font-weight": me ? 700 : 400 }),
        label(W - 12, py + 13, `${cash} · ${v.shares[p]}${v.mortgaged[p] ? ` (${v.mortgaged[p]})` : ""} · ${v.left[p]}`,
          { "text-anchor": "end" }));
      }
      y += n * 22 + 6;

      // -- your hidden shares -------------------------------------------------------
      if (v.my_shares) {
        parts.push(s("rect", { x: 8, y, width: W - 16, height: 40, rx: 6, fill: "#1d3557" }),
          label(16, y + 15, "Your shares (only you see these)", { fill: "#fff", "font-weight": 600, "font-size": 10 }));
        let sx = 16;
        GOODS.forEach((good, g) => {
          const count = v.my_shares[good];
          if (!count) return;
          const mort = v.my_mort ? v.my_mort[g] : 0;
          parts.push(s("rect", { x: sx, y: y + 21, width: 78, height: 14, rx: 3, fill: GOOD_COLOUR[good] }),
            label(sx + 4, y + 32, `${count}× ${good}${mort ? ` (${mort} mort.)` : ""}`, { fill: "#fff", "font-size": 9, "font-weight": 600 }));
          sx += 82;
        });
        if (sx === 16) parts.push(label(16, y + 32, "none", { fill: "#fff" }));
        y += 46;
      }

      const svg = s("svg", { viewBox: `0 0 ${W} ${y}`, class: "manila", role: "img",
        "aria-label": "Manila board" }, s("style", { text:
          ".tap{cursor:pointer}.tap rect,.tap path{stroke:#e07a1f!important;stroke-width:2.5!important}" +
          ".tap:hover rect,.tap:hover path{filter:brightness(1.08)}" }), parts);
      host.replaceChildren(svg);
    },
  });
})();
