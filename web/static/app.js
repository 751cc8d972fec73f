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
  };
  const renderers = {};
  const wanted = ($('meta[name="lantable-renderers"]') || {}).content || "";
  const withRenderer = new Set(wanted.split(",").filter((x) => x && !x.startsWith("{{")));

  window.lantable = {
    registerRenderer(gameId, renderer) { renderers[gameId] = renderer; if (S.table) draw(); },
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
    // The page's own connection and state, for seats.js (bots, names).
    page: { state: () => S, request, draw, notify, storedSeats },
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
    setLink(S.attempt ? "reconnecting" : "connecting", S.attempt ? "reconnecting…" : "connecting…");
    const key = S.fair && S.fair.key;  // no key: fair tables can be watched, not played
    ws.onopen = () => ws.send(encode({ t: "hello", proto: PROTO, name: myName(), words: true,
                                       lobby: true, id: 0, ...(key ? { key } : {}) }));
    ws.onmessage = (ev) => {
      let msg;
      try { msg = decode(new Uint8Array(ev.data)); } catch (e) { console.error(e); return; }
      receive(msg);
    };
    ws.onclose = () => lost(ws);
  }

  function lost(ws) {  // the connection is gone (closed, or found dead): reconnect
    if (S.ws !== ws) return;
    S.ws = null;
    S.open = false;
    S.busy = false;
    for (const p of S.pending.values()) if (p.onErr) p.onErr({ code: "disconnected", message: "connection lost" });
    S.pending.clear();
    scheduleReconnect();
    draw();
  }

  function scheduleReconnect() {
    const delay = BACKOFF[Math.min(S.attempt, BACKOFF.length - 1)];
    S.attempt += 1;
    setLink("reconnecting", `reconnecting… (try ${S.attempt})`);
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
    if (!S.open) { notify("Not connected yet; try again in a moment.", "error"); return null; }
    const id = S.nextId++;
    S.pending.set(id, { t, table: fields.table, onOk, onErr });
    S.ws.send(encode({ t, id, ...fields }));
    return id;
  }

  // -- messages in ---------------------------------------------------------------

  function receive(msg) {
    const pending = msg.id !== undefined && msg.id !== null && msg.t !== "update"
      ? S.pending.get(msg.id) : null;
    if (pending) S.pending.delete(msg.id);
    switch (msg.t) {
      case "welcome": return welcomed(msg);
      case "lobby":
        S.tables = msg.tables;
        S.peers = msg.peers || [];
        return draw();
      case "tables": S.tables = msg.tables; return draw();
      case "games":
        for (const g of msg.games) S.games[g.id] = g;
        return draw();
      case "update": return updated(msg);
      case "error": return failed(msg, pending);
      case "fair_request": return fairLater(() => fairAnswer(msg));
      case "fair_event": return fairLater(() => fairCheck(msg));
      case "fair_fault": return fairFault(msg);
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
    $("#peer").textContent = `at ${msg.name}`;
    document.title = `lantable at ${msg.name}`;
    setLink("online", "online");
    request("list_games");
    route();
  }

  function failed(msg, pending) {
    if (pending && pending.onErr) pending.onErr(msg);
    if (pending && pending.t === "act") S.busy = false;
    if (!pending && msg.code === "bad_token" && S.table && msg.table === S.table.id) {
      notify("This seat was taken over by another device or tab; you are watching now. "
        + "Reload to take it back.", "error");
      S.table.seat = null;
      S.table.update = null;
      watch(S.table.id);
      draw();
      return;
    }
    if (!pending) {  // answers no request: the host tells us something (e.g. it stops)
      notify(msg.code === "shutting_down"
        ? "The host is stopping; this page reconnects when it is back." : msg.message, "error");
    } else if (!pending.onErr) {
      notify(`Refused (${msg.code}): ${msg.message}`, "error");
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
    } else if (msg.full && !t.log.length) {
      t.log.push({ seq: msg.seq, line: msg.status === "waiting" ? "Waiting for players." :
        `Joined at move ${msg.seq}.` });
    }
    t.update = msg;
    if (msg.status === "finished" && S.fair) S.fair.forget(t.id);
    draw();
  }

  // -- where we are: #/ (lobby) or #/table/<id> ------------------------------------

  function route() {
    const m = location.hash.match(/^#\/table\/([^/]+)(\/watch)?$/);
    const id = m ? decodeURIComponent(m[1]) : null;
    if (S.table && S.table.spectate && S.table.id !== id && S.open) {
      request("leave", { table: S.table.id });  // stop watching; a seat is kept until left
    }
    if (!m) { S.table = null; draw(); return; }
    if (!S.table || S.table.id !== id) S.table = { id, seat: null, update: null, log: [] };
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
      notify(`Cannot open table ${id}: ${err.message}`, "error");
      location.hash = "#/";
    });
  }

  function sit(id, seat = null) {
    const fields = { table: id, spectate: false };
    if (seat !== null) fields.seat = seat;
    request("join", fields, (joined) => {
      storeSeat(id, joined.seat, joined.token);
      S.table = { id, seat: joined.seat, update: null, log: [] };
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
    app.replaceChildren(S.table ? tableScreen() : lobbyScreen());
    if (focus && $("#" + focus) && focus !== "name") $("#" + focus).focus();
  }

  function gameTitle(id) { return (S.games[id] && S.games[id].title) || id; }

  function lobbyScreen() {
    const mine = S.peer ? storedSeats() : {};
    const rows = S.tables.slice().sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
    const list = rows.length ? el("ul", { class: "tables" }, rows.map((t) => tableRow(t, mine)))
      : el("p", { class: "muted" }, "No tables yet. Open one below.");
    return el("section", { class: "lobby" },
      el("h1", {}, `Tables at ${S.hostName || "this peer"}`), list, createForm(), peerList());
  }

  function peerList() {  // the other peers this host's discovery sees on the LAN
    if (!S.peers.length) return null;
    return el("div", { class: "peers", id: "peers" }, el("h2", {}, "Other peers on this network"),
      el("ul", { class: "tables" }, S.peers.map((p) => el("li", { class: "table", "data-peer": p.peer_id },
        el("div", { class: "what" }, el("strong", {}, p.name), " ",
          el("span", { class: `status ${p.open_tables ? "waiting" : ""}` },
            p.open_tables ? `${p.open_tables} open table${p.open_tables === 1 ? "" : "s"}` : "no open table"),
          el("div", { class: "who" }, p.games.join(", "))),
        el("div", { class: "do" }, p.url ? el("a", { class: "button", href: p.url }, "Go there")
          : el("span", { class: "muted" }, "no web app"))))));
  }

  function order(t) { return { waiting: 0, playing: 1, faulted: 2, finished: 3 }[t.status] ?? 4; }

  function tableRow(t, mine) {
    const taken = t.names.filter((n) => n);
    const names = taken.length ? taken.join(", ") : "nobody yet";
    const free = t.status === "waiting" ? t.seats - t.taken : 0;
    const buttons = [];
    if (mine[t.id]) {
      buttons.push(el("a", { class: "button primary", href: `#/table/${t.id}` }, "Back to my seat"));
    } else if (free > 0) {
      buttons.push(el("button", { class: "primary", onclick: () => sit(t.id) }, "Sit down"));
    }
    buttons.push(el("a", { class: "button", href: `#/table/${t.id}/watch` }, "Watch"));
    return el("li", { class: `table ${t.status}`, "data-table": t.id },
      el("div", { class: "what" },
        el("strong", {}, gameTitle(t.game)), " ",
        t.fair ? [el("span", { class: "badge", title: "dice and shuffles from every seat's secret" },
          "fair play"), " "] : null,
        el("span", { class: `status ${t.status}` }, t.status === "waiting"
          ? `${free} seat${free === 1 ? "" : "s"} free` : t.status),
        el("div", { class: "who" }, names)),
      el("div", { class: "do" }, buttons));
  }

  let formCache = null;  // kept across redraws so a lobby push never wipes what you typed
  function createForm() {
    const games = Object.values(S.games).sort((a, b) => a.title.localeCompare(b.title));
    if (!games.length) return el("p", { class: "muted" }, "Loading the games…");
    const key = games.map((g) => g.id).join(",");
    if (formCache && formCache.key === key) return formCache.form;
    const form = el("form", { class: "create", id: "create" });
    formCache = { key, form };
    const select = el("select", { name: "game", id: "create-game" },
      games.map((g) => el("option", { value: g.id }, g.title)));
    select.value = games[0].id;
    const fields = el("div", { class: "fields" });
    const fill = () => {
      const g = S.games[select.value];
      const options = Object.entries(g.options).map(([key, spec]) => optionField(key, spec));
      fields.replaceChildren(
        el("label", {}, "Seats ", el("input", { type: "number", name: "seats", min: g.min_seats,
          max: g.max_seats, value: Math.min(Math.max(g.min_seats, 2), g.max_seats), required: true })),
        options.length ? el("details", { class: "options" },
          el("summary", {}, `Options (${options.length}; the defaults are the rulebook's)`),
          el("div", { class: "option-list" }, options)) : "");
    };
    select.addEventListener("change", fill);
    fill();
    const fair = el("label", { class: "fair-option" },
      el("input", { type: "checkbox", name: "fair", id: "create-fair" }), " Fair play",
      el("small", {}, "Every seat helps roll the dice and shuffle, so no one, the host "
        + "included, can choose or foresee them; the table's journal can be checked afterwards."));
    form.append(el("h2", {}, "Open a table"), el("label", {}, "Game ", select), fields, fair,
      el("button", { class: "primary", type: "submit" }, "Open and sit down"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const g = S.games[select.value];
      const options = {};
      for (const [key, spec] of Object.entries(g.options)) {
        const input = form.querySelector(`[name="opt-${key}"]`);
        options[key] = readOption(input, spec);
      }
      const seats = parseInt(form.querySelector('[name="seats"]').value, 10);
      const extra = form.querySelector('[name="fair"]').checked ? { fair: {} } : {};
      request("create", { game: g.id, seats, options, ...extra }, (created) => sit(created.table),
        (err) => notify(`Cannot open the table: ${err.message}`, "error"));
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

  function names(u) { return u.seats.map((s, i) => s.name || `seat ${i}`); }

  function tableScreen() {
    const t = S.table;
    const u = t.update;
    const summary = S.tables.find((x) => x.id === t.id);
    if (summary) t.game = summary.game;  // a finished table leaves the lobby: keep its board
    const game = t.game || null;
    const head = el("div", { class: "table-head" },
      el("a", { class: "button", href: "#/" }, "← Tables"),
      el("h1", {}, game ? gameTitle(game) : `Table ${t.id}`),
      t.seat !== null && t.seat !== undefined && u && u.status !== "finished"
        ? el("button", { onclick: leave }, "Leave") : null);
    if (!u) return el("section", { class: "table-screen" }, head,
      el("p", { class: "muted" }, S.open ? "Loading the table…" : "Waiting for the host…"));
    const offline = S.open ? null : el("p", { class: "offline", id: "offline" },
      "Connection lost: reconnecting. Your seat is kept; the board shows the last thing the host said.");
    return el("section", { class: `table-screen ${u.status}`, "data-status": u.status }, head,
      offline, players(u), window.lantableSeats ? window.lantableSeats.panel(t, u) : null, turnLine(u), waitingHelp(u, summary), board(u, game), actions(u),
      scores(u), fairLine(t, summary), eventLog(t));
  }

  function players(u) {
    const n = names(u);
    return el("ol", { class: "players" }, u.seats.map((s, i) => el("li", {
      class: [u.to_act.includes(i) ? "to-act" : "", i === u.seat ? "me" : "",
              s.connected ? "" : "away"].join(" ").trim(),
    }, n[i], i === u.seat ? " (you)" : "", !s.taken ? " (free)" : !s.connected ? " (away)" : "")));
  }

  function waitingHelp(u, summary) {
    if (u.status !== "waiting") return null;
    const options = summary ? Object.entries(summary.options) : [];
    return el("div", { class: "invite" },
      el("p", {}, "Others on this network open ", el("strong", {}, location.origin + "/"),
        " and tap “Sit down” at this table. The game starts when every seat is taken."),
      options.length ? el("p", { class: "muted" }, "Options: ",
        options.map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ")) : null);
  }

  function turnLine(u) {
    const n = names(u);
    let text;
    if (u.status === "waiting") {
      const free = u.seats.filter((s) => !s.taken).length;
      text = `Waiting for ${free} more player${free === 1 ? "" : "s"}.`;
    } else if (u.status === "finished") {
      text = "Game over.";
    } else if (u.status === "faulted") {
      text = "The game hit a bug; the host is restoring the table.";
    } else if (u.seat !== null && u.to_act.includes(u.seat)) {
      text = "Your move.";
    } else {
      text = `Waiting for ${u.to_act.map((s) => n[s]).join(", ")}.`;
    }
    return el("p", { class: "turn", id: "turn" }, text);
  }

  // What a game's renderer is given (docs/plugins.md, "A board in the browser").
  function rendererCtx(u, game) {
    return {
      game, seat: u.seat, names: names(u), legal: u.legal || [], labels: u.labels || [],
      act: (action) => act(action), query: (q) => query(q), busy: S.busy || !S.open,
      svg: window.lantable.svg, el,
    };
  }

  // A game query for the table on screen: resolves to the game's answer, rejects with
  // {code, message} (bad_query, not_connected...). Pure: nothing changes at the table.
  function query(q) {
    const t = S.table;
    return new Promise((resolve, reject) => {
      if (!t) { reject({ code: "no_table", message: "no table is on screen" }); return; }
      const fields = { table: t.id, query: q };
      if (t.seat !== null && t.seat !== undefined) fields.seat = t.seat;
      const sent = request("query", fields, (msg) => resolve(msg.answer), (err) => reject(err));
      if (sent === null) reject({ code: "disconnected", message: "not connected" });
    });
  }

  function board(u, game) {
    const holder = el("div", { class: "board", id: "board" });
    if (!u.view) return holder;
    const ctx = rendererCtx(u, game);
    if (game && withRenderer.has(game) && !renderers[game]) loadRenderer(game);
    const r = game && renderers[game];
    if (r) {
      holder.setAttribute("data-board", game);
      try { r.render(holder, u, ctx); return holder; } catch (e) {
        holder.removeAttribute("data-board");
        console.error("renderer failed", e);
        holder.replaceChildren();
      }
    }
    holder.append(genericView(u.view));
    return holder;
  }

  const loading = new Set();
  function loadRenderer(game) {
    if (loading.has(game)) return;
    loading.add(game);
    document.head.append(el("script", { src: `/games/${encodeURIComponent(game)}/board.js` }));
  }

  function genericView(view) {  // scalars in one panel, each structure in its own
    const box = el("div", { class: "generic" });
    const flat = Object.entries(view).filter(([, v]) => v === null || typeof v !== "object");
    if (flat.length) {
      box.append(el("div", { class: "panel" }, el("h3", {}, "table"),
        el("dl", {}, flat.map(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, value2dom(v, 1))]))));
    }
    // Each structure folds, so the choices stay near on a phone; what you open stays open.
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

  function actions(u) {
    if (!u.legal || !u.legal.length) return null;
    const labels = u.labels || [];
    // A game's renderer may take some choices into its own picker (Manila's load step,
    // Spanish Main's sailing by hand); the rest stay in the generic list.
    const game = S.table && S.table.game;
    const r = game && renderers[game];
    let picked = null;
    if (r && r.picker) {
      try { picked = r.picker(u, rendererCtx(u, game)); } catch (e) {
        console.error("picker failed", e);
        picked = null;
      }
    }
    const handled = new Set((picked && picked.handled) || []);
    return el("div", { class: "actions", id: "actions" },
      el("h2", {}, "Your choices"),
      picked && picked.node ? el("div", { class: "picker" }, picked.node) : null,
      el("div", { class: "choices" }, u.legal.map((a, i) => handled.has(i) ? null : el("button", {
        class: "choice", disabled: S.busy || !S.open, "data-index": i,
        onclick: () => act(a),
      }, labels[i] || `${a.type} ${JSON.stringify(a)}`))));
  }

  async function act(action) {
    const t = S.table;
    if (S.busy || !S.open || !t || !t.update) return;
    S.busy = true;
    draw();
    const fields = { table: t.id, seat: t.seat, action };
    if (S.fair && t.seat !== null && t.seat !== undefined) {  // a fair table: sign it
      const signed = await S.fair.signAction(t.id, t.seat, t.update.seq, action);
      if (signed) Object.assign(fields, signed);
      else if (t.fair) {  // the host would refuse it unsigned: say why instead
        S.busy = false;
        notify("This browser does not hold this seat's fair-play secret (the seat was taken "
          + "in another browser, or this one's storage was cleared), so it cannot sign moves "
          + "here. Play this seat from the browser that sat down.", "error");
        draw();
        return;
      }
    }
    const sent = request("act", fields, () => {
      S.busy = false;  // accepted; its update follows at once
    }, (err) => {
      S.busy = false;
      if (err.code !== "disconnected") notify(`Refused (${err.code}): ${err.message}`, "error");
      draw();
    });
    if (sent === null) { S.busy = false; draw(); }  // the link dropped while signing
  }

  // -- fair play (fairplay.js does the crypto) -------------------------------------

  // Answers and checks take a few awaits each; one queue keeps them in arrival order
  // (a seat's links must be checked event after event).
  function fairLater(job) {
    S.fairQueue = S.fairQueue.then(job).catch((e) => console.error("fair play:", e));
  }

  async function fairAnswer(req) {
    if (!S.fair || !S.fair.key) {
      notify("This browser cannot sign, so it cannot play at a fair table (it can watch).", "error");
      return;
    }
    const answer = await S.fair.answer(req);
    if (!answer) {
      notify(`The table asked this page for a ${req.kind} it cannot give (seat ${req.seat}); `
        + "the seat's secret is kept in the browser that sat down.", "error");
      return;
    }
    const [t, fields] = answer;
    request(t, fields, null, (err) => {
      if (err.code !== "disconnected") notify(`Fair play: the ${t} was refused: ${err.message}`, "error");
    });
  }

  async function fairCheck(ev) {
    if (!S.fair || !S.fair.id) return;
    const found = await S.fair.check(ev);
    if (found.length) notify(`The host sent a random event that does not check: ${found[0]}`, "error");
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
    const text = checked || (over ? "Fair play: no random event was settled at this table."
      : S.fair && S.fair.key
      ? "Fair play: every die and shuffle comes from all the seats' secrets; this page "
        + "checks each random event when the host sends it."
      : "Fair play: this browser cannot sign, so it can watch this table but not sit.");
    return el("p", { class: `fair ${bad ? "bad" : ""}`.trim(), id: "fair" }, text);
  }

  function scores(u) {
    if (u.status !== "finished" || !u.scores) return null;
    const n = names(u);
    const rows = n.map((name, i) => ({ name, i, score: u.scores.scores[i], rank: u.scores.rank[i] }))
      .sort((a, b) => a.rank - b.rank);
    const forfeit = new Set(u.scores.forfeit || []);  // fair play: seats that withheld
    return el("div", { class: "scores", id: "scores" }, el("h2", {}, "Final scores"),
      el("table", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", {}, "Score")),
        rows.map((r) => el("tr", { class: r.i === u.seat ? "me" : "" },
          el("td", {}, r.rank), el("td", {}, r.name, forfeit.has(r.i) ? " (forfeit)" : ""),
          el("td", {}, r.score)))));
  }

  function eventLog(t) {
    if (!t.log.length) return null;
    const list = el("ol", { class: "log", id: "log" },
      t.log.slice(-60).map((e) => el("li", { "data-seq": e.seq }, e.line)));
    return el("details", { class: "history", open: true }, el("summary", {}, "What happened"), list);
  }

  // -- start ---------------------------------------------------------------------

  const nameInput = $("#name");
  nameInput.value = myName();
  nameInput.addEventListener("change", () => {
    const v = nameInput.value.trim().slice(0, 24);
    if (v) localStorage.setItem("lantable.name", v);
    nameInput.value = myName();
    if (v && window.lantableSeats) window.lantableSeats.rename(v);  // at once (seats.js)
  });
  window.lantableFair.start().then((fair) => { S.fair = fair; }, (e) => {
    console.error("fair play unavailable", e);
  }).finally(() => {  // the key goes in hello, so it comes first
    S.started = true;
    connect();
  });
})();
