"""psycopg 3 adapters: register_bloom(conn) makes bloom columns (and bloom[])
come back as BloomFilter, in text and binary results, and sends a
BloomFilter parameter as a bloom (binary, its bytes: no cast needed).

bytes parameters bind as bloom without these adapters in 1.1 (the
bytea -> bloom cast is implicit there).
"""
import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from .filter import BloomFilter


class BloomTextLoader(Loader):
    format = Format.TEXT

    def load(self, data):
        return BloomFilter.from_bytes(bytes(data).decode('ascii'))


class BloomBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return BloomFilter.from_bytes(bytes(data))


class BloomTextDumper(Dumper):
    format = Format.TEXT

    def dump(self, obj):
        return b'\\x' + bytes(obj).hex().encode('ascii')


class BloomBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return bytes(obj)


def register_bloom(context):
    """Register the adapters on a connection (or cursor): the bloom type's
    oid is looked up in its database; raises psycopg.ProgrammingError when
    the extension is not installed there."""
    info = TypeInfo.fetch(context, 'bloom')
    if info is None:
        raise psycopg.ProgrammingError(
            'bloom type not found in the database: CREATE EXTENSION bloomfilter first')
    info.register(context)  # bloom[] then loads element by element
    adapters = context.adapters
    for dumper in (BloomTextDumper, BloomBinaryDumper):  # the last is the default (%s)
        adapters.register_dumper(BloomFilter, type(dumper.__name__, (dumper,), {'oid': info.oid}))
    adapters.register_loader(info.oid, BloomTextLoader)
    adapters.register_loader(info.oid, BloomBinaryLoader)
    return info.oid
