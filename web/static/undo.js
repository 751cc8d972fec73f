// Undo by consent, from the page (docs/protocol.md, "Undo by consent"): the "Undo my
// last move" button when the host offers it, the question to the other seats (accept
// or refuse) and a sentence on the result. app.js passes each `undo` message to
// `lantableUndo.notice(msg)` and draws `lantableUndo.panel(table, update)` under the
// choices; requests go through the page's own connection (`lantable.page`).
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);
  const notes = new Map();  // table -> the host's latest `undo` message
  const busy = new Set();   // tables with a request of ours on its way
  const problems = new Map();  // table -> the host's refusal of our last request

  function notice(msg) {
    notes.set(msg.table, msg);
    problems.delete(msg.table);
    // What was decided goes into the table's history, so that the moves taken back
    // above it read as what they are (the latest line shows it too).
    const t = page().state().table;
    if (t && t.id === msg.table && ["done", "refused"].includes(msg.state)) {
      t.log.push({ seq: msg.seq, line: msg.message });
    }
    page().draw();
  }

  // At a fair table every seat signs the undo (fairplay.js holds the seat's key).
  async function signature(t, seq, undoes) {
    const S = page().state();
    if (!t.fair || !S.fair || !S.fair.signUndo) return undefined;
    return (await S.fair.signUndo(t.id, t.seat, seq, undoes)) || undefined;
  }

  async function send(t, kind, fields, seq, undoes, signed) {
    if (busy.has(t.id)) return;
    busy.add(t.id);
    problems.delete(t.id);
    page().draw();
    const sig = signed ? await signature(t, seq, undoes) : undefined;
    page().request(kind, { table: t.id, seat: t.seat, ...fields, ...(sig ? { sig } : {}) },
      () => { busy.delete(t.id); page().draw(); },
      (err) => { busy.delete(t.id); problems.set(t.id, err.message); page().draw(); });
  }

  function ask(t, n) { send(t, "undo_ask", {}, n.seq, n.undoes, true); }
  function answer(t, n, accept) {
    send(t, "undo_answer", { undoes: n.undoes, accept }, n.seq, n.undoes, accept);
  }

  function panel(t, u) {
    if (!u || u.status !== "playing") return null;
    const n = notes.get(t.id);
    const mine = t.seat !== null && t.seat !== undefined;
    const problem = problems.get(t.id);
    const wait = busy.has(t.id);
    let body = null;
    if (n && n.state === "offer" && mine && n.seat === t.seat && u.seq === n.undoes) {
      body = [el("button", { id: "undo-ask", class: "undo-ask", disabled: wait,
        onclick: () => ask(t, n) }, T("Undo my last move")),
      el("small", { class: "muted" }, T("The other players are asked first."))];
    } else if (n && n.state === "asked" && u.seq < n.seq) {
      const asked = mine && n.ask === t.seat;
      body = [el("p", { id: "undo-question" }, n.message),
        asked ? el("div", { class: "undo-buttons" },
          el("button", { id: "undo-accept", class: "primary", disabled: wait,
            onclick: () => answer(t, n, true) }, T("Yes, let them take it back")),
          el("button", { id: "undo-refuse", disabled: wait,
            onclick: () => answer(t, n, false) }, T("No, the move stands"))) : null];
    } else if (n && n.state === "void" && u.seq <= n.seq) {
      body = el("p", { id: "undo-result" }, n.message);
    }  // "done" and "refused" are the latest line and stay in the history (notice)
    if (!body && !problem) return null;
    return el("section", { class: "undo", id: "undo", role: "status" }, body,
      problem ? el("p", { class: "undo-problem", id: "undo-problem" }, problem) : null);
  }

  // The table's setting, in the lobby's "Open a table" form (`create.undo`).
  function createField() {
    const choices = [["ask", T("ask the other players")], ["people", T("ask only the people, not the bots")],
      ["always", T("always allowed")], ["never", T("never")]];
    return el("label", { class: "undo-option" }, T("Taking back a move:"), " ",
      el("select", { name: "undo", id: "create-undo" },
        choices.map(([v, text]) => el("option", { value: v }, text))));
  }

  function createFields(form) {
    const chosen = form.querySelector('[name="undo"]');
    return chosen && chosen.value !== "ask" ? { undo: chosen.value } : {};
  }

  window.lantableUndo = { notice, panel, createField, createFields };
})();
