"""The C core (bloomfilter/_core.c compiled into _bloomcore*.so) by ctypes."""
import ctypes
import glob
import os

from ctypes import (POINTER, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint, c_uint32, c_uint64,
                    c_void_p)

HERE = os.path.dirname(os.path.abspath(__file__))
MESSAGE_SIZE = 256  # BLOOM_ERROR_MESSAGE_SIZE
LAYOUTS = {0: 'classic', 1: 'blocked', 2: 'counting', 3: 'scalable'}


def package_library(stem):
    """Path of the shared library bloomfilter/<stem>*.so built at install, or None."""
    found = sorted(glob.glob(os.path.join(HERE, stem + '*.so')))
    return found[0] if found else None


def _load():
    path = package_library('_bloomcore')
    if path is None:
        raise ImportError('bloomfilter: the compiled core (bloomfilter/_bloomcore*.so) is missing; '
                          'install the package (pip install --no-build-isolation ./python) '
                          'instead of importing it from the source tree')
    lib = ctypes.CDLL(path)
    u8p = c_char_p  # buffers: bytes (read) or ctypes arrays (written)
    sigs = {
        'bfpy_version': (c_char_p, []),
        'bfpy_hint': (c_char_p, [c_int]),
        'bfpy_layout_from_name': (c_int, [c_char_p]),
        'bfpy_params_for_capacity': (c_int, [c_int, c_uint64, c_double, POINTER(c_uint64),
                                             POINTER(c_uint), c_char_p]),
        'bfpy_check_params': (c_int, [c_int, c_uint64, c_uint, c_char_p]),
        'bfpy_layout_size': (c_size_t, [c_int, c_uint64]),
        'bfpy_empty_size': (c_int, [c_int, c_int64, c_double, POINTER(c_size_t), c_char_p]),
        'bfpy_empty_init': (c_int, [c_void_p, c_size_t, c_int, c_int64, c_double, c_uint64, c_char_p]),
        'bfpy_init': (c_int, [c_void_p, c_size_t, c_int, c_uint64, c_uint, c_uint64, c_char_p]),
        'bfpy_parse': (c_int, [u8p, c_size_t, POINTER(c_int), POINTER(c_uint), POINTER(c_uint64),
                               POINTER(c_uint64), c_char_p]),
        'bfpy_hash_int64': (c_uint64, [c_int64, c_uint64]),
        'bfpy_hash_double': (c_uint64, [c_double, c_uint64]),
        'bfpy_hash_bytes': (c_uint64, [c_char_p, c_size_t, c_uint64]),
        'bfpy_insert': (c_int, [c_void_p, c_size_t, POINTER(c_uint64), c_size_t, c_uint, c_uint32,
                                POINTER(c_void_p), POINTER(c_size_t), c_char_p]),
        'bfpy_remove': (c_int, [c_void_p, c_size_t, c_uint64, c_char_p]),
        'bfpy_to_classic_size': (c_int, [c_void_p, c_size_t, POINTER(c_size_t), c_char_p]),
        'bfpy_to_classic': (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_char_p]),
        'bfpy_contains_hashes': (None, [c_void_p, c_size_t, POINTER(c_uint64), c_size_t, c_void_p]),
        'bfpy_combine_size': (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_int, POINTER(c_size_t),
                                      c_char_p]),
        'bfpy_combine': (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_int, c_void_p, c_size_t,
                                 c_char_p]),
        'bfpy_check_fold': (c_int, [c_void_p, c_size_t, c_int64, c_char_p]),
        'bfpy_fold': (c_int, [c_void_p, c_size_t, c_uint64, c_void_p, c_size_t, c_char_p]),
        'bfpy_cardinality': (c_double, [c_void_p, c_size_t]),
        'bfpy_fpr': (c_double, [c_void_p, c_size_t]),
        'bfpy_popcount': (c_uint64, [c_void_p, c_size_t]),
        'bfpy_build': (c_int, [c_int, c_double, c_uint64, POINTER(c_uint64), c_size_t, c_uint, c_uint32,
                               POINTER(c_void_p), POINTER(c_size_t), c_char_p]),
        'bfpy_free': (None, [c_void_p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


lib = _load()
