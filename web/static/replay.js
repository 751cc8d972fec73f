// Replays of finished games on the game's own board (docs/protocol.md, "Finished
// tables and replays"): `#/replay/<table>` steps through a finished table with the
// buttons, the arrow keys or the slider, as any seat saw it or as a spectator, with
// the game's sentences for each move. The lobby's finished games are listed here, with
// "Replay" and "Hide". app.js calls `lantableReplay.screen()` (the page when the
// address is a replay) and `.finishedList()` (the lobby's finished games, older ones
// paged in); everything goes through the page's connection.
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);

  // The replay on screen: {id, step, seat, steps, cache: Map("seat/step" -> replay_step)}
  let R = null;
  const older = { tables: [], more: null, busy: false };  // finished tables paged in

  function tableId() {
    const m = location.hash.match(/^#\/replay\/([^/]+)$/);
    return m ? decodeURIComponent(m[1]) : null;
  }

  function key(seat, step) { return `${seat === null ? "s" : seat}/${step}`; }

  function fetchStep(step, seat, then) {
    const r = R;
    const k = key(seat, step);
    if (r.cache.has(k)) { if (then) then(r.cache.get(k)); return; }
    if (r.asked.has(k)) return;
    r.asked.add(k);
    const fields = { table: r.id, step };
    if (seat !== null) fields.seat = seat;
    page().request("replay", fields, (msg) => {
      r.asked.delete(k);
      r.cache.set(k, msg);
      r.steps = msg.steps;
      r.seatViews = msg.seat_views;
      r.kept = !!msg.kept;
      if (then) then(msg);
    }, (err) => {
      r.asked.delete(k);
      r.error = err.message;
      page().draw();
    });
  }

  function go(step, seat = R.seat) {
    if (!R || R.steps === null) return;
    step = Math.max(0, Math.min(R.steps, step));
    R.want = { step, seat };
    fetchStep(step, seat, () => {
      if (!R.want || R.want.step !== step || R.want.seat !== seat) return;  // overtaken
      R.step = step; R.seat = seat;
      page().draw();
      if (step < R.steps) fetchStep(step + 1, seat, null);  // the next one, ready
    });
  }

  document.addEventListener("keydown", (ev) => {
    if (!R || !tableId() || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;  // their own keys
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    if (ev.key in moves) go(R.step + moves[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(R.steps);
    else return;
    ev.preventDefault();
  });

  // -- the replay page -----------------------------------------------------------------

  function screen() {
    const id = tableId();
    if (!id) { R = null; return null; }
    const S = page().state();
    if (!R || R.id !== id) {
      R = { id, step: 0, seat: null, steps: null, cache: new Map(), asked: new Set(),
            want: null, error: null, seatViews: true, kept: false };
    }
    if (!S.open) return el("section", { class: "replay" }, el("p", { class: "muted" }, T("Connecting…")));
    const shown = R.cache.get(key(R.seat, R.step));
    if (!shown) {
      if (!R.error) fetchStep(R.step, R.seat, () => page().draw());
      return el("section", { class: "replay" }, back(),
        el("p", { class: R.error ? "error" : "muted", id: "replay-error" },
          R.error ? T("This replay cannot be shown: {why}", { why: R.error }) : T("Loading the replay…")));
    }
    return el("section", { class: "replay", id: "replay", "data-step": shown.step,
      "data-seat": shown.seat === null ? "" : String(shown.seat) },  // whose view is drawn
      back(), heading(shown), controls(shown), whose(shown), board(shown), moveText(shown),
      finalScores(shown));
  }

  function back() {
    return el("p", {}, el("a", { href: "#/", class: "button" }, T("Back to the lobby")));
  }

  function gameTitle(id) {
    const g = page().state().games[id];
    return (g && g.title) || id;
  }

  function heading(m) {
    const names = m.names.join(", ");
    return el("div", { class: "replay-head" },
      el("h1", {}, T("Replay of {game}", { game: gameTitle(m.game) })),
      el("p", { class: "who" }, T("Played by {names}.", { names })),
      el("button", { id: "replay-keep", class: R.kept ? "primary" : "",
        title: T("A kept game survives when the host tidies its journal"),
        onclick: () => page().request("keep_table", { table: R.id, keep: !R.kept }, (msg) => {
          R.kept = msg.keep;
          for (const v of R.cache.values()) v.kept = msg.keep;
          page().notify(msg.keep ? T("This game will be kept.") : T("This game is no longer marked to keep."));
          page().draw();
        }) }, R.kept ? T("Kept ✓") : T("Keep this game")));
  }

  function where(m) {
    if (m.step === 0) return T("The start, before the first move (of {n}).", { n: m.steps });
    return T("Move {k} of {n}.", { k: m.step, n: m.steps });
  }

  function controls(m) {
    const b = (id, text, label, step, off) => el("button", { id, "aria-label": label, title: label,
      disabled: off, onclick: () => go(step) }, text);
    const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: m.steps, value: m.step,
      "aria-label": T("Move"), oninput: (ev) => go(Number(ev.target.value)) });
    return el("div", { class: "replay-controls" },
      b("replay-start", "◀◀", T("To the start"), 0, m.step === 0),
      b("replay-back", T("◀ Back"), T("One move back (left arrow)"), m.step - 1, m.step === 0),
      b("replay-forward", T("Forward ▶"), T("One move forward (right arrow)"), m.step + 1, m.step === m.steps),
      b("replay-end", "▶▶", T("To the end"), m.steps, m.step === m.steps),
      slider,
      el("span", { class: "replay-where", id: "replay-where" }, where(m)));
  }

  function whose(m) {
    const options = [el("option", { value: "", selected: m.seat === null }, T("Spectator (what everyone saw)"))];
    m.names.forEach((name, s) => options.push(el("option", { value: String(s), selected: m.seat === s,
      disabled: !m.seat_views }, T("{name}'s view", { name }))));
    const pick = el("select", { id: "replay-seat", disabled: !m.seat_views, onchange: (ev) => {
      go(R.step, ev.target.value === "" ? null : Number(ev.target.value));
    } }, options);
    return el("div", { class: "replay-whose" },
      el("label", {}, T("Whose view") + " ", pick),
      m.seat_views ? null : el("small", { class: "muted" },
        T("Only the public view: the hidden cards of this game were dealt among the players, and this host never saw them.")));
  }

  function board(m) {
    const holder = el("div", { class: "board", id: "board", "data-board": m.game });
    const r = page().renderer(m.game);
    const S = page().state();
    const update = { table: R.id, seq: m.step, status: m.step === m.steps ? "finished" : "playing",
      seat: m.seat, view: m.view, to_act: m.to_act, legal: [], labels: [], events: m.events,
      sentences: m.sentences, scores: m.scores,
      seats: m.names.map((name) => ({ name, taken: true, connected: false })) };
    if (r) {
      const ctx = { game: m.game, seat: m.seat, names: m.names, legal: [], labels: [], busy: true,
        act: () => {}, query: () => Promise.reject({ code: "replay", message: T("a replay asks nothing of the game") }),
        svg: window.lantable.svg, el, t: T, lang: window.lantableI18n.lang(), replay: true };
      try { r.render(holder, update, ctx); return holder; } catch (e) {
        console.error("renderer failed in a replay", e);
        holder.replaceChildren(el("p", { class: "muted" }, T("The game's board could not be drawn for this move.")));
        return holder;
      }
    }
    if (page().hasBoard(m.game)) {
      holder.append(el("p", { class: "muted" }, T("Loading the board…")));
    } else {
      holder.append(el("pre", { class: "raw" }, JSON.stringify(m.view, null, 1)));
    }
    return holder;
  }

  function moveText(m) {
    if (m.step === 0) {
      return el("div", { class: "replay-events", id: "replay-events" },
        el("p", { class: "muted" }, T("The table as it was set up. Step forward to see the first move.")));
    }
    const who = m.actor === null || m.actor === undefined ? "" : m.names[m.actor];
    return el("div", { class: "replay-events", id: "replay-events" },
      el("h2", {}, who ? T("Move {k}: {name}", { k: m.step, name: who }) : T("Move {k}", { k: m.step })),
      m.sentences.length ? el("ul", {}, m.sentences.map((s) => el("li", {}, s)))
        : el("p", { class: "muted" }, T("Nothing this view could see happened.")));
  }

  function finalScores(m) {
    if (!m.scores || !Array.isArray(m.scores.scores)) return null;
    const order = m.names.map((name, s) => ({ name, score: m.scores.scores[s] }))
      .sort((a, b) => b.score - a.score);
    return el("p", { class: "replay-scores", id: "replay-scores" },
      T("Final scores: {list}.", { list: order.map((o) => `${o.name} ${o.score}`).join(", ") }));
  }

  // -- the lobby's finished rows -------------------------------------------------------

  function buttons(t) {
    return [
      el("a", { class: "button primary", href: `#/replay/${encodeURIComponent(t.id)}` }, T("Replay")),
      el("button", { class: "hide-table", title: T("Take this finished game off the list, for everyone"),
        onclick: () => page().request("hide_table", { table: t.id }, () => {
          older.tables = older.tables.filter((o) => o.id !== t.id);
          page().notify(T("The finished game was taken off the list. Its record is kept."));
          page().draw();
        }) }, T("Hide")),
    ];
  }

  function when(t) {  // "today 14:32", or the date
    if (!t.ended) return null;
    const d = new Date(t.ended * 1000);
    const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return new Date().toDateString() === d.toDateString() ? T("ended at {time}", { time })
      : T("ended {date}", { date: d.toLocaleDateString() });
  }

  function row(t) {
    const won = Array.isArray(t.winners) && t.winners.length
      ? (t.winners.length === 1 ? T("{name} won", { name: t.winners[0] })
        : T("{names} shared the win", { names: t.winners.join(", ") })) : null;
    const facts = [t.names.filter((n) => n).join(", "), won, when(t)].filter((x) => x);
    return el("li", { class: "table finished", "data-table": t.id },
      el("div", { class: "what" }, el("strong", {}, gameTitle(t.game)), " ",
        t.kept ? el("span", { class: "status finished", title: T("A kept game survives when the host tidies its journal") }, T("kept")) : null,
        el("div", { class: "who" }, facts.join(" · "))),
      el("div", { class: "do" }, buttons(t)));
  }

  // The lobby's finished games: the newest the lobby push brought, then older pages.
  function finishedList() {
    const S = page().state();
    const newest = (S.tables || []).filter((t) => t.status === "finished");
    const total = Math.max(S.finished || 0, newest.length);
    if (!total) { older.tables = []; return null; }
    const seen = new Set(newest.map((t) => t.id));
    older.tables = older.tables.filter((t) => !seen.has(t.id));
    const have = newest.length + older.tables.length;
    const left = total - have;
    return el("div", { class: "older", id: "finished" },
      el("h2", {}, total === 1 ? T("1 finished game") : T("{n} finished games", { n: total })),
      el("ul", { class: "tables" }, [...newest, ...older.tables].map(row)),
      left > 0 ? el("button", { id: "older-more", disabled: older.busy, onclick: () => {
        older.busy = true;
        page().request("list_tables", { finished: true, offset: have }, (msg) => {
          older.busy = false;
          const known = new Set([...seen, ...older.tables.map((t) => t.id)]);
          older.tables.push(...msg.tables.filter((t) => !known.has(t.id)));
          page().draw();
        }, () => { older.busy = false; page().draw(); });
      } }, left === 1 ? T("Show 1 older finished game") : T("Show older finished games ({n} more)", { n: left }))
        : null);
  }

  window.lantableReplay = { screen, buttons, finishedList };
})();
