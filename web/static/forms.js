// lantable in the browser: the forms a template action opens, and a game's text board.
//
// A template is a legal action with a `params` map (docs/plugins.md, "Templates";
// plugins/params.py has the kinds): the page builds a form from it, one field per
// parameter, fills the action from what the person set, and sends it. The host's
// game may still refuse the filled action: the reason is shown inside the form.
// The text board is the game's `game_render_text` as blocks (docs/protocol.md,
// "Text-board blocks"), laid out as headings, paragraphs, tables and drawings.
"use strict";

(function () {
  const HEADINGS = 3600;  // tenths of a degree, counter-clockwise from east

  function isTemplate(action) {
    return !!action && typeof action === "object" && !!action.params
      && typeof action.params === "object" && !Array.isArray(action.params);
  }

  function fill(template, values) {  // plugins/params.py fill()
    const out = {};
    for (const [k, v] of Object.entries(template)) if (k !== "params") out[k] = v;
    return Object.assign(out, values);
  }

  // A unit "1/100 mm" counts hundredths of a millimetre: the form shows millimetres.
  function scaleOf(spec) {
    const m = /^1\/(\d+)\s*(.*)$/.exec(spec.unit || "");
    return m ? { factor: Number(m[1]), unit: m[2] } : { factor: 1, unit: spec.unit || "" };
  }
  function decimals(factor) { return factor > 1 ? Math.ceil(Math.log10(factor)) : 0; }
  function words(name) { return String(name).replace(/_/g, " "); }
  function shown(v) { return v !== null && typeof v === "object" ? JSON.stringify(v) : String(v); }

  // One field per parameter: {node, read() -> value or throws a sentence, onChange}.
  function field(name, spec, ctx, changed) {
    const kind = spec.kind;
    if (kind === "choice") return choiceField(name, spec, ctx, changed);
    if (kind === "int" || kind === "number") return numberField(name, spec, ctx, changed);
    if (kind === "heading") return headingField(name, spec, ctx, changed);
    if (kind === "list") return listField(name, spec, ctx, changed);
    const note = ctx.el("p", { class: "form-error" }, ctx.t("This page cannot fill a parameter of kind {kind}.", { kind }));
    return { node: note, read() { throw new Error(ctx.t("This page cannot fill a parameter of kind {kind}.", { kind })); } };
  }

  function labelled(name, spec, ctx, ...inputs) {
    return ctx.el("div", { class: `param param-${spec.kind}`, "data-param": name },
      ctx.el("span", { class: "param-name" }, words(name)), ...inputs,
      spec.help ? ctx.el("small", { class: "param-help" }, spec.help) : null);
  }

  function choiceField(name, spec, ctx, changed) {
    const values = spec.values || [];
    const id = `p-${Math.random().toString(36).slice(2, 9)}`;
    let input;
    let read;
    if (values.length <= 6) {
      input = ctx.el("div", { class: "radios", role: "radiogroup" }, values.map((v, i) =>
        ctx.el("label", { class: "radio" }, ctx.el("input", { type: "radio", name: id, value: i,
          checked: i === 0, onchange: changed }), " ", shown(v))));
      read = () => {
        const on = input.querySelector("input:checked");
        if (!on) throw new Error(ctx.t("Choose a value for {name}.", { name: words(name) }));
        return values[Number(on.value)];
      };
    } else {
      input = ctx.el("select", { name, onchange: changed },
        values.map((v, i) => ctx.el("option", { value: i }, shown(v))));
      read = () => values[Number(input.value)];
    }
    return { node: labelled(name, spec, ctx, input), read };
  }

  function numberField(name, spec, ctx, changed) {
    const { factor, unit } = scaleOf(spec);
    const integer = spec.kind === "int";
    const lo = spec.min / factor;
    const hi = spec.max / factor;
    const dp = integer ? decimals(factor) : 3;
    const start = integer ? Math.round((spec.min + spec.max) / 2) / factor : (lo + hi) / 2;
    const step = integer ? 1 / factor : "any";
    const slider = ctx.el("input", { type: "range", min: lo, max: hi, step, value: start,
      "aria-label": words(name), class: "slider" });
    const box = ctx.el("input", { type: "number", min: lo, max: hi, step, name,
      value: Number(start.toFixed(dp)), inputmode: "decimal", class: "amount" });
    slider.addEventListener("input", () => { box.value = Number(Number(slider.value).toFixed(dp)); changed(); });
    box.addEventListener("input", () => { if (box.value !== "") slider.value = box.value; changed(); });
    const range = ctx.el("small", { class: "param-range" },
      ctx.t("from {lo} to {hi}", { lo: Number(lo.toFixed(dp)), hi: Number(hi.toFixed(dp)) }),
      unit ? ` ${unit}` : "");
    const read = () => {
      const v = Number(box.value);
      if (box.value === "" || !Number.isFinite(v) || v < lo - 1e-9 || v > hi + 1e-9) {
        throw new Error(ctx.t("{name} must be between {lo} and {hi}.",
          { name: words(name), lo: Number(lo.toFixed(dp)), hi: Number(hi.toFixed(dp)) }));
      }
      const raw = v * factor;
      if (!integer) return raw;
      return Math.min(spec.max, Math.max(spec.min, Math.round(raw)));
    };
    return { node: labelled(name, spec, ctx, ctx.el("span", { class: "number-pair" }, slider, box,
      unit ? ctx.el("span", { class: "unit" }, unit) : null), range), read };
  }

  // A heading: a dial to tap or drag, and the same angle typed in degrees.
  function headingField(name, spec, ctx, changed) {
    const R = 44;
    const needle = ctx.svg("line", { x1: 50, y1: 50, x2: 50 + R, y2: 50, class: "needle" });
    const tip = ctx.svg("circle", { cx: 50 + R, cy: 50, r: 6, class: "tip" });
    const marks = [["E", 0], ["N", 90], ["W", 180], ["S", 270]].map(([letter, deg]) => {
      const a = deg * Math.PI / 180;
      return ctx.svg("text", { x: 50 + 36 * Math.cos(a), y: 54 - 36 * Math.sin(a),
        "text-anchor": "middle", class: "mark" }, ctx.t(letter));
    });
    const dial = ctx.svg("svg", { viewBox: "0 0 100 100", class: "dial", role: "img",
      "aria-label": ctx.t("Dial: tap to aim") },
    ctx.svg("circle", { cx: 50, cy: 50, r: R + 2, class: "face" }), ...marks, needle, tip);
    const box = ctx.el("input", { type: "number", min: 0, max: 359.9, step: 0.1, value: 0, name,
      inputmode: "decimal", class: "degrees" });
    const draw = () => {
      const a = (Number(box.value) || 0) * Math.PI / 180;
      const x = 50 + R * Math.cos(a);
      const y = 50 - R * Math.sin(a);
      needle.setAttribute("x2", x); needle.setAttribute("y2", y);
      tip.setAttribute("cx", x); tip.setAttribute("cy", y);
    };
    const aim = (ev) => {
      const r = dial.getBoundingClientRect();
      const dx = ev.clientX - (r.left + r.width / 2);
      const dy = (r.top + r.height / 2) - ev.clientY;
      let deg = Math.round(Math.atan2(dy, dx) * 180 / Math.PI);
      if (deg < 0) deg += 360;
      box.value = deg % 360;
      draw();
      changed();
    };
    let dragging = false;
    dial.addEventListener("pointerdown", (ev) => { dragging = true; aim(ev); ev.preventDefault(); });
    dial.addEventListener("pointermove", (ev) => { if (dragging) aim(ev); });
    for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
      dial.addEventListener(end, () => { dragging = false; });
    }
    box.addEventListener("input", () => { draw(); changed(); });
    const read = () => {
      const v = Number(box.value);
      if (box.value === "" || !Number.isFinite(v) || v < 0 || v >= 360) {
        throw new Error(ctx.t("{name} must be an angle from 0 to 359.9 degrees.", { name: words(name) }));
      }
      return Math.round(v * 10) % HEADINGS;
    };
    return { node: labelled(name, spec, ctx, ctx.el("span", { class: "heading-pair" }, dial,
      ctx.el("label", { class: "deg" }, box, " °"),
      ctx.el("small", { class: "param-range" }, ctx.t("0° points east (right), 90° north (up), counter-clockwise.")))),
    read };
  }

  function listField(name, spec, ctx, changed) {
    const lo = spec.min_items ?? 0;
    const hi = spec.max_items;
    const items = [];
    const holder = ctx.el("ol", { class: "items" });
    const add = ctx.el("button", { type: "button", class: "add-item" }, ctx.t("Add a step"));
    const redo = () => {
      holder.replaceChildren(...items.map((it, i) => ctx.el("li", { class: "item" },
        it.node, items.length > lo ? ctx.el("button", { type: "button", class: "remove-item",
          "aria-label": ctx.t("Remove step {n}", { n: i + 1 }),
          onclick: () => { items.splice(i, 1); redo(); changed(); } }, ctx.t("Remove")) : null)));
      add.hidden = items.length >= hi;
    };
    const newItem = () => {
      const fields = Object.entries(spec.item).map(([k, s]) => [k, field(k, s, ctx, changed)]);
      return { node: ctx.el("div", { class: "item-fields" }, fields.map(([, f]) => f.node)),
        read: () => Object.fromEntries(fields.map(([k, f]) => [k, f.read()])) };
    };
    add.addEventListener("click", () => { if (items.length < hi) { items.push(newItem()); redo(); changed(); } });
    for (let i = 0; i < Math.max(lo, 1) && i < hi; i++) items.push(newItem());
    redo();
    const read = () => {
      if (items.length < lo || items.length > hi) {
        throw new Error(ctx.t("{name} needs from {lo} to {hi} steps.", { name: words(name), lo, hi }));
      }
      return items.map((it) => it.read());
    };
    return { node: labelled(name, spec, ctx, holder, add), read };
  }

  // A query's answer, in plain words: what the game says the filled action would do.
  function answerNode(answer, ctx) {
    if (answer && typeof answer === "object" && !Array.isArray(answer) && answer.blocked) {
      return ctx.el("p", { class: "blocked" }, ctx.t("The game says: {why}", { why: String(answer.blocked) }));
    }
    const say = (v, depth) => {
      if (v === null || v === undefined) return ctx.t("none");
      if (Array.isArray(v)) {
        if (v.every((x) => x === null || typeof x !== "object")) return v.map((x) => say(x, depth + 1)).join(", ");
        const last = v[v.length - 1];
        return v.length > 1 ? `${v.length} × … ${ctx.t("last")}: ${say(last, depth + 1)}` : say(last, depth + 1);
      }
      if (typeof v === "object") {
        return Object.entries(v).map(([k, x]) => `${words(k)} ${say(x, depth + 1)}`).join("; ");
      }
      return String(v);
    };
    if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
      return ctx.el("p", {}, say(answer, 0));
    }
    return ctx.el("dl", { class: "answer" }, Object.entries(answer).map(([k, v]) =>
      [ctx.el("dt", {}, words(k)), ctx.el("dd", {}, say(v, 1))]));
  }

  // The form for one template. `opts`: {label, send(action, onRefused), cancel(),
  // queryType (or null), query(q) -> Promise, describe(q, answer) -> node|string|null}.
  function templateForm(template, opts, ctx) {
    const fields = Object.entries(template.params).map(([k, s]) => [k, field(k, s, ctx, () => changed())]);
    const error = ctx.el("p", { class: "form-error", role: "alert", hidden: true });
    const preview = opts.queryType
      ? ctx.el("div", { class: "preview", "aria-live": "polite", "data-query": opts.queryType }) : null;
    const send = ctx.el("button", { type: "submit", class: "primary send" }, ctx.t("Send"));
    const form = ctx.el("form", { class: "template-form", id: "template-form", "data-type": template.type },
      ctx.el("h3", {}, opts.label),
      ctx.el("div", { class: "params" }, fields.map(([, f]) => f.node)),
      preview, error,
      ctx.el("div", { class: "form-buttons" }, send,
        ctx.el("button", { type: "button", class: "cancel", onclick: () => opts.cancel() }, ctx.t("Cancel"))));
    const read = () => fill(template, Object.fromEntries(fields.map(([k, f]) => [k, f.read()])));
    const say = (text) => { error.textContent = text; error.hidden = !text; };
    let timer = null;
    let asked = 0;
    const ask = () => {
      if (!preview) return;
      let action;
      try { action = read(); } catch (e) { preview.replaceChildren(); return; }
      const q = Object.assign({}, action, { type: opts.queryType });
      const mine = ++asked;
      preview.dataset.state = "asking";
      opts.query(q).then((answer) => {
        if (mine !== asked) return;
        const custom = opts.describe ? opts.describe(q, answer) : null;
        preview.replaceChildren(ctx.el("h4", {}, ctx.t("If you send this")),
          custom !== null && custom !== undefined ? custom : answerNode(answer, ctx));
        preview.dataset.state = "answered";
      }, (err) => {
        if (mine !== asked) return;
        preview.replaceChildren(ctx.el("p", { class: "blocked" }, err && err.message ? err.message : String(err)));
        preview.dataset.state = "refused";
      });
    };
    function changed() {
      say("");
      if (preview) preview.dataset.state = "changed";
      clearTimeout(timer);
      timer = setTimeout(ask, 250);
    }
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      let action;
      try { action = read(); } catch (e) { say(e.message); return; }
      say("");
      opts.send(action, (err) => say(ctx.t("Refused: {why}", { why: err.message || err.code })));
    });
    form.lantableSay = say;
    if (preview) setTimeout(ask, 0);
    return form;
  }

  // -- the text board ------------------------------------------------------------

  function textBoard(blocks, ctx) {
    const box = ctx.el("div", { class: "textboard" });
    for (const b of blocks || []) {
      const node = block(b, ctx);
      if (node) box.append(node);
    }
    return box;
  }

  function block(b, ctx) {
    if (!b || typeof b !== "object") return null;
    switch (b.kind) {
      case "heading": return ctx.el("h3", {}, b.text);
      case "text":
        return ctx.el("div", { class: "tb-text" }, String(b.text).split("\n").filter((l) => l.trim())
          .map((line) => ctx.el("p", {}, line)));
      case "pre": return ctx.el("div", { class: "scroll-x" }, ctx.el("pre", {}, b.text));
      case "table": {
        const cols = b.columns || [];
        const head = cols.length && cols.some((c) => c)
          ? ctx.el("thead", {}, ctx.el("tr", {}, cols.map((c) => ctx.el("th", {}, c)))) : null;
        const body = ctx.el("tbody", {}, (b.rows || []).map((r) => ctx.el("tr", {},
          r.map((c, i) => (!head && i === 0 ? ctx.el("th", { scope: "row" }, c) : ctx.el("td", {}, c))))));
        return ctx.el("section", { class: "tb-table" },
          b.title ? ctx.el("h3", {}, b.title) : null,
          ctx.el("div", { class: "scroll-x" }, ctx.el("table", {}, head, body)),
          b.caption ? ctx.el("div", { class: "tb-text caption" }, String(b.caption).split("\n")
            .filter((l) => l.trim()).map((line) => ctx.el("p", {}, line))) : null);
      }
      case "group":
        return ctx.el("section", { class: "tb-group" }, b.title ? ctx.el("h3", {}, b.title) : null,
          (b.blocks || []).map((x) => block(x, ctx)));
      default: return null;  // a kind this page does not know (docs/protocol.md)
    }
  }

  window.lantableForms = { isTemplate, fill, templateForm, textBoard, scaleOf };
})();
