// Seats at a table, from the page: bots the host runs for us, seats handed to a bot
// while their player is away, and the name we go by (docs/protocol.md: `add_bot`,
// `remove_bot`, `hand_to_bot`, `rename`). app.js draws the table and calls
// `lantableSeats.panel(table, update)` for the part drawn here; everything else goes
// through the page's own connection (`lantable.page`).
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);  // the page's language (i18n.js)
  const STRATEGIES = {  // what a person reads; the host says which a game can have
    get random() { return { label: T("Random"), kind: T("random"), help: T("plays any allowed move: good for learning the rules") }; },
    get greedy() { return { label: T("Greedy"), kind: T("greedy"), help: T("takes the move that looks best right now") }; },
    get mcts() { return { label: T("Thinking"), kind: T("thinking"), help: T("looks ahead before it moves; stronger and slower") }; },
  };
  const STRENGTHS = () => [
    [1, T("1 (quick)")], [2, "2"], [3, "3"], [4, "4"], [5, T("5 (strong, a second a move)")],
  ];
  const chosen = { strategy: null, strength: 2 };  // kept across redraws
  const problems = new Map();  // "table/seat" -> the host's last refusal, shown in place
  const busy = new Set();  // requests on their way: no double clicks

  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);

  function strategiesOf(game) {
    const g = page().state().games[game];
    return (g && g.page_bots) || [];
  }

  function strategyPicker(game, id) {
    const kinds = strategiesOf(game);
    if (!kinds.includes(chosen.strategy)) chosen.strategy = kinds[0];
    const strategy = el("select", { id: `${id}-strategy`, "aria-label": T("How the bot plays"),
      onchange: (ev) => { chosen.strategy = ev.target.value; page().draw(); } },
      kinds.map((k) => el("option", { value: k, selected: k === chosen.strategy },
        (STRATEGIES[k] || { label: k }).label)));
    const help = el("small", { class: "bot-help" }, (STRATEGIES[chosen.strategy] || { help: "" }).help);
    const strength = chosen.strategy === "mcts" ? el("label", {}, T("Strength") + " ",
      el("select", { id: `${id}-strength`, onchange: (ev) => { chosen.strength = Number(ev.target.value); } },
        STRENGTHS().map(([v, text]) => el("option", { value: v, selected: v === chosen.strength }, text))))
      : null;
    return [el("label", {}, T("Bot") + " ", strategy), strength, help];
  }

  function botFields() {
    const fields = { strategy: chosen.strategy };
    if (chosen.strategy === "mcts") fields.strength = chosen.strength;
    return fields;
  }

  // Send one request about a seat; its refusal is shown next to that seat.
  function ask(t, table, seat, fields, onOk) {
    const key = `${table}/${seat}`;
    if (busy.has(key)) return;
    busy.add(key);
    problems.delete(key);
    const id = page().request(t, { table, ...fields }, (reply) => {
      busy.delete(key);
      if (onOk) onOk(reply);
      page().draw();
    }, (err) => {
      busy.delete(key);
      problems.set(key, err.message);
      page().draw();
    });
    if (id === null) busy.delete(key);
    page().draw();
  }

  function problem(table, seat) {
    const text = problems.get(`${table}/${seat}`);
    return text ? el("p", { class: "seat-problem", role: "alert" }, sentence(text)) : null;
  }

  function sentence(text) {  // the host's message, as a sentence a person reads
    const s = String(text).trim();
    return s ? s[0].toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".") : s;
  }

  function botLine(s) {
    const kind = STRATEGIES[s.bot.strategy] || { kind: s.bot.strategy, help: "" };
    const strength = s.bot.strength ? ` (${T("strength {n}", { n: s.bot.strength })})` : "";
    return s.bot.handed
      ? T("A {kind} bot{strength} plays for {name} until {name} is back.", { kind: kind.kind, strength, name: s.name })
      : `${kind.help}${strength}`;
  }

  // A translated sentence with {name} in bold: [text, <strong>name</strong>, text].
  function named(text, name) {
    return text.split("{name}").flatMap((part, i) => (i ? [el("strong", {}, name), part] : [part]));
  }

  function awayFor(s, u) {  // seconds, as of now: the update's count plus what passed since
    if (s.away === undefined || s.away === null) return null;
    const since = u._receivedAt || Date.now();
    return s.away + Math.floor((Date.now() - since) / 1000);
  }

  function waitingPanel(t, u) {
    const free = u.seats.filter((s) => !s.taken).length;
    const rows = [];
    u.seats.forEach((s, i) => {
      if (!s.bot) return;
      rows.push(el("li", { "data-seat": i },
        el("span", {}, el("strong", {}, s.name), ": ", botLine(s), s.connected ? "" : " " + T("Starting…")),
        el("button", { class: "remove-bot", disabled: busy.has(`${t.id}/${i}`),
          onclick: () => ask("remove_bot", t.id, i, { seat: i }) }, T("Remove")),
        problem(t.id, i)));
    });
    const add = free && strategiesOf(t.game).length ? el("form", { class: "add-bot", id: "add-bot",
      onsubmit: (ev) => {
        ev.preventDefault();
        ask("add_bot", t.id, "add", botFields(), (reply) => {
          page().notify(T("{name} sat down at seat {seat}.", { name: reply.name, seat: reply.seat + 1 }));
        });
      } },
      strategyPicker(t.game, "add-bot"),
      el("button", { class: "primary", type: "submit", disabled: busy.has(`${t.id}/add`) },
        T("Add a bot")),
      problem(t.id, "add")) : null;
    if (!rows.length && !add) return null;
    return el("section", { class: "seats-panel", id: "bots" },
      el("h2", {}, T("Bots")),
      add ? el("p", { class: "muted" }, T("No one else around? A bot can take a free seat; this computer runs it until the game ends.")) : null,
      rows.length ? el("ul", { class: "bot-list" }, rows) : null, add);
  }

  function playingPanel(t, u) {
    const rows = [];
    const mine = t.seat !== null && t.seat !== undefined;
    const strategies = strategiesOf(t.game);
    u.seats.forEach((s, i) => {
      if (s.bot && s.bot.handed) {
        const control = mine ? el("button", { class: "remove-bot", disabled: busy.has(`${t.id}/${i}`),
          onclick: () => ask("remove_bot", t.id, i, { seat: i }) }, T("Stop the bot")) : null;
        const back = !mine && ownToken(t.id, i) ? el("button", { class: "primary take-back",
          onclick: () => takeBack(t.id) }, T("Take my seat back")) : null;
        rows.push(el("li", { "data-seat": i }, el("span", {}, botLine(s)), control, back,
          problem(t.id, i)));
      } else if (mine && i !== u.seat && s.taken && !s.connected && !s.bot && strategies.length) {
        const away = awayFor(s, u);
        rows.push(el("li", { "data-seat": i },
          el("span", {}, ...named(away !== null ? T("{name} is away ({seconds} s).", { seconds: away }) : T("{name} is away."), s.name)),
          el("button", { class: "hand-to-bot", disabled: busy.has(`${t.id}/${i}`),
            onclick: () => ask("hand_to_bot", t.id, i, { seat: i, ...botFields() },
              () => page().notify(T("A bot plays for {name} until they come back.", { name: s.name }))) },
          T("Let a bot play for {name}", { name: s.name })),
          problem(t.id, i)));
      }
    });
    const own = mine && !(u.seats[u.seat] || {}).bot && strategies.length ? haveToGo(t, u) : null;
    if (!rows.length) return own;
    const handable = rows.some((row) => row.querySelector(".hand-to-bot"));
    const picker = mine && handable  // which bot to hand a seat to, only when there is one
      ? el("div", { class: "bot-picker" }, strategyPicker(t.game, "hand-bot")) : null;
    return [el("section", { class: "seats-panel", id: "bots" }, el("h2", {}, T("Away and bots")),
      picker, el("ul", { class: "bot-list" }, rows)), own];
  }

  let ownOpen = false;  // kept across redraws
  function haveToGo(t, u) {  // folded away: most of a game nobody has to go
    return el("details", { class: "have-to-go", id: "have-to-go", open: ownOpen,
      ontoggle: (ev) => { ownOpen = ev.target.open; } },
      // set now, not at the toggle event: an update may redraw the page before it fires
      el("summary", { onclick: (ev) => { ownOpen = !ev.currentTarget.parentNode.open; } },
        T("Have to go? A bot can play your seat")),
      el("div", { class: "bot-picker" }, strategyPicker(t.game, "own-bot"),
        el("button", { class: "hand-own", disabled: busy.has(`${t.id}/${u.seat}`),
          onclick: () => handOwn(t, u.seat) }, T("Let a bot play for me"))),
      el("p", { class: "muted" }, T("You can come back to this table and take your seat back.")),
      problem(t.id, u.seat));
  }

  function ownToken(table, seat) {
    const mine = page().storedSeats()[table];
    return mine && mine.seat === seat ? mine.token : null;
  }

  function handOwn(t, seat) {  // a bot plays our seat; we watch, and keep the token
    ownOpen = false;
    ask("hand_to_bot", t.id, seat, { seat, ...botFields() }, () => {
      t.seat = null;
      t.spectate = true;
      page().request("join", { table: t.id, spectate: true });
      page().notify(T("A bot plays your seat now. Come back to this table to take it back."));
    });
  }

  function takeBack(table) {  // resume with our token: the host stops the bot
    const mine = page().storedSeats()[table];
    if (!mine) return;
    page().request("leave", { table });  // stop watching: the seat's own updates follow
    page().request("resume", { token: mine.token }, (joined) => {
      const t = page().state().table;
      if (t && t.id === table) { t.seat = joined.seat; t.spectate = false; }
      page().notify(T("Your seat is yours again; the bot stopped."));
      page().draw();
    }, (err) => page().notify(sentence(err.message), "error"));
  }

  window.lantableSeats = {
    // The seats panel of the table on screen, or null (app.js, tableScreen).
    panel(t, u) {
      if (!u || !t) return null;
      if (!u._receivedAt) u._receivedAt = Date.now();
      if (u.status === "waiting" && t.seat !== null && t.seat !== undefined) return waitingPanel(t, u);
      if (u.status === "playing") return playingPanel(t, u);
      return null;
    },
    // The name typed in the top bar: at once, at every table we sit at (app.js).
    rename(name) {
      const id = page().request("rename", { name }, (reply) => {
        page().notify(T("You are {name} now, here and at the next table you sit at.", { name: reply.name }));
      }, (err) => page().notify(sentence(err.message), "error"));
      if (id === null) page().notify(T("You will be {name} when the connection is back.", { name }));
    },
  };
})();
