"""On Linux's glibc, malloc's mmap threshold held where it starts, so a large block freed goes back to the system."""

from __future__ import annotations

import sys

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
THRESHOLD = 128 * 1024  # glibc's own starting value


def hold() -> bool:
    """Hold glibc's mmap threshold at its starting 128 KB (the program's entry, before its imports).

    glibc raises the threshold each time a block it mapped on its own is freed, up to the freed block's
    size (32 MB at most); blocks under it then come from the heap, where a freed one stays. An import's
    blocks of a few megabytes (the file's pieces, a batch's COPY text) raised it, and the 1M-row
    import's peak memory on PostgreSQL was 186-194 MB against 180-181 MB with it held (measured, one
    run after another). Setting the threshold turns the raising off (mallopt(3)). True when it was set:
    elsewhere (macOS, Windows, a libc without mallopt) the system's allocator is left as it is."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # the program imports it anyway (SQLAlchemy, psutil): no cost to its start

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
