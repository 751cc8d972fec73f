// lantable in the browser: one more client of docs/protocol.md, over a WebSocket.
//
// Every message is one msgpack map in one binary WebSocket message. The app says
// hello with `words` (the host adds the game's own action labels and event sentences
// to each update) and `lobby` (the host pushes the table list when it changes).
// Nothing is optimistic: the board only changes when an update arrives.
// At a fair table the page takes part on its own (fairplay.js): its key is in
// `hello`, it commits and reveals when asked, signs its actions, checks every event.
"use strict";

(function () {
  const { encode, decode } = window.MessagePack;
  const PROTO = 1;
  const BACKOFF = [250, 500, 1000, 2000, 4000, 8000];  // ms; capped at the last
  const LOG_LINES = 200;
  // ms between pings: keeps a quiet lobby open (the host's idle_timeout) and finds a
  // dead Wi-Fi link within two beats (localStorage "lantable.heartbeat_ms" for tests).
  const HEARTBEAT = Number(localStorage.getItem("lantable.heartbeat_ms")) || 20000;

  const I18N = window.lantableI18n;
  const T = I18N.t;  // the page's own words, English or Italian (i18n.js)
  const F = window.lantableForms;  // template forms and the text board (forms.js)
  const D = window.lantableDecks;  // the card engine for hidden-deck tables (decks.js)
  // ms between the update that asks this seat and an action sent with "take forced
  // choices for me" ticked: every action waits this long, forced or chosen, so the
  // timing never tells the table that a choice was forced (localStorage for tests).
  const FORCED_MS = Number(localStorage.getItem("lantable.forced_ms")) || 1500;
  const GROUP_OVER = 12;  // more choices than this: grouped by kind, with a filter

  const $ = (sel, root = document) => root.querySelector(sel);
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat(Infinity)) {
      if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }

  // -- what we know --------------------------------------------------------------

  const S = {
    ws: null, open: false, attempt: 0, timer: null,
    peer: null, hostName: "", games: {}, tables: [], peers: [],
    nextId: 1, pending: new Map(),        // id -> {t, table, onOk, onErr}
    table: null,                          // the table on screen: {id, seat, spectate, update, log}
    busy: false,                          // an action is on its way: no double moves
    notice: null,
    started: false,                       // the first connect waits for the key
    fair: null,                           // this page's fair-play seats (fairplay.js)
    fairQueue: Promise.resolve(),         // fair-play answers and checks, in arrival order
    deckQueue: Promise.resolve(),         // hidden decks: requests, keys, updates, in order
    form: null,                           // the open template form: {key, node}
    filter: "",                           // the choice filter's text
    debug: false,                         // the raw view is open
    autoForced: localStorage.getItem("lantable.forced") === "1",
    forcedTimer: null,
    summary: null,                        // the stage summary on screen: {seq, title, lines}
  };
  const renderers = {};
  const listeners = {};  // message type -> functions told of each such message (page.on)
  const wanted = ($('meta[name="lantable-renderers"]') || {}).content || "";
  const withRenderer = new Set(wanted.split(",").filter((x) => x && !x.startsWith("{{")));

  window.lantable = {
    registerRenderer(gameId, renderer) { renderers[gameId] = renderer; if (S.table || location.hash.startsWith("#/replay/")) draw(); },
    svg(tag, attrs = {}, ...children) {  // a small helper for renderers
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
        else if (k === "text") node.textContent = v;
        else node.setAttribute(k, v);
      }
      for (const c of children.flat(Infinity)) if (c != null) node.append(c instanceof Node ? c : String(c));
      return node;
    },
    el,
    act: (action) => act(action),  // send an action for the seat on screen (renderers, console)
    // A game's translations of its own words (docs/plugins.md, "Words in other
    // languages"): lantable.addTranslations("my-game", "it", [[/^pass$/, "passo"]]).
    addTranslations: (game, lang, phrases) => I18N.addGame(game, lang, phrases),
    t: T,
    // The page's own connection and state, for seats.js (bots, names).
    page: { state: () => S, request, draw, notify, storedSeats, storeSeat,
            // chat.js, alerts.js, rematch.js: hear every message of a type ("*": all)
            on: (t, fn) => { (listeners[t] = listeners[t] || []).push(fn); },
            // replay.js draws a game's board itself: its renderer, loaded on demand
            renderer: (game) => {
              if (withRenderer.has(game) && !renderers[game]) loadRenderer(game);
              return renderers[game] || null;
            },
            hasBoard: (game) => withRenderer.has(game) },
  };

  // -- seats we hold, per host and table (localStorage) ---------------------------

  function seatsKey() { return `lantable.seats.${S.peer}`; }
  function storedSeats() {
    try { return JSON.parse(localStorage.getItem(seatsKey()) || "{}"); } catch { return {}; }
  }
  function storeSeat(table, seat, token) {
    const all = storedSeats();
    if (token) all[table] = { seat, token }; else delete all[table];
    localStorage.setItem(seatsKey(), JSON.stringify(all));
  }
  function myName() {
    let name = localStorage.getItem("lantable.name");
    if (!name) {
      name = "player-" + Math.floor(Math.random() * 900 + 100);
      localStorage.setItem("lantable.name", name);
    }
    return name;
  }

  // -- the connection ----------------------------------------------------------

  function setLink(state, text) {
    const link = $("#link");
    link.dataset.state = state;
    link.textContent = text;
  }

  function connect() {
    clearTimeout(S.timer);
    S.timer = null;
    if (S.ws && S.ws.readyState <= 1) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    ws.binaryType = "arraybuffer";
    S.ws = ws;
    setLink(S.attempt ? "reconnecting" : "connecting", S.attempt ? T("reconnecting…") : T("connecting…"));
    const key = S.fair && S.fair.key;  // no key: fair tables can be watched, not played
    // decks: this peer serves the card engine, so the page can deal (decks.js)
    const decks = key && D && D.available ? { decks: true } : {};
    ws.onopen = () => ws.send(encode({ t: "hello", proto: PROTO, name: myName(), words: true,
                                       lobby: true, id: 0, ...(key ? { key } : {}), ...decks }));
    ws.onmessage = (ev) => {
      let msg;
      const raw = new Uint8Array(ev.data);
      try { msg = decode(raw); } catch (e) { console.error(e); return; }
      receive(msg, raw);
    };
    ws.onclose = () => lost(ws);
  }

  function lost(ws) {  // the connection is gone (closed, or found dead): reconnect
    if (S.ws !== ws) return;
    S.ws = null;
    S.open = false;
    S.busy = false;
    for (const p of S.pending.values()) if (p.onErr) p.onErr({ code: "disconnected", message: T("connection lost") });
    S.pending.clear();
    scheduleReconnect();
    draw();
  }

  function scheduleReconnect() {
    const delay = BACKOFF[Math.min(S.attempt, BACKOFF.length - 1)];
    S.attempt += 1;
    setLink("reconnecting", T("reconnecting… (try {n})", { n: S.attempt }));
    clearTimeout(S.timer);
    S.timer = setTimeout(connect, delay);
  }

  function reconnectNow() {  // the phone woke up, or the network came back
    if (!S.started || (S.ws && S.ws.readyState <= 1)) return;
    S.attempt = Math.min(S.attempt, 1);
    connect();
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });
  window.addEventListener("online", reconnectNow);
  window.addEventListener("pageshow", reconnectNow);

  // A ping every HEARTBEAT; one still unanswered at the next beat means the link is
  // dead (a phone that slept, a dropped Wi-Fi): close it, and the reconnect begins.
  let awaitingPong = false;
  setInterval(() => {
    if (!S.open) { awaitingPong = false; return; }
    if (awaitingPong) {  // do not wait for a dead link's closing handshake
      awaitingPong = false;
      const dead = S.ws;
      lost(dead);
      dead.close();
      return;
    }
    awaitingPong = true;
    request("ping", {}, () => { awaitingPong = false; });
  }, HEARTBEAT);

  function request(t, fields = {}, onOk = null, onErr = null) {
    if (!S.open) { notify(T("Not connected yet; try again in a moment."), "error"); return null; }
    const id = S.nextId++;
    S.pending.set(id, { t, table: fields.table, onOk, onErr });
    S.ws.send(encode({ t, id, ...fields }));
    return id;
  }

  // -- messages in ---------------------------------------------------------------

  function receive(msg, raw) {
    const pending = msg.id !== undefined && msg.id !== null && msg.t !== "update"
      ? S.pending.get(msg.id) : null;
    if (pending) S.pending.delete(msg.id);
    for (const fn of [...(listeners[msg.t] || []), ...(listeners["*"] || [])]) {
      try { fn(msg, pending); } catch (e) { console.error(e); }
    }
    switch (msg.t) {
      case "welcome": return welcomed(msg);
      case "lobby":
        S.tables = msg.tables;
        S.peers = msg.peers || [];
        S.finished = msg.finished || 0;  // finished tables listed in all (replay.js pages them)
        return draw();
      case "tables":
        if (pending && pending.onOk) return pending.onOk(msg);  // a page asked for (replay.js)
        S.tables = msg.tables; return draw();
      case "games":
        for (const g of msg.games) {
          S.games[g.id] = g;
          if (g.translations) I18N.addGameInfo(g.id, g.translations);
        }
        return draw();
      case "update":
        if (D && D.tables.has(msg.table)) return deckLater(() => deckUpdate(msg, raw));
        return updated(msg);
      case "deck_request": return deckLater(() => deckAnswer(msg, raw));
      case "deck_keys": return deckLater(() => deckKeys(msg, raw));
      case "error": return failed(msg, pending);
      case "fair_request": return fairLater(() => fairAnswer(msg));
      case "fair_event": return fairLater(() => fairCheck(msg));
      case "fair_fault": return fairFault(msg);
      case "undo": return window.lantableUndo && window.lantableUndo.notice(msg);  // undo.js
      default:
        if (pending && pending.onOk) pending.onOk(msg);
    }
  }

  function welcomed(msg) {
    S.open = true;
    S.attempt = 0;
    S.peer = msg.peer;
    if (S.fair) S.fair.peer = msg.peer;  // chain secrets are kept per host
    S.hostName = msg.name;
    S.tables = msg.tables;
    $("#peer").textContent = T("at {host}", { host: msg.name });
    document.title = `lantable · ${msg.name}`;
    setLink("online", T("online"));
    request("list_games");
    route();
  }

  function failed(msg, pending) {
    if (pending && pending.onErr) pending.onErr(msg);
    if (pending && pending.t === "act") S.busy = false;
    if (!pending && msg.code === "bad_token" && S.table && msg.table === S.table.id) {
      notify(T("This seat was taken over by another device or tab; you are watching now. Reload to take it back."), "error");
      S.table.seat = null;
      S.table.update = null;
      watch(S.table.id);
      draw();
      return;
    }
    if (!pending) {  // answers no request: the host tells us something (e.g. it stops)
      notify(msg.code === "shutting_down"
        ? T("The host is stopping; this page reconnects when it is back.") : msg.message, "error");
    } else if (!pending.onErr) {
      notify(T("Refused ({code}): {why}", { code: msg.code, why: msg.message }), "error");
    }
    draw();
  }

  function updated(msg) {
    const t = S.table;
    if (!t || msg.table !== t.id) return;
    const last = t.update;
    if (last && !msg.full && msg.seq > last.seq + 1) {  // a gap: resync (docs/protocol.md)
      request("sync", { table: t.id });
      return;
    }
    if (!msg.full && msg.events) {
      const said = msg.sentences || msg.events.map((e) => JSON.stringify(e));
      for (const line of said) t.log.push({ seq: msg.seq, line });
      if (t.log.length > LOG_LINES) t.log.splice(0, t.log.length - LOG_LINES);
      stageSummary(t, msg, said);
    } else if (last && last.status === "waiting" && msg.status === "playing") {
      t.log.push({ seq: msg.seq, line: T("The game starts.") });
    } else if (msg.full && !t.log.length) {
      t.log.push({ seq: msg.seq, line: msg.status === "waiting" ? T("Waiting for players.") :
        T("Joined at move {seq}.", { seq: msg.seq }) });
    }
    if (!last || last.seq !== msg.seq || msg.full) {
      t.askedAt = performance.now();  // this seat was asked now (forced-choice timing)
      if (S.form && !(msg.legal || []).some((a) => JSON.stringify(a) === S.form.key)) S.form = null;
      // A new set of choices starts unfiltered.
      if (S.filter && JSON.stringify((last && last.legal) || []) !== JSON.stringify(msg.legal || [])) S.filter = "";
    }
    t.update = msg;
    if (window.lantableClock) window.lantableClock.updated(t, msg);  // clock.js
    if (msg.status === "finished" && S.fair) S.fair.forget(t.id);
    draw();
    takeForced(t);
  }

  // -- news: the end of a stage (a voyage, a round) and forced choices -------------------

  // The event types that close a stage: the game's `stage_events` (game_info), else
  // these (docs/plugins.md, "Stage summaries").
  const STAGE_EVENTS = ["voyage", "round_ended", "round_end", "game_over"];
  function stageTypes(game) {
    const info = S.games[game];
    return new Set((info && Array.isArray(info.stage_events)) ? info.stage_events : STAGE_EVENTS);
  }

  function stageSummary(t, msg, said) {
    const types = stageTypes(t.game);
    const at = msg.events.findIndex((e) => e && types.has(e.type));
    if (at < 0) return;
    // What happened in the update that closed the stage: payouts, scores, losses.
    const lines = said.map((line, i) => ({ line, i })).filter((x) => x.i >= Math.max(0, at - 12));
    const last = msg.events[at];
    S.summary = { seq: msg.seq, over: last.type === "game_over" || msg.status === "finished",
      lines: lines.map((x) => tg(t.game, x.line)) };
  }

  // "Take forced choices for me": when the only legal action is one plain choice, send
  // it FORCED_MS after the update that asked; act() holds chosen actions as long.
  function takeForced(t) {
    clearTimeout(S.forcedTimer);
    const u = t.update;
    if (!S.autoForced || !u || u.seat === null || u.seat === undefined) return;
    const legal = u.legal || [];
    if (legal.length !== 1 || F.isTemplate(legal[0]) || !u.to_act.includes(u.seat)) return;
    const seq = u.seq;
    const wait = Math.max(0, t.askedAt + FORCED_MS - performance.now());
    S.forcedTimer = setTimeout(() => {
      if (S.table === t && t.update && t.update.seq === seq && !S.busy) act(legal[0], { held: false });
    }, wait);
  }

  // -- where we are: #/ (lobby) or #/table/<id> ------------------------------------

  function route() {
    const m = location.hash.match(/^#\/table\/([^/]+)(\/watch)?$/);
    const id = m ? decodeURIComponent(m[1]) : null;
    if (S.table && S.table.spectate && S.table.id !== id && S.open) {
      request("leave", { table: S.table.id });  // stop watching; a seat is kept until left
    }
    if (!m) { S.table = null; draw(); return; }
    if (!S.table || S.table.id !== id) {
      S.table = { id, seat: null, update: null, log: [] };
      S.summary = null; S.form = null; S.filter = "";
    }
    S.table.update = null;  // a fresh full update is coming
    if (!S.open) { draw(); return; }
    const mine = storedSeats()[id];
    if (mine && !m[2]) {
      request("resume", { token: mine.token }, (joined) => {
        S.table.seat = joined.seat; S.table.spectate = false;
      }, (err) => {
        if (err.code === "bad_token") storeSeat(id, null, null);  // the seat was freed
        if (err.code !== "disconnected") watch(id);
      });
    } else {
      watch(id);
    }
    draw();
  }
  window.addEventListener("hashchange", route);

  function watch(id) {
    request("join", { table: id, spectate: true }, () => {
      if (S.table && S.table.id === id) { S.table.seat = null; S.table.spectate = true; }
    }, (err) => {
      notify(T("Cannot open table {id}: {why}", { id, why: err.message }), "error");
      location.hash = "#/";
    });
  }

  function sit(id, seat = null) {
    const summary = S.tables.find((x) => x.id === id);
    if (summary && summary.fair && summary.fair.hidden_decks && D && D.available && !D.prepared.has(summary.game)) {
      D.prepare(S.fair && S.fair.key, summary.game).then(() => sit(id, seat), (e) => {
        notify(T("The card engine could not load, so this page cannot sit at a table with hidden cards: {why}", { why: e.message }), "error");
      });
      return;
    }
    const fields = { table: id, spectate: false };
    if (seat !== null) fields.seat = seat;
    request("join", fields, (joined) => {
      storeSeat(id, joined.seat, joined.token);
      S.table = { id, seat: joined.seat, update: null, log: [] };
      S.summary = null; S.form = null; S.filter = "";
      history.replaceState(null, "", `#/table/${encodeURIComponent(id)}`);
      draw();
    });
  }

  function leave() {
    const t = S.table;
    if (!t) return;
    const waiting = t.update && t.update.status === "waiting";
    request("leave", { table: t.id }, () => {
      if (waiting) storeSeat(t.id, null, null);  // a waiting seat is freed; a started one waits
      location.hash = "#/";
    });
  }

  // -- notices -------------------------------------------------------------------

  function notify(text, kind = "info") {
    const box = $("#notice");
    box.textContent = text;
    box.dataset.kind = kind;
    box.hidden = false;
    clearTimeout(S.notice);
    S.notice = setTimeout(() => { box.hidden = true; }, kind === "error" ? 8000 : 4000);
  }
  $("#notice").addEventListener("click", () => { $("#notice").hidden = true; });

  // -- drawing -------------------------------------------------------------------

  function draw() {
    const app = $("#app");
    const focus = document.activeElement && document.activeElement.id;
    const caret = focus && document.activeElement.selectionStart;
    // The log follows the newest lines unless the person scrolled it up (kept as is).
    const oldLog = $("#log");
    const logKept = oldLog && oldLog.scrollHeight - oldLog.scrollTop - oldLog.clientHeight > 8
      ? oldLog.scrollTop : null;
    const formKept = S.form && S.form.node;
    const y = window.scrollY;
    app.replaceChildren(replayScreen() || (S.table ? tableScreen() : lobbyScreen()));
    const log = $("#log");
    if (log) log.scrollTop = logKept === null ? log.scrollHeight : logKept;
    if (formKept && S.form && S.form.node === formKept) window.scrollTo(0, y);
    if (focus && $("#" + focus) && focus !== "name") {
      const back = $("#" + focus);
      back.focus();
      if (typeof caret === "number" && back.setSelectionRange) {
        try { back.setSelectionRange(caret, caret); } catch { /* not a text field */ }
      }
    }
  }

  // #/replay/<id>: a finished game stepped through (replay.js), or null
  function replayScreen() { return window.lantableReplay ? window.lantableReplay.screen() : null; }

  function gameTitle(id) { return I18N.gameTitle(id, (S.games[id] && S.games[id].title) || id); }
  function tg(game, text) { return I18N.game(game, text); }  // a game's words, translated

  function lobbyScreen() {
    const mine = S.peer ? storedSeats() : {};
    const R = window.lantableReplay;  // finished games: their own list, below (replay.js)
    const rows = S.tables.filter((t) => !R || t.status !== "finished")
      .sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
    const list = rows.length ? el("ul", { class: "tables" }, rows.map((t) => tableRow(t, mine)))
      : el("p", { class: "muted" }, T("No tables yet. Open one below."));
    return el("section", { class: "lobby" },
      el("h1", {}, S.hostName ? T("Tables at {host}", { host: S.hostName }) : T("Tables at this peer")),
      D && D.status.state === "loading" ? el("p", { class: "engine", id: "engine", role: "status" },
        T("Loading the card engine (Python run in this page, about 14 MB the first time): {step}…", { step: T(D.status.step || "starting") })) : null,
      list, createForm(), R ? R.finishedList() : null, peerList(),
      window.lantableChat ? window.lantableChat.panel(null) : null);
  }

  function peerList() {  // the other peers this host's discovery sees on the LAN
    if (!S.peers.length) return null;
    return el("div", { class: "peers", id: "peers" }, el("h2", {}, T("Other peers on this network")),
      el("ul", { class: "tables" }, S.peers.map((p) => el("li", { class: "table", "data-peer": p.peer_id },
        el("div", { class: "what" }, el("strong", {}, p.name), " ",
          el("span", { class: `status ${p.open_tables ? "waiting" : ""}` },
            p.open_tables ? (p.open_tables === 1 ? T("1 open table") : T("{n} open tables", { n: p.open_tables }))
              : T("no open table")),
          el("div", { class: "who" }, p.games.join(", "))),
        el("div", { class: "do" }, p.url ? el("a", { class: "button", href: p.url }, T("Go there"))
          : el("span", { class: "muted" }, T("no web app")))))));
  }

  function order(t) { return { waiting: 0, playing: 1, faulted: 2, finished: 3 }[t.status] ?? 4; }

  function tableRow(t, mine) {
    const taken = t.names.filter((n) => n);
    const names = taken.length ? taken.join(", ") : T("nobody yet");
    const free = t.status === "waiting" ? t.seats - t.taken : 0;
    const buttons = [];
    if (mine[t.id]) {
      buttons.push(el("a", { class: "button primary", href: `#/table/${t.id}` }, T("Back to my seat")));
    } else if (free > 0) {
      buttons.push(el("button", { class: "primary", onclick: () => sit(t.id) }, T("Sit down")));
    }
    buttons.push(el("a", { class: "button", href: `#/table/${t.id}/watch` }, T("Watch")));
    return el("li", { class: `table ${t.status}`, "data-table": t.id },
      el("div", { class: "what" },
        el("strong", {}, gameTitle(t.game)), " ",
        t.fair ? [fairBadge(), " "] : null,
        el("span", { class: `status ${t.status}` }, t.status === "waiting"
          ? (free === 1 ? T("1 seat free") : T("{n} seats free", { n: free })) : T(t.status)),
        el("div", { class: "who" }, names)),
      el("div", { class: "do" }, buttons));
  }

  let formCache = null;  // kept across redraws so a lobby push never wipes what you typed
  function createForm() {
    const games = Object.values(S.games).sort((a, b) => a.title.localeCompare(b.title));
    if (!games.length) return el("p", { class: "muted" }, T("Loading the games…"));
    const key = games.map((g) => g.id).join(",") + I18N.lang();
    if (formCache && formCache.key === key) return formCache.form;
    const form = el("form", { class: "create", id: "create" });
    formCache = { key, form };
    const select = el("select", { name: "game", id: "create-game" },
      games.map((g) => el("option", { value: g.id }, gameTitle(g.id))));
    select.value = games[0].id;
    const fields = el("div", { class: "fields" });
    const fill = () => {
      const g = S.games[select.value];
      const options = Object.entries(g.options).map(([key, spec]) => optionField(key, spec));
      fields.replaceChildren(
        el("label", {}, T("Seats"), " ", el("input", { type: "number", name: "seats", min: g.min_seats,
          max: g.max_seats, value: Math.min(Math.max(g.min_seats, 2), g.max_seats), required: true })),
        options.length ? el("details", { class: "options" },
          el("summary", {}, T("Options ({n}; the defaults are the rulebook's)", { n: options.length })),
          el("div", { class: "option-list" }, options)) : "");
    };
    select.addEventListener("change", fill);
    fill();
    const fair = el("label", { class: "fair-option" },
      el("input", { type: "checkbox", name: "fair", id: "create-fair" }), " ", T("Fair play"),
      el("small", {}, T(FAIR_MEANS)));
    // Hidden cards (a fair table whose seats deal): only where this peer serves the
    // card engine, which the page loads before it opens the table (decks.js).
    const hidden = D && D.available ? el("label", { class: "fair-option" },
      el("input", { type: "checkbox", name: "hidden", id: "create-hidden" }), " ", T("Hidden cards"),
      el("small", {}, T("The seats deal the cards themselves, so no one, the host included, sees another's hand; fair play too. For games that deal hidden cards (some need their own option too). This page first loads the card engine."))) : null;
    if (hidden) {  // hidden cards are dealt at fair tables only: the boxes agree
      const [hiddenBox, fairBox] = [hidden.querySelector("input"), fair.querySelector("input")];
      hiddenBox.addEventListener("change", () => { if (hiddenBox.checked) fairBox.checked = true; });
      fairBox.addEventListener("change", () => { if (!fairBox.checked) hiddenBox.checked = false; });
    }
    const clock = window.lantableClock ? window.lantableClock.createFields() : null;  // clock.js
    form.append(...[el("h2", {}, T("Open a table")), el("label", {}, T("Game"), " ", select), fields, fair, hidden, clock,
      window.lantableUndo ? window.lantableUndo.createField() : null,  // undo.js
      el("button", { class: "primary", type: "submit" }, T("Open and sit down"))].filter((x) => x));  // DOM append writes null as "null"
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const g = S.games[select.value];
      const options = {};
      for (const [key, spec] of Object.entries(g.options)) {
        const input = form.querySelector(`[name="opt-${key}"]`);
        options[key] = readOption(input, spec);
      }
      const seats = parseInt(form.querySelector('[name="seats"]').value, 10);
      const hiddenBox = form.querySelector('[name="hidden"]');
      const wantsHidden = Boolean(hiddenBox && hiddenBox.checked);
      const extra = wantsHidden ? { fair: { hidden_decks: true } }
        : form.querySelector('[name="fair"]').checked ? { fair: {} } : {};
      if (window.lantableClock) Object.assign(extra, window.lantableClock.read(form));
      if (window.lantableUndo) Object.assign(extra, window.lantableUndo.createFields(form));
      const create = () => request("create", { game: g.id, seats, options, ...extra },
        (created) => sit(created.table),
        (err) => notify(T("Cannot open the table: {why}", { why: err.message }), "error"));
      if (!wantsHidden) { create(); return; }
      D.prepare(S.fair && S.fair.key, g.id).then(create, (e) => notify(
        T("The card engine could not load, so this page cannot sit at a table with hidden cards: {why}", { why: e.message }), "error"));
    });
    return form;
  }

  function optionField(key, spec) {
    const label = key.replace(/_/g, " ");
    let input;
    if (spec.choices) {
      input = el("select", { name: `opt-${key}` },
        spec.choices.map((c, i) => el("option", { value: i, selected: c === spec.default }, String(c))));
    } else if (typeof spec.default === "boolean") {
      input = el("input", { type: "checkbox", name: `opt-${key}`, checked: spec.default });
    } else if (typeof spec.default === "number") {
      input = el("input", { type: "number", name: `opt-${key}`, value: spec.default,
        step: Number.isInteger(spec.default) ? 1 : "any" });
    } else {
      input = el("input", { type: "text", name: `opt-${key}`, value: spec.default ?? "" });
    }
    return el("label", { class: "option", title: spec.help || "" }, label, " ", input,
      spec.help ? el("small", {}, spec.help) : null);
  }

  function readOption(input, spec) {
    if (spec.choices) return spec.choices[parseInt(input.value, 10)];
    if (typeof spec.default === "boolean") return input.checked;
    if (typeof spec.default === "number") {
      const n = Number(input.value);
      return Number.isInteger(spec.default) ? Math.trunc(n) : n;
    }
    return input.value;
  }

  // -- the table -----------------------------------------------------------------

  function names(u) { return u.seats.map((s, i) => s.name || T("seat {n}", { n: i })); }

  const FAIR_MEANS = "Every seat helps roll the dice and shuffle, so no one, the host included, can choose or foresee them; the table's journal can be checked afterwards.";

  // The fair-play badge: on the lobby row, the waiting screen and the table to the end;
  // tapping it says what it means in one sentence.
  function fairBadge() {
    return el("details", { class: "badge-fair" }, el("summary", { class: "badge" }, T("fair play")),
      el("span", { class: "badge-means" }, T(FAIR_MEANS)));
  }

  function tableScreen() {
    const t = S.table;
    const u = t.update;
    const summary = S.tables.find((x) => x.id === t.id);
    if (summary) t.game = summary.game;  // a finished table leaves the lobby: keep its board
    if (summary && summary.fair) t.fair = true;
    const game = t.game || null;
    const head = el("div", { class: "table-head" },
      el("a", { class: "button", href: "#/" }, T("← Tables")),
      el("h1", {}, game ? gameTitle(game) : T("Table {id}", { id: t.id })),
      t.fair ? fairBadge() : null,
      t.seat !== null && t.seat !== undefined && u && u.status !== "finished"
        ? el("button", { onclick: leave }, T("Leave")) : null);
    if (!u) return el("section", { class: "table-screen" }, head,
      el("p", { class: "muted" }, S.open ? T("Loading the table…") : T("Waiting for the host…")));
    const offline = S.open ? null : el("p", { class: "offline", id: "offline" },
      T("Connection lost: reconnecting. Your seat is kept; the board shows the last thing the host said."));
    return el("section", { class: `table-screen ${u.status}`, "data-status": u.status }, head,
      offline, players(u), window.lantableSeats ? window.lantableSeats.panel(t, u) : null,
      turnLine(u), window.lantableClock ? window.lantableClock.panel(t, u) : null,
      window.lantableAlerts ? window.lantableAlerts.line(u) : null,
      latestLine(t), waitingHelp(u, summary), finalScreen(u),
      window.lantableRematch ? window.lantableRematch.panel(t, u) : null,
      window.lantableUndo ? window.lantableUndo.panel(t, u) : null,
      stagePanel(t), board(u, game), actions(u), engineLine(t, summary), fairLine(t, summary),
      window.lantableChat ? window.lantableChat.panel(t, u) : null, eventLog(t), rawView(u));
  }

  function players(u) {
    const n = names(u);
    return el("ol", { class: "players" }, u.seats.map((s, i) => el("li", {
      class: [u.to_act.includes(i) ? "to-act" : "", i === u.seat ? "me" : "",
              s.connected ? "" : "away"].join(" ").trim(),
    }, n[i], i === u.seat ? ` ${T("(you)")}` : "", !s.taken ? ` ${T("(free)")}` : !s.connected ? ` ${T("(away)")}` : "")));
  }

  function waitingHelp(u, summary) {
    if (u.status !== "waiting") return null;
    const options = summary ? Object.entries(summary.options) : [];
    return el("div", { class: "invite" },
      el("p", {}, T("Others on this network open"), " ", el("strong", {}, location.origin + "/"), " ",
        T("and tap “Sit down” at this table. The game starts when every seat is taken.")),
      options.length ? el("p", { class: "muted" }, T("Options:"), " ",
        options.map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ")) : null);
  }

  function turnLine(u) {
    const n = names(u);
    let text;
    if (u.status === "waiting") {
      const free = u.seats.filter((s) => !s.taken).length;
      text = free === 1 ? T("Waiting for 1 more player.") : T("Waiting for {n} more players.", { n: free });
    } else if (u.status === "finished") {
      text = T("Game over.");
    } else if (u.status === "faulted") {
      text = T("The game hit a bug; the host is restoring the table.");
    } else if (u.pause && u.pause.paused) {  // clock.js
      text = T("Paused: the game goes on when every player agrees.");
    } else if (u.seat !== null && u.to_act.includes(u.seat)) {
      text = T("Your move.");
    } else {
      text = T("Waiting for {who}.", { who: u.to_act.map((s) => n[s]).join(", ") });
    }
    return el("p", { class: "turn", id: "turn" }, text);
  }

  // What a game's renderer is given (docs/plugins.md, "A board in the browser").
  function rendererCtx(u, game) {
    return {
      game, seat: u.seat, names: names(u), legal: u.legal || [],
      labels: (u.labels || []).map((l) => tg(game, l)),
      act: (action) => act(action), query: (q) => query(q), busy: S.busy || !S.open,
      svg: window.lantable.svg, el, t: T, lang: I18N.lang(),
    };
  }

  // A game query for the table on screen: resolves to the game's answer, rejects with
  // {code, message} (bad_query, not_connected...). Pure: nothing changes at the table.
  function query(q) {
    const t = S.table;
    return new Promise((resolve, reject) => {
      if (!t) { reject({ code: "no_table", message: T("no table is on screen") }); return; }
      const fields = { table: t.id, query: q };
      if (t.seat !== null && t.seat !== undefined) fields.seat = t.seat;
      const sent = request("query", fields, (msg) => resolve(msg.answer), (err) => reject(err));
      if (sent === null) reject({ code: "disconnected", message: T("not connected") });
    });
  }

  // The board: the game's renderer, else its text board (board_text), laid out. Both
  // sit in [data-board]; the raw view is only behind the debug toggle (rawView).
  function board(u, game) {
    const holder = el("div", { class: "board", id: "board" });
    if (!u.view) return holder;
    const ctx = rendererCtx(u, game);
    if (game && withRenderer.has(game) && !renderers[game]) loadRenderer(game);
    const r = game && renderers[game];
    if (game) holder.setAttribute("data-board", game);
    if (r) {
      try { r.render(holder, u, ctx); return holder; } catch (e) {
        console.error("renderer failed", e);
        holder.replaceChildren(el("p", { class: "muted" },
          T("The game's board could not be drawn for this move; the choices below still work.")));
        return holder;
      }
    }
    if (u.board_text) {
      holder.append(F.textBoard(translateBlocks(game, u.board_text), { el, svg: window.lantable.svg, t: T }));
    } else if (game && withRenderer.has(game)) {
      holder.append(el("p", { class: "muted" }, T("Loading the board…")));
    } else {
      holder.append(el("p", { class: "muted" }, T("This game sends no board to the browser; open debug below to see its data.")));
    }
    return holder;
  }

  function translateBlocks(game, blocks) {  // a game's translations reach its text board too
    if (!I18N.hasGame(game)) return blocks;
    const one = (b) => {
      if (!b || typeof b !== "object") return b;
      const out = Object.assign({}, b);
      for (const k of ["text", "title", "caption"]) if (typeof out[k] === "string") out[k] = tg(game, out[k]);
      if (Array.isArray(out.columns)) out.columns = out.columns.map((c) => tg(game, c));
      if (Array.isArray(out.rows)) out.rows = out.rows.map((r) => r.map((c) => tg(game, c)));
      if (Array.isArray(out.blocks)) out.blocks = out.blocks.map(one);
      return out;
    };
    return blocks.map(one);
  }

  // Tap to read: anything on the board drawn with a `data-full` text, or an SVG <title>,
  // shows that text whole (a card name cut to fit a phone).
  document.addEventListener("click", (ev) => {
    const target = ev.target instanceof Element ? ev.target : null;
    const holder = target && target.closest("[data-board]");
    if (!holder) return;
    const full = target.closest("[data-full]");
    let text = full ? full.getAttribute("data-full") : null;
    if (!text) {
      const withTitle = target.closest("svg *:not(svg)");
      const title = withTitle && [...withTitle.children].find((c) => c.tagName.toLowerCase() === "title");
      text = title ? title.textContent : null;
    }
    if (text) notify(text, "info");
  });

  const loading = new Set();
  function loadRenderer(game) {
    if (loading.has(game)) return;
    loading.add(game);
    document.head.append(el("script", { src: `/games/${encodeURIComponent(game)}/board.js` }));
  }

  // The raw view, for people debugging a game: hidden until "debug" is tapped.
  function rawView(u) {
    if (!u.view) return null;
    const toggle = el("button", { class: "debug-toggle", id: "debug-toggle", type: "button",
      "aria-expanded": S.debug ? "true" : "false",
      onclick: () => { S.debug = !S.debug; draw(); } }, S.debug ? T("hide debug") : T("debug"));
    const raw = el("div", { class: "raw-view", hidden: !S.debug });
    if (S.debug) raw.append(genericView(u.view));
    return el("div", { class: "debug" }, toggle, raw);
  }

  function genericView(view) {  // scalars in one panel, each structure in its own
    const box = el("div", { class: "generic" });
    const flat = Object.entries(view).filter(([, v]) => v === null || typeof v !== "object");
    if (flat.length) {
      box.append(el("div", { class: "panel" }, el("h3", {}, "table"),
        el("dl", {}, flat.map(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, value2dom(v, 1))]))));
    }
    for (const [key, value] of Object.entries(view)) {
      if (value === null || typeof value !== "object") continue;
      const size = Array.isArray(value) ? value.length : Object.keys(value).length;
      const fold = el("details", { class: "panel", open: openPanels.has(key), "data-key": key },
        el("summary", {}, el("h3", {}, `${key.replace(/_/g, " ")} (${size})`)), value2dom(value, 0));
      fold.addEventListener("toggle", () => {
        if (fold.open) openPanels.add(key); else openPanels.delete(key);
      });
      box.append(fold);
    }
    return box;
  }
  const openPanels = new Set();

  function value2dom(v, depth) {
    if (v === null || typeof v !== "object") return el("span", { class: "v" }, v === null ? "—" : String(v));
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== "object")) {
        return el("span", { class: "v" }, v.length ? v.map((x) => (x === null ? "—" : String(x))).join(", ") : "none");
      }
      if (depth > 2) return el("span", { class: "v" }, JSON.stringify(v));
      return el("ol", { start: 0 }, v.map((x) => el("li", {}, value2dom(x, depth + 1))));
    }
    if (depth > 2) return el("span", { class: "v" }, JSON.stringify(v));
    return el("dl", {}, Object.entries(v).map(([k, x]) => [el("dt", {}, k.replace(/_/g, " ")),
      el("dd", {}, value2dom(x, depth + 1))]));
  }

  // -- choices -------------------------------------------------------------------

  function actions(u) {
    if (!u.legal || !u.legal.length) return null;
    if (S.table && S.table.answered !== undefined && u.seq <= S.table.answered) return null;
    const game = S.table && S.table.game;
    const labels = (u.labels || []).map((l) => tg(game, l));
    // A game's renderer may take some choices into its own picker (Manila's load step,
    // Spanish Main's sailing by hand); the rest stay in the generic list.
    const r = game && renderers[game];
    let picked = null;
    if (r && r.picker) {
      try { picked = r.picker(u, rendererCtx(u, game)); } catch (e) {
        console.error("picker failed", e);
        picked = null;
      }
    }
    const handled = new Set((picked && picked.handled) || []);
    const all = u.legal.map((a, i) => ({ a, i, label: labels[i] || describeGeneric(a) }));
    const shown = all.filter((x) => !handled.has(x.i));
    // What the board's picker took stays reachable as plain choices, folded away (a
    // template through its form: exact numbers, a keyboard, a screen reader): every
    // action by clicking, two ways.
    const typed = all.filter((x) => handled.has(x.i));
    const form = S.form && S.form.node;
    const fold = typed.length ? el("details", { class: "typed-choices", id: "typed-choices",
      open: Boolean(form) || S.typedOpen },
    el("summary", {}, typed.every((x) => F.isTemplate(x.a)) ? T("Or type it in")
      : T("Or pick from the full list")),
    el("div", { class: "choices" }, typed.map(choiceButton)))
      : null;
    if (fold) fold.addEventListener("toggle", () => { S.typedOpen = fold.open; });
    return el("div", { class: "actions", id: "actions" },
      el("h2", {}, T("Your choices")),
      picked && picked.node ? el("div", { class: "picker" }, picked.node) : null,
      fold,
      form || null,
      shown.length > GROUP_OVER ? groupedChoices(shown, game) : el("div", { class: "choices" }, shown.map(choiceButton)),
      forcedBox());
  }

  function describeGeneric(a) {
    const rest = Object.entries(a).filter(([k]) => k !== "type" && k !== "params")
      .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${String(a.type).replace(/_/g, " ")}${rest.length ? ` (${rest.join(", ")})` : ""}`;
  }

  function choiceButton(x) {
    const template = F.isTemplate(x.a);
    const open = template && S.form && S.form.key === JSON.stringify(x.a);
    return el("button", {
      class: `choice${template ? " template" : ""}${open ? " open" : ""}`, disabled: S.busy || !S.open,
      "data-index": x.i, "data-type": x.a.type, title: x.label,
      onclick: () => (template ? openForm(x.a, x.label) : act(x.a)),
    }, x.label, template ? el("span", { class: "opens" }, " ", T("(opens a form)")) : null);
  }

  // Over GROUP_OVER choices: one group per kind (the game's `action_groups` name for an
  // action type, else the type in words), in the order the game lists them, with a
  // filter box. The buttons stay siblings in one list (tools and tests index them);
  // each group's first button carries its heading (data-group-first, drawn by CSS).
  function groupedChoices(shown, game) {
    const info = S.games[game] || {};
    const naming = info.action_groups || {};
    const groups = new Map();
    for (const x of shown) {
      const name = tg(game, naming[x.a.type] || String(x.a.type).replace(/_/g, " "));
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(x);
    }
    const words = S.filter.toLowerCase().split(/\s+/).filter(Boolean);
    const match = (x) => words.every((w) => x.label.toLowerCase().includes(w));
    const filter = el("input", { type: "search", id: "choice-filter", class: "choice-filter",
      placeholder: T("Filter the {n} choices…", { n: shown.length }), value: S.filter,
      "aria-label": T("Filter the choices"), autocomplete: "off" });
    filter.addEventListener("input", () => { S.filter = filter.value; draw(); });
    const list = el("div", { class: "choices grouped-list" });
    let any = false;
    for (const [name, xs] of groups) {
      const hits = xs.filter(match);
      xs.forEach((x) => {
        const button = choiceButton(x);
        button.dataset.group = name;
        if (x === hits[0]) button.dataset.groupFirst = `${name} (${hits.length})`;
        if (!hits.includes(x)) button.hidden = true;
        list.append(button);
      });
      any = any || hits.length > 0;
    }
    const none = any ? null : el("p", { class: "muted" }, T("No choice matches the filter."));
    return el("div", { class: "grouped" }, filter, none, list);
  }

  function openForm(template, label) {
    const key = JSON.stringify(template);
    if (S.form && S.form.key === key) { S.form = null; draw(); return; }
    const game = S.table && S.table.game;
    const info = S.games[game] || {};
    const r = game && renderers[game];
    const queryType = (r && r.templateQuery && r.templateQuery(template))
      || (info.template_queries || {})[template.type] || null;
    const node = F.templateForm(template, {
      label, queryType, query,
      describe: r && r.describeAnswer ? (q, a) => r.describeAnswer(q, a, rendererCtx(S.table.update, game)) : null,
      send: (action, refused) => act(action, { refused }),
      cancel: () => { S.form = null; draw(); },
    }, { el, svg: window.lantable.svg, t: T });
    S.form = { key, node };
    draw();
    node.scrollIntoView({ block: "nearest" });
  }

  function forcedBox() {
    const box = el("input", { type: "checkbox", id: "take-forced", checked: S.autoForced });
    box.addEventListener("change", () => {
      S.autoForced = box.checked;
      localStorage.setItem("lantable.forced", box.checked ? "1" : "0");
      if (S.table) takeForced(S.table);
    });
    return el("label", { class: "forced", title: T("Every move then waits the same short time, so no one can tell a forced one from a chosen one.") },
      box, " ", T("Take forced choices for me"));
  }

  // Send an action for the seat on screen. `opts.refused(err)` takes a refusal (the
  // template form shows it in place); with forced choices ticked, every action leaves
  // FORCED_MS after the update that asked, whether or not there was a choice.
  async function act(action, opts = {}) {
    const t = S.table;
    if (S.busy || !S.open || !t || !t.update) return;
    S.busy = true;
    clearTimeout(S.forcedTimer);
    draw();
    if (S.autoForced && t.askedAt !== undefined) {
      const wait = t.askedAt + FORCED_MS - performance.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      if (S.table !== t || !S.open) { S.busy = false; draw(); return; }
    }
    const fields = { table: t.id, seat: t.seat, action };
    if (S.fair && t.seat !== null && t.seat !== undefined) {  // a fair table: sign it
      const signed = await S.fair.signAction(t.id, t.seat, t.update.seq, action);
      if (signed) Object.assign(fields, signed);
      else if (t.fair) {  // the host would refuse it unsigned: say why instead
        S.busy = false;
        notify(T("This browser does not hold this seat's fair-play secret (the seat was taken in another browser, or this one's storage was cleared), so it cannot sign moves here. Play this seat from the browser that sat down."), "error");
        draw();
        return;
      }
    }
    const sent = request("act", fields, () => {
      S.busy = false;  // accepted; its update follows at once
      // At a hidden-deck table it may follow a deal: no choices until it comes.
      if (D && D.tables.has(t.id) && t.update) t.answered = t.update.seq;
      if (opts.refused) S.form = null;
    }, (err) => {
      S.busy = false;
      if (err.code !== "disconnected") {
        if (opts.refused && S.form) opts.refused(err);
        else notify(T("Refused ({code}): {why}", { code: err.code, why: err.message }), "error");
      }
      draw();
    });
    if (sent === null) { S.busy = false; draw(); }  // the link dropped while signing
  }

  // -- hidden decks (decks.js runs the card engine) ---------------------------------

  // The engine answers one message after another, in arrival order (a deal's keys
  // before the update that follows them).
  function deckLater(job) {
    S.deckQueue = S.deckQueue.then(job).catch((e) => console.error("hidden decks:", e));
  }

  async function deckAnswer(req, raw) {
    if (!D || !D.available || !S.fair || !S.fair.id) return;
    try {
      await D.load(S.fair.key);
      const [t, fields] = await D.answer(raw, (bytes) => S.fair.id.sign(bytes));
      request(t, fields, null, (err) => {
        if (err.code !== "disconnected") notify(T("Hidden cards: the {what} was refused: {why}", { what: t, why: err.message }), "error");
      });
    } catch (e) {
      console.error("hidden decks: cannot answer", req.kind, e);
      notify(T("Hidden cards: this page cannot do its part of the deal ({why}); the table will name this seat.", { why: e.message }), "error");
    }
    if (S.table && S.table.id === req.table) draw();
  }

  async function deckKeys(msg, raw) {
    if (!D || D.status.state !== "ready") return;
    for (const line of await D.keys(raw)) notify(line, "error");
  }

  async function deckUpdate(msg, raw) {
    if (D.status.state === "ready" && msg.seat !== null && msg.seat !== undefined && msg.view) {
      const mine = await D.update(raw);
      if (mine.hand) msg.view = Object.assign({}, msg.view, { _hand: mine.hand });
      if (mine.legal) { msg.legal = mine.legal; msg.labels = mine.labels; }
      if (mine.board_text) msg.board_text = mine.board_text;
      if (mine.problem) notify(mine.problem, "error");
    }
    updated(msg);
  }

  // What the card engine is doing, and whom the person trusts with their hand.
  function engineLine(t, summary) {
    const hidden = (summary && summary.fair && summary.fair.hidden_decks) || (D && D.tables.has(t.id));
    if (!hidden) return null;
    let text;
    let kind = "";
    if (!D || !D.available) {
      text = T("Hidden cards: this table deals cards no one else sees, the host included. This peer serves no card engine, so a browser can only watch here.");
    } else if (D.status.state === "loading") {
      text = T("Loading the card engine (Python run in this page, about 14 MB the first time): {step}…", { step: T(D.status.step || "starting") });
    } else if (D.status.state === "failed") {
      text = T("The card engine failed to load: {why}", { why: D.status.error });
      kind = "bad";
    } else if (t.seat === null || t.seat === undefined) {
      text = T("Hidden cards: every seat deals its own cards; the host never sees a hand.");
    } else {
      text = T("Hidden cards: this page deals your cards itself, with the card engine (the game's own Python, running in this browser); the host never receives your hand. Its code comes from the host that served this page, as for fair play: play from your own laptop (lantable play) if you do not trust that host. Keep this page open to the end: your deck secrets live only in it.");
    }
    return el("p", { class: `engine ${kind}`.trim(), id: "engine", role: "status" }, text);
  }

  // -- fair play (fairplay.js does the crypto) -------------------------------------

  // Answers and checks take a few awaits each; one queue keeps them in arrival order
  // (a seat's links must be checked event after event).
  function fairLater(job) {
    S.fairQueue = S.fairQueue.then(job).catch((e) => console.error("fair play:", e));
  }

  async function fairAnswer(req) {
    if (!S.fair || !S.fair.key) {
      notify(T("This browser cannot sign, so it cannot play at a fair table (it can watch)."), "error");
      return;
    }
    const answer = await S.fair.answer(req);
    if (!answer) {
      notify(T("The table asked this page for a {kind} it cannot give (seat {seat}); the seat's secret is kept in the browser that sat down.",
        { kind: req.kind, seat: req.seat }), "error");
      return;
    }
    const [t, fields] = answer;
    request(t, fields, null, (err) => {
      if (err.code !== "disconnected") notify(T("Fair play: the {what} was refused: {why}", { what: t, why: err.message }), "error");
    });
  }

  async function fairCheck(ev) {
    if (!S.fair || !S.fair.id) return;
    const found = await S.fair.check(ev);
    if (found.length) notify(T("The host sent a random event that does not check: {what}", { what: found[0] }), "error");
    if (S.table && S.table.id === ev.table) draw();
  }

  function fairFault(msg) {
    const t = S.table;
    const line = msg.message.charAt(0).toUpperCase() + msg.message.slice(1);
    if (t && t.id === msg.table) {
      t.log.push({ seq: t.update ? t.update.seq : 0, line });
      draw();
    }
    notify(line, msg.reason === "late" ? "info" : "error");
  }

  function fairLine(t, summary) {  // what fair play means here, and what this page checked
    if (summary && summary.fair) t.fair = true;  // a finished table may leave the lobby list
    if (!t.fair && !(S.fair && S.fair.events.has(t.id))) return null;
    const checked = S.fair && S.fair.summary(t.id);
    const bad = checked && S.fair.problems.has(t.id);
    const over = t.update && t.update.status === "finished";
    const text = checked || (over ? T("Fair play: no random event was settled at this table.")
      : S.fair && S.fair.key
      ? T("Fair play: every die and shuffle comes from all the seats' secrets; this page checks each random event when the host sends it.")
      : T("Fair play: this browser cannot sign, so it can watch this table but not sit."));
    return el("p", { class: `fair ${bad ? "bad" : ""}`.trim(), id: "fair" }, text);
  }

  // The end of a stage (a voyage, a round): what was paid, scored and lost, until the
  // person closes it or the next stage ends.
  function stagePanel(t) {
    const s = S.summary;
    if (!s || !t.update || t.update.status === "finished" || s.closed) return null;
    return el("section", { class: "summary", id: "summary", role: "status", "data-seq": s.seq },
      el("h2", {}, T("Results of the round")),
      el("ul", {}, s.lines.map((line) => el("li", {}, line))),
      el("button", { class: "primary", type: "button", onclick: () => { s.closed = true; draw(); } },
        T("Continue")));
  }

  // The final screen: who won, the table of places, and the game's own score detail.
  function finalScreen(u) {
    if (u.status !== "finished" || !u.scores) return null;
    const n = names(u);
    const rows = n.map((name, i) => ({ name, i, score: u.scores.scores[i], rank: u.scores.rank[i] }))
      .sort((a, b) => a.rank - b.rank);
    const forfeit = new Set(u.scores.forfeit || []);  // fair play: seats that withheld
    const first = rows.filter((r) => r.rank === 1);
    let verdict;
    if (!first.length) verdict = T("No one won.");
    else if (first.length === 1 && first[0].i === u.seat) verdict = T("You win!");
    else if (first.length === 1) verdict = T("{who} wins.", { who: first[0].name });
    else verdict = T("{who} share the win.", { who: first.map((r) => r.name).join(T(" and ")) });
    const game = S.table && S.table.game;
    const detail = u.scores.detail;
    return el("section", { class: "final", id: "final" },
      el("p", { class: "verdict", id: "verdict" }, verdict),
      el("div", { class: "scores", id: "scores" }, el("h2", {}, T("Final scores")),
        el("div", { class: "scroll-x" }, el("table", {},
          el("tr", {}, el("th", {}, T("Place")), el("th", {}, T("Player")), el("th", {}, T("Score"))),
          rows.map((r) => el("tr", { class: r.i === u.seat ? "me" : "" },
            el("td", {}, r.rank), el("td", {}, r.name, forfeit.has(r.i) ? ` ${T("(forfeit)")}` : ""),
            el("td", {}, r.score)))))),
      detail !== undefined && detail !== null && !(typeof detail === "object" && !Object.keys(detail).length)
        ? el("details", { class: "score-detail", open: true }, el("summary", {}, T("How the scores were made")),
          detailNode(detail, n, game)) : null);
  }

  // A game's score detail (any plain data): lists per seat become a table, the rest
  // key/value lines.
  function detailNode(detail, n, game) {
    const words = (k) => tg(game, String(k).replace(/_/g, " "));
    const plain = (v) => (v === null ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v));
    if (detail === null || typeof detail !== "object") return el("p", {}, plain(detail));
    if (Array.isArray(detail)) return el("p", {}, detail.map(plain).join(", "));
    const perSeat = Object.entries(detail).filter(([, v]) => Array.isArray(v) && v.length === n.length);
    const rest = Object.entries(detail).filter(([, v]) => !(Array.isArray(v) && v.length === n.length));
    return el("div", {},
      perSeat.length ? el("div", { class: "scroll-x" }, el("table", { class: "detail" },
        el("tr", {}, el("th", {}, ""), n.map((name) => el("th", {}, name))),
        perSeat.map(([k, v]) => el("tr", {}, el("th", { scope: "row" }, words(k)), v.map((x) => el("td", {}, plain(x))))))) : null,
      rest.length ? el("dl", { class: "detail" }, rest.map(([k, v]) => [el("dt", {}, words(k)),
        el("dd", {}, v && typeof v === "object" && !Array.isArray(v)
          ? Object.entries(v).map(([a, b]) => `${words(a)}: ${plain(b)}`).join("; ") : plain(v))])) : null);
  }

  function eventLog(t) {
    if (!t.log.length) return null;
    const game = t.game;
    const list = el("ol", { class: "log", id: "log" },
      t.log.slice(-LOG_SHOWN).map((e) => el("li", { "data-seq": e.seq }, tg(game, e.line))));
    return el("section", { class: "history" }, el("h2", {}, T("What happened")), list);
  }

  // The newest sentence, up by the turn line: the news is in sight on a phone too.
  function latestLine(t) {
    if (!t.log.length || !t.update || t.update.status === "waiting") return null;
    return el("p", { class: "latest", id: "latest", "aria-live": "polite" }, tg(t.game, t.log[t.log.length - 1].line));
  }
  const LOG_SHOWN = 80;

  // -- start ---------------------------------------------------------------------

  const nameInput = $("#name");
  nameInput.value = myName();
  nameInput.addEventListener("change", () => {
    const v = nameInput.value.trim().slice(0, 24);
    if (v) localStorage.setItem("lantable.name", v);
    nameInput.value = myName();
    if (v && window.lantableSeats) window.lantableSeats.rename(v);  // at once (seats.js)
  });
  // The page's language: the browser's, until the person picks one here.
  const langSelect = $("#lang");
  function wordsOfPage() {
    $("#me-label").textContent = T("you are");
    langSelect.value = I18N.lang();
    document.documentElement.lang = I18N.lang();
    if (!S.open) setLink($("#link").dataset.state, T($("#link").dataset.state === "online" ? "online" : "connecting…"));
    else setLink("online", T("online"));
    if (S.hostName) $("#peer").textContent = T("at {host}", { host: S.hostName });
  }
  langSelect.addEventListener("change", () => {
    I18N.setLang(langSelect.value);
    formCache = null;
    if (S.form) S.form = null;  // rebuilt in the new words when opened again
    wordsOfPage();
    draw();
  });
  wordsOfPage();
  if (D) D.onChange = () => draw();
  // The first connect waits for the scripts after this one (index.html: chat.js,
  // alerts.js, rematch.js), which hear the connection's messages from its welcome on:
  // deferred scripts run one by one as they arrive, and DOMContentLoaded comes after
  // the last (this file is deferred, so it has not come yet).
  const scriptsRan = new Promise((resolve) => {
    document.addEventListener("DOMContentLoaded", resolve, { once: true });
  });
  const fairReady = window.lantableFair.start().then((fair) => { S.fair = fair; }, (e) => {
    console.error("fair play unavailable", e);
  });  // the key goes in hello, so it comes first
  Promise.all([fairReady, scriptsRan]).then(() => {
    S.started = true;
    connect();
  });
})();
