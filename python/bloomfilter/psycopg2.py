"""psycopg2 adapters: register_bloom(conn) makes bloom columns (and bloom[])
come back as BloomFilter, and lets a BloomFilter be a query parameter.

bytes parameters bind as bloom without these adapters in 1.1 (the
bytea -> bloom cast is implicit there); a BloomFilter is sent as
'\\x...'::bytea::bloom, which 1.0 takes too.
"""
import psycopg2
import psycopg2.extensions as ext

from .filter import BloomFilter


class BloomAdapter:
    """A BloomFilter as an SQL literal, quoted by psycopg2's bytea adapter."""

    def __init__(self, f):
        self._binary = ext.Binary(bytes(f))

    def prepare(self, conn):
        self._binary.prepare(conn)

    def getquoted(self):
        return self._binary.getquoted() + b'::bloom'


def _cast(value, cur):
    return None if value is None else BloomFilter.from_bytes(value)


def register_bloom(conn_or_curs, globally=False):
    """Register the adapters on a connection or cursor (or, globally=True,
    process-wide).  The bloom type's oid is looked up in that database;
    raises psycopg2.ProgrammingError when the extension is not installed."""
    cur = conn_or_curs.cursor() if hasattr(conn_or_curs, 'cursor') else conn_or_curs
    cur.execute("SELECT oid, typarray FROM pg_type WHERE oid = to_regtype('bloom')")
    row = cur.fetchone()
    if row is None:
        raise psycopg2.ProgrammingError(
            'bloom type not found in the database: CREATE EXTENSION bloomfilter first')
    oid, array_oid = row
    bloom = ext.new_type((oid,), 'BLOOM', _cast)
    bloom_array = ext.new_array_type((array_oid,), 'BLOOM[]', bloom)
    scope = None if globally else conn_or_curs
    ext.register_type(bloom, scope)
    ext.register_type(bloom_array, scope)
    # adapters of Python classes are process-wide in psycopg2
    ext.register_adapter(BloomFilter, BloomAdapter)
    return oid
