"""BloomFilter: a filter on the client, over the same C core as both engines.

A filter is its serialized bytes (docs/FORMAT.md): bytes(f) is what
PostgreSQL's bloom and SQLite's BLOB hold, and BloomFilter.from_bytes reads
either.  Values are hashed by the canonical rule (docs/HASHING.md), so a
value added here is found by bloom_contains in either engine and the
reverse.
"""
import ctypes
import decimal
import math
import re
import uuid

from ._native import LAYOUTS, MESSAGE_SIZE, lib

LAYOUT_IDS = {name: lid for lid, name in LAYOUTS.items()}

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
_STATUS = {1: 'invalid argument', 2: 'limit exceeded', 3: 'invalid filter bytes',
           4: 'filters do not combine', 5: 'out of memory', 6: 'saturated result'}


class BloomError(ValueError):
    """A status of the core: .status ('invalid filter bytes', ...), the
    core's message as str(e), and .hint (what to do, or None)."""

    def __init__(self, code, message):
        hint = lib.bfpy_hint(code)
        self.status = _STATUS.get(code, str(code))
        self.hint = hint.decode() if hint else None
        super().__init__(message + (f' ({self.hint})' if self.hint else ''))


def _check(code, msg):
    if code == 5:
        raise MemoryError(msg.value.decode())
    if code != 0:
        raise BloomError(code, msg.value.decode())


def _layout_id(layout):
    lid = lib.bfpy_layout_from_name(str(layout).encode())
    if lid < 0:
        raise BloomError(1, f"unknown layout {layout!r}: use 'classic', 'blocked', 'counting' or "
                            "'scalable'")
    return lid


def _seed(seed):
    """A seed as the SQL side takes it (bigint, -1 is 2^64 - 1) or unsigned."""
    if not isinstance(seed, int) or not INT64_MIN <= seed < 1 << 64:
        raise BloomError(1, f'seed must be a 64-bit integer, got {seed!r}')
    return seed & 0xFFFFFFFFFFFFFFFF


# PostgreSQL's numeric holds up to 131072 digits before the decimal point
# and 16383 after (its weight and display scale are 16-bit fields); beyond
# either it refuses the value: "value overflows numeric format".
NUMERIC_MAX_INT_DIGITS, NUMERIC_MAX_SCALE = 131072, 16383
# The bit length of 10^131072: a longer int is refused at once, one of this
# length is checked as a Decimal.
_NUMERIC_MAX_BITS = math.ceil(NUMERIC_MAX_INT_DIGITS * math.log2(10))


def _numeric_overflow(what):
    return BloomError(1, f'value overflows numeric format: {what}; PostgreSQL\'s numeric, whose '
                         f'hash a Decimal or a large int takes, holds at most '
                         f'{NUMERIC_MAX_INT_DIGITS} digits before the decimal point and '
                         f'{NUMERIC_MAX_SCALE} after')


def _check_numeric_range(d):
    """Refuse a finite Decimal that PostgreSQL's numeric cannot hold, before
    any work that grows with its digits (int(Decimal('1e9999999')) takes
    minutes)."""
    scale = -d.as_tuple().exponent
    if scale > NUMERIC_MAX_SCALE:
        raise _numeric_overflow(f'{scale} digits after the decimal point')
    if not d.is_zero() and d.adjusted() >= NUMERIC_MAX_INT_DIGITS:
        raise _numeric_overflow(f'{d.adjusted() + 1} digits before the decimal point')


def _decimal_hash(d, seed):
    """As PostgreSQL hashes numeric: integral within int64 as int64, else
    the nearest double, beyond a double's range its normalized text."""
    if d.is_nan():
        return lib.bfpy_hash_double(math.nan, seed)
    if d.is_infinite():
        return lib.bfpy_hash_double(float(d), seed)
    _check_numeric_range(d)
    if ((d.is_zero() or d.adjusted() < 19) and d == d.to_integral_value()
            and INT64_MIN <= int(d) <= INT64_MAX):
        return lib.bfpy_hash_int64(int(d), seed)
    f = float(d)
    if math.isinf(f):
        text = format(d, 'f')
        if '.' in text:
            text = text.rstrip('0').rstrip('.')
        return lib.bfpy_hash_bytes(text.encode(), len(text), seed)
    return lib.bfpy_hash_double(f, seed)


