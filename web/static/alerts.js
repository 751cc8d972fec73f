// "Your move", even when the page is not in front (issue 30): the tab's title and
// icon change while it is your turn; when the turn comes to you the phone vibrates
// where the browser allows it, a short sound plays if you turned it on (off by
// default), and a notification shows if you allowed them and the page is hidden.
// Browsers allow notifications only on a secure page (https, or localhost): a LAN page
// on plain http is not one, and the page says so instead of offering them.
"use strict";

(function () {
  const T = (key, vars) => window.lantable.t(key, vars);
  const page = () => window.lantable.page;
  const el = (...args) => window.lantable.el(...args);
  const MARK = "▶ ";
  const ICON = "/static/icon.svg";
  // The page's icon with an orange dot: "your move" in the tab strip.
  const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d3557"/>' +
    '<circle cx="16" cy="16" r="11" fill="#e07a1f"/><circle cx="16" cy="16" r="5" fill="#f7f4ec"/></svg>');

  let sound = localStorage.getItem("lantable.sound") === "1";
  let audio = null;   // an AudioContext, made on the person's click (browsers need one)
  let last = "";      // "table/seq" of the last turn we alerted for
  let showing = false;

  function myTurn(u) {
    return Boolean(u && u.status === "playing" && u.seat !== null && u.seat !== undefined
      && u.to_act.includes(u.seat));
  }

  function secure() { return window.isSecureContext === true; }
  function canNotify() { return secure() && "Notification" in window; }

  function beep() {
    if (!audio) return;
    try {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.35);
    } catch (e) { console.error(e); }
  }

  function setIcon(href) {
    const link = document.querySelector('link[rel="icon"]');
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }

  // After every message (app.js has drawn by then): the title, the icon, and the
  // alerts when the turn has just come to this seat.
  function check() {
    const S = page().state();
    const t = S.table;
    const u = t && t.update;
    const turn = myTurn(u);
    const prefix = MARK + T("Your move") + " · ";
    const base = document.title.startsWith(prefix) ? document.title.slice(prefix.length)
      : document.title.startsWith(MARK) ? document.title.slice(document.title.indexOf(" · ") + 3) : document.title;
    const title = turn ? prefix + base : base;
    if (document.title !== title) document.title = title;
    setIcon(turn ? TURN_ICON : ICON);
    document.documentElement.dataset.yourTurn = turn ? "1" : "0";
    if (!turn) { showing = false; return; }
    const key = `${t.id}/${u.seq}`;
    if (showing && key === last) return;
    const fresh = !showing;
    showing = true;
    last = key;
    if (!fresh) return;  // still our turn (another update of the same decision)
    if (sound) beep();
    if (navigator.vibrate) { try { navigator.vibrate([180, 90, 180]); } catch { /* not allowed */ } }
    if (canNotify() && Notification.permission === "granted" && document.hidden) {
      try {
        new Notification(T("Your move"), { body: T("It is your turn at table {id}.", { id: t.id }), tag: `lantable-${t.id}` });
      } catch (e) { console.error(e); }
    }
  }

  function toggleSound(box) {
    sound = box.checked;
    localStorage.setItem("lantable.sound", sound ? "1" : "0");
    if (sound) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !audio) audio = new Ctx();
      if (audio && audio.state === "suspended") audio.resume();
      beep();  // what it will sound like
    }
  }

  // The settings line under the turn line, for a player at a table still playing.
  function line(u) {
    if (!u || u.seat === null || u.seat === undefined || u.status === "finished") return null;
    const box = el("input", { type: "checkbox", id: "turn-sound", checked: sound });
    box.addEventListener("change", () => toggleSound(box));
    let notify;
    if (!("Notification" in window)) {
      notify = el("span", { class: "muted" }, T("This browser has no notifications; the tab's title and icon change on your turn."));
    } else if (!secure()) {
      notify = el("span", { class: "muted", id: "no-notify" }, T("No notifications here: this page comes over plain http on your network, and browsers allow notifications only on secure (https) pages. The tab's title and icon change on your turn, and the sound plays if you turn it on."));
    } else if (Notification.permission === "granted") {
      notify = el("span", { class: "muted" }, T("Notifications are on: one shows when it is your turn and this page is not in front."));
    } else if (Notification.permission === "denied") {
      notify = el("span", { class: "muted" }, T("Notifications are blocked for this page in the browser's settings."));
    } else {
      notify = el("button", { type: "button", id: "turn-notify", onclick: () => {
        Notification.requestPermission().then(() => page().draw());
      } }, T("Notify me on my turn"));
    }
    return el("div", { class: "turn-alerts", id: "turn-alerts" },
      el("label", { title: T("A short sound when it becomes your turn") }, box, " ", T("Sound on my turn")), " ", notify);
  }

  window.lantableAlerts = { line, myTurn };
  page().on("*", () => queueMicrotask(check));
  window.addEventListener("hashchange", () => queueMicrotask(check));
})();
