"""ristretto255 in pure Python, for the card engine in the browser (Pyodide): the
handful of libsodium functions ``lantable.protocol.hidden_deck`` and ``hidden_deal``
call through the ``rbcl`` binding, which Pyodide cannot load (it is a C extension).

Served to the page as a top-level module named ``rbcl`` (web/engine.py), so the
seat's Python client half runs unchanged. Byte for byte the same results as libsodium
(``tests/web/test_engine_rbcl.py`` compares every function on random and edge-case
inputs). It is not constant-time: in the page it keeps the seat's scalars from the
host, not from timing attacks by code on the same phone.

The group is RFC 9496 ristretto255 over edwards25519 (a = -1): decode (section 4.3.1),
encode (4.3.2), equality (4.3.3), the one-way map from 64 bytes (4.3.4).
"""

from __future__ import annotations

import secrets

__all__ = ["crypto_core_ristretto255_from_hash", "crypto_core_ristretto255_is_valid_point",
           "crypto_core_ristretto255_scalar_invert", "crypto_core_ristretto255_scalar_mul",
           "crypto_core_ristretto255_scalar_random", "crypto_scalarmult_ristretto255"]

P = 2**255 - 19  # the field
L = 2**252 + 27742317777372353535851937790883648493  # the group order
D = (-121665 * pow(121666, P - 2, P)) % P  # the curve's d
SQRT_M1 = pow(2, (P - 1) // 4, P)
# RFC 9496, section 4.1 (as given there; checked against libsodium by the tests)
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952
D2 = 2 * D % P

Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z
IDENTITY: Point = (0, 1, 1, 0)


def _neg(x: int) -> bool:  # RFC 9496 IS_NEGATIVE: the low bit of the canonical form
    return bool(x % P & 1)


def _abs(x: int) -> int:
    x %= P
    return P - x if x & 1 else x


def _sqrt_ratio_m1(u: int, v: int) -> tuple[bool, int]:
    """RFC 9496 4.2: (whether u/v is square, the non-negative root of u/v or of i*u/v)."""
    v3 = v * v % P * v % P
    v7 = v3 * v3 % P * v % P
    r = u * v3 % P * pow(u * v7 % P, (P - 5) // 8, P) % P
    check = v * r % P * r % P
    u %= P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * SQRT_M1) % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return correct or flipped, _abs(r)


def _decode(s_bytes: bytes) -> Point | None:
    if len(s_bytes) != 32:
        return None
    # The top bit is ignored, as by the libsodium that rbcl bundles (its canonical
    # check predates libsodium 1.0.19's, which also refuses a set top bit).
    s = int.from_bytes(s_bytes, "little") & ((1 << 255) - 1)
    if s >= P or s & 1:  # not canonical, or negative
        return None
    ss = s * s % P
    u1, u2 = (1 - ss) % P, (1 + ss) % P
    u2_sqr = u2 * u2 % P
    v = (-(D * u1 % P * u1) - u2_sqr) % P
    was_square, invsqrt = _sqrt_ratio_m1(1, v * u2_sqr % P)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x % P * v % P
    x = _abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or _neg(t) or y == 0:
        return None
    return (x, y, 1, t)


def _encode(p: Point) -> bytes:
    x0, y0, z0, t0 = p
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = _sqrt_ratio_m1(1, u1 * u2 % P * u2 % P)
    den1, den2 = invsqrt * u1 % P, invsqrt * u2 % P
    z_inv = den1 * den2 % P * t0 % P
    if _neg(t0 * z_inv):  # rotate
        x, y, den_inv = y0 * SQRT_M1 % P, x0 * SQRT_M1 % P, den1 * INVSQRT_A_MINUS_D % P
    else:
        x, y, den_inv = x0, y0, den2
    if _neg(x * z_inv):
        y = -y
    return _abs(den_inv * (z0 - y)).to_bytes(32, "little")


def _add(p: Point, q: Point) -> Point:
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 % P * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _double(p: Point) -> Point:
    x1, y1, z1, _ = p
    a, b = x1 * x1 % P, y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a + b
    e = h - (x1 + y1) * (x1 + y1) % P
    g = a - b
    f = c + g
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(n: int, p: Point) -> Point:
    """``n * p`` with a fixed 4-bit window (about 64 additions and 252 doublings)."""
    table = [IDENTITY, p]
    for _ in range(14):
        table.append(_add(table[-1], p))
    out = IDENTITY
    for shift in range(252, -4, -4):
        out = _double(_double(_double(_double(out))))
        digit = (n >> shift) & 15
        if digit:
            out = _add(out, table[digit])
    return out


def _map(t: int) -> Point:
    """RFC 9496 4.3.4 MAP: a field element to a point."""
    r = SQRT_M1 * t % P * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = _sqrt_ratio_m1(u, v)
    s_prime = (-_abs(s * t)) % P
    s = s if was_square else s_prime
    c = P - 1 if was_square else r
    n = (c * (r - 1) % P * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    ss = s * s % P
    w2, w3 = (1 - ss) % P, (1 + ss) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def _field(half: bytes) -> int:
    return int.from_bytes(half, "little") & ((1 << 255) - 1)  # the high bit is ignored


def _scalar(s: bytes) -> int:
    if len(s) != 32:
        raise ValueError(f"a scalar is 32 bytes, not {len(s)}")
    return int.from_bytes(s, "little")


def crypto_core_ristretto255_from_hash(h: bytes) -> bytes:
    """The point of 64 uniformly random bytes (RFC 9496 one-way map)."""
    if len(h) != 64:
        raise ValueError(f"from_hash takes 64 bytes, not {len(h)}")
    return _encode(_add(_map(_field(h[:32])), _map(_field(h[32:]))))


def crypto_core_ristretto255_is_valid_point(p: bytes) -> bool:
    return _decode(p) is not None


def crypto_scalarmult_ristretto255(n: bytes, p: bytes) -> bytes:
    """``n * p``, as libsodium: the scalar's top bit is cleared, not reduced; an invalid
    point or an identity result raises."""
    point = _decode(p)
    if point is None:
        raise ValueError("not a valid ristretto255 point")
    k = int.from_bytes(n, "little") & ((1 << 255) - 1)
    out = _encode(_mul(k, point))
    if out == bytes(32):
        raise ValueError("the result is the identity")
    return out


def crypto_core_ristretto255_scalar_mul(a: bytes, b: bytes) -> bytes:
    return (_scalar(a) * _scalar(b) % L).to_bytes(32, "little")


def crypto_core_ristretto255_scalar_invert(a: bytes) -> bytes:
    k = _scalar(a) % L
    if k == 0:
        raise ValueError("zero has no inverse")
    return pow(k, L - 2, L).to_bytes(32, "little")


def crypto_core_ristretto255_scalar_random() -> bytes:
    """A uniformly random non-zero scalar below the group order."""
    while True:
        k = secrets.randbits(253)
        if 0 < k < L:
            return k.to_bytes(32, "little")
