"""bloomfilter: Bloom filters as SQL values, from Python.

  BloomFilter, hash_value   a filter on the client, same C core and bytes as
                            both engines (bloomfilter.filter)
  load(conn)                the SQLite extension into a sqlite3 connection
  bloomfilter.psycopg.register_bloom(conn)    psycopg 3 adapters
  bloomfilter.psycopg2.register_bloom(conn)   psycopg2 adapters
"""
from ._native import lib as _lib
from .filter import BloomError, BloomFilter, hash_value
from .sqlite import library_path, load

__version__ = _lib.bfpy_version().decode()
__all__ = ['BloomError', 'BloomFilter', 'hash_value', 'library_path', 'load', '__version__']
