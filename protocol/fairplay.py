"""Fair play, sans-IO: the exact bytes behind verifiable dice and shuffles.

Everything here is pure and deterministic, so a host, a seat, ``lantable verify``
and a client in another language compute the same values (``docs/protocol.md``,
"Fair play", specifies each function byte by byte; ``docs/fair-play.md`` says what
they guarantee).

- A seat's **hash chain**: a secret ``s_N`` and ``s_{i-1} = H(CHAIN || s_i)``; the
  seat publishes the tip ``s_0`` (its commitment) and reveals ``s_k`` for event
  ``k``; anyone checks ``H^(k-j)(s_k) == s_j`` against the last link ``s_j`` seen.
- An **event seed**: a domain-separated hash of the table, the event number, the
  digest of what the event is for, and every seat's link.
- A **stream** of bytes from a seed (SHA-256 in counter mode), from which
  :class:`FairRandom` draws bits; integers are drawn by rejection sampling, never
  modulo.
- **Signatures**: Ed25519 over a canonical msgpack array that names what is signed.
- The **transcript**: a running hash over the table's set-up and every action, so
  a reveal signs the whole history it was made for.

Hashes and keys travel as lowercase hex strings (no protocol field is bytes).
"""

from __future__ import annotations

import functools
import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Final

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

DOMAIN: Final = "lantable-fairplay-v1"
CHAIN_PREFIX: Final = b"lantable-fairplay-v1 chain\x00"
STREAM_PREFIX: Final = b"lantable-fairplay-v1 stream\x00"
HASH_SIZE: Final = 32  # bytes of every hash, link and seed (SHA-256)
# Random events one commitment covers: a random game of Kaiser's Pirates has at most
# about 130, of Manila about 20; building the chain costs one hash per link.
DEFAULT_CHAIN_LENGTH: Final = 1024
# A commitment costs a seat one hash and 32 bytes per link: 65,536 links are ~2 MB and
# a fraction of a second, so a table creator cannot make joining seats do much more.
MAX_CHAIN_LENGTH: Final = 1 << 16


class FairPlayError(Exception):
    """A fair-play value failed its check; the message says which and why."""


# -- canonical encoding and hashing ---------------------------------------------------


