"""load(conn): the SQLite extension into a sqlite3 connection."""
import os
import sqlite3
import sysconfig

from ._native import package_library

ENTRY_POINT = 'sqlite3_bloomfilter_init'
ENV_VAR = 'BLOOMFILTER_SQLITE_LIBRARY'


def library_paths():
    """Where load() looks, in order: $BLOOMFILTER_SQLITE_LIBRARY, the library
    built into this package at install, the Debian package
    libsqlite3-mod-bloomfilter's, and the repository's build/bloomfilter.so
    (make sqlite) when the package is run from the repository."""
    paths = []
    if os.environ.get(ENV_VAR):
        paths.append(os.environ[ENV_VAR])
    bundled = package_library('_sqlite')
    if bundled:
        paths.append(bundled)
    multiarch = sysconfig.get_config_var('MULTIARCH')
    if multiarch:
        paths.append(f'/usr/lib/{multiarch}/bloomfilter.so')
    here = os.path.dirname(os.path.abspath(__file__))
    paths.append(os.path.join(here, '..', '..', 'build', 'bloomfilter.so'))
    return paths


def library_path():
    """The first existing library of library_paths(), or None."""
    for path in library_paths():
        if os.path.isfile(path):
            return os.path.abspath(path)
    return None


def load(conn, path=None):
    """Load the bloomfilter functions into a sqlite3 connection.

    path: a library to load instead of the one library_path() finds.
    Extension loading is switched on for the call only and off again.
    """
    if not isinstance(conn, sqlite3.Connection):
        raise TypeError(f'bloomfilter.load takes a sqlite3.Connection, got {type(conn).__name__}')
    if not hasattr(conn, 'enable_load_extension'):
        raise RuntimeError(
            'bloomfilter: this Python cannot load SQLite extensions: its sqlite3 module was '
            'built without extension loading (e.g. pyenv or the macOS system Python without '
            '--enable-loadable-sqlite-extensions). Debian\'s python3 (/usr/bin/python3) can.')
    path = path or library_path()
    if path is None:
        raise FileNotFoundError(
            'bloomfilter: no SQLite extension found; looked at ' + ', '.join(library_paths()) +
            '. Install libsqlite3-dev before pip installing the package (it builds one), '
            f'install libsqlite3-mod-bloomfilter, or set {ENV_VAR}')
    conn.enable_load_extension(True)
    try:
        # The SQL function, not conn.load_extension: it takes the entry point,
        # whose name does not follow from the bundled file's name.
        conn.execute('SELECT load_extension(?, ?)', (path, ENTRY_POINT))
    finally:
        conn.enable_load_extension(False)
    return path
