"""The fair-play core (protocol/fairplay.py): chains, seeds, sampling, signatures.

The statistical test draws 100,000 values through the whole scheme (a fresh event
seed from three seats' chain links per draw) for several ranges, most of them not
powers of two, and checks uniformity with a chi-square test; a modulo sampler run
through the same check fails it, so the check has the power to catch the bias it
is there for.
"""

from __future__ import annotations

import math
import random

import pytest

from lantable.protocol import fairplay as fp

DRAWS = 100_000
RANGES = (2, 3, 6, 7, 10, 12, 36, 100, 3 << 30)
BUCKETS = 12  # ranges over 100 are grouped into 12 equal buckets (they divide by 12)


def chi2_critical(df: int, z: float = 3.719) -> float:
    """The chi-square value above which p < 0.0001 (Wilson-Hilferty approximation)."""
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def chi2(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def bucket(value: int, n: int) -> tuple[int, int]:
    """(bucket, number of buckets): every value its own bucket up to 100 values."""
    if n <= 100:
        return value, n
    return value * BUCKETS // n, BUCKETS


def test_chain_reveals_check_against_the_tip() -> None:
    chain = fp.HashChain(bytes(range(32)), length=10)
    fp.check_link(chain.link(1), 1, chain.tip, 0)
    fp.check_link(chain.link(4), 4, chain.link(1), 1)  # a seat that skipped events 2..3
    with pytest.raises(fp.FairPlayError, match="does not hash"):
        fp.check_link(chain.link(3), 4, chain.link(1), 1)
    with pytest.raises(fp.FairPlayError, match="not after"):
        fp.check_link(chain.link(1), 1, chain.link(1), 1)
    with pytest.raises(fp.FairPlayError, match="outside this chain"):
        chain.link(11)


def test_chain_is_a_function_of_its_secret() -> None:
    a, b = fp.HashChain(b"\x01" * 32, 5), fp.HashChain(b"\x01" * 32, 5)
    assert a.tip == b.tip and a.link(5) != a.link(4)
    assert fp.chain_step(bytes.fromhex(a.link(1))).hex() == a.tip


def test_event_seed_depends_on_every_input_and_not_on_reveal_order() -> None:
    links = [(0, "aa" * 32), (1, "bb" * 32)]
    base = fp.event_seed("t", 1, "cc" * 32, links)
    assert fp.event_seed("t", 1, "cc" * 32, list(reversed(links))) == base
    assert len({base,
                fp.event_seed("u", 1, "cc" * 32, links),
                fp.event_seed("t", 2, "cc" * 32, links),
                fp.event_seed("t", 1, "dd" * 32, links),
                fp.event_seed("t", 1, "cc" * 32, [(0, "aa" * 32), (1, "bc" * 32)]),
                fp.event_seed("t", 1, "cc" * 32, links, fallback="ee" * 32)}) == 6


def test_canonical_encoding_ignores_map_order() -> None:
    assert fp.canonical({"b": 1, "a": {"d": 2, "c": 3}}) == fp.canonical(
        {"a": {"c": 3, "d": 2}, "b": 1})


def test_stream_bits_and_rejection_sampling() -> None:
    s = fp.Stream("00" * 32)
    first = fp.sha256(fp.STREAM_PREFIX + bytes(32) + (0).to_bytes(8, "big"))
    assert s.getrandbits(12) == int.from_bytes(first[:2], "big") >> 4
    assert s.take(30) == first[2:32]
    # randbelow(6) draws 3 bits and rejects 6 and 7: never a modulo
    s = fp.Stream("11" * 32)
    raw = fp.Stream("11" * 32)
    expected = next(v for v in iter(lambda: raw.getrandbits(3), None) if v < 6)
    assert s.randbelow(6) == expected
    assert fp.Stream("11" * 32).randbelow(1) == 0
    with pytest.raises(ValueError, match="empty range"):
        s.randbelow(0)


def test_fair_random_serves_the_stdlib_api_from_its_stream() -> None:
    seed = fp.event_seed("t", 1, "00" * 32, [(0, "11" * 32)])
    a, b = fp.FairRandom(seed), fp.FairRandom(seed)
    deck = list(range(52))
    a.shuffle(deck)
    other = list(range(52))
    b.shuffle(other)
    assert deck == other and deck != list(range(52))
    assert a.randint(1, 6) == b.randint(1, 6)
    assert 0 <= a.random() < 1 and a.choice("xyz") in "xyz"
    assert a.draws >= 3


def test_fair_random_without_an_event_signals_need_randomness() -> None:
    probe = fp.FairRandom()
    with pytest.raises(fp.NeedRandomness):
        probe.randint(1, 6)
    # a game's `except Exception` cannot swallow the signal
    assert not issubclass(fp.NeedRandomness, Exception)


def test_signatures_bind_every_field() -> None:
    ann = fp.Identity()
    sig = ann.sign("reveal", "t", 0, 1, "aa" * 32, "bb" * 32)
    fp.verify_signature(ann.public, sig, "reveal", "t", 0, 1, "aa" * 32, "bb" * 32)
    for fields in (("t", 0, 2, "aa" * 32, "bb" * 32), ("t", 1, 1, "aa" * 32, "bb" * 32),
                   ("u", 0, 1, "aa" * 32, "bb" * 32)):
        with pytest.raises(fp.FairPlayError, match="does not match"):
            fp.verify_signature(ann.public, sig, "reveal", *fields)
    with pytest.raises(fp.FairPlayError, match="does not match"):
        fp.verify_signature(fp.Identity().public, sig, "reveal", "t", 0, 1, "aa" * 32, "bb" * 32)
    with pytest.raises(fp.FairPlayError, match="hex"):
        fp.verify_signature(ann.public, "zz", "reveal")
    again = fp.Identity.from_bytes(ann.private_bytes())
    assert again.public == ann.public


def _draws_through_the_scheme() -> dict[int, list[int]]:
    # three seats' chains of 100,000 links (longer than one table's: built link by link)
    chains = []
    for seat in range(3):
        links = [bytes([seat]) * 32]
        for _ in range(DRAWS):
            links.append(fp.chain_step(links[-1]))
        chains.append(links[::-1])
    digest = fp.tagged_hash("test", "uniformity")
    counts = {n: [0] * bucket(0, n)[1] for n in RANGES}
    for event in range(1, DRAWS + 1):
        links = [(seat, chain[event].hex()) for seat, chain in enumerate(chains)]
        rng = fp.FairRandom(fp.event_seed("chi2", event, digest, links))
        for n in RANGES:
            b, _ = bucket(rng.randrange(n), n)
            counts[n][b] += 1
    return counts


def test_draws_through_the_scheme_are_uniform() -> None:
    """100,000 events; per range, chi-square below its p = 0.0001 critical value."""
    for n, counts in _draws_through_the_scheme().items():
        assert sum(counts) == DRAWS
        stat, df = chi2(counts), len(counts) - 1
        assert stat < chi2_critical(df), (n, stat, counts)


def test_the_uniformity_check_catches_a_modulo_sampler() -> None:
    """Modulo 3·2^30 over 32 bits doubles the low third: the same check must fail."""
    n = 3 << 30
    assert n % BUCKETS == 0
    rng = random.Random(5)
    counts = [0] * BUCKETS
    for _ in range(DRAWS // 10):
        counts[bucket(rng.getrandbits(32) % n, n)[0]] += 1
    assert chi2(counts) > chi2_critical(BUCKETS - 1)


def test_the_quick_check_of_a_signatures_r_agrees_with_decoding_it() -> None:
    """``_weak_r`` (no exponentiation) refuses exactly what ``_weak_point`` refuses,
    on every point of small order, non-canonical encodings, and honest ``R``s; an
    encoding that is no point passes it, and never verifies."""
    import os

    small = sorted(fp._SMALL_ORDER)
    assert len(small) == 8 and all("small order" in fp._weak_point(r) for r in small)
    p = fp._P
    odd = [(p + k).to_bytes(32, "little") for k in range(3)]  # y = p, p + 1, p + 2
    odd += [(1 | 1 << 255).to_bytes(32, "little"), ((p - 1) | 1 << 255).to_bytes(32, "little")]
    honest = [bytes.fromhex(fp.Identity().sign("act", "t", i))[:32] for i in range(50)]
    for raw in [*small, *odd, *honest]:
        assert (fp._weak_r(raw) is None) == (fp._weak_point(raw) is None), raw.hex()
    no_point = next(r for r in (os.urandom(32) for _ in range(100))
                    if fp._weak_point(r) is not None and fp._weak_r(r) is None)
    seat = fp.Identity()
    sig = bytes.fromhex(seat.sign("act", "t", 0))
    with pytest.raises(fp.FairPlayError, match="does not match"):
        fp.verify_signature(seat.public, (no_point + sig[32:]).hex(), "act", "t", 0)
