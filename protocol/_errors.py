"""One error hierarchy for the wire, with the stable codes of the ``error`` message."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable wire codes of the ``error`` message (``docs/protocol.md``, "Error codes").

    Codes are only ever added. ``FATAL_CODES`` close the connection after the error.
    """

    BAD_FRAME = "bad_frame"  # not a msgpack map, or trailing garbage in a frame
    FRAME_TOO_LARGE = "frame_too_large"  # length prefix above the limit
    UNKNOWN_TYPE = "unknown_type"  # a map whose "t" is not a message type
    BAD_MESSAGE = "bad_message"  # a known type with missing or ill-typed fields
    UNEXPECTED_MESSAGE = "unexpected_message"  # a type not allowed in this state
    VERSION_UNSUPPORTED = "version_unsupported"  # no common protocol version
    HELLO_TIMEOUT = "hello_timeout"  # no hello in time
    NO_SUCH_GAME = "no_such_game"
    BAD_OPTIONS = "bad_options"  # seats or options the game refuses
    NO_SUCH_TABLE = "no_such_table"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"  # act/leave at a table where this connection holds no seat
    NOT_TO_ACT = "not_to_act"  # the seat must not decide now
    ILLEGAL_ACTION = "illegal_action"  # the game refused the action
    BAD_QUERY = "bad_query"  # the game has no such query, or refused this one
    BAD_TOKEN = "bad_token"  # unknown, forged or foreign resume token
    TABLE_FAULTED = "table_faulted"  # the game plugin failed; the table is being restored
    TABLE_CLOSED = "table_closed"  # the table is finished or was abandoned
    TOO_SLOW = "too_slow"  # the client did not read its updates; dropped
    SHUTTING_DOWN = "shutting_down"
    INTERNAL = "internal"  # a bug in the host; logged there
    # Limits (docs/limits.md): added in protocol version 1, never reused.
    BAD_NAME = "bad_name"  # the hello's name is too long or has control characters
    TOO_LARGE = "too_large"  # a request field is over its byte or depth limit
    TOO_MANY_TABLES = "too_many_tables"  # the peer, or this client, has too many tables
    TOO_MANY_CONNECTIONS = "too_many_connections"  # the host is full
    TOO_MANY_SPECTATORS = "too_many_spectators"  # the table has all the spectators it takes
    IDLE_TIMEOUT = "idle_timeout"  # silent too long while holding no seat and watching nothing
    FRAME_TIMEOUT = "frame_timeout"  # a frame started but did not finish in time
    NO_KEY = "no_key"  # a fair table needs a public key in hello
    BAD_REVEAL = "bad_reveal"  # a commitment or reveal that does not check, or is not asked
    BAD_JOIN_ID = "bad_join_id"  # join.join_id is not 8 to 32 bytes
    NO_DECKS = "no_decks"  # a hidden-deck table needs a client that deals (hello.decks)
    BAD_DEAL = "bad_deal"  # a deck pass, unlock key or secret that does not check or is not asked
    # Names and page bots (issue 22).
    NAME_REFUSED = "name_refused"  # a rename's name is empty, too long or has control characters
    BAD_BOT = "bad_bot"  # a page bot the host cannot run, add, remove or hand this seat to
    TOO_MANY_BOTS = "too_many_bots"  # the peer already runs its most page bots
    NOT_DROPPED = "not_dropped"  # the seat's player is connected, or away for less than the grace
    # Chat and rematch (issue 30).
    BAD_CHAT = "bad_chat"  # an empty chat line, or one with control characters
    TOO_FAST = "too_fast"  # chat lines faster than the host's rate limit
    BAD_REMATCH = "bad_rematch"  # a rematch of a table that is not finished, or not yours
    PAUSED = "paused"  # the table is paused: no action until every seat agrees to resume
    BAD_PAUSE = "bad_pause"  # a pause or resume the table cannot take now
    OUT_OF_TIME = "out_of_time"  # unsolicited: the seat's clock ran out (a bot plays it now)
    BAD_UNDO = "bad_undo"  # an undo the table cannot take (nothing to undo, a barrier, ...)
    NOT_FINISHED = "not_finished"  # replay, hide or keep of a table that is not finished
    BAD_REPLAY = "bad_replay"  # a replay step or seat that does not exist or may not be shown


FATAL_CODES = frozenset({
    ErrorCode.BAD_FRAME,
    ErrorCode.FRAME_TOO_LARGE,
    ErrorCode.UNKNOWN_TYPE,
    ErrorCode.BAD_MESSAGE,
    ErrorCode.UNEXPECTED_MESSAGE,
    ErrorCode.VERSION_UNSUPPORTED,
    ErrorCode.HELLO_TIMEOUT,
    ErrorCode.TOO_SLOW,
    ErrorCode.SHUTTING_DOWN,
    ErrorCode.BAD_NAME,
    ErrorCode.TOO_MANY_CONNECTIONS,
    ErrorCode.IDLE_TIMEOUT,
    ErrorCode.FRAME_TIMEOUT,
})


class ProtocolError(Exception):
    """Base of protocol errors; never raised itself.

    Attributes:
        code: the :class:`ErrorCode` to put on the wire.
    """

    def __init__(self, message: str, code: ErrorCode = ErrorCode.BAD_MESSAGE) -> None:
        if type(self) is ProtocolError:
            raise TypeError("raise LocalProtocolError or RemoteProtocolError, not ProtocolError")
        super().__init__(message)
        self.code = ErrorCode(code)


class LocalProtocolError(ProtocolError):
    """We tried to do something the protocol forbids."""


class RemoteProtocolError(ProtocolError):
    """The peer sent something the protocol forbids. Answer with ``error``, then close."""
