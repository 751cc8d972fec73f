// The card engine's worker (docs/fair-play.md, "A browser seat at a hidden-deck
// table"): Pyodide, served by this peer under /pyodide/, runs the seat's Python side
// (web/engine/lantable_engine.py over lantable.clients.fairdecks and the game's own
// client half) off the page's main thread, so the page stays responsive while a deck
// is masked. Every message in is {id, op, arg}; every answer {id, ok} or {id, err};
// {progress} says how loading goes. Bytes travel as they are (msgpack from the host,
// msgpack back), never re-encoded here.
"use strict";

let py = null;
let engine = null;

function say(text) { postMessage({ progress: text }); }

async function load(pub) {
  const t0 = performance.now();
  say("downloading Python");
  const { loadPyodide } = await import("/pyodide/pyodide.mjs");
  py = await loadPyodide({ indexURL: "/pyodide/", fullStdLib: false });
  const tPython = performance.now();
  say("loading the game's rules");
  const zip = await (await fetch("/engine/python.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/engine" });
  py.runPython("import sys; sys.path.insert(0, '/engine')");
  const info = JSON.parse(py.FS.readFile("/engine/engine.json", { encoding: "utf8" }));
  const mod = py.pyimport("lantable_engine");
  const games = py.toPy(info.games);
  mod.start(pub, games);
  games.destroy();
  engine = mod.ENGINE;  // kept for the page's life (so is the module it is borrowed from)
  return { ms: Math.round(performance.now() - t0), python_ms: Math.round(tPython - t0),
           pyodide: info.pyodide, wasm_bytes: py._module && py._module.HEAPU8
             ? py._module.HEAPU8.length : null, games: Object.keys(info.games) };
}

function call(op, bytes) {
  const t0 = performance.now();
  const out = engine[op](bytes);
  let data;
  try {
    data = out.getBuffer ? out.getBuffer("u8").data.slice() : out.toJs();
  } finally {
    out.destroy();
  }
  return { data, ms: performance.now() - t0 };
}

onmessage = async (ev) => {
  const { id, op, arg } = ev.data;
  try {
    let ok;
    if (op === "load") ok = await load(arg);
    else if (!engine) throw new Error("the card engine is not loaded");
    else if (op === "answer" || op === "keys" || op === "update") ok = call(op, arg);
    else if (op === "prepare") ok = engine.prepare(arg);
    else throw new Error(`no such engine call: ${op}`);
    postMessage({ id, ok });
  } catch (e) {
    // A Python exception's message is its whole traceback: the person gets its last
    // line, the console the rest.
    const text = String(e && e.message ? e.message : e).trim();
    if (text.includes("\n")) console.warn("card engine:", text);
    postMessage({ id, err: text.split("\n").pop() });
  }
};
