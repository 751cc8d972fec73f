// Kaiser's Pirates for the lantable web app: every player's German ships and merchants
// (damage, who is under attack), the cards committed this turn (face down until
// played), your own hand, the decks, and a banner when a reaction is yours to make.
// Drawn from the seat's view only; card and ship faces come from cards.json (the
// game's data.py, exported; tests/web checks that the two agree).
"use strict";

(function () {
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00"];
  const KIND = { N: "normal", A: "assist", R: "reaction", T: "team" };
  const USE = { icpt: "interception", brit: "British forces", mines: "mines", act: "action" };
  const ASK = {
    commit: "commits cards", resolve: "plays committed cards", attach: "may attach an assist",
    board: "may send a boarding party", react: "may react", post: "may answer the sinking",
    reflag: "may reflag", pursue: "may pursue", shallows: "may follow into the shallows",
    order: "orders the top cards", exchange: "exchanges information", discard: "discards",
    mine_order: "orders the mined merchants", give_ships: "hands ships to a teammate",
    keep: "choose ships to keep",
  };
  const REACTIONS = new Set(["react", "post", "reflag"]);
  const YOUR_REACTION = {  // what the banner says when the reaction is yours
    react: "Your reaction: attacked! Play a card below, or decline.",
    post: "Your reaction: a merchant sank. Answer below, or decline.",
    reflag: "Your reaction: a ship was revealed. Reflag, or decline.",
  };
  const W = 360;

  fetch("/games/kaisers-pirates/cards.json").then((r) => r.json()).then((data) => {
    lantable.registerRenderer("kaisers-pirates", { render: (host, u, ctx) => render(host, u, ctx, data) });
  });

  function dice(list) { return list && list.length ? list.join("/") : "–"; }
  function cut(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }

  function render(host, update, ctx, data) {
    const v = update.view;
    const s = ctx.svg;
    const parts = [];
    const label = (x, y, text, attrs = {}) =>
      s("text", { x, y, "font-size": 10, fill: "#1b1f24", ...attrs, text });
    const name = (seat) => ctx.names[seat] || `seat ${seat}`;
    let y = 0;

    // -- header: round, phasing player, the decision awaited ------------------------------
    const T = v.this_turn;
    const pend = v.pending;
    parts.push(s("rect", { x: 0, y: 0, width: W, height: 26, fill: "#1d3557" }),
      label(8, 17, `Round ${v.round}${T ? ` · ${name(T.seat)}'s turn` : ""}`, { fill: "#fff", "font-weight": 600, "font-size": 12 }),
      label(W - 8, 17, `Action deck ${v.action_deck_n} · discards ${v.discards ? v.discards.length : v.discards_n}`,
        { fill: "#dbe4f0", "text-anchor": "end", "font-size": 9 }));
    y = 32;
    if (pend) {
      const who = pend.kind === "keep" ? pend.seats.filter((x) => !pend.done.includes(x)) : [pend.seat];
      const mine = who.includes(ctx.seat);
      const reaction = REACTIONS.has(pend.kind);
      const text = mine
        ? (reaction ? YOUR_REACTION[pend.kind] : `You ${ASK[pend.kind] || pend.kind}.`)
        : `${who.map(name).join(", ")} ${ASK[pend.kind] || pend.kind}.`;
      parts.push(s("g", { class: reaction ? "reaction" : "pending", "data-pending": pend.kind },
        s("rect", { x: 4, y, width: W - 8, height: 22, rx: 5,
          fill: mine && reaction ? "#e07a1f" : mine ? "#2b9348" : "#e8e2d2" }),
        label(12, y + 15, text, { fill: mine ? "#fff" : "#1b1f24", "font-weight": 600, "font-size": 11 })));
      y += 28;
    }

    // -- ships ------------------------------------------------------------------------
    const attacked = new Set(T ? T.intercepted : []);
    const acted = new Set(T ? T.acted : []);
    function shipCard(x, y0, id, w) {
      const ship = data.ships[id];
      const st = v.ships[id] || {};
      const german = ship.kind !== "merchant";
      const hit = attacked.has(id);
      const g = s("g", { class: "ship", "data-ship": id },
        s("rect", { x, y: y0, width: w, height: 38, rx: 4,
          fill: german ? (ship.kind === "warship" ? "#dfe6ee" : "#e9e4f2") : "#f3ecd9",
          stroke: hit ? "#b3261e" : acted.has(id) ? "#e07a1f" : "#b8b09c", "stroke-width": hit || acted.has(id) ? 2 : 1 }),
        label(x + 4, y0 + 12, cut(ship.name, Math.floor(w / 6)), { "font-weight": 600, "font-size": 9.5 }),
        label(x + 4, y0 + 24, german ? `${ship.kind === "warship" ? "Warship" : "Raider"} A ${dice(ship.att)}`
          : `Merchant ${ship.vp} VP`, { "font-size": 8.5, fill: "#3d4650" }),
        label(x + 4, y0 + 34, `D ${dice(ship.def)}${german ? ` · ${ship.vp} VP` : ""}${st.revealed ? " · revealed" : ""}`,
          { "font-size": 8.5, fill: "#3d4650" }));
      for (let d = 0; d < (st.damage || 0); d++) {
        g.append(s("circle", { cx: x + w - 7 - d * 9, cy: y0 + 8, r: 3.5, fill: "#b3261e" },
          s("title", { text: "damage" })));
      }
      if (hit) g.append(label(x + w - 4, y0 + 34, "attacked", { "text-anchor": "end", fill: "#b3261e", "font-size": 8, "font-weight": 700 }));
      return g;
    }
    function row(ids, y0) {
      const per = 3, w = (W - 16 - (per - 1) * 4) / per;
      ids.forEach((id, i) => parts.push(shipCard(8 + (i % per) * (w + 4), y0 + Math.floor(i / per) * 42, id, w)));
      return Math.ceil(ids.length / per) * 42;
    }

    v.players.forEach((p, seat) => {
      const me = seat === ctx.seat;
      const vp = p.vp_pile.reduce((sum, e) => sum + (data.ships[e.ship] ? data.ships[e.ship].vp * (e.mult || 1) : 0), 0);
      parts.push(s("rect", { x: 4, y, width: W - 8, height: 20, rx: 4,
        fill: update.to_act.includes(seat) ? "#ffe8cc" : me ? "#e7eef8" : "#f1ece0" }),
      s("circle", { cx: 14, cy: y + 10, r: 5, fill: SEAT_COLOUR[seat % 4] }),
      label(24, y + 14, `${name(seat)}${me ? " (you)" : ""}`, { "font-weight": 700, "font-size": 11 }),
      label(W - 10, y + 14, `${p.hand_n} card${p.hand_n === 1 ? "" : "s"} · VP pile ${p.vp_pile.length} (${vp})`,
        { "text-anchor": "end", "font-size": 9.5 }));
      y += 24;
      if (p.german.length) y += row(p.german, y);
      if (p.merchants.length) y += row(p.merchants, y);
      if (!p.german.length && !p.merchants.length) {
        parts.push(label(10, y + 10, "no ships in play", { fill: "#5c6670" }));
        y += 16;
      }
      y += 4;
    });

    // -- cards committed this turn ----------------------------------------------------------
    function card(x, y0, w, id, sub, attrs = {}) {
      const known = id !== null && id !== undefined;
      const c = known ? data.actions[id] : null;
      return s("g", { class: "card", ...attrs },
        s("rect", { x, y: y0, width: w, height: 44, rx: 5, fill: known ? "#fffdf8" : "#44546a",
          stroke: "#8f8672", "stroke-width": 1 }),
        label(x + 4, y0 + 13, known ? cut(c.name, Math.floor(w / 6.9)) : "face down",
          { "font-weight": 600, "font-size": 9.5, fill: known ? "#1b1f24" : "#fff" }),
        label(x + 4, y0 + 25, known ? `${KIND[c.kind] || c.kind} · #${id}` : "", { "font-size": 8.5, fill: "#5c6670" }),
        label(x + 4, y0 + 38, sub, { "font-size": 8.5, fill: known ? "#3d4650" : "#dbe4f0" }));
    }
    if (T && T.committed.length) {
      parts.push(label(8, y + 10, `Committed by ${name(T.seat)}`, { "font-weight": 600, "font-size": 11 }));
      y += 16;
      const per = 4, w = (W - 16 - (per - 1) * 4) / per;
      T.committed.forEach((e, i) => {
        const use = USE[e.use] + (e.ship !== null && e.ship !== undefined ? `: ${cut(data.ships[e.ship].name, 10)}` : "");
        const g = card(8 + (i % per) * (w + 4), y + Math.floor(i / per) * 48, w, e.card, e.played ? `${use} ✓` : use);
        if (e.played) g.setAttribute("opacity", "0.55");
        parts.push(g);
      });
      y += Math.ceil(T.committed.length / per) * 48 + 4;
    }

    // -- your hand ------------------------------------------------------------------
    if (v.me) {
      const hand = v.me.hand;
      const per = 4, w = (W - 16 - (per - 1) * 4) / per;
      const box = s("g", { "data-hand": ctx.seat });
      box.append(s("rect", { x: 4, y, width: W - 8, height: 22 + Math.max(1, Math.ceil(hand.length / per)) * 48, rx: 6,
        fill: "#1d3557" }), label(12, y + 15, `Your hand (only you see it): ${hand.length} card${hand.length === 1 ? "" : "s"}`,
        { fill: "#fff", "font-weight": 600, "font-size": 11 }));
      hand.forEach((id, i) => {
        const c = data.actions[id];
        box.append(card(8 + (i % per) * (w + 4), y + 20 + Math.floor(i / per) * 48, w, id,
          `icpt ${dice(c.icpt)}${c.night ? " ☾" : ""}`, { "data-card": id }));
      });
      if (!hand.length) box.append(label(12, y + 36, "empty", { fill: "#dbe4f0" }));
      parts.push(box);
      y += 26 + Math.max(1, Math.ceil(hand.length / per)) * 48;
    }
    parts.push(label(8, y + 12, `Ship decks: ${v.german_deck_n} German · ${v.merchant_deck_n} merchants`, { fill: "#5c6670", "font-size": 9 }));
    y += 18;

    host.replaceChildren(s("svg", { viewBox: `0 0 ${W} ${y}`, class: "kp", role: "img",
      "aria-label": "Kaiser's Pirates table" }, parts));
  }
})();
