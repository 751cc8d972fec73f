"""The lantable wire protocol, sans-IO (like h11): everything a client author imports.

A frame is a 4-byte big-endian length and one msgpack map. :class:`Connection`
turns bytes into messages and messages into bytes; it never touches a socket.
See ``docs/protocol.md`` for the full specification.
"""

from ._chat_messages import (
    Chat,
    ChatHistory,
    ChatLog,
    ChatMessage,
    Mute,
    Muted,
    Rematch,
    RematchOffered,
)
from ._clock_messages import Pause, PauseNoted
from ._connection import (
    CLIENT,
    HOST,
    MIN_PROTOCOL_VERSION,
    NEED_DATA,
    PROTOCOL_VERSION,
    Connection,
    ConnectionClosed,
    Packed,
    PackedMap,
    SharedUpdate,
    negotiate,
)
from ._errors import (
    FATAL_CODES,
    ErrorCode,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from ._fair_messages import (
    Commit,
    DeckKeys,
    DeckPass,
    DeckRequest,
    DeckSecretsMessage,
    DeckUnlock,
    FairEvent,
    FairFault,
    FairRequest,
    Reveal,
)
from ._frames import DEFAULT_MAX_FRAME, decode_body, encode_frame
from ._messages import (
    CLIENT_TYPES,
    HOST_TYPES,
    Accepted,
    Act,
    AddBot,
    Answer,
    BotAdded,
    BotRemoved,
    Bye,
    Create,
    Created,
    Error,
    Games,
    HandToBot,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    ListGames,
    ListTables,
    Lobby,
    Message,
    Ping,
    Pong,
    Query,
    RemoveBot,
    Rename,
    Renamed,
    Resume,
    Sync,
    Tables,
    Update,
    Welcome,
    from_map,
)
from ._replay_messages import HideTable, KeepTable, Replay, ReplayStep, TableHidden, TableKept
from ._state import CLOSED, ERROR, HELLO_SENT, SESSION, START, TRANSITIONS
from ._undo_messages import UndoAnswer, UndoAsk, UndoNotice

__all__ = [
    "CLIENT", "CLIENT_TYPES", "CLOSED", "DEFAULT_MAX_FRAME", "ERROR", "FATAL_CODES",
    "HELLO_SENT", "HOST", "HOST_TYPES", "MIN_PROTOCOL_VERSION", "NEED_DATA",
    "PROTOCOL_VERSION", "SESSION", "START", "TRANSITIONS",
    "Accepted", "Act", "Bye", "Connection", "ConnectionClosed", "Create", "Created",
    "Error", "ErrorCode", "Games", "Hello", "Join", "Joined", "Leave", "Left",
    "ListGames", "ListTables", "Lobby", "LocalProtocolError", "Message", "Packed",
    "PackedMap", "Ping", "Pong", "ProtocolError", "RemoteProtocolError", "Resume",
    "SharedUpdate", "Sync", "Tables",
    "Update", "Welcome", "decode_body", "encode_frame", "from_map", "negotiate",
    "Answer", "Query",
    "AddBot", "BotAdded", "BotRemoved", "HandToBot", "RemoveBot", "Rename", "Renamed",
    "Commit", "FairEvent", "FairFault", "FairRequest", "Reveal",
    "DeckKeys", "DeckPass", "DeckRequest", "DeckSecretsMessage", "DeckUnlock",
    "Chat", "ChatHistory", "ChatLog", "ChatMessage", "Mute", "Muted", "Rematch",
    "RematchOffered",
    "Pause", "PauseNoted",
    "UndoAnswer", "UndoAsk", "UndoNotice",
    "HideTable", "KeepTable", "Replay", "ReplayStep", "TableHidden", "TableKept",
]
