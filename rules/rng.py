"""A tiny seeded generator whose whole state is one integer, so it can live inside a game state."""

from __future__ import annotations

_MASK = (1 << 64) - 1


def mix(seed: int) -> int:
    """Turn any integer seed into a well-spread 64-bit generator state."""
    return next_state(seed & _MASK)[0] or 0x9E3779B97F4A7C15


def next_state(state: int) -> tuple[int, int]:
    """SplitMix64: return (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Return (new state, a uniform integer in [0, n)) by rejection, so no value is favoured."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (_MASK + 1) - ((_MASK + 1) % n)
    while True:
        state, bits = next_state(state)
        if bits < limit:
            return state, bits % n


def shuffled(state: int, items: list[int]) -> tuple[int, list[int]]:
    """Return (new state, a Fisher–Yates shuffled copy of items)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


def dealt(state: int, items: list[int], sizes: list[int]) -> tuple[int, list[tuple[int, ...]]]:
    """Return (new state, ``items`` shuffled and cut into consecutive parts of ``sizes``): hidden cards dealt
    anew into the hands and decks that held them (``determinize``)."""
    if sum(sizes) != len(items):
        raise ValueError("the sizes must add up to the items")
    state, order = shuffled(state, items)
    parts, start = [], 0
    for size in sizes:
        parts.append(tuple(order[start : start + size]))
        start += size
    return state, parts


def reseeded(state: int) -> tuple[int, int]:
    """Return (new state, a generator state for a sampled game): the future of chance, drawn anew."""
    state, bits = next_state(state)
    return state, mix(bits)
