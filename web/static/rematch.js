// "Play again" at the end of a game (docs/protocol.md, "Chat and rematch": `rematch`,
// `rematch_offered`): the same game and options with the same people, seats rotated;
// each player says yes (and goes to the new table) or no thanks. app.js calls
// `lantableRematch.panel(table, update)` under the final scores.
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);
  const offers = new Map();   // finished table id -> its rematch_offered
  const problems = new Map(); // finished table id -> the host's last refusal
  let busy = false;

  // A player who handed their seat to a bot and watched the end takes it back first
  // (their stored token): only the table's players answer a rematch.
  function answer(table, decline) {
    const t = page().state().table;
    const mine = page().storedSeats()[table];
    if (t && t.id === table && (t.seat === null || t.seat === undefined) && mine) {
      page().request("resume", { token: mine.token }, (joined) => {
        t.seat = joined.seat; t.spectate = false;
        ask(table, decline);
      }, (err) => { problems.set(table, err.message); page().draw(); });
      return;
    }
    ask(table, decline);
  }

  function ask(table, decline) {
    if (busy) return;
    busy = true;
    problems.delete(table);
    const fields = decline ? { table, decline: true } : { table };
    const id = page().request("rematch", fields, (reply) => {
      busy = false;
      if (reply.t === "joined") {
        page().storeSeat(reply.table, reply.seat, reply.token);
        location.hash = `#/table/${encodeURIComponent(reply.table)}`;
      } else {
        page().draw();
      }
    }, (err) => { busy = false; problems.set(table, err.message); page().draw(); });
    if (id === null) busy = false;
    page().draw();
  }

  function who(s) {
    const state = { asked: T("asked"), in: T("in"), declined: T("said no") }[s.state] || s.state;
    return el("li", { class: `rematch-seat ${s.state}` }, s.name, s.bot ? ` (${T("bot")})` : "", ": ", state);
  }

  function panel(t, u) {
    if (!u || u.status !== "finished") return null;
    const offer = offers.get(t.id);
    const player = (t.seat !== null && t.seat !== undefined) || Boolean(page().storedSeats()[t.id]);
    const seat = t.seat !== null && t.seat !== undefined ? t.seat
      : player ? page().storedSeats()[t.id].seat : null;
    const problem = problems.get(t.id);
    const note = problem ? el("p", { class: "seat-problem", role: "alert" }, problem) : null;
    if (!offer) {
      if (!player) return null;
      return el("section", { class: "rematch", id: "rematch" },
        el("button", { class: "primary", id: "play-again", disabled: busy, onclick: () => answer(t.id, false) },
          T("Play again")),
        el("p", { class: "muted" }, T("Opens a new table of this game with the same options and people, seats rotated; each of them says yes first. Bots come along.")),
        note);
    }
    const mine = player ? offer.seats.find((s) => s.from === seat) : null;
    const list = el("ul", { class: "rematch-seats" }, offer.seats.map(who));
    let doing;
    if (!player) {
      doing = el("a", { class: "button", href: `#/table/${encodeURIComponent(offer.next)}/watch` }, T("Watch the rematch"));
    } else if (mine && mine.state === "in") {
      doing = el("button", { class: "primary", id: "play-again", onclick: () => answer(t.id, false) }, T("Go to the new table"));
    } else if (mine && mine.state === "declined") {
      doing = el("p", { class: "muted" }, T("You said no to this rematch."));
    } else {
      doing = el("div", { class: "do" },
        el("button", { class: "primary", id: "play-again", disabled: busy, onclick: () => answer(t.id, false) }, T("Play again")),
        " ", el("button", { id: "no-rematch", disabled: busy, onclick: () => answer(t.id, true) }, T("No thanks")));
    }
    return el("section", { class: "rematch", id: "rematch", "data-next": offer.next },
      el("h2", {}, T("{who} asks for a rematch", { who: offer.by })),
      el("p", { class: "muted" }, T("Same game, same options, seats rotated.")), list, doing, note);
  }

  window.lantableRematch = { panel };
  page().on("rematch_offered", (msg) => { offers.set(msg.table, msg); page().draw(); });
})();
