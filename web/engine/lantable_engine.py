"""The card engine in the page: a hidden-deck seat's Python side, run by Pyodide in a
Web Worker (web/static/engine-worker.js; docs/fair-play.md, "A browser seat at a
hidden-deck table").

It is the very code a native client runs (``lantable.clients.fairdecks.SeatDecks``
and the game's client half, ``game_seat_actions``), so a change there reaches the page
with no port. Messages come in and go out as msgpack bytes, exactly as the host sent
them (the page does not re-encode them: a map with integer keys stays one).

Signing stays in JavaScript, with the page's fair-play key: :class:`PageIdentity`
answers each ``sign`` with a placeholder (the hex of a 64-byte marker, so it travels
where a signature does, as hex or as ``bin``) and records the bytes to sign; the page
signs them and puts the signatures in place before it sends the answer.
"""

from __future__ import annotations

import importlib
from typing import Any

import msgpack

from lantable.clients.fairdecks import SeatDecks
from lantable.host.textboard import board_blocks
from lantable.plugins import Game, load_registry
from lantable.protocol import DeckKeys, DeckRequest, from_map
from lantable.protocol import fairplay as fp

SIG = b"\x00lantable-sig\x00"  # a placeholder: SIG, the index (4 bytes), zeros to 64 bytes


def placeholder(index: int) -> str:
    """The hex of the 64 bytes that stand for signature ``index`` until the page signs."""
    return (SIG + index.to_bytes(4, "big")).ljust(64, b"\x00").hex()


class PageIdentity:
    """An identity whose signatures the page makes later (see the module docstring)."""

    def __init__(self, public: str) -> None:
        self.public = public
        self.pending: list[bytes] = []

    def sign(self, kind: str, *fields: Any) -> str:
        self.pending.append(fp.signed_bytes(kind, *fields))
        return placeholder(len(self.pending) - 1)


class Engine:
    """One page's hidden decks, at every table it sits at."""

    def __init__(self, public: str, games: dict[str, str]) -> None:
        self.identity = PageIdentity(public)
        self.where = dict(games)  # game id -> "module:attribute" (web/card_engine.py)
        self.games: dict[str, Game] = {}
        self.decks = SeatDecks(self.identity, self.game)  # type: ignore[arg-type]
        self.notices: list[str] = []
        self.decks.on_notice = self.notices.append

    def game(self, game_id: str) -> Game:
        if game_id not in self.games:
            if game_id not in self.where:
                raise LookupError(f"the host serves no client half for the game {game_id!r}")
            module, _, attr = self.where[game_id].partition(":")
            plugin: Any = importlib.import_module(module)
            for name in filter(None, attr.split(".")):
                plugin = getattr(plugin, name)
            self.games[game_id] = load_registry(autoload=False,
                                                plugins={game_id: plugin})[game_id]
        return self.games[game_id]

    def prepare(self, game_id: str) -> str:
        """Import ``game_id``'s client half before the seat is taken (so that a game
        this engine cannot run is told before the deal, not during it); its title."""
        return str(self.game(game_id).info["title"])

    def answer(self, raw: bytes) -> bytes:
        """The answer to a ``deck_request``: ``{"t", "fields", "sign"}`` (the bytes to
        sign, in placeholder order), or ``{"problem"}`` when this seat cannot answer."""
        req = from_map(msgpack.unpackb(_bytes(raw), raw=False, strict_map_key=False), "host")
        assert isinstance(req, DeckRequest)
        self.identity.pending = []
        made = self.decks.answer(req)
        if made is None:
            return _pack({"problem": self.decks.problems[-1] if self.decks.problems
                          else f"cannot answer {req.kind}"})
        cls, fields = made
        return _pack({"t": cls.t, "fields": fields, "sign": self.identity.pending})  # type: ignore[attr-defined]

    def keys(self, raw: bytes) -> bytes:
        """A ``deck_keys``: open what can be opened; returns new notices (a card that
        opened to no card of the deck)."""
        msg = from_map(msgpack.unpackb(_bytes(raw), raw=False, strict_map_key=False), "host")
        assert isinstance(msg, DeckKeys)
        self.notices.clear()
        self.decks.keys(msg)
        return _pack(list(self.notices))

    def update(self, raw: bytes) -> bytes:
        """For an ``update`` to this page's seat: ``{"hand"}`` (the seat's cards, as
        ``view["_hand"]``), the text board drawn with them (``board_text``, where the
        host sent one), and where the host sent no ``legal``, the seat's ``legal``
        from the game's client half with their ``labels`` in the game's words."""
        u = msgpack.unpackb(_bytes(raw), raw=False, strict_map_key=False)
        table, seat, view = u.get("table"), u.get("seat"), u.get("view")
        if seat is None or view is None or table not in self.decks.game_of:
            return _pack({})
        hand = self.decks.hand(table, seat)
        out: dict[str, Any] = {"hand": hand}
        game = self.game(self.decks.game_of[table])
        names = [s.get("name") or f"seat {i}" for i, s in enumerate(u.get("seats") or [])]
        seen = {**view, "_hand": hand}
        if u.get("board_text") is not None:  # the host drew it without the hand: again
            try:
                out["board_text"] = board_blocks(game.render_text(seen, seat, names))
            except Exception:  # the host's board stands
                pass
        if u.get("legal") is None and seat in (u.get("to_act") or []):
            legal = self.decks.legal(table, seat, view)
            if legal is not None:
                labels = []
                for action in legal:
                    try:
                        labels.append(game.describe(seen, seat, action, names))
                    except Exception:  # a game's words must never cost a player the game
                        labels.append(repr(action))
                out.update(legal=legal, labels=labels)
            else:
                out["problem"] = self.decks.problems[-1] if self.decks.problems else None
        return _pack(out)


def _bytes(raw: Any) -> bytes:
    """Bytes from Python, or from the page (a JavaScript Uint8Array behind a proxy)."""
    return raw if isinstance(raw, bytes) else bytes(raw.to_bytes())


def _pack(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


ENGINE: Engine | None = None


def start(public: str, games: dict[str, str]) -> None:
    global ENGINE
    ENGINE = Engine(public, games)