def _sorted(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [_sorted(x) for x in obj]
    return obj


def canonical(obj: Any) -> bytes:
    """msgpack with every map's keys sorted (str keys: code point order, which is
    UTF-8 byte order), shortest forms, ``bin`` for bytes: one encoding per value."""
    return msgpack.packb(_sorted(obj), use_bin_type=True)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def tagged_hash(kind: str, *fields: Any) -> str:
    """``hex(SHA-256(canonical([DOMAIN, kind, *fields])))``: every hash we publish
    names its purpose first, so no value can be replayed as another kind."""
    return sha256(canonical([DOMAIN, kind, *fields])).hex()


def unhex(value: Any, what: str, size: int = HASH_SIZE) -> bytes:
    """Bytes from a hex string of exactly ``size`` bytes.

    Raises:
        FairPlayError: not a lowercase hex string of that size.
    """
    if not isinstance(value, str) or len(value) != 2 * size or value != value.lower():
        raise FairPlayError(f"{what} must be {2 * size} lowercase hex digits, got {value!r:.80}")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise FairPlayError(f"{what} is not hex: {value!r:.80}") from None


# -- hash chains ------------------------------------------------------------------------


def chain_step(link: bytes) -> bytes:
    """The link before ``link``: ``SHA-256(CHAIN_PREFIX || link)``."""
    return sha256(CHAIN_PREFIX + link)


class HashChain:
    """A seat's secret chain for one table: ``links[k]`` is revealed for event ``k``.

    Built from a 32-byte secret (keep it to carry on after a restart); ``links[0]``
    is the tip, the public commitment.
    """

    def __init__(self, secret: bytes | None = None, length: int = DEFAULT_CHAIN_LENGTH) -> None:
        if not 1 <= length <= MAX_CHAIN_LENGTH:
            raise ValueError(f"chain length {length} outside 1..{MAX_CHAIN_LENGTH}")
        self.secret = secrets.token_bytes(HASH_SIZE) if secret is None else secret
        if len(self.secret) != HASH_SIZE:
            raise ValueError(f"a chain secret is {HASH_SIZE} bytes")
        self.length = length
        links = [self.secret]
        for _ in range(length):
            links.append(chain_step(links[-1]))
        links.reverse()
        self.links = links  # links[0] = tip ... links[length] = secret

    @property
    def tip(self) -> str:
        return self.links[0].hex()

    def link(self, event: int) -> str:
        """The link for ``event`` (1..length).

        Raises:
            FairPlayError: the chain does not reach that far.
        """
        if not 1 <= event <= self.length:
            raise FairPlayError(f"event {event} is outside this chain (1..{self.length})")
        return self.links[event].hex()


def check_link(link: str, event: int, last: str, last_event: int) -> None:
    """Check that ``link`` (for ``event``) hashes to ``last`` (the link of
    ``last_event``, the tip being event 0) in ``event - last_event`` steps.

    Raises:
        FairPlayError: it does not; the message says so plainly.
    """
    if event <= last_event:
        raise FairPlayError(f"event {event} is not after the last revealed event {last_event}")
    value = unhex(link, "link")
    for _ in range(event - last_event):
        value = chain_step(value)
    if value.hex() != last:
        raise FairPlayError(
            f"the link for event {event} does not hash to the link of event {last_event} "
            f"(its commitment)")


# -- event seeds and the stream ------------------------------------------------------------


def event_seed(table: str, event: int, digest: str, links: Iterable[tuple[int, str]],
               fallback: str | None = None) -> str:
    """The randomness of one event: a tagged hash of the table, the event number,
    the digest of what the event is for, every revealed ``(seat, link)`` in seat
    order and, only when some seat withheld and the table fell back, the host's
    fallback value."""
    revealed = [[seat, link] for seat, link in sorted(links)]
    return tagged_hash("event", table, event, digest, revealed, fallback)


class Stream:
    """The bytes of a seed: ``SHA-256(STREAM_PREFIX || seed || counter)`` blocks, the
    counter an 8-byte big-endian integer from 0."""

    __slots__ = ("_buf", "_counter", "_pos", "_seed", "used")

    def __init__(self, seed: str) -> None:
        self._seed = unhex(seed, "seed")
        self._counter = 0
        self._buf = b""
        self._pos = 0
        self.used = 0  # bytes taken so far

    def take(self, n: int) -> bytes:
        while len(self._buf) - self._pos < n:
            block = sha256(STREAM_PREFIX + self._seed + self._counter.to_bytes(8, "big"))
            self._buf = self._buf[self._pos:] + block
            self._pos = 0
            self._counter += 1
        out = self._buf[self._pos:self._pos + n]
        self._pos += n
        self.used += n
        return out

    def getrandbits(self, k: int) -> int:
        """``k`` bits: the next ``ceil(k/8)`` bytes, big-endian, shifted right to ``k`` bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        nbytes = (k + 7) // 8
        return int.from_bytes(self.take(nbytes), "big") >> (8 * nbytes - k)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling: draw
        ``(n-1).bit_length()`` bits until the value is below ``n`` (never modulo)."""
        if n <= 0:
            raise ValueError(f"empty range for randbelow({n})")
        k = (n - 1).bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r


class NeedRandomness(BaseException):  # noqa: N818 - a signal, not an error
    """Raised by a :class:`FairRandom` with no event yet: the call it interrupted
    draws randomness, so the host must hold a random event first.

    A BaseException so that a game's ``except Exception`` cannot swallow it.
    """


class FairRandom(random.Random):
    """A :class:`random.Random` whose every draw comes from one event's stream.

    The game API is unchanged: a game keeps calling ``rng.randint``, ``shuffle``,
    ``choice``, ``random`` ... ; they all go through :meth:`getrandbits`,
    :meth:`random` and :meth:`_randbelow` here, which read the current event's
    :class:`Stream`. Without a stream (``stream=None``) the first draw raises
    :class:`NeedRandomness`: the host's probe for "does this action draw?".
    """

    def __init__(self, seed: str | None = None) -> None:
        self.stream: Stream | None = None
        self.draws = 0
        super().__init__(0)
        if seed is not None:
            self.stream = Stream(seed)

    def seed(self, *args: Any, **kwargs: Any) -> None:  # noqa: ARG002 - Random calls it
        """Seeding is meaningless here: the randomness comes only from events."""

    def _source(self) -> Stream:
        if self.stream is None:
            raise NeedRandomness
        self.draws += 1
        return self.stream

    def getrandbits(self, k: int) -> int:
        return self._source().getrandbits(k)

    def random(self) -> float:
        return self._source().getrandbits(53) * (2.0 ** -53)

    def _randbelow(self, n: int) -> int:
        return self._source().randbelow(n)

    def randbytes(self, n: int) -> bytes:
        return self._source().take(n)

    def getstate(self) -> Any:
        raise TypeError("a FairRandom has no state to save: replay its events instead")

    def setstate(self, state: Any) -> None:
        raise TypeError("a FairRandom has no state to restore: replay its events instead")


# -- signatures -------------------------------------------------------------------------


def signed_bytes(kind: str, *fields: Any) -> bytes:
    """What a seat signs: ``canonical([DOMAIN, kind, *fields])``."""
    return canonical([DOMAIN, kind, *fields])


def commit_fields(table: str, seat: int, key: str, tip: str,
                  length: int) -> tuple[str, int, str, str, int]:
    return (table, seat, key, tip, length)


def reveal_fields(table: str, seat: int, event: int, link: str,
                  digest: str) -> tuple[str, int, int, str, str]:
    return (table, seat, event, link, digest)


def act_fields(table: str, seat: int, base: int,
               action: dict[str, Any]) -> tuple[str, int, int, dict[str, Any]]:
    """What a seat signs for an action at a fair table: ``base`` is the number of the
    last update it had seen (the action lands after it)."""
    return (table, seat, base, action)


class Identity:
    """A seat's long-lived Ed25519 key pair."""

    def __init__(self, private: Ed25519PrivateKey | None = None) -> None:
        self.private = private or Ed25519PrivateKey.generate()
        self.public = self.private.public_key().public_bytes_raw().hex()

    @classmethod
    def from_bytes(cls, raw: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        return self.private.private_bytes_raw()

    def sign(self, kind: str, *fields: Any) -> str:
        return self.private.sign(signed_bytes(kind, *fields)).hex()


def verify_signature(key: str, sig: str, kind: str, *fields: Any) -> None:
    """Check an Ed25519 signature by a strong key (:func:`check_key`), whose ``R`` is a
    canonical point of more than small order and whose ``S`` is below the group order.

    Raises:
        FairPlayError: a malformed or weak key or signature, or one that does not match.
    """
    public = Ed25519PublicKey.from_public_bytes(unhex(check_key(key), "public key"))
    raw = unhex(sig, "signature", 64)
    why = _weak_r(raw[:32])
    if why is not None:
        raise FairPlayError(f"the {kind} signature is not a valid Ed25519 signature: its R {why}")
    if int.from_bytes(raw[32:], "little") >= _ORDER:
        raise FairPlayError(f"the {kind} signature is not a valid Ed25519 signature: its S is "
                            "not below the group order")
    try:
        public.verify(raw, signed_bytes(kind, *fields))
    except InvalidSignature:
        raise FairPlayError(f"the {kind} signature does not match the seat's key") from None


@functools.lru_cache(maxsize=1024)
def _checked_key(key: str) -> str:
    raw = unhex(key, "public key")
    why = _weak_point(raw)
    if why is not None:
        raise FairPlayError(f"the public key {why}; make a new key pair")
    Ed25519PublicKey.from_public_bytes(raw)
    return key


def check_key(key: Any) -> str:
    """A well-formed, strong Ed25519 public key in hex, or FairPlayError.

    A key of small order (the identity, the point of order 2, ...; the all-zero key)
    is refused: with the identity, the constant signature ``01 00…00`` verifies every
    message. So is an encoding that is not canonical (a coordinate of ``p`` or more,
    a negative zero), which another implementation could read as another point.
    """
    if not isinstance(key, str):
        unhex(key, "public key")  # raises, saying why
    return _checked_key(key)


# Edwards25519 (RFC 8032 5.1), just enough to refuse weak points: a point of small
# order, multiplied by the cofactor 8, is the identity.
_P: Final = 2**255 - 19
_D: Final = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1: Final = pow(2, (_P - 1) // 4, _P)
_ORDER: Final = 2**252 + 27742317777372353535851937790883648493


def _decode_point(raw: bytes) -> tuple[int, int] | None:
    """The point a 32-byte encoding names, or None if it names none canonically
    (RFC 8032 5.1.3: one exponentiation, no inverse)."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    sign = raw[31] >> 7
    if y >= _P:
        return None
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    v3 = v * v * v % _P
    x = u * v3 * pow(u * v3 * v3 * v, (_P - 5) // 8, _P) % _P
    vx2 = v * x * x % _P
    if vx2 == (-u) % _P:
        x = x * _SQRT_M1 % _P
    elif vx2 != u:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = _P - x
    return x, y


def _weak_point(raw: bytes) -> str | None:
    """Why a point encoding is unfit for a key or a signature's ``R``, or None."""
    point = _decode_point(raw)
    if point is None:
        return "is not a canonical Ed25519 point"
    x, y, z = point[0], point[1], 1
    for _ in range(3):  # doubling in projective coordinates (a = -1): no inverse
        b, c, d = (x + y) ** 2 % _P, x * x % _P, y * y % _P
        f = (d - c) % _P
        j = (f - 2 * z * z) % _P
        x, y, z = (b - c - d) * j % _P, f * (-c - d) % _P, f * j % _P
    if x == 0 and y == z:
        return "is a point of small order (a weak key)"
    return None


# The eight points of small order (the identity, order 2, two of order 4, four of
# order 8), canonically encoded: a point whose 8-fold is the identity is one of them.
_SMALL_ORDER: Final = frozenset(bytes.fromhex(h) for h in (
    "01" + "00" * 31, "ec" + "ff" * 30 + "7f", "00" * 32, "00" * 31 + "80",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"))


def _weak_r(raw: bytes) -> str | None:
    """:func:`_weak_point` for a signature's ``R``, without the exponentiation that
    decodes it (a signature check's costliest part in Python, issue 29): a canonical
    encoding (``y`` below ``p``, no negative zero: ``x`` is 0 only where ``y`` is 1 or
    ``p - 1``) of none of the eight points of small order. An ``R`` that is no point
    at all passes here and never verifies: the check compares it, as bytes, with the
    ``R`` it recomputes (RFC 8032 5.1.7)."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if y >= _P or (raw[31] >> 7 and y in (1, _P - 1)):
        return "is not a canonical Ed25519 point"
    if raw in _SMALL_ORDER:
        return "is a point of small order (a weak key)"
    return None


# -- the transcript -----------------------------------------------------------------------


def transcript_start(table: str, game: str, version: str, seats: int, options: dict[str, Any],
                     fair: dict[str, Any], commits: Sequence[dict[str, Any]]) -> str:
    """T_0: the table's set-up and every seat's commitment, before any event."""
    return tagged_hash("table", table, game, version, seats, options, fair,
                       [[c["seat"], c["key"], c["tip"], c["length"]] for c in commits])


def transcript_next(previous: str, seq: int, seat: int, action: dict[str, Any]) -> str:
    """T_seq: the transcript after action ``seq``."""
    return tagged_hash("action", previous, seq, seat, action)


def event_digest(transcript: str, event: int, seq: int, seat: int | None,
                 action: dict[str, Any] | None) -> str:
    """What event ``event`` is for: the history before it (``transcript``) and the
    action ``seq`` by ``seat`` that draws (seq 0, no seat and no action: set-up)."""
    return tagged_hash("bind", transcript, event, seq, seat, action)
