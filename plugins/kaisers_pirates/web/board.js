// Kaiser's Pirates for the lantable web app: every player's German ships and merchants
// (damage, who is under attack), their VP piles and round points (what decides the
// game, explained beside them), the cards committed this turn (face down until
// played), your own hand, the decks, and a banner saying whose decision it is.
// Drawn from the seat's view only; card and ship faces come from cards.json (the
// game's data.py and card rules, exported; tests/web checks that the two agree).
//
// A name too long for its card is cut with "…": tap any card or ship to read it whole
// (with its dice and rule) in the panel under the board.
//
// Every piece drawn carries data- attributes naming what it shows (data-ship,
// data-vp-entry, data-committed, data-card, data-player, data-deck), so tests can
// check the board against the view.
"use strict";

(function () {
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00"];
  const KIND = { N: "normal card", A: "assist card", R: "reaction card", T: "team card" };
  const USE = { icpt: "interception", brit: "British forces", mines: "mines", act: "action" };
  // What the seat awaited must do, as [you ..., they ...] (pending kinds of turn.py).
  const ASK = {
    commit: ["commit cards face down", "commits cards face down"],
    resolve: ["play your committed cards", "plays committed cards"],
    attach: ["may attach an assist card", "may attach an assist card"],
    board: ["may send a boarding party", "may send a boarding party"],
    react: ["may react to the attack", "may react to the attack"],
    post: ["may answer the sinking", "may answer the sinking"],
    late: ["may still answer a sinking", "may still answer a sinking"],
    reflag: ["may reflag the revealed ship", "may reflag the revealed ship"],
    passage: ["may try a passage", "may try a passage"],
    pursue: ["may pursue", "may pursue"],
    shallows: ["may follow into the shallows", "may follow into the shallows"],
    order: ["order the top cards of the deck", "orders the top cards of the deck"],
    exchange: ["exchange cards with your teammate", "exchanges cards with a teammate"],
    discard: ["discard", "discards"],
    mine_order: ["order the mined merchants", "orders the mined merchants"],
    give_ships: ["may hand ships to your teammate", "may hand ships to a teammate"],
    keep: ["choose the ships you keep", "choose the ships they keep"],
  };
  const REACTIONS = new Set(["react", "post", "reflag", "late"]);
  const YOUR_REACTION = {  // what the banner says when the reaction is yours
    react: "Your reaction: attacked! Play a card below, or decline.",
    post: "Your reaction: a merchant sank. Answer below, or decline.",
    late: "Your reaction: a merchant sank earlier. Answer below, or decline.",
    reflag: "Your reaction: a ship was revealed. Reflag, or decline.",
  };
  const W = 360;
  const ROUNDS = 3;

  // The card or ship whose face is open under the board, and what to redraw with.
  let open = null;
  let last = null;

  fetch("/games/kaisers-pirates/cards.json").then((r) => r.json()).then((data) => {
    lantable.registerRenderer("kaisers-pirates", {
      render: (host, u, ctx) => { last = [host, u, ctx, data]; render(host, u, ctx, data); },
    });
  });

  function dice(list) { return list && list.length ? list.join("/") : "–"; }
  function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }
  // Up to two lines of at most `n` characters, cut at words; "…" if still too long.
  function wrap(text, n) {
    if (text.length <= n) return [text];
    const space = text.lastIndexOf(" ", n), hyphen = text.lastIndexOf("-", n - 1);
    let cut = Math.max(space, hyphen >= 0 ? hyphen + 1 : -1);
    if (cut <= 0) cut = n - 1;
    const first = text.slice(0, cut).trim() + (cut === n - 1 ? "…" : "");
    const rest = text.slice(cut).trim();
    return [first, rest.length > n ? rest.slice(0, n - 1) + "…" : rest];
  }
  const BOLD = 6.4, PLAIN = 4.9;  // px per character at 9.5 bold and 8.5 plain (generous)
  function cutTo(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }
  function ordinal(n) { return n + ({ 1: "st", 2: "nd", 3: "rd" }[n] || "th"); }

  function render(host, update, ctx, data) {
    const v = update.view;
    const s = ctx.svg;
    const parts = [];
    const label = (x, y, text, attrs = {}) =>
      s("text", { x, y, "font-size": 10, fill: "#1b1f24", ...attrs, text });
    const name = (seat) => ctx.names[seat] || `seat ${seat}`;
    let y = 0;

    function openable(node, what) {  // tap (or click) for the whole face
      node.setAttribute("class", (node.getAttribute("class") || "") + " face");
      node.setAttribute("role", "button");
      node.addEventListener("click", () => {
        open = open && open.kind === what.kind && open.id === what.id ? null : what;
        if (last) render(...last);
      });
      return node;
    }

    // -- header: round, phasing player, decks ------------------------------------------
    const T = v.this_turn;
    const pend = v.pending;
    const discards = v.discards ? v.discards.length : v.discards_n;
    parts.push(s("rect", { x: 0, y: 0, width: W, height: 26, fill: "#1d3557" }),
      label(8, 17, cutTo(`Round ${v.round} of ${Math.max(ROUNDS, v.round)}${v.phase === "over" ? " · game over"
        : T ? ` · ${name(T.seat)}'s turn` : ""}`, 44),
        { fill: "#fff", "font-weight": 600, "font-size": 12 }));
    parts.push(s("g", { "data-deck": "action", "data-n": v.action_deck_n, "data-discards": discards },
      s("rect", { x: 0, y: 26, width: W, height: 16, fill: "#2c4a6e" }),
      label(8, 37, `Action deck: ${plural(v.action_deck_n, "card")} · discards: ${plural(discards, "card")}`,
        { fill: "#dbe4f0", "font-size": 9 })));
    y = 48;
    if (pend) {
      const who = pend.kind === "keep" ? pend.seats.filter((x) => !pend.done.includes(x)) : [pend.seat];
      const mine = who.includes(ctx.seat);
      const reaction = REACTIONS.has(pend.kind);
      const ask = ASK[pend.kind] || [`decide (${pend.kind.replace(/_/g, " ")})`, `decides (${pend.kind.replace(/_/g, " ")})`];
      let text;
      if (mine && reaction) text = YOUR_REACTION[pend.kind];
      else if (mine) text = `You ${ask[0]}.`;
      else if (who.length > 1) text = `${who.map(name).join(" and ")} ${ask[1].replace(/^chooses /, "choose ")}.`;
      else text = `${who.map(name).join(", ")} ${ask[1]}.`;
      if (pend.kind === "keep" && who.length === 1 && !mine) text = `${name(who[0])} chooses the ships to keep.`;
      const lines = wrap(text, 52);
      parts.push(s("g", { class: reaction ? "reaction" : "pending", "data-pending": pend.kind },
        s("rect", { x: 4, y, width: W - 8, height: 8 + lines.length * 14, rx: 5,
          fill: mine && reaction ? "#e07a1f" : mine ? "#2b9348" : "#e8e2d2" }),
        lines.map((line, k) => label(12, y + 15 + k * 14, line + (k < lines.length - 1 ? " " : ""),
          { fill: mine ? "#fff" : "#1b1f24", "font-weight": 600, "font-size": 11 }))));
      y += 14 + lines.length * 14;
    }

    // -- ships ------------------------------------------------------------------------
    const attacked = new Set(T ? T.intercepted : []);
    const acted = new Set(T ? T.acted : []);
    function shipCard(x, y0, id, w) {
      const ship = data.ships[id];
      const st = v.ships[id] || {};
      const german = ship.kind !== "merchant";
      const hit = attacked.has(id);
      const chars = Math.floor((w - 8) / BOLD);
      const lines = wrap(ship.name, chars);
      const g = s("g", { class: "ship", "data-ship": id, "data-owner": st.owner, "data-damage": st.damage || 0 },
        s("rect", { x, y: y0, width: w, height: 56, rx: 4,
          fill: german ? (ship.kind === "warship" ? "#dfe6ee" : "#e9e4f2") : "#f3ecd9",
          stroke: hit ? "#b3261e" : acted.has(id) ? "#e07a1f" : "#b8b09c", "stroke-width": hit || acted.has(id) ? 2 : 1 }),
        s("title", { text: ship.name }),
        lines.map((line, k) => label(x + 4, y0 + 11 + k * 10, line, { "font-weight": 600, "font-size": 9.5 })),
        label(x + 4, y0 + 42, german ? `${ship.kind === "warship" ? "Warship" : "Raider"} · att ${dice(ship.att)}`
          : `Merchant · ${ship.vp} VP`, { "font-size": 8.5, fill: "#3d4650" }),
        label(x + 4, y0 + 52, `def ${dice(ship.def)}${german ? ` · ${ship.vp} VP` : ""}`,
          { "font-size": 8.5, fill: "#3d4650" }));
      const marks = [];
      if (st.revealed) marks.push("revealed");
      if (st.limited_supply) marks.push("low supply");
      if (st.prize) marks.push("prize");
      if (st.refuge !== null && st.refuge !== undefined) marks.push("in refuge");
      if (hit) marks.push("attacked");
      if (marks.length) {  // the state of the ship, on a line of its own
        g.append(label(x + 4, y0 + 31, cutTo(marks.join(", "), Math.floor((w - 24) / PLAIN)),
          { fill: hit ? "#b3261e" : "#5c6670", "font-size": 8, "font-weight": 700 }));
      }
      for (let d = 0; d < (st.damage || 0); d++) {
        g.append(s("circle", { cx: x + w - 7 - d * 9, cy: y0 + 28, r: 3.5, fill: "#b3261e", "data-damage-marker": d },
          s("title", { text: "damaged" })));
      }
      return openable(g, { kind: "ship", id });
    }
    function row(ids, y0) {
      const per = 3, w = (W - 16 - (per - 1) * 4) / per;
      ids.forEach((id, i) => parts.push(shipCard(8 + (i % per) * (w + 4), y0 + Math.floor(i / per) * 60, id, w)));
      return Math.ceil(ids.length / per) * 60;
    }

    // A VP pile entry: a ship (sunk, captured, passed) or a duel's card, and its worth.
    function entryVp(e) {
      if (e.ship !== undefined && e.ship !== null) return data.ships[e.ship].vp * (e.mult || 1);
      return ((data.actions[e.card] || {}).vp || 0) * (e.mult || 1);
    }
    function entryName(e) {
      if (e.ship !== undefined && e.ship !== null) return data.ships[e.ship].name;
      const c = data.actions[e.card] || {};
      return c.ship ? `${c.name} ${c.ship}` : c.name || "a card";
    }

    const history = v.history || [];
    v.players.forEach((p, seat) => {
      const me = seat === ctx.seat;
      const vp = p.vp_pile.reduce((sum, e) => sum + entryVp(e), 0);
      const rp = p.round_points;
      parts.push(s("g", { class: "player", "data-player": seat, "data-hand-n": p.hand_n, "data-vp": vp,
        "data-rp": rp, "data-vp-pile": p.vp_pile.length },
      s("rect", { x: 4, y, width: W - 8, height: 20, rx: 4,
        fill: update.to_act.includes(seat) ? "#ffe8cc" : me ? "#e7eef8" : "#f1ece0" }),
      s("circle", { cx: 14, cy: y + 10, r: 5, fill: SEAT_COLOUR[seat % 4] }),
      label(24, y + 14, cutTo(`${name(seat)}${me && !ctx.replay ? " (you)" : ""}`, 26), { "font-weight": 700, "font-size": 11 }),
      label(W - 10, y + 14, `${plural(p.hand_n, "card")} in hand · ${plural(rp, "round point")}`,
        { "text-anchor": "end", "font-size": 9.5 })));
      y += 24;
      // The VP pile, one chip per card, and what it is worth this round.
      const pile = s("g", { class: "vp-pile", "data-seat": seat },
        label(8, y + 10, `VP pile: ${vp} VP`, { "font-size": 9, "font-weight": 600, fill: "#3d4650" }));
      let cx = 78;
      let cy = y;
      p.vp_pile.forEach((e, i) => {
        const text = `${entryVp(e)}${e.mult > 1 ? "×2" : ""}`;
        const w = text.length * 6 + 10;
        if (cx + w > W - 8) { cx = 78; cy += 16; }
        pile.append(openable(s("g", { class: "vp-entry", "data-vp-entry": e.ship !== undefined && e.ship !== null ? `ship:${e.ship}` : `card:${e.card}` },
          s("rect", { x: cx, y: cy + 1, width: w, height: 13, rx: 3, fill: e.ship !== undefined && e.ship >= 20 ? "#c9a86a" : "#7d8aa0" }),
          s("title", { text: `${entryName(e)}: ${entryVp(e)} VP` }),
          label(cx + 5, cy + 11, text, { "font-size": 8.5, fill: "#fff", "font-weight": 700 })),
        e.ship !== undefined && e.ship !== null ? { kind: "ship", id: e.ship } : { kind: "card", id: e.card }));
        cx += w + 3;
      });
      if (!p.vp_pile.length) pile.append(label(cx, y + 10, "empty", { "font-size": 9, fill: "#5c6670" }));
      parts.push(pile);
      y = cy + 18;
      if (p.german.length) y += row(p.german, y);
      if (p.merchants.length) y += row(p.merchants, y);
      if (!p.german.length && !p.merchants.length) {
        parts.push(label(10, y + 10, "no ships in play", { fill: "#5c6670" }));
        y += 16;
      }
      y += 4;
    });

    // -- how the game is decided: round points beside the VP piles ------------------------
    const top = v.n_players || v.players.length;  // the phantom counts in the solitaire game
    const scoring = s("g", { class: "scoring" },
      s("rect", { x: 4, y, width: W - 8, height: 44 + history.length * 12, rx: 5, fill: "#fff8e6", stroke: "#e0c98a" }),
      label(10, y + 13, `Round points: at the end of each round the most VP scores ${top},`, { "font-size": 9 }),
      label(10, y + 25, `the next ${top - 1 > 0 ? top - 1 : 0}${top > 2 ? ", and so on" : ""}; a player with no VP scores none. Most`, { "font-size": 9 }),
      label(10, y + 37, `round points after round ${ROUNDS} wins${v.mode === "team" ? " (per team)" : ""}; equal round points go to total VP.`, { "font-size": 9 }));
    history.forEach((h, k) => {  // each round scored: its VP, and the round points they won
      const before = k ? history[k - 1].round_points : h.vp.map(() => 0);
      const said = h.vp.map((x, i) => `${cutTo(name(i), 12)} ${x} VP → ${h.round_points[i] - before[i]}`);
      scoring.append(label(10, y + 50 + k * 12, cutTo(`Round ${h.round}: ${said.join(", ")}`, 72),
        { "font-size": 8.5, fill: "#5c6670", "data-round": h.round }));
    });
    parts.push(scoring);
    y += 50 + history.length * 12;

    // -- cards: committed this turn, and your hand --------------------------------------------
    const per = 4, cw = (W - 16 - (per - 1) * 4) / per;
    const chars = Math.floor((cw - 8) / BOLD), small = Math.floor((cw - 8) / PLAIN);
    function card(x, y0, id, lines, attrs = {}) {
      const known = id !== null && id !== undefined;
      const c = known ? data.actions[id] : null;
      const title = known ? wrap(c.name, chars) : ["face down"];
      const g = s("g", { class: "card", ...attrs },
        s("rect", { x, y: y0, width: cw, height: 56, rx: 5, fill: known ? "#fffdf8" : "#44546a",
          stroke: "#8f8672", "stroke-width": 1 }),
        known ? s("title", { text: c.name }) : null,
        title.map((t, k) => label(x + 4, y0 + 12 + k * 10, t, { "font-weight": 600, "font-size": 9.5, fill: known ? "#1b1f24" : "#fff" })),
        lines.map((t, k) => label(x + 4, y0 + 35 + k * 10, cutTo(t, small), { "font-size": 8.5, fill: known ? "#3d4650" : "#dbe4f0" })));
      return known ? openable(g, { kind: "card", id }) : attrs["data-by-ship"] !== undefined ? openable(g, { kind: "ship", id: attrs["data-by-ship"] }) : g;
    }
    if (T && T.committed.length) {
      parts.push(label(8, y + 10, `Committed by ${name(T.seat)}`, { "font-weight": 600, "font-size": 11 }));
      y += 16;
      T.committed.forEach((e, i) => {
        const on = e.ship !== null && e.ship !== undefined ? `by ${data.ships[e.ship].name}` : "";
        const known = e.card !== null && e.card !== undefined;
        const lines = [(USE[e.use] || e.use) + (known ? ` · #${e.card}` : ""), e.played ? `${on ? on + " " : ""}✓ played` : on];
        const g = card(8 + (i % per) * (cw + 4), y + Math.floor(i / per) * 60, e.card, lines.filter(Boolean),
          { "data-committed": i, "data-use": e.use, "data-played": e.played ? "1" : "0",
            "data-card-id": e.card === null || e.card === undefined ? "" : e.card,
            ...(e.ship !== null && e.ship !== undefined ? { "data-by-ship": e.ship } : {}) });
        if (e.played) g.setAttribute("opacity", "0.6");
        parts.push(g);
      });
      y += Math.ceil(T.committed.length / per) * 60 + 4;
    }

    if (v.me) {
      const hand = v.me.hand;
      const rows = Math.max(1, Math.ceil(hand.length / per));
      const box = s("g", { "data-hand": ctx.seat },
        s("rect", { x: 4, y, width: W - 8, height: 24 + rows * 60, rx: 6, fill: "#1d3557" }),
        label(12, y + 15, `${ctx.replay ? `${name(ctx.seat)}'s hand (only they saw it)` : "Your hand (only you see it)"}: ${plural(hand.length, "card")} · tap a card to read it`,
          { fill: "#fff", "font-weight": 600, "font-size": 10 }));
      hand.forEach((id, i) => {
        const c = data.actions[id];
        box.append(card(8 + (i % per) * (cw + 4), y + 20 + Math.floor(i / per) * 60, id,
          [`${(KIND[c.kind] || c.kind).replace(" card", "")} · #${id}`, `British ${dice(c.icpt)}${c.night ? " ☾" : ""}`],
          { "data-card": id }));
      });
      if (!hand.length) box.append(label(12, y + 38, "empty", { fill: "#dbe4f0" }));
      parts.push(box);
      y += 28 + rows * 60;
    }
    parts.push(s("g", { "data-deck": "ships", "data-german": v.german_deck_n, "data-merchants": v.merchant_deck_n },
      label(8, y + 12, `Ship decks: ${v.german_deck_n} German · ${plural(v.merchant_deck_n, "merchant")}`, { fill: "#5c6670", "font-size": 9 })));
    y += 18;

    const svg = s("svg", { viewBox: `0 0 ${W} ${y}`, class: "kp", role: "img",
      "aria-label": "Kaiser's Pirates table" }, s("style", { text: ".face{cursor:pointer}.face:hover rect{filter:brightness(1.05)}" }), parts);
    const face = openFace(ctx, data);
    host.replaceChildren(...(face ? [svg, face] : [svg]));
  }

  // The face of the card or ship tapped: its whole name, dice and rule (HTML, so it wraps).
  function openFace(ctx, data) {
    if (!open) return null;
    const el = ctx.el;
    let title, lines;
    if (open.kind === "card") {
      const c = data.actions[open.id];
      if (!c) return null;
      title = c.ship ? `${c.name}: ${c.ship}` : c.name;
      lines = [`${(KIND[c.kind] || c.kind).replace(/^./, (m) => m.toUpperCase())}. ${c.text}`,
        `As a British-forces interception: ${dice(c.icpt)}${c.night ? ", at night (-1)" : ""}.` +
        (c.vp ? ` Worth ${c.vp} VP if it is sunk.` : "")];
    } else {
      const sh = data.ships[open.id];
      if (!sh) return null;
      title = sh.name;
      lines = [sh.kind === "merchant" ? `Merchant, worth ${sh.vp} VP. Defence ${dice(sh.def)}.`
        : `${sh.kind === "warship" ? "Warship" : "Raider"}, worth ${sh.vp} VP. Attack ${dice(sh.att)}, defence ${dice(sh.def)}.`];
    }
    return el("div", { class: "kp-face", "data-open": `${open.kind}:${open.id}`,
      style: "margin:6px 0;padding:8px 10px;border:1px solid #8f8672;border-radius:8px;background:#fffdf8;" },
    el("div", { style: "display:flex;justify-content:space-between;gap:8px;align-items:center" },
      el("strong", {}, title),
      el("button", { type: "button", style: "min-height:36px;min-width:36px;border-radius:6px;border:1px solid #8a94a0;background:#fff;",
        "aria-label": "close", onclick: () => { open = null; if (last) render(...last); } }, "✕")),
    lines.map((t) => el("p", { style: "margin:4px 0 0" }, t)));
  }
})();
