// Turn clocks and pause, from the page (docs/protocol.md, "Turn clocks and pause").
// app.js calls `lantableClock.createFields()` for the lobby form, `.read(form)` when it
// is sent, `.updated(table, update)` for each update and `.panel(table, update)` for
// the part of the table screen drawn here. The countdown runs from the update's
// `clock.left_ms`, counted from when the update arrived on this machine: no wall time
// crosses the network, so the machines' clocks need not agree.
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);
  let busy = false;  // a pause request on its way

  function seconds(ms) {  // "1:05", "0:09"; past an hour "1:02:05"
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
  }

  function leftNow(u, seat) {  // ms left for a seat, as of now on this machine
    const c = u.clock;
    const left = c.left_ms[seat];
    if (!c.running.includes(seat)) return left;
    return left - (performance.now() - (u._clockAt || performance.now()));
  }

  // Every quarter second: only the numbers change, no redraw. It starts with the first
  // update that has a clock (`updated`, called by app.js), never when this file loads:
  // app.js comes later (index.html) and deferred scripts run one by one as they arrive,
  // so a timer started here could fire before app.js has made `window.lantable`.
  let ticking = null;
  function tick() {
    const t = page().state().table;
    const u = t && t.update;
    if (!u || !u.clock) return;
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(node.dataset.clockSeat);
      const ms = leftNow(u, seat);
      node.textContent = seconds(ms);
      node.classList.toggle("low", u.clock.running.includes(seat) && ms < 10000);
    }
  }

  function describe(c) {
    const then = c.on_timeout === "forfeit" ? T("then the seat forfeits") : T("then a bot plays the seat");
    if (c.kind === "chess") {
      return c.increment
        ? T("Clock: {time} a player, plus {inc} s a move; {then}.", { time: seconds(c.seconds * 1000), inc: c.increment, then })
        : T("Clock: {time} a player; {then}.", { time: seconds(c.seconds * 1000), then });
    }
    return T("Clock: {s} s a decision; {then}.", { s: c.seconds, then });
  }

  function ask(t, paused) {
    if (busy) return;
    busy = true;
    page().request("pause", { table: t.id, paused }, () => { busy = false; page().draw(); },
      (err) => { busy = false; page().notify(err.message, "error"); page().draw(); });
    page().draw();
  }

  function pauseBox(t, u) {
    const p = u.pause;
    const mine = t.seat !== null && t.seat !== undefined && u.seat !== null;
    const n = u.seats.map((s, i) => s.name || T("seat {n}", { n: i }));
    const lines = [];
    const buttons = [];
    if (p && p.paused) lines.push(el("strong", {}, T("The table is paused; the clock is stopped.")));
    if (p && p.ask) {
      const waiting = p.ask.waiting.map((s) => n[s]).join(", ");
      const vars = { who: n[p.ask.by], waiting };
      lines.push(p.ask.paused ? T("{who} asks to pause the table; waiting for {waiting}.", vars)
        : T("{who} asks to resume the table; waiting for {waiting}.", vars));
      if (mine && p.ask.waiting.includes(u.seat)) {
        buttons.push(el("button", { class: "primary", id: "pause-yes", disabled: busy, onclick: () => ask(t, p.ask.paused) },
          p.ask.paused ? T("Agree to pause") : T("Agree to resume")));
        buttons.push(el("button", { id: "pause-no", disabled: busy, onclick: () => ask(t, !p.ask.paused) }, T("Say no")));
      }
    } else if (mine) {
      const paused = !!(p && p.paused);
      buttons.push(el("button", { id: paused ? "resume-ask" : "pause-ask", disabled: busy, onclick: () => ask(t, !paused) },
        paused ? T("Ask to resume") : T("Ask to pause")));
    }
    if (!lines.length && !buttons.length) return null;
    return el("div", { class: "pause-box", id: "pause" }, lines.map((x) => el("p", {}, x)),
      buttons.length ? el("div", { class: "pause-buttons" }, buttons) : null);
  }

  window.lantableClock = {
    // The lobby form's clock choice (app.js, createForm).
    createFields() {
      return el("details", { class: "clock-option", id: "create-clock" },
        el("summary", {}, T("Turn clock")),
        el("label", {}, T("Clock") + " ", el("select", { name: "clock-kind", id: "clock-kind" },
          el("option", { value: "" }, T("none")),
          el("option", { value: "decision" }, T("seconds per decision")),
          el("option", { value: "chess" }, T("minutes per player (chess clock)")))),
        el("label", {}, T("Time (seconds; minutes for a chess clock)") + " ", el("input", { type: "number", name: "clock-time", id: "clock-time", min: 2, value: 30 })),
        el("label", {}, T("Added per move, chess clock (s)") + " ", el("input", { type: "number", name: "clock-inc", id: "clock-inc", min: 0, value: 0 })),
        el("label", {}, T("Out of time") + " ", el("select", { name: "clock-out", id: "clock-out" },
          el("option", { value: "bot" }, T("a bot plays until the player is back")),
          el("option", { value: "forfeit" }, T("the player forfeits")))));
    },
    // The create request's `clock`, from the form ({} for none).
    read(form) {
      const kind = form.querySelector('[name="clock-kind"]').value;
      if (!kind) return {};
      const time = Number(form.querySelector('[name="clock-time"]').value);
      const clock = { kind, seconds: Math.trunc(kind === "chess" ? time * 60 : time),
        on_timeout: form.querySelector('[name="clock-out"]').value };
      if (kind === "chess") clock.increment = Math.trunc(Number(form.querySelector('[name="clock-inc"]').value) || 0);
      return { clock };
    },
    // Each update of the table on screen: note when it arrived (the countdown's zero),
    // and follow our seat when its time ran out and a bot took it.
    updated(t, u) {
      u._clockAt = performance.now();
      if (u.clock && ticking === null) ticking = setInterval(tick, 250);
      if (u.pause && u.pause.paused) { u.legal = null; u.labels = null; }  // no moves while paused
      const s = t.seat !== null && t.seat !== undefined ? u.seats[t.seat] : null;
      if (s && u.seat === null && s.bot && s.bot.handed && u.status === "playing") {
        t.seat = null;
        t.spectate = true;
      }
    },
    // The clock and pause panel (app.js, tableScreen), or null.
    panel(t, u) {
      if (!u || u.status !== "playing") return null;
      const box = pauseBox(t, u);
      if (!u.clock && !box) return null;
      const n = u.seats.map((s, i) => s.name || T("seat {n}", { n: i }));
      const clocks = u.clock ? el("ul", { class: "clocks", id: "clocks" }, u.seats.map((s, i) =>
        el("li", { class: u.clock.running.includes(i) ? "running" : "" },
          el("span", { class: "clock-name" }, n[i], i === u.seat ? ` ${T("(you)")}` : ""),
          el("span", { class: "clock-left", "data-clock-seat": i }, seconds(leftNow(u, i)))))) : null;
      return el("section", { class: "clock-panel", id: "clock" },
        u.clock ? el("p", { class: "muted clock-rule" }, describe(u.clock)) : null, clocks, box);
    },
  };
})();
