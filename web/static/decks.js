// A seat at a hidden-deck table (docs/fair-play.md, "A browser seat at a hidden-deck
// table"): the card engine, loaded on demand in a Web Worker (engine-worker.js), runs
// the same Python as `lantable play` (the deal's masking, the seat's cards, the game's
// own client half), so a phone can sit where the host must not see the hands.
//
// The page hands the engine every deck_request, deck_keys and update of such a table,
// as the host's bytes, and gets back msgpack: an answer to send (its signatures made
// here, with the page's fair-play key), the seat's hand, its legal actions and their
// labels. Only a peer that serves Pyodide (meta lantable-engine) offers it.
"use strict";

(function () {
  const { decode } = window.MessagePack;
  const meta = document.querySelector('meta[name="lantable-engine"]');
  const available = Boolean(meta && meta.content === "1");
  // A signature the engine left for the page to make: 64 bytes, this marker, the
  // index (4 bytes, big-endian), zeros (web/engine/lantable_engine.py, placeholder).
  const SIG = new TextEncoder().encode("\u0000lantable-sig\u0000");
  const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  const SIG_HEX = hexOf(SIG);
  const bytesOf = (hex) => Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
  function sigIndex(b) {
    if (b.length !== 64 || !SIG.every((x, i) => b[i] === x)) return -1;
    const at = SIG.length;
    return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
  }

  const status = { state: available ? "idle" : "absent", step: "", info: null, error: null };
  const tables = new Set();  // tables where this page deals
  const prepared = new Set();  // games whose client half the engine has imported
  let worker = null;
  let loading = null;
  let nextId = 1;
  const waiting = new Map();
  let onChange = () => {};

  function start() {
    worker = new Worker("/static/engine-worker.js", { type: "module" });
    worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.progress) { status.step = m.progress; onChange(); return; }
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.err !== undefined) w.reject(new Error(m.err)); else w.resolve(m.ok);
    };
    worker.onerror = (ev) => {
      const e = new Error(ev.message || "the card engine failed to start");
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    };
  }

  function call(op, arg) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, arg });
    });
  }

  // Load the engine once (the first hidden-deck table); resolves with what it took.
  function load(publicKey) {
    if (!available) return Promise.reject(new Error("this peer serves no card engine"));
    if (!loading) {
      status.state = "loading";
      status.step = "";
      onChange();
      if (!worker) start();
      loading = call("load", publicKey).then((info) => {
        status.state = "ready";
        status.info = info;
        onChange();
        return info;
      }, (e) => {
        status.state = "failed";
        status.error = e.message;
        loading = null;
        worker.terminate();
        worker = null;
        onChange();
        throw e;
      });
    }
    return loading;
  }

  async function run(op, raw) {
    const { data, ms } = await call(op, raw);
    status.lastMs = ms;
    return decode(data);
  }

  // Put the page's signatures where the engine left placeholders.
  async function signed(value, sign) {
    const sigs = await Promise.all(sign.map((bytes) => sign.fn(bytes)));
    const fill = (v) => {
      if (v instanceof Uint8Array) {  // a signature sent as bin
        const i = sigIndex(v);
        return i < 0 ? v : bytesOf(sigs[i]);
      }
      if (typeof v === "string" && v.length === 128 && v.startsWith(SIG_HEX)) {
        return sigs[sigIndex(bytesOf(v))];  // a signature sent as hex
      }
      if (Array.isArray(v)) return v.map(fill);
      if (v && typeof v === "object" && !(v instanceof Uint8Array)) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
      }
      return v;
    };
    return fill(value);
  }

  window.lantableDecks = {
    available, status, tables, prepared,
    load,
    // Load the engine and import `game`'s client half: ready to sit at its table.
    async prepare(publicKey, game) {
      await load(publicKey);
      if (!prepared.has(game)) {
        status.step = "loading the game's rules";
        onChange();
        await call("prepare", game);
        prepared.add(game);
      }
    },
    set onChange(fn) { onChange = fn; },
    // [type, fields] answering a deck_request (signed with `sign(bytes) -> hex`), or
    // throws with the reason this seat cannot answer.
    async answer(raw, sign) {
      tables.add(decode(raw).table);
      const r = await run("answer", raw);
      if (r.problem) throw new Error(r.problem);
      const todo = r.sign.slice();
      todo.fn = sign;
      return [r.t, await signed(r.fields, todo)];
    },
    // Open what a deck_keys opens; returns notices for the person (a card that is none).
    keys: (raw) => run("keys", raw),
    // {hand, legal, labels, problem} for an update to this page's seat.
    update: (raw) => run("update", raw),
  };
})();
