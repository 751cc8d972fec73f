"""A game's board.js drawn outside the app, for the board tests: a blank page with the
renderer contract's helpers (``lantable.registerRenderer``, ``svg``, ``el``), the game's
files served from its package data through Playwright routing (no host), and a call
that draws one update and returns what the board holds."""

from __future__ import annotations

import mimetypes
from typing import Any

from lantable.plugins import load_registry

ORIGIN = "http://board.test"

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="board" data-board="GAME"></div><div id="picker"></div>
<script>
window.__renderers = {};
window.__sent = [];
function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c != null) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}
window.lantable = {
  registerRenderer(id, r) { window.__renderers[id] = r; },
  svg(tag, attrs = {}, ...children) {
    return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
  },
  el(tag, attrs = {}, ...children) { return fill(document.createElement(tag), attrs, children); },
};
window.__draw = function (game, update, seat, names) {
  const ctx = { game, seat, names, legal: update.legal || [], labels: update.labels || [],
    busy: false, act: (a) => window.__sent.push(a), query: () => Promise.reject({}),
    svg: lantable.svg, el: lantable.el };
  const r = window.__renderers[game];
  r.render(document.getElementById("board"), update, ctx);
  const holder = document.getElementById("picker");
  holder.replaceChildren();
  const picked = r.picker ? r.picker(update, ctx) : null;
  if (picked && picked.node) holder.append(picked.node);
  return picked ? picked.handled : null;
};
</script>
<script src="/games/GAME/board.js"></script></body></html>"""


def open_board(page: Any, game_id: str) -> None:
    """Load ``game_id``'s board.js into ``page`` and wait until it has registered."""
    folder = load_registry()[game_id].web_renderer()

    def serve(route: Any) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path == "/":
            route.fulfill(body=PAGE.replace("GAME", game_id), content_type="text/html")
            return
        prefix = f"/games/{game_id}/"
        if path.startswith(prefix):
            data = folder.joinpath(path[len(prefix):]).read_bytes()
            kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
            route.fulfill(body=data, content_type=kind)
            return
        route.fulfill(status=404, body="not found")

    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    page.wait_for_function(f"() => !!window.__renderers[{game_id!r}]")


def draw(page: Any, game_id: str, update: dict[str, Any], seat: int | None,
         names: list[str]) -> Any:
    """Draw ``update`` for ``seat``; returns the picker's handled indices (or None)."""
    return page.evaluate("([g, u, s, n]) => window.__draw(g, u, s, n)",
                         [game_id, update, seat, names])
