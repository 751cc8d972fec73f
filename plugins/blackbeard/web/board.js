// Blackbeard's board for the lantable web app: the seas from the Atlantic to India
// with their Transit Boxes, the ports (Pirate Ports, Pro- and Anti-Pirate Governors,
// Safe Havens), pirates in their players' colours, face-down merchants, warships and
// King's Commissioners; every Pirate Display, your hand by card name, the General
// Pardons and what ends the game. Drawn from the seat's view only.
//
// Places and pieces that one of your legal actions names glow and can be tapped
// (tap one of your pirates first when several could go); the buttons under the board
// stay the complete list, with the game's own labels. Attacks, finds and loots show
// the odds their labels compute next to the target.
"use strict";

(function () {
  /* data: start */
  const DATA = {"areas":{"NATL":{"name":"N. Atlantic","adj":["CATL"]},"CATL":{"name":"C. Atlantic","adj":["NATL","SATL"]},"SATL":{"name":"S. Atlantic","adj":["CATL","CARIB","CAM"]},"CARIB":{"name":"Caribbean","adj":["SATL","CAM","SAM"]},"CAM":{"name":"C. America","adj":["SATL","CARIB","SAM"]},"SAM":{"name":"S. America","adj":["CARIB","CAM"]},"GOLD":{"name":"Gold Coast","adj":[]},"EAFR":{"name":"East Africa","adj":[]},"INDIA":{"name":"India","adj":[]}},"transit":{"T-ATL":{"name":"Atlantic crossing","links":["CARIB","GOLD"]},"T-CAPE":{"name":"Cape of Good Hope","links":["GOLD","EAFR"]},"T-ARAB":{"name":"Arabian Sea","links":["EAFR","INDIA"]}},"ports":[{"name":"Boston","area":"NATL","nat":"ENG","value":2,"defense":6},{"name":"New York","area":"NATL","nat":"ENG","value":2,"defense":5},{"name":"Charles Town","area":"CATL","nat":"ENG","value":2,"defense":4},{"name":"Nassau","area":"SATL","nat":"PIR","value":1,"defense":3},{"name":"St. Augustine","area":"SATL","nat":"SPA","value":2,"defense":4},{"name":"Port Royal","area":"CARIB","nat":"ENG","value":3,"defense":6},{"name":"Tortuga","area":"CARIB","nat":"PIR","value":1,"defense":3},{"name":"Santo Domingo","area":"CARIB","nat":"SPA","value":3,"defense":5},{"name":"Martinique","area":"CARIB","nat":"FRA","value":2,"defense":4},{"name":"Havana","area":"CAM","nat":"SPA","value":4,"defense":7},{"name":"Veracruz","area":"CAM","nat":"SPA","value":4,"defense":6},{"name":"Cartagena","area":"SAM","nat":"SPA","value":4,"defense":7},{"name":"Curaçao","area":"SAM","nat":"DUT","value":2,"defense":4},{"name":"Cape Coast","area":"GOLD","nat":"ENG","value":2,"defense":4},{"name":"Whydah","area":"GOLD","nat":"FRA","value":2,"defense":3},{"name":"St. Mary's (Madagascar)","area":"EAFR","nat":"PIR","value":1,"defense":3},{"name":"Mocha","area":"EAFR","nat":"ARA","value":3,"defense":5},{"name":"Surat","area":"INDIA","nat":"MUG","value":5,"defense":6}],"pirates":[{"name":"Edward Teach","ability":3,"initiative":3,"cruelty":5,"duel":4},{"name":"Bartholomew Roberts","ability":4,"initiative":4,"cruelty":3,"duel":3},{"name":"Henry Every","ability":3,"initiative":3,"cruelty":2,"duel":2},{"name":"Stede Bonnet","ability":1,"initiative":2,"cruelty":2,"duel":1},{"name":"John Rackham","ability":2,"initiative":3,"cruelty":2,"duel":2},{"name":"Edward Low","ability":2,"initiative":3,"cruelty":5,"duel":3},{"name":"William Kidd","ability":2,"initiative":2,"cruelty":2,"duel":2},{"name":"Olivier La Buse","ability":3,"initiative":3,"cruelty":3,"duel":3},{"name":"Christopher Condent","ability":3,"initiative":3,"cruelty":3,"duel":2},{"name":"Charles Vane","ability":3,"initiative":4,"cruelty":4,"duel":3}],"ships":["Sloop","Brigantine","Frigate","Ship"],"merchants":[["ENG",1,0],["SPA",2,0],["FRA",3,0],["DUT",4,0],["ENG",1,0],["SPA",2,0],["FRA",3,1],["DUT",4,1],["ENG",1,1],["SPA",2,1],["FRA",3,1],["DUT",4,1],["ENG",1,2],["SPA",2,2],["FRA",3,2],["DUT",4,2],["ENG",1,2],["SPA",2,2],["FRA",3,3],["DUT",4,3],["ENG",1,3],["SPA",2,3],["FRA",3,4],["DUT",4,4]],"warships":[[1,2],[1,2],[1,2],[1,2],[1,2],[1,3],[1,3],[1,3],[1,3],[2,3],[2,3],[2,3],[0,4],[0,4],[2,4]],"kcs":[[1,4],[1,5],[1,6],[2,4],[2,5],[2,5],[2,6],[3,5],[3,6]],"cards":["Fair Winds","Fair Winds","Fair Winds","Fair Winds","Fair Winds","Fair Winds","Sail Ho!","Sail Ho!","Sail Ho!","Sail Ho!","Sail Ho!","Sail Ho!","Bold Captain","Bold Captain","Bold Captain","Bold Captain","Bold Captain","Bold Captain","Heavy Guns","Heavy Guns","Letter of Marque","Letter of Marque","Piratical Ambition","Piratical Ambition","Commission Orders","Commission Orders","Rumour of Treasure","Rumour of Treasure","Press Gang","Press Gang","Mutiny Conspiracy","Mutiny Conspiracy","Mutiny Conspiracy","Scurvy Outbreak","Scurvy Outbreak","Scurvy Outbreak","Storm","Storm","Storm","Storm","Debauchery & Revelry","Debauchery & Revelry","Debauchery & Revelry","Merchant Slips Away","Merchant Slips Away","General Pardon","General Pardon","General Pardon","Merchant Fleet Sails","Merchant Fleet Sails","Hurricane Season","Hurricane Season"]};
  /* data: end */
  const SEAT_COLOUR = ["#d62828", "#1d70b8", "#2b9348", "#f77f00", "#7b2cbf"];
  const W = 400;
  // Sea Areas and Transit Boxes: a schematic chart, west to east.
  const PLACE = {
    NATL: [8, 8], CATL: [8, 84], SATL: [104, 84], CAM: [8, 160], CARIB: [104, 160],
    SAM: [56, 236], "T-ATL": [200, 178], GOLD: [200, 236], "T-CAPE": [300, 284],
    EAFR: [304, 196], "T-ARAB": [312, 128], INDIA: [304, 40],
  };
  const BOX = [92, 70];   // a Sea Area
  const TBOX = [84, 46];  // a Transit Box
  const MAP_H = 340;
  let selected = null;    // the pirate id tapped last (one of yours)

  const opening = (label) => {  // "Teach attacks Havana (2d6+6 vs 2d6+7; ...)" -> odds
    const m = /\(([^)]*)\)/.exec(label || "");
    return m ? m[1].split(";")[0] : "";
  };

  const renderer = {
    render(host, update, ctx) {
      const v = update.view;
      const s = ctx.svg;
      const D = DATA;
      const me = ctx.seat;
      const name = (seat) => (seat === null || seat === undefined ? "nobody" : ctx.names[seat] || `seat ${seat + 1}`);
      const colour = (seat) => SEAT_COLOUR[(seat || 0) % 5];
      const pirates = v.pirates;
      const mine = pirates.filter((p) => p.owner === me && (p.status === "map" || p.status === "reserve"));
      if (selected !== null && !mine.some((p) => p.id === selected)) selected = null;
      const onMap = mine.filter((p) => p.status === "map");

      // -- what the legal actions let a tap do: target key -> legal indices ----------
      const targets = new Map();
      ctx.legal.forEach((a, i) => {
        if (ctx.busy) return;
        const forPirate = a.pirate === undefined || selected === null || a.pirate === selected;
        let key = null;
        if ((a.type === "move" || a.type === "deploy") && forPirate) {
          key = a.port !== undefined ? `port:${a.port}` : `area:${a.to || a.area}`;
        } else if ((a.type === "find" || a.type === "loot") && forPirate) key = `mer:${a.slot}`;
        else if (a.type === "attack_port" && forPirate) key = `attack:${a.port}`;
        else if (a.type === "commission_kc" || a.type === "kc_move") key = `area:${a.area || a.to}`;
        else if (a.type === "appoint_governor") key = `port:${a.port}`;
        else if (a.type === "warship_attack") key = `ws:${a.ws}`;
        else if (a.type === "react") key = `kc:${a.kc}`;
        if (key) targets.set(key, [...(targets.get(key) || []), i]);
      });
      function tap(node, key) {
        const hits = targets.get(key);
        if (!hits || hits.length !== 1) return node;
        const i = hits[0];
        node.setAttribute("class", `${node.getAttribute("class") || ""} tap`);
        node.setAttribute("role", "button");
        node.setAttribute("data-action", JSON.stringify(ctx.legal[i]));
        node.append(s("title", { text: ctx.labels[i] || "" }));
        node.addEventListener("click", (e) => { e.stopPropagation(); ctx.act(ctx.legal[i]); });
        return node;
      }
      const text = (x, y, t, attrs = {}) => s("text", { x, y, "font-size": 10, fill: "#1b1f24", ...attrs, text: t });

      // -- the chart ---------------------------------------------------------------
      const map = [s("rect", { x: 0, y: 0, width: W, height: MAP_H, fill: "#cfe8f3", rx: 8 })];
      const centre = (id) => {
        const [x, y] = PLACE[id];
        const [w, h] = D.transit[id] ? TBOX : BOX;
        return [x + w / 2, y + h / 2];
      };
      const drawn = new Set();
      for (const [id, a] of Object.entries(D.areas)) {
        for (const b of a.adj) {
          const k = [id, b].sort().join("-");
          if (drawn.has(k)) continue;
          drawn.add(k);
          const [x1, y1] = centre(id), [x2, y2] = centre(b);
          map.push(s("line", { x1, y1, x2, y2, stroke: "#7fa7bd", "stroke-width": 2 }));
        }
      }
      for (const [id, t] of Object.entries(D.transit)) {
        for (const b of t.links) {
          const [x1, y1] = centre(id), [x2, y2] = centre(b);
          map.push(s("line", { x1, y1, x2, y2, stroke: "#7fa7bd", "stroke-width": 2, "stroke-dasharray": "4 3" }));
        }
      }
      const here = (list, id) => list.filter((x) => x.area === id);
      for (const id of Object.keys(PLACE)) {
        const [x, y] = PLACE[id];
        const transit = Boolean(D.transit[id]);
        const [w, h] = transit ? TBOX : BOX;
        const g = s("g", { class: "place", "data-area": id });
        g.append(s("rect", { x, y, width: w, height: h, rx: 6, fill: transit ? "#e3f1f7" : "#f4fbfe",
          stroke: "#5b8aa6", "stroke-dasharray": transit ? "4 3" : null }));
        g.append(text(x + 4, y + 11, transit ? D.transit[id].name : D.areas[id].name,
          { "font-weight": 600, "font-size": transit ? 8.5 : 9.5 }));
        tap(g, `area:${id}`);
        map.push(g);
        // ports along the bottom edge
        if (!transit) {
          D.ports.forEach((p, i) => {
            if (p.area !== id) return;
            const k = D.ports.slice(0, i).filter((q) => q.area === id).length;
            const px = x + 10 + k * 22, py = y + h - 10;
            const gov = v.governors[i];
            const haven = pirates.find((q) => q.safe_haven === i && q.status === "map");
            const pg = s("g", { class: "port", "data-port": i, "data-governor": gov || "none" });
            pg.append(s("circle", { cx: px, cy: py, r: 7.5,
              fill: p.nat === "PIR" ? "#1b1f24" : "#fff",
              stroke: gov === "pro" ? "#2b9348" : gov === "anti" ? "#d62828" : "#5b8aa6",
              "stroke-width": gov ? 3 : 1.2 }));
            pg.append(text(px, py + 3.5, p.nat === "PIR" ? "☠" : String(i + 1),
              { "text-anchor": "middle", "font-size": 8.5, fill: p.nat === "PIR" ? "#fff" : "#1b1f24" }));
            if (haven) pg.append(s("rect", { x: px + 4, y: py - 11, width: 6, height: 6, fill: colour(haven.owner) }));
            const govWords = gov === "pro" ? ", Pro-Pirate Governor" : gov === "anti" ? ", Anti-Pirate Governor" : "";
            pg.append(s("title", { text: `${p.name} (${p.nat === "PIR" ? "Pirate Port" : p.nat}, value ${p.value}, defence ${p.defense}${govWords})${haven ? `, ${D.pirates[haven.id].name}'s Safe Haven` : ""}` }));
            tap(pg, `port:${i}`);
            map.push(pg);
            const atk = targets.get(`attack:${i}`);
            if (atk && atk.length === 1) {
              const badge = s("g", { class: "odds" },
                s("rect", { x: px - 8, y: py - 26, width: 62, height: 13, rx: 3, fill: "#fff3bf", stroke: "#e0a800" }),
                text(px - 5, py - 16.5, `⚔ ${opening(ctx.labels[atk[0]])}`, { "font-size": 8 }));
              map.push(tap(badge, `attack:${i}`));
            }
          });
        }
        // pieces in the area: pirates at sea or in port, merchants, warships, KCs
        const row = [];
        for (const p of pirates) if (p.area === id && (p.status === "map" || p.status === "adrift")) row.push(["p", p]);
        for (const m of here(v.merchants, id)) row.push(["m", m]);
        for (const w2 of here(v.warships, id)) row.push(["w", w2]);
        for (const k of here(v.commissioners, id)) row.push(["k", k]);
        const perRow = Math.floor((w - 6) / 15);
        row.forEach(([kind, x2], n) => {
          const cx = x + 10 + (n % perRow) * 15, cy = y + 24 + Math.floor(n / perRow) * 15;
          let node;
          if (kind === "p") {
            const info = D.pirates[x2.id];
            const inPort = x2.port !== null ? ` in ${D.ports[x2.port].name}` : " at sea";
            node = s("g", { class: `pirate${x2.id === selected ? " selected" : ""}`, "data-pirate": x2.id },
              s("circle", { cx, cy, r: 6.5, fill: colour(x2.owner), stroke: x2.id === selected ? "#ffd166" : "#fff", "stroke-width": x2.id === selected ? 3 : 1.5 }),
              text(cx, cy + 3, info.name.split(" ").slice(-1)[0][0], { "text-anchor": "middle", fill: "#fff", "font-size": 8, "font-weight": 700 }),
              s("title", { text: `${info.name} (${name(x2.owner)})${inPort}: ${D.ships[x2.ship]}, speed ${x2.speed}, combat ${x2.combat}, loyalty ${x2.loyalty}, cunning ${x2.cunning}, notoriety ${x2.notoriety}, booty ${x2.holds.reduce((a, b) => a + b, 0)}, Net Worth ${x2.net_worth}` }));
            if (x2.owner === me && onMap.length > 1) {
              node.setAttribute("role", "button");
              node.addEventListener("click", (e) => { e.stopPropagation(); selected = x2.id; redraw(); });
            }
          } else if (kind === "m") {
            const face = x2.face_up ? D.merchants[x2.id] : null;
            node = s("g", { class: "merchant", "data-merchant": x2.slot },
              s("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, rx: 2, fill: face ? "#ffe8a3" : "#8d99ae", stroke: "#fff" }),
              text(cx, cy + 3.5, face ? String(face[2]) : "?", { "text-anchor": "middle", "font-size": 8.5, fill: face ? "#1b1f24" : "#fff" }),
              s("title", { text: face ? `merchant: ${face[0]}, size ${face[1]}, cargo ${face[2]}${x2.found_by !== null ? `, found by ${D.pirates[x2.found_by].name}` : ""}` : "a merchant, face down" }));
            const hits = targets.get(`mer:${x2.slot}`);
            if (hits && hits.length === 1) {
              map.push(text(cx - 6, cy - 9, opening(ctx.labels[hits[0]]), { "font-size": 7, fill: "#7a4b00" }));
            }
            tap(node, `mer:${x2.slot}`);
          } else if (kind === "w") {
            const [sp, cb] = D.warships[x2.id];
            node = s("g", { class: "warship", "data-ws": x2.slot },
              s("path", { d: `M${cx - 7} ${cy + 5} L${cx + 7} ${cy + 5} L${cx} ${cy - 7} Z`, fill: "#243b53", stroke: "#fff" }),
              s("title", { text: `a warship (speed ${sp}, combat ${cb})` }));
            tap(node, `ws:${x2.slot}`);
          } else {
            const [sp, cb] = D.kcs[x2.id];
            node = s("g", { class: "kc", "data-kc": x2.id },
              s("path", { d: `M${cx} ${cy - 7} L${cx + 7} ${cy} L${cx} ${cy + 7} L${cx - 7} ${cy} Z`, fill: colour(x2.owner), stroke: "#1b1f24" }),
              text(cx, cy + 3, "K", { "text-anchor": "middle", "font-size": 7, fill: "#fff" }),
              s("title", { text: `${name(x2.owner)}'s King's Commissioner ${x2.id + 1} (speed ${sp}, combat ${cb})` }));
            tap(node, `kc:${x2.id}`);
          }
          map.push(node);
        });
      }

      // -- the state of the game ------------------------------------------------------
      const panel = [];
      let y = MAP_H + 16;
      const phasing = v.turn_order[v.turn_index];
      const t = v.this_turn;
      const head = v.over ? "Game over" : t === null ? "Setting up" :
        `Turn ${v.player_turns}: ${name(phasing)}${t.actions_left ? `, ${t.actions_left} Action${t.actions_left === 1 ? "" : "s"} left` : ""}`;
      panel.push(text(6, y, head, { "font-size": 13, "font-weight": 700 }));
      y += 16;
      const pardons = s("text", { x: 6, y, "font-size": 11, "data-count": "general-pardons", "data-value": v.general_pardons,
        text: `General Pardons: ${v.general_pardons} of 3 (the 3rd ends the game${v.options.max_turns < 300 ? `; or after turn ${v.options.max_turns}` : ""})` });
      panel.push(pardons);
      y += 14;
      panel.push(s("text", { x: 6, y, "font-size": 11, "data-count": "deck", "data-value": v.deck_size,
        text: `Deck: ${v.deck_size} cards · merchants in the pool: ${v.merchant_pool_size}` }));
      y += 16;
      // players: hand size, AP VP, score so far
      for (let seat = 0; seat < v.n_players; seat++) {
        const vp = v.ap_vp[seat] + pirates.filter((p) => p.owner === seat && ["map", "adrift", "retired", "dead"].includes(p.status))
          .reduce((a, p) => a + p.notoriety + p.bonus_vp + (p.status === "retired" ? Math.floor(p.net_worth / 100) : 0), 0);
        panel.push(s("g", { "data-seat": seat, "data-hand-size": v.hand_sizes[seat] },
          s("circle", { cx: 11, cy: y - 4, r: 5, fill: colour(seat) }),
          text(22, y, `${name(seat)}${seat === phasing && t !== null && !v.over ? " (their turn)" : ""}: ${v.hand_sizes[seat]} cards, ${vp} VP so far (AP ${v.ap_vp[seat]})`, { "font-size": 11 })));
        y += 15;
      }
      y += 6;
      // the key to the chart, and the ports by number
      panel.push(text(6, y, "☠ Pirate Port · green ring: Pro-Pirate Governor · red ring: Anti-Pirate Governor",
        { "font-size": 9 }));
      y += 12;
      panel.push(text(6, y, "● pirate (player colour, in port or at sea) · ? merchant face down (or its cargo) · ▲ warship · ◆ KC",
        { "font-size": 9 }));
      y += 6;
      const half = Math.ceil(D.ports.length / 2);
      D.ports.forEach((p, i) => {
        const col = i < half ? 0 : 1, r = i < half ? i : i - half;
        const who = pirates.filter((q) => q.port === i && q.status === "map").map((q) => D.pirates[q.id].name.split(" ").slice(-1)[0]);
        panel.push(text(6 + col * (W / 2), y + 11 + r * 11,
          `${i + 1} ${p.name}${p.nat === "PIR" ? " ☠" : ""}${v.governors[i] ? ` (${v.governors[i]})` : ""}${who.length ? `: ${who.join(", ")}` : ""}`,
          { "font-size": 9, fill: who.length ? "#7a4b00" : "#1b1f24" }));
      });
      y += 11 * half + 18;
      // Pirate Displays
      panel.push(text(6, y, onMap.length > 1 && !v.over ? "Pirate Displays (tap one of yours to choose it)" : "Pirate Displays",
        { "font-size": 11, "font-weight": 700 }));
      y += 6;
      const shown = pirates.filter((p) => p.owner !== null && (p.status !== "reserve" || p.owner === me) && p.status !== "deck");
      for (const p of shown) {
        const info = D.pirates[p.id];
        const booty = p.holds.reduce((a, b) => a + b, 0);
        const notes = [p.dr_turn !== null ? "D&R" : "", p.scurvy ? "scurvy" : "", p.heavy_guns.length ? "Heavy Guns" : "",
          p.hostages.length ? `${p.hostages.length} hostage${p.hostages.length > 1 ? "s" : ""}` : "",
          p.safe_haven !== null ? `Safe Haven at ${D.ports[p.safe_haven].name}` : ""].filter(Boolean).join(", ");
        const where = p.status === "map" ? (p.port !== null ? D.ports[p.port].name : (D.areas[p.area] || D.transit[p.area]).name) : p.status;
        const g = s("g", { class: `display${p.id === selected ? " selected" : ""}`, "data-display": p.id },
          s("rect", { x: 4, y: y + 2, width: W - 8, height: 38, rx: 5, fill: p.id === selected ? "#fff3bf" : "#f8f9fa", stroke: colour(p.owner), "stroke-width": 2 }),
          text(10, y + 15, `${info.name} (${name(p.owner)}) · ${where}${p.status === "map" ? ` · ${D.ships[p.ship]}` : ""}`, { "font-size": 10.5, "font-weight": 600 }),
          text(10, y + 30, `speed ${p.speed} · combat ${p.combat} · loyalty ${p.loyalty} · cunning ${p.cunning} · notoriety ${p.notoriety} · booty ${booty} · Net Worth ${p.net_worth}`, { "font-size": 9 }),
          notes ? s("title", { text: notes }) : null);
        if (notes) g.append(text(W - 10, y + 15, notes.length > 24 ? `${notes.slice(0, 23)}…` : notes, { "font-size": 8.5, "text-anchor": "end", fill: "#7a4b00" }));
        if (p.owner === me && (p.status === "map" || p.status === "reserve")) {
          g.setAttribute("role", "button");
          g.addEventListener("click", () => { selected = selected === p.id ? null : p.id; redraw(); });
        }
        panel.push(g);
        y += 42;
      }
      // the hand
      if (v.hand) {
        y += 14;
        panel.push(text(6, y, "Your hand", { "font-size": 11, "font-weight": 700 }));
        y += 4;
        let x = 4;
        for (const c of v.hand) {
          const label = D.cards[c] ?? "a hidden-deck card";  // option hidden_deck: a position
          const w = 8 + label.length * 6;
          if (x + w > W - 4) { x = 4; y += 24; }
          panel.push(s("g", { class: "card", "data-card": c },
            s("rect", { x, y: y + 2, width: w, height: 20, rx: 4, fill: "#fdf0d5", stroke: "#9c6b3c" }),
            text(x + 4, y + 16, label, { "font-size": 10 })));
          x += w + 4;
        }
        y += 26;
      }
      const total = y + 8;
      const svg = s("svg", { class: "blackbeard", viewBox: `0 0 ${W} ${total}`, width: "100%", role: "img",
        "aria-label": "Blackbeard: the seas, the ports and the Pirate Displays", style: "max-width: 640px; display: block; margin: 0 auto; font-family: sans-serif" },
      s("style", { text: ".tap{cursor:pointer}.tap rect,.tap circle,.tap path{filter:drop-shadow(0 0 3px #ffb703)}g.place.tap>rect{stroke:#ffb703;stroke-width:3}g[role=button]{cursor:pointer}" }),
      ...map, ...panel);
      host.replaceChildren(svg);

      // choosing a pirate changes only which targets glow: draw again, same update
      function redraw() { renderer.render(host, update, ctx); }
    },
  };
  lantable.registerRenderer("blackbeard", renderer);
})();