def _hash(value, seed):
    """The canonical hash of one value (an unsigned 64-bit int)."""
    if isinstance(value, int):  # bool included: False 0, True 1
        if INT64_MIN <= value <= INT64_MAX:
            return lib.bfpy_hash_int64(value, seed)
        if value.bit_length() > _NUMERIC_MAX_BITS:  # before Decimal(value), slow at that size
            raise _numeric_overflow(f'an int of {value.bit_length()} bits')
        return _decimal_hash(decimal.Decimal(value), seed)
    if isinstance(value, float):
        return lib.bfpy_hash_double(value, seed)
    if isinstance(value, str):
        data = value.encode('utf-8')
        return lib.bfpy_hash_bytes(data, len(data), seed)
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return lib.bfpy_hash_bytes(data, len(data), seed)
    if isinstance(value, decimal.Decimal):
        return _decimal_hash(value, seed)
    if isinstance(value, uuid.UUID):  # PostgreSQL's uuid hashes its 16 bytes
        return lib.bfpy_hash_bytes(value.bytes, 16, seed)
    raise TypeError(f'bloomfilter: cannot hash a {type(value).__name__}: values are int, float, '
                    'Decimal, str, bytes or UUID (docs/HASHING.md); convert others first, '
                    'e.g. a date to its ISO text')


def hash_value(value, seed=0):
    """bloom_hash(value, seed) of both engines: a signed 64-bit int, or None for None."""
    if value is None:
        return None
    h = _hash(value, _seed(seed))
    return h - (1 << 64) if h > INT64_MAX else h


# The classes of values a filter records (docs/FORMAT.md, header byte 10).
KIND_NUMBER, KIND_TEXT, KIND_BYTES, KIND_TYPED = 1, 2, 4, 8
UUID_OID = 2950  # PostgreSQL's uuid: a UUID is hashed as its values are


def _kind(value):
    """The class (KIND_*) of a value _hash took, and its PostgreSQL type's OID
    when it is a typed value."""
    if isinstance(value, (int, float, decimal.Decimal)):  # bool included
        return KIND_NUMBER, 0
    if isinstance(value, str):
        return KIND_TEXT, 0
    if isinstance(value, (bytes, bytearray, memoryview)):
        return KIND_BYTES, 0
    return KIND_TYPED, UUID_OID


def _hashes(values, seed):
    """A ctypes array of the hashes of the non-None values, their number, and
    their classes (KIND_* bits) with the OID of their PostgreSQL type."""
    hs, kinds, oid = [], 0, 0
    for v in values:
        if v is None:
            continue
        hs.append(_hash(v, seed))
        kind, type_oid = _kind(v)
        kinds |= kind
        oid = oid or type_oid
    return (ctypes.c_uint64 * len(hs))(*hs), len(hs), kinds, oid


# What SQLite's comparison of TEXT with an INTEGER or REAL column reads as a
# number (numeric affinity): an integer or a decimal, with an optional
# exponent, in ASCII digits, with spaces (\t \n \v \f \r and ' ') around it.
_SQLITE_NUMBER = re.compile(r'[\t\n\v\f\r ]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)'
                            r'[\t\n\v\f\r ]*\Z')


def _text_as_number(text):
    """The number text reads as, as SQLite reads it: an int when it is written
    as an integer within int64, else a float; None when it is no number."""
    m = _SQLITE_NUMBER.match(text)
    if m is None:
        return None
    number = m.group(1)
    if '.' not in number and m.group(2) is None and len(number.lstrip('+-').lstrip('0')) <= 19:
        value = int(number)
        if INT64_MIN <= value <= INT64_MAX:
            return value
    return float(number)


def _typed_refusal(oid):
    what = f'PostgreSQL type OID {oid}' if oid else 'several or non-built-in PostgreSQL types'
    return BloomError(1, f'cannot read a text probe as the values of this filter: it holds values '
                         f'of {what}, which a str is not read as here. Probe with the value itself '
                         '(a uuid.UUID) or bytes of its canonical form (docs/HASHING.md)')


