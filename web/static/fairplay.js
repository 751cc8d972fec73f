// Fair play in the browser: a seat's side of docs/protocol.md "Fair play", the same
// steps as clients/fairplay.py: a long-lived Ed25519 key (its public half in
// `hello.key`), a fresh hash chain per table and seat (its tip in `commit`), reveals
// answered on their own, actions signed (`act.base`, `act.sig`), and every
// `fair_event` checked against the commitments.
//
// Two ways to do the crypto, the same bytes either way:
// - WebCrypto (`crypto.subtle`, Ed25519 and SHA-256), where the page is a secure
//   context (http://localhost, https). The private key is generated non-extractable
//   and kept, as a CryptoKey, in IndexedDB: not even this page's code can read it.
// - The vendored noble libraries (web/static/vendor/), where it is not: a phone that
//   opens http://192.168.1.20:47880 gets no `crypto.subtle` at all. The key is then
//   32 random bytes in localStorage (readable by any code this host serves).
// localStorage "lantable.crypto" = "noble" forces the second (the tests use it).
"use strict";

(function () {
  const { encode } = window.MessagePack;
  const DOMAIN = "lantable-fairplay-v1";
  const CHAIN_PREFIX = new TextEncoder().encode("lantable-fairplay-v1 chain\u0000");

  // -- bytes ----------------------------------------------------------------------

  function hex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function unhex(text, size, what) {
    if (typeof text !== "string" || text.length !== 2 * size || !/^[0-9a-f]*$/.test(text)) {
      throw new Error(`${what} must be ${2 * size} lowercase hex digits`);
    }
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  }
  function randomBytes(n) { return crypto.getRandomValues(new Uint8Array(n)); }

  // Canonical msgpack (protocol/fairplay.py `canonical`): every map's keys sorted,
  // shortest forms. The encoder sorts keys in UTF-16 order, which is Python's code
  // point order for every key without characters above U+FFFF (all of lantable's).
  function canonical(value) { return encode(value, { sortKeys: true }); }
  function signedBytes(kind, ...fields) { return canonical([DOMAIN, kind, ...fields]); }

  // -- the two crypto back ends ------------------------------------------------------

  function openDb() {
    return new Promise((resolve, reject) => {
      const req = indexedDB.open("lantable", 1);
      req.onupgradeneeded = () => req.result.createObjectStore("keys");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  function dbDo(mode, fn) {
    return openDb().then((db) => new Promise((resolve, reject) => {
      const tx = db.transaction("keys", mode);
      const req = fn(tx.objectStore("keys"));
      tx.oncomplete = () => { db.close(); resolve(req.result); };
      tx.onerror = () => { db.close(); reject(tx.error); };
    }));
  }

  async function webCrypto() {
    const subtle = crypto.subtle;
    let saved = await dbDo("readonly", (s) => s.get("identity"));
    if (!saved) {
      const pair = await subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
      const pub = hex(new Uint8Array(await subtle.exportKey("raw", pair.publicKey)));
      saved = { privateKey: pair.privateKey, public: pub };
      await dbDo("readwrite", (s) => s.put(saved, "identity"));
    }
    const keys = new Map();  // public hex -> CryptoKey, for checking others' signatures
    return {
      kind: "webcrypto",
      public: saved.public,
      sha256: async (bytes) => new Uint8Array(await subtle.digest("SHA-256", bytes)),
      sign: async (bytes) => hex(new Uint8Array(await subtle.sign("Ed25519", saved.privateKey, bytes))),
      verify: async (pub, sig, bytes) => {
        if (!keys.has(pub)) {
          keys.set(pub, await subtle.importKey("raw", unhex(pub, 32, "public key"), "Ed25519",
            true, ["verify"]));
        }
        return subtle.verify("Ed25519", keys.get(pub), unhex(sig, 64, "signature"), bytes);
      },
    };
  }

  async function noble() {
    const ed = await import("/static/vendor/noble-ed25519-3.2.0.js");
    const { sha256, sha512 } = await import("/static/vendor/noble-hashes-2.4.0/sha2.js");
    ed.hashes.sha512 = sha512;
    let secret = localStorage.getItem("lantable.fairkey");
    if (!/^[0-9a-f]{64}$/.test(secret || "")) {
      secret = hex(randomBytes(32));
      localStorage.setItem("lantable.fairkey", secret);
    }
    const priv = unhex(secret, 32, "key");
    return {
      kind: "noble",
      public: hex(ed.getPublicKey(priv)),
      sha256: async (bytes) => sha256(bytes),
      sign: async (bytes) => hex(ed.sign(bytes, priv)),
      verify: async (pub, sig, bytes) => ed.verify(unhex(sig, 64, "signature"), bytes,
        unhex(pub, 32, "public key"), { zip215: false }),  // RFC 8032 strict, as the host
    };
  }

  // The page's identity: WebCrypto where it has Ed25519, else noble; null (no key:
  // the page can watch fair tables but not sit) only if neither loads.
  async function identity() {
    const forced = localStorage.getItem("lantable.crypto");
    if (forced !== "noble" && window.isSecureContext && crypto.subtle) {
      try { return await webCrypto(); } catch (e) {
        console.warn("WebCrypto Ed25519 is not available here; using the bundled library", e);
      }
    }
    try { return await noble(); } catch (e) {
      console.error("no Ed25519 in this browser: fair tables can be watched, not played", e);
      return null;
    }
  }

  // -- one page's seats ----------------------------------------------------------------

  class FairSeats {
    constructor(id) {
      this.id = id;              // {public, sha256, sign, verify} or null
      this.peer = null;          // which host: chain secrets are kept per host
      this.chains = new Map();   // "table/seat" -> {length, links: [hex, ...]}
      this.commits = new Map();  // table -> Map(seat -> commit)
      this.last = new Map();     // "table/seat" -> [event, link]
      this.events = new Map();   // table -> last event checked
      this.problems = new Map(); // table -> [sentence, ...]
    }

    get key() { return this.id ? this.id.public : null; }

    async chainStep(link) { return this.id.sha256(concat(CHAIN_PREFIX, link)); }

    async build(secret, length) {  // links[0] = tip ... links[length] = secret
      const links = [secret];
      for (let i = 0; i < length; i++) links.push(await this.chainStep(links[i]));
      return links.reverse().map(hex);
    }

    storeKey() { return `lantable.chains.${this.peer}`; }
    stored() {
      try { return JSON.parse(localStorage.getItem(this.storeKey()) || "{}"); } catch { return {}; }
    }

    async chain(table, seat) {  // this page's chain for a seat, from memory or storage
      const key = `${table}/${seat}`;
      if (!this.chains.has(key)) {
        const saved = this.stored()[key];
        if (!saved) return null;
        this.chains.set(key, { length: saved.length,
          links: await this.build(unhex(saved.secret, 32, "secret"), saved.length) });
      }
      return this.chains.get(key);
    }

    // The table ended: its chain secrets will never be asked for again.
    forget(table) {
      const all = this.stored();
      const mine = Object.keys(all).filter((k) => k.startsWith(`${table}/`));
      if (!mine.length) return;
      for (const k of mine) { delete all[k]; this.chains.delete(k); }
      localStorage.setItem(this.storeKey(), JSON.stringify(all));
    }

    // The request (type and fields) that answers a fair_request, or null.
    async answer(req) {
      if (!this.id) return null;
      const key = `${req.table}/${req.seat}`;
      if (req.kind === "commit") {
        const length = req.length || 1024;
        if (!(length >= 1 && length <= 65536)) {
          console.error(`table ${req.table}: a chain of ${length} links is outside 1..65536`);
          return null;
        }
        const secret = randomBytes(32);
        const all = this.stored();  // saved first: a reload after the commit carries on
        all[key] = { secret: hex(secret), length };
        localStorage.setItem(this.storeKey(), JSON.stringify(all));
        const chain = { length, links: await this.build(secret, length) };
        this.chains.set(key, chain);
        const tip = chain.links[0];
        const sig = await this.id.sign(signedBytes("commit", req.table, req.seat, this.key, tip, length));
        return ["commit", { table: req.table, seat: req.seat, tip, length, sig }];
      }
      if (req.kind === "reveal" && Number.isInteger(req.event) && typeof req.digest === "string") {
        const chain = await this.chain(req.table, req.seat);
        if (!chain) {
          console.warn(`table ${req.table} seat ${req.seat}: asked to reveal event ${req.event}, `
            + "but this browser has no chain for that seat");
          return null;
        }
        if (!(req.event >= 1 && req.event <= chain.length)) {
          console.error(`table ${req.table}: event ${req.event} is outside this chain (1..${chain.length})`);
          return null;
        }
        const link = chain.links[req.event];
        const sig = await this.id.sign(signedBytes("reveal", req.table, req.seat, req.event, link,
          req.digest));
        return ["reveal", { table: req.table, seat: req.seat, event: req.event, link, sig }];
      }
      console.warn(`table ${req.table}: a fair_request this page does not understand: ${req.kind}`);
      return null;
    }

    // {base, sig} for an action at a fair table where this page holds `seat`, else null.
    async signAction(table, seat, base, action) {
      if (!this.id || !(await this.chain(table, seat))) return null;
      return { base, sig: await this.id.sign(signedBytes("act", table, seat, base, action)) };
    }

    // The signature of an undo (docs/protocol.md, "Undo by consent"), or null.
    async signUndo(table, seat, seq, undoes) {
      if (!this.id || !(await this.chain(table, seat))) return null;
      return this.id.sign(signedBytes("undo", table, seat, seq, undoes));
    }

    // Check a settled event: signatures, links and seed. Returns what did not check.
    async check(ev) {
      const found = [];
      const t = ev.table;
      if (ev.commits) {
        this.commits.set(t, new Map(ev.commits.map((c) => [c.seat, c])));
        for (const c of ev.commits) {
          try {
            const ok = await this.id.verify(c.key, c.sig,
              signedBytes("commit", t, c.seat, c.key, c.tip, c.length));
            if (!ok) throw new Error("the commit signature does not match the seat's key");
            this.last.set(`${t}/${c.seat}`, [0, c.tip]);
          } catch (e) { found.push(`event ${ev.event}: seat ${c.seat}'s commitment: ${e.message}`); }
        }
      }
      const commits = this.commits.get(t);
      if (!commits) return found;  // joined after event 1: nothing to check against
      for (const r of ev.reveals) {
        try {
          const c = commits.get(r.seat);
          if (!c) throw new Error("no commitment");
          const ok = await this.id.verify(c.key, r.sig,
            signedBytes("reveal", t, r.seat, ev.event, r.link, ev.digest));
          if (!ok) throw new Error("the reveal signature does not match the seat's key");
          const [lastEvent, lastLink] = this.last.get(`${t}/${r.seat}`);
          if (ev.event <= lastEvent) throw new Error(`event ${ev.event} is not after event ${lastEvent}`);
          let value = unhex(r.link, 32, "link");
          for (let i = lastEvent; i < ev.event; i++) value = await this.chainStep(value);
          if (hex(value) !== lastLink) {
            throw new Error(`the link for event ${ev.event} does not hash to the link of event `
              + `${lastEvent} (its commitment)`);
          }
          this.last.set(`${t}/${r.seat}`, [ev.event, r.link]);
        } catch (e) { found.push(`event ${ev.event}: seat ${r.seat}'s reveal: ${e.message}`); }
      }
      const links = ev.reveals.map((r) => [r.seat, r.link]).sort((a, b) => a[0] - b[0]);
      const seed = hex(await this.id.sha256(canonical([DOMAIN, "event", t, ev.event, ev.digest,
        links, ev.fallback ?? null])));
      if (seed !== ev.seed) found.push(`event ${ev.event}: the seed is not the one its reveals give`);
      this.events.set(t, ev.event);
      if (found.length) {
        for (const p of found) console.error(`table ${t}: a fair-play event does not check: ${p}`);
        this.problems.set(t, (this.problems.get(t) || []).concat(found));
      }
      return found;
    }

    // One sentence for the person: what this page checked at `table` (null: nothing yet).
    summary(table) {
      if (!this.events.has(table)) return null;
      const bad = this.problems.get(table) || [];
      if (bad.length) {
        return `Fair play: ${bad.length} problem(s) in the random events; the first: ${bad[0]}`;
      }
      const n = this.events.get(table);
      return `Fair play: ${n === 1 ? "the random event checks" : `all ${n} random events check`} (every seat's `
        + "signature, link and seed). `lantable verify` on the host's journal checks the "
        + "rolls and the result.";
    }
  }

  window.lantableFair = {
    start: async () => new FairSeats(await identity()),
    canonical, hex,  // for tests and curious people at the console
  };
})();
