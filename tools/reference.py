#!/usr/bin/env python3
"""An independent reading of docs/FORMAT.md and docs/HASHING.md in plain
Python (its own XXH64, no C code shared), used to produce and check the
golden vectors.

    tools/reference.py             print the golden vectors as Markdown
    tools/reference.py --c         print them as C tables (core/tests/golden.h)

Layouts: 0 classic, 1 blocked (bits); 2 counting (4-bit counters at
classic's positions); 3 scalable (stages of classic filters, grown by the
rule of docs/FORMAT.md, or a union of size classes).
"""
import math
import struct
import sys

M64 = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64(data: bytes, seed: int = 0) -> int:
    def rnd(acc, lane):
        acc = (acc + lane * P2) & M64
        return (rotl(acc, 31) * P1) & M64

    def merge(acc, val):
        acc ^= rnd(0, val)
        return (acc * P1 + P4) & M64

    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        while i + 32 <= n:
            for j in range(4):
                v[j] = rnd(v[j], struct.unpack_from('<Q', data, i + 8 * j)[0])
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M64
        for j in range(4):
            h = merge(h, v[j])
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= rnd(0, struct.unpack_from('<Q', data, i)[0])
        h = (rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= (struct.unpack_from('<I', data, i)[0] * P1) & M64
        h = (rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M64
        h = (rotl(h, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    h ^= h >> 32
    return h


def canonical(value) -> bytes:
    """HASHING.md: integers and booleans as int64 LE; floats as int64 when
    integral and in range, else binary64 LE (NaN canonical); text as UTF-8;
    bytes as themselves."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return struct.pack('<q', value)
    if isinstance(value, float):
        if math.isnan(value):
            return struct.pack('<Q', 0x7FF8000000000000)
        if math.isfinite(value) and value == math.trunc(value) and -2**63 <= value < 2**63:
            return struct.pack('<q', int(value))
        return struct.pack('<d', value)
    if isinstance(value, str):
        return value.encode('utf-8')
    return bytes(value)


def fmix64(h):
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & M64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & M64
    h ^= h >> 33
    return h


SALT = [0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,
        0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31]


def positions(layout, nbits, k, h):
    if layout == 0:
        x, y = h, fmix64(h)
        for i in range(k):
            yield (x * nbits) >> 64
            x = (x + y) & M64
            y = (y + i + 1) & M64
    else:
        block = ((h >> 32) * (nbits // 256)) >> 32
        key = h & 0xFFFFFFFF
        for i in range(8):
            bit = ((key * SALT[i]) & 0xFFFFFFFF) >> 27
            yield block * 256 + 32 * i + bit


NUMBER, TEXT, BYTES = 0x01, 0x02, 0x04


def kinds(values) -> int:
    """Header byte 10: the classes of the values added (numbers, text,
    bytes); text alone is stored as 0, as before 1.2."""
    mask = 0
    for v in values:
        mask |= (NUMBER if isinstance(v, (bool, int, float)) else
                 TEXT if isinstance(v, str) else BYTES)
    return 0 if mask == TEXT else mask


def header(layout, k, seed, nbits, values=()) -> bytes:
    """Bytes 10..15: the kinds, a zero byte, the type OID (0: no TYPED
    value here)."""
    return (b'BLOM' + bytes([1, layout, 1, k]) + b'\0' * 2 + bytes([kinds(values)]) + b'\0' * 5 +
            struct.pack('<QQ', seed, nbits))


def bit_array(layout, nbits, k, seed, values) -> bytearray:
    bits = bytearray((nbits + 63) // 64 * 8)
    for v in values:
        for p in positions(layout, nbits, k, xxh64(canonical(v), seed)):
            bits[p >> 3] |= 1 << (p & 7)
    return bits


def counters(nbits, k, seed, values, removed=()) -> bytes:
    """Layout 2: a 4-bit counter at each of classic's positions, counter i in
    the nibble i & 1 (low first) of byte i // 2; 15 saturates and stays."""
    c = [0] * nbits
    for v in values:
        for p in positions(0, nbits, k, xxh64(canonical(v), seed)):
            c[p] = min(15, c[p] + 1)
    for v in removed:
        ps = list(positions(0, nbits, k, xxh64(canonical(v), seed)))
        assert all(c[p] == 15 or c[p] >= ps.count(p) for p in ps), 'not in the filter'
        for p in ps:
            if c[p] < 15:
                c[p] -= 1
    body = bytearray((nbits + 15) // 16 * 8)
    for i, x in enumerate(c):
        body[i >> 1] |= x << (4 * (i & 1))
    return bytes(body)


def build(layout, nbits, k, seed, values, removed=()) -> bytes:
    if layout == 2:
        return header(2, k, seed, nbits, values) + counters(nbits, k, seed, values, removed)
    return header(layout, k, seed, nbits, values) + bytes(bit_array(layout, nbits, k, seed, values))


# ---- layout 3: scalable ----

RATIO, GROWTH = 0.8, 2


def stage_params(capacity, p):
    """A growing stage for capacity values at rate p: k = round(log2(1/p))
    in [1, 32], and the least multiple of 64 bits (at least 64) at or above
    the exact classic size, ceil(-k n / ln(1 - p^(1/k)))."""
    k = min(32, max(1, math.floor(-math.log2(p) + 0.5)))
    m = math.ceil(-k * float(capacity) / math.log1p(-(p ** (1.0 / k))))
    return (64 if m < 64 else (m + 63) // 64 * 64), k


def stage_fpr(fpr, i):
    p = fpr * (1 - RATIO)
    for _ in range(i):
        p *= RATIO
    return p


def stack(seed, stages, fpr=0.0, ratio=0.0, growth=0, values=()) -> bytes:
    """The bytes of a scalable filter: header (nhashes the largest of the
    stages', nbits their sum, the kinds of all values), stack header, stage
    records, bit arrays.  stages: dicts of nbits, layout, k, capacity,
    count, bits."""
    out = header(3, max(s['k'] for s in stages), seed, sum(s['nbits'] for s in stages), values)
    out += struct.pack('<dd', fpr, ratio) + bytes([growth, len(stages)]) + b'\0' * 14
    for s in stages:
        out += struct.pack('<QBB6xQQ', s['nbits'], s['layout'], s['k'], s['capacity'], s['count'])
    return out + b''.join(bytes(s['bits']) for s in stages)


def new_stage(i, capacity, fpr):
    nbits, k = stage_params(capacity, stage_fpr(fpr, i))
    return dict(nbits=nbits, layout=0, k=k, capacity=capacity, count=0,
                bits=bytearray((nbits + 63) // 64 * 8))


def stage_has(s, h):
    return all(s['bits'][p >> 3] >> (p & 7) & 1 for p in positions(s['layout'], s['nbits'], s['k'], h))


def scalable(capacity, fpr, seed, values) -> bytes:
    """bloom_add of each value, in order, to bloom_empty(capacity, fpr, seed,
    'scalable'): a value some stage reports is skipped; else it goes to the
    last stage, after a new one is appended if that one holds its capacity."""
    stages = [new_stage(0, capacity, fpr)]
    for v in values:
        h = xxh64(canonical(v), seed)
        if any(stage_has(s, h) for s in stages):
            continue
        last = stages[-1]
        if last['count'] >= last['capacity']:
            last = new_stage(len(stages), last['capacity'] * GROWTH, fpr)
            stages.append(last)
        for p in positions(0, last['nbits'], last['k'], h):
            last['bits'][p >> 3] |= 1 << (p & 7)
        last['count'] += 1
    return stack(seed, stages, fpr, RATIO, GROWTH, values)


def union_of_classes(layout, k, seed, members) -> bytes:
    """bloom_union of filters of one layout, k and seed whose sizes divide:
    one stage per size, the OR of the members of that size."""
    sizes = sorted({nbits for nbits, _ in members})
    stages = [dict(nbits=m, layout=layout, k=k, capacity=0, count=0,
                   bits=bit_array(layout, m, k, seed, [v for n, vs in members if n == m for v in vs]))
              for m in sizes]
    return stack(seed, stages, values=[v for _, vs in members for v in vs])


VECTORS = [
    # (name, layout, nbits, nhashes, seed, values)
    ("empty classic", 0, 64, 3, 0, []),
    ("classic ints", 0, 128, 3, 0, [1, 2, 3]),
    ("classic mixed, seed 42", 0, 100, 5, 42, ["apple", "", -7, 2.5, b"\x00\xff"]),
    ("classic 5 and 5.0", 0, 64, 2, 7, [5.0, True]),
    ("blocked ints", 1, 512, 8, 0, [1, 2, 3, 1000000]),
    ("blocked text, seed 9", 1, 256, 8, 9, ["bloom", "filter"]),
    ("counting, 2 twice", 2, 64, 3, 0, [1, 2, 2, 3]),
    ("counting text, seed 5", 2, 100, 4, 5, ["a", "b", "a", "c", "a"]),
]

# (name, capacity, fpr, seed, values): bloom_add of each, in order, to bloom_empty(..., 'scalable')
SCALABLE_VECTORS = [
    ("scalable, empty", 10, 0.01, 0, []),
    ("scalable, grown to 3 stages", 2, 0.01, 0, list(range(1, 11))),
]

# (name, layout, nhashes, seed, [(nbits, values), ...]): bloom_union of the members
UNION_VECTORS = [
    ("union of two size classes", 0, 3, 0, [(64, [1, 2]), (256, [3, 4, 5])]),
]


def c_value(v):
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, int):
        return "{'i', %d, 0, NULL, 0}" % v
    if isinstance(v, float):
        return "{'d', 0, %r, NULL, 0}" % v
    b = canonical(v)
    lit = ''.join(f'\\x{c:02x}' for c in b)
    return "{'%s', 0, 0, \"%s\", %d}" % ('s' if isinstance(v, str) else 'b', lit, len(b))


def main():
    if '--c' in sys.argv:
        print('/* Generated by tools/reference.py --c (an independent Python reading of')
        print(' * the spec): do not edit.  GOLDEN_ARRAYS: filters with one array, the')
        print(' * values added in order; GOLDEN_SCALABLE: bloom_add of the integers')
        print(' * 1..count to bloom_empty(capacity, fpr, seed, \'scalable\'); GOLDEN_UNIONS:')
        print(' * the union of classic filters of the integers [first, last] at sizes. */')
        print('#define GOLDEN_ARRAYS \\')
        for name, layout, nbits, k, seed, values in VECTORS:
            data = build(layout, nbits, k, seed, values)
            vals = ', '.join(c_value(v) for v in values) or '{0}'
            print(f'{{"{name}", {layout}, {nbits}, {k}, {seed}, {len(values)}, {{{vals}}}, \\')
            print(f' "{data.hex()}"}}, \\')
        print('')
        print('#define GOLDEN_SCALABLE \\')
        for name, cap, fpr, seed, values in SCALABLE_VECTORS:
            assert values == list(range(1, len(values) + 1))
            print(f'{{"{name}", {cap}, {fpr!r}, {seed}, {len(values)}, \\')
            print(f' "{scalable(cap, fpr, seed, values).hex()}"}}, \\')
        print('')
        print('#define GOLDEN_UNIONS \\')
        for name, layout, k, seed, members in UNION_VECTORS:
            spans = ', '.join(f'{{{m}, {vs[0]}, {vs[-1]}}}' for m, vs in members)
            assert all(vs == list(range(vs[0], vs[-1] + 1)) for _, vs in members)
            print(f'{{"{name}", {layout}, {k}, {seed}, {len(members)}, {{{spans}}}, \\')
            print(f' "{union_of_classes(layout, k, seed, members).hex()}"}}, \\')
        print('')
        return
    for name, layout, nbits, k, seed, values in VECTORS:
        data = build(layout, nbits, k, seed, values)
        print(f'- **{name}**: layout {layout}, nbits {nbits}, nhashes {k}, seed {seed}, '
              f'values `{values!r}`\n\n  ```\n  {data.hex()}\n  ```\n')
    for name, cap, fpr, seed, values in SCALABLE_VECTORS:
        print(f'- **{name}**: layout 3, capacity {cap}, fpr {fpr}, seed {seed}, values `{values!r}` '
              f'added in order\n\n  ```\n  {scalable(cap, fpr, seed, values).hex()}\n  ```\n')
    for name, layout, k, seed, members in UNION_VECTORS:
        desc = ', '.join(f'nbits {m} with `{vs!r}`' for m, vs in members)
        print(f'- **{name}**: layout 3, the union of layout {layout} filters (nhashes {k}, seed {seed}): '
              f'{desc}\n\n  ```\n  {union_of_classes(layout, k, seed, members).hex()}\n  ```\n')
    print('| value | canonical bytes | XXH64, seed 0 |\n|---|---|---|')
    for v in ["", "abc", 1, -1, 5.0, 0.5, float('nan'), b"\x01\x02"]:
        print(f'| `{v!r}` | `{canonical(v).hex()}` | `{xxh64(canonical(v)):016x}` |')


if __name__ == '__main__':
    main()