_NOT_HEX = re.compile(r'[^0-9A-Fa-f]')


def _from_text(text):
    """The bytes of PostgreSQL's text form of a filter (bytea's hex form), read
    as bloom_in reads it: "\\x" (or "\\X") and an even number of hexadecimal
    digits, nothing else (no spaces, which bytes.fromhex would let through)."""
    if text[:2] not in ('\\x', '\\X'):
        raise BloomError(3, 'a filter in text form starts with "\\x" followed by hexadecimal digits')
    digits = text[2:]
    if len(digits) % 2:
        raise BloomError(3, f'the text form has an odd number ({len(digits)}) of hexadecimal digits')
    bad = _NOT_HEX.search(digits)
    if bad:
        raise BloomError(3, f'character {bad.start() + 3} of the text form, {bad.group()!r}, is not '
                            'a hexadecimal digit')
    return bytes.fromhex(digits)


class BloomFilter:
    """A Bloom filter with the bytes both engines use.

    BloomFilter(capacity, fpr=0.01, seed=0, layout='classic') is
    bloom_empty(capacity, fpr, seed, layout) (layouts 'classic', 'blocked',
    'counting', 'scalable'); BloomFilter.with_params is bloom_empty_mk;
    BloomFilter.from_values is bloom_agg(x) (sized for the distinct values);
    BloomFilter.from_bytes reads a filter of either engine.
    """

    __slots__ = ('_buf', 'layout', 'nbits', 'nhashes', 'seed')

    def __init__(self, capacity, fpr=0.01, seed=0, layout='classic'):
        # a float with an integral value, as SQL's bloom_empty(1e6) takes it
        if isinstance(capacity, float) and capacity.is_integer():
            capacity = int(capacity)
        if not isinstance(capacity, int) or capacity <= 0:
            raise BloomError(1, f'capacity must be a positive integer, got {capacity!r}')
        if capacity > INT64_MAX:
            raise BloomError(2, f'capacity {capacity} is beyond a 64-bit integer')
        lid = _layout_id(layout)
        size = ctypes.c_size_t()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        _check(lib.bfpy_empty_size(lid, capacity, float(fpr), ctypes.byref(size), msg), msg)
        self._buf = (ctypes.c_ubyte * size.value)()
        _check(lib.bfpy_empty_init(self._buf, size.value, lid, capacity, float(fpr), _seed(seed), msg),
               msg)
        self._read_header()

    def _init(self, lid, nbits, nhashes, seed):
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        _check(lib.bfpy_check_params(lid, nbits, nhashes, msg), msg)
        size = lib.bfpy_layout_size(lid, nbits)
        self._buf = (ctypes.c_ubyte * size)()
        _check(lib.bfpy_init(self._buf, size, lid, nbits, nhashes, seed, msg), msg)
        self._read_header()

    def _read_header(self):
        layout, nhashes = ctypes.c_int(), ctypes.c_uint()
        seed, nbits = ctypes.c_uint64(), ctypes.c_uint64()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        _check(lib.bfpy_parse(bytes(self._buf), len(self._buf), ctypes.byref(layout),
                              ctypes.byref(nhashes), ctypes.byref(seed), ctypes.byref(nbits), msg),
               msg)
        self.layout = LAYOUTS[layout.value]
        self.nhashes, self.seed, self.nbits = nhashes.value, seed.value, nbits.value

    @classmethod
    def _wrap(cls, data):
        """A filter over a copy of data, validated by the core (bloom_parse)."""
        self = cls.__new__(cls)
        self._buf = (ctypes.c_ubyte * len(data)).from_buffer_copy(data)
        self._read_header()
        return self

    @classmethod
    def with_params(cls, nbits, nhashes, seed=0, layout='classic'):
        """bloom_empty_mk(nbits, nhashes, seed, layout): explicit m and k."""
        for name, v in (('nbits', nbits), ('nhashes', nhashes)):
            if not isinstance(v, int) or v <= 0:
                raise BloomError(1, f'{name} must be a positive integer, got {v!r}')
        self = cls.__new__(cls)
        self._init(_layout_id(layout), nbits, nhashes, _seed(seed))
        return self

    @classmethod
    def from_bytes(cls, data):
        """A filter from its bytes (a PostgreSQL bloom, an SQLite BLOB, bytes(f));
        every field is checked, BloomError says which is wrong."""
        if isinstance(data, str):
            data = _from_text(data)
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f'bloomfilter: from_bytes takes bytes, got {type(data).__name__}')
        return cls._wrap(bytes(data))

    @classmethod
    def from_values(cls, values, fpr=0.01, seed=0, layout='classic'):
        """The filter bloom_agg(x) builds from these values (classic, fpr 0.01,
        seed 0 by default): sized for the number of distinct values; None
        values are skipped.  Raises BloomError when no value is left (bloom_agg
        gives NULL there)."""
        hashes, n, kinds, oid = _hashes(values, _seed(seed))
        if n == 0:
            raise BloomError(1, 'from_values needs at least one value that is not None')
        out, size = ctypes.c_void_p(), ctypes.c_size_t()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        _check(lib.bfpy_build(_layout_id(layout), float(fpr), _seed(seed), hashes, n, kinds, oid,
                              ctypes.byref(out), ctypes.byref(size), msg), msg)
        try:
            return cls._wrap(ctypes.string_at(out, size.value))
        finally:
            lib.bfpy_free(out)

    # ---- bytes ----
    def to_bytes(self):
        return bytes(self._buf)

    __bytes__ = to_bytes

    def copy(self):
        """A new filter with its own bytes."""
        return type(self)._wrap(bytes(self._buf))

    # copy.copy and copy.deepcopy would otherwise copy the slots, and the copy
    # would share the buffer: adding to it would add to this filter.
    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # ---- members ----
    def add(self, value):
        """Add one value (None adds nothing); returns self."""
        return self.update((value,))

    def update(self, values):
        """Add every value of an iterable (bloom_add_all); returns self.  A
        scalable filter grows by stages past its capacity (its bytes get
        longer); a counting filter counts every value, repeats too."""
        hashes, n, kinds, oid = _hashes(values, self.seed)
        out, size = ctypes.c_void_p(), ctypes.c_size_t()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        code = lib.bfpy_insert(self._buf, len(self._buf), hashes, n, kinds, oid, ctypes.byref(out),
                               ctypes.byref(size), msg)
        if out.value:
            try:  # a scalable filter's new bytes, even up to an error
                self._buf = (ctypes.c_ubyte * size.value).from_buffer_copy(
                    ctypes.string_at(out, size.value))
            finally:
                lib.bfpy_free(out)
            self._read_header()
        _check(code, msg)
        return self

    def remove(self, value):
        """bloom_remove: a counting filter without one count of value (None
        removes nothing); returns self.  BloomError for another layout or a
        value the filter says is absent (the filter is then unchanged)."""
        if self.layout != 'counting':
            raise BloomError(1, f'a {self.layout} filter has no counters: only a counting filter '
                                "removes values (layout='counting')")
        if value is not None:
            msg = ctypes.create_string_buffer(MESSAGE_SIZE)
            _check(lib.bfpy_remove(self._buf, len(self._buf), _hash(value, self.seed), msg), msg)
        return self

    def to_classic(self):
        """bloom_to_classic: the classic filter of a counting filter's set."""
        size = ctypes.c_size_t()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        _check(lib.bfpy_to_classic_size(self._buf, len(self._buf), ctypes.byref(size), msg), msg)
        out = (ctypes.c_ubyte * size.value)()
        _check(lib.bfpy_to_classic(self._buf, len(self._buf), out, size.value, msg), msg)
        return type(self)._wrap(bytes(out))

    def _probe(self, values):
        """Each value's answer: a str probe of a filter that records its
        kinds is read as each kind it holds (docs/HASHING.md, "What a text
        probe checks"), a number by SQLite's rule."""
        values = list(values)
        kinds = self._buf[10]  # validated by the core's parse
        hashes, spans = [], []
        for v in values:
            start = len(hashes)
            if v is None:
                spans.append(None)
                continue
            if isinstance(v, str) and kinds:
                if kinds & KIND_TEXT:
                    hashes.append(_hash(v, self.seed))
                number = _text_as_number(v) if kinds & KIND_NUMBER else None
                if number is not None:
                    hashes.append(_hash(number, self.seed))
            else:
                hashes.append(_hash(v, self.seed))
            spans.append((start, len(hashes)))
        n = len(hashes)
        out = (ctypes.c_ubyte * max(n, 1))()
        lib.bfpy_contains_hashes(self._buf, len(self._buf), (ctypes.c_uint64 * max(n, 1))(*hashes), n,
                                 out)
        answers = []
        for v, span in zip(values, spans):
            found = None if span is None else any(out[span[0]:span[1]])
            if found is False and isinstance(v, str) and kinds & KIND_TYPED:
                raise _typed_refusal(int.from_bytes(bytes(self._buf[12:16]), 'little'))
            answers.append(found)
        return answers

    def contains(self, value):
        """bloom_contains: False if value was surely never added, True if it
        probably was, None for None."""
        return self._probe((value,))[0]

    def __contains__(self, value):
        return bool(self.contains(value))

    def contains_all(self, values):
        """bloom_contains_all: SQL's ALL (None elements give None unless some value is absent)."""
        answers = self._probe(values)
        if False in answers:
            return False
        return None if None in answers else True

    def contains_any(self, values):
        """bloom_contains_any: SQL's ANY (None elements give None unless some value may be present)."""
        answers = self._probe(values)
        if True in answers:
            return True
        return None if None in answers else False

    # ---- combining, as in SQL: a union of size classes keeps each (a
    # scalable filter), an intersection is at the larger size ----
    def _combine(self, other, is_union):
        if not isinstance(other, BloomFilter):
            return NotImplemented
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        nbytes = ctypes.c_size_t()
        _check(lib.bfpy_combine_size(self._buf, len(self._buf), other._buf, len(other._buf),
                                     int(is_union), ctypes.byref(nbytes), msg), msg)
        size = nbytes.value
        out = (ctypes.c_ubyte * size)()
        _check(lib.bfpy_combine(self._buf, len(self._buf), other._buf, len(other._buf),
                                int(is_union), out, size, msg), msg)
        return type(self)._wrap(bytes(out))

    def union(self, other):
        """bloom_union (a | b): a new filter of both sets."""
        return self._combine(other, True)

    def intersect(self, other):
        """bloom_intersect (a & b): bitwise AND."""
        return self._combine(other, False)

    __or__ = union
    __and__ = intersect

    def fold(self, nbits):
        """bloom_fold: the filter at nbits bits, a divisor of its size."""
        if not isinstance(nbits, int) or not -(1 << 63) <= nbits < 1 << 63:
            raise BloomError(1, f'nbits must be a 64-bit integer, got {nbits!r}')
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        # The core's check first (as SQL's bigint, signed): the result's
        # buffer is allocated only for a size that divides this one
        # (fold(2**36) is refused, not 8 GiB).
        _check(lib.bfpy_check_fold(self._buf, len(self._buf), nbits, msg), msg)
        size = lib.bfpy_layout_size(LAYOUT_IDS[self.layout], nbits)
        out = (ctypes.c_ubyte * size)()
        _check(lib.bfpy_fold(self._buf, len(self._buf), nbits, out, size, msg), msg)
        return type(self)._wrap(bytes(out))

    # ---- estimates ----
    def cardinality(self):
        """bloom_cardinality: estimated distinct values added."""
        return lib.bfpy_cardinality(self._buf, len(self._buf))

    def fpr(self):
        """bloom_fpr: estimated false-positive rate now."""
        return lib.bfpy_fpr(self._buf, len(self._buf))

    def bits_set(self):
        return lib.bfpy_popcount(self._buf, len(self._buf))

    def __eq__(self, other):
        if not isinstance(other, BloomFilter):
            return NotImplemented
        return bytes(self._buf) == bytes(other._buf)

    def __repr__(self):
        return (f'<BloomFilter {self.layout} nbits={self.nbits} nhashes={self.nhashes} '
                f'seed={self.seed} bits_set={self.bits_set()}>')
