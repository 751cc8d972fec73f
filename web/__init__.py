"""The browser face of a peer: the web app and the WebSocket, served by every host.

:func:`serve_web` runs beside :func:`lantable.host.peer.serve_peer`; the browser is
one more client of docs/protocol.md (see :mod:`lantable.web.server`).
"""

from lantable.protocol.discovery import DEFAULT_WEB_PORT

from .server import RunningWeb, open_web_listeners, same_origin, serve_web

__all__ = ["DEFAULT_WEB_PORT", "RunningWeb", "open_web_listeners", "same_origin", "serve_web"]
