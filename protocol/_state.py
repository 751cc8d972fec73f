"""The connection state machine: every transition lives in this table.

The table does not know which side we play. It says, for the sender of a message
and the current state, which message types may come and the state they lead to.
An unlisted transition is an ``unexpected_message`` error naming the type, the
sender and the state.
"""

from __future__ import annotations

from typing import Final

from ._errors import ErrorCode, LocalProtocolError, RemoteProtocolError


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


START: Final = _Sentinel("START")  # nothing said yet
HELLO_SENT: Final = _Sentinel("HELLO_SENT")  # the client said hello, awaiting welcome
SESSION: Final = _Sentinel("SESSION")  # welcomed; requests and updates flow
CLOSED: Final = _Sentinel("CLOSED")  # bye, a refused hello, or EOF
ERROR: Final = _Sentinel("ERROR")  # a protocol error happened; every later call raises

_REQUESTS: tuple[str, ...]  # the chat messages are added below
_HOST_SESSION: tuple[str, ...]
_REQUESTS = ("list_tables", "list_games", "create", "join", "resume", "leave", "act", "sync",
             "ping", "commit", "reveal", "query", "deck_pass", "deck_unlock", "deck_secrets",
             "rename", "add_bot", "remove_bot", "hand_to_bot", "pause",
             "undo_ask", "undo_answer")
_HOST_SESSION = ("error", "tables", "games", "created", "joined", "left", "accepted", "update",
                 "pong", "fair_request", "fair_event", "fair_fault", "lobby", "answer",
                 "deck_request", "deck_keys", "renamed", "bot_added", "bot_removed",
                 "pause_noted", "undo")
# Chat and rematch (protocol/_chat_messages.py)
_REQUESTS += ("chat", "chat_history", "mute", "rematch")
_HOST_SESSION += ("chat_message", "chat_log", "muted", "rematch_offered")

TRANSITIONS: Final[dict[str, dict[_Sentinel, dict[str, _Sentinel]]]] = {
    "client": {
        START: {"hello": HELLO_SENT},
        SESSION: {**{t: SESSION for t in _REQUESTS}, "bye": CLOSED},
    },
    "host": {
        HELLO_SENT: {"welcome": SESSION, "error": CLOSED},
        SESSION: {t: SESSION for t in _HOST_SESSION},
    },
}
# Finished tables and replays (protocol/_replay_messages.py)
TRANSITIONS["client"][SESSION].update(dict.fromkeys(("replay", "hide_table", "keep_table"),
                                                    SESSION))
TRANSITIONS["host"][SESSION].update(dict.fromkeys(("replay_step", "table_hidden", "table_kept"),
                                                  SESSION))


def next_state(state: _Sentinel, sender: str, t: str, *, remote: bool) -> _Sentinel:
    """The state after ``sender`` sends ``t`` in ``state``.

    Raises:
        RemoteProtocolError: (``remote``) the peer sent it; LocalProtocolError: we did.
    """
    try:
        return TRANSITIONS[sender][state][t]
    except KeyError:
        exc = RemoteProtocolError if remote else LocalProtocolError
        raise exc(f"a {sender} may not send {t!r} in state {state!r}",
                  ErrorCode.UNEXPECTED_MESSAGE) from None
