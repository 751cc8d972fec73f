// Chat at a table and in the lobby (docs/protocol.md, "Chat and rematch": `chat`,
// `chat_history`, `mute`, `chat_message`). app.js draws the screens and calls
// `lantableChat.panel(table)` (null: the lobby) for the part drawn here; everything
// goes through the page's own connection (`lantable.page`). Lines are plain text:
// they only ever reach the page as text nodes, never as markup.
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);
  const SHOWN = 60;  // lines drawn per room

  const lines = new Map();    // "lobby" or a table id -> [chat_message maps], oldest first
  const asked = new Set();    // rooms whose history this connection asked for
  const problems = new Map(); // room -> the host's last refusal, shown under the box
  const inputs = new Map();   // room -> its text box, kept across redraws (what you typed)
  let muted = new Set(JSON.parse(localStorage.getItem("lantable.muted") || "[]"));

  const keyOf = (table) => (table ? table : "lobby");

  function add(key, msg) {
    const list = lines.get(key) || [];
    if (list.some((x) => x.room === msg.room && x.n === msg.n)) return;  // seen already
    list.push(msg);
    if (list.length > 200) list.splice(0, list.length - 200);
    lines.set(key, list);
  }

  // The lines this connection may read; asked again once the game is over (a player
  // then reads what the spectators said).
  function history(table, over = false) {
    const key = keyOf(table);
    const mark = `${key}/${over ? "over" : "on"}`;
    if (asked.has(mark)) return;
    asked.add(mark);
    const fields = table ? { table } : {};
    const id = page().request("chat_history", fields, (log) => {
      const list = [];
      for (const m of log.messages) list.push(m);
      for (const m of lines.get(key) || []) if (!list.some((x) => x.room === m.room && x.n === m.n)) list.push(m);
      lines.set(key, list);
      page().draw();
    }, () => asked.delete(mark));
    if (id === null) asked.delete(mark);
  }

  // A new connection: the host forgets mutes and nothing was asked on it yet.
  function welcomed() {
    asked.clear();
    setTimeout(() => {
      for (const name of muted) page().request("mute", { name, mute: true });
      history(null);
      page().draw();
    }, 0);
  }

  function received(msg) {
    add(keyOf(msg.table), msg);
    const S = page().state();
    if (!msg.id && (S.table ? S.table.id === msg.table : !msg.table)) page().draw();
  }

  function mute(name, on) {
    if (on) muted.add(name); else muted.delete(name);
    localStorage.setItem("lantable.muted", JSON.stringify([...muted]));
    page().request("mute", { name, mute: on });
    page().draw();
  }

  function send(table, box) {
    const text = box.value.trim();
    if (!text) return;
    const key = keyOf(table);
    problems.delete(key);
    const fields = table ? { table, text } : { text };
    // The box empties now, so the next line can be typed at once; a refused line comes
    // back into it (unless something new was typed meanwhile).
    box.value = "";
    const sent = page().request("chat", fields, (msg) => { add(key, msg); page().draw(); },
      (err) => {
        problems.set(key, err.message);
        if (!box.value) box.value = text;
        page().draw();
      });
    if (sent === null) box.value = text;
  }

  function myNames(u) {  // the names I go by here (my seat's, and my own)
    const names = new Set([localStorage.getItem("lantable.name")]);
    if (u && u.seat !== null && u.seat !== undefined && u.seats[u.seat]) names.add(u.seats[u.seat].name);
    return names;
  }

  function line(m, mine) {
    const who = m.room === "spectators" ? T("{name} (watching)", { name: m.name }) : m.name;
    const button = mine.has(m.name) ? null : el("button", {
      class: "chat-mute", type: "button", title: T("Mute {name}: hide their lines", { name: m.name }),
      onclick: () => mute(m.name, true),
    }, T("mute"));
    return el("li", { class: `chat-line ${m.room}`, "data-n": m.n, "data-room": m.room },
      el("strong", { class: "chat-name" }, who), " ", el("span", { class: "chat-text" }, m.text), " ", button);
  }

  // The chat box: at a table (t, its update u) or in the lobby (t null).
  function panel(t, u) {
    const S = page().state();
    if (!S.open && !lines.size) return null;
    const table = t ? t.id : null;
    const key = keyOf(table);
    const spectator = t && (t.seat === null || t.seat === undefined);
    const finished = u && u.status === "finished";
    if (S.open) history(table, Boolean(finished));
    let title = T("Chat with everyone on this peer");
    let means = null;
    if (t && spectator) {
      title = T("Chat");
      means = finished ? T("Players and spectators read each other now that the game is over.")
        : T("You are watching: your lines go to the other spectators only; the players read them when the game is over. You read the players' lines.");
    } else if (t) {
      title = T("Chat");
      means = finished ? T("The game is over: you read what the spectators said too.")
        : T("Your lines go to the players and the spectators; the spectators' own chat reaches you when the game is over.");
    }
    const mine = myNames(u);
    const shown = (lines.get(key) || []).filter((m) => !muted.has(m.name)).slice(-SHOWN);
    const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" },
      shown.length ? shown.map((m) => line(m, mine)) : el("li", { class: "muted chat-empty" }, T("No one has said anything yet.")));
    queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
    let box = inputs.get(key);
    if (!box) {
      box = el("input", { type: "text", id: `chat-input-${key}`, class: "chat-input", maxlength: 500,
        autocomplete: "off", placeholder: T("Say something…"), "aria-label": T("Your chat line") });
      inputs.set(key, box);
    }
    const form = el("form", { class: "chat-form" }, box,
      el("button", { type: "submit", disabled: !S.open }, T("Send")));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send(table, box); });
    const problem = problems.get(key);
    const mutedNames = [...muted];
    return el("section", { class: "chat", id: t ? "chat" : "lobby-chat", "data-room": key },
      el("h2", {}, title), means ? el("p", { class: "muted chat-means" }, means) : null,
      list, form,
      problem ? el("p", { class: "chat-problem", role: "alert" }, problem) : null,
      mutedNames.length ? el("p", { class: "muted chat-muted" }, T("Muted:"), " ",
        mutedNames.map((name) => el("button", { type: "button", class: "chat-unmute",
          title: T("Unmute {name}", { name }), onclick: () => mute(name, false) }, T("{name} (unmute)", { name })))) : null);
  }

  window.lantableChat = { panel };
  const start = () => {
    page().on("welcome", welcomed);
    page().on("chat_message", received);
  };
  if (window.lantable) start(); else document.addEventListener("DOMContentLoaded", start);
})();
