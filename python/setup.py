"""Build of the bloomfilter Python package from the repository.

The version is the control file's (../bloomfilter.control), as everywhere.
Two shared libraries are compiled from the repository's C sources, with the
flags the Makefile uses:

  bloomfilter/_bloomcore*.so  the core (../core/*.c) behind bloomfilter/_core.c,
                              read with ctypes by bloomfilter/_native.py;
  bloomfilter/_sqlite*.so     the SQLite loadable extension (../sqlite/*.c),
                              what bloomfilter.load(conn) loads; built only
                              when SQLite's headers (libsqlite3-dev) are there.

Neither imports Python.h: they are plain libraries that setuptools places
in the package, so no python3-dev is needed.
"""
import glob
import os
import re
import shutil
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def control_version():
    with open(os.path.join(REPO, 'bloomfilter.control')) as f:
        m = re.search(r"^default_version\s*=\s*'([^']+)'", f.read(), re.M)
    if not m:
        raise SystemExit('bloomfilter: no default_version in ../bloomfilter.control')
    return m.group(1)


def staged_sources(part):
    """Copy ../<part>/*.{c,h} under build/csrc/<part>: setuptools wants
    sources inside the project, and object files then stay in build/."""
    src = os.path.join(REPO, part)
    if not os.path.isdir(src):
        raise SystemExit(f'bloomfilter: {src} is missing; build the package from the repository '
                         '(pip install --no-build-isolation ./python)')
    dst = os.path.join('build', 'csrc', part)
    os.makedirs(dst, exist_ok=True)
    for path in glob.glob(os.path.join(src, '*.[ch]')):
        shutil.copy2(path, dst)
    return sorted(glob.glob(os.path.join(dst, '*.c')))


def staged_license():
    """../LICENSE copied to build/LICENSE, which pyproject.toml's
    license-files puts in the wheel (it takes files inside the project)."""
    os.makedirs('build', exist_ok=True)
    shutil.copy2(os.path.join(REPO, 'LICENSE'), os.path.join('build', 'LICENSE'))


def has_sqlite_headers():
    dirs = [sysconfig.get_config_var('INCLUDEDIR') or '/usr/include', '/usr/include',
            '/usr/local/include']
    return any(os.path.exists(os.path.join(d, 'sqlite3ext.h')) for d in dirs)


os.chdir(HERE)
VERSION = control_version()
common = dict(
    define_macros=[('BLOOMFILTER_VERSION', f'"{VERSION}"')],
    include_dirs=['build/csrc/core'],
    extra_compile_args=['-std=c11'],
    libraries=['m'],
)
core = staged_sources('core')
extensions = [Extension('bloomfilter._bloomcore', ['bloomfilter/_core.c'] + core, **common)]
if has_sqlite_headers():
    extensions.append(Extension('bloomfilter._sqlite', staged_sources('sqlite') + core, **common))

class plain_library_names(build_ext):
    """bloomfilter/_bloomcore.so, not _bloomcore.cpython-311-...so: the
    libraries import nothing of Python, so one build serves every Python 3
    (the wheel is tagged py3-none, tools/build-wheel.sh)."""

    def get_ext_filename(self, fullname):
        return os.path.join(*fullname.split('.')) + '.so'


staged_license()
setup(version=VERSION, ext_modules=extensions, cmdclass={'build_ext': plain_library_names})
