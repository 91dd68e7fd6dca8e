"""On Linux's glibc, malloc's mmap and trim thresholds held where they are set, not moved by what is freed."""

from __future__ import annotations

import sys

# glibc's malloc.h
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 4 << 20  # a block this large or larger is mapped on its own, and unmapped when freed
TRIM_THRESHOLD = 8 << 20  # the heap's free top kept up to this much, not given back and taken again


def hold() -> bool:
    """Hold glibc's thresholds (the program's entry, before its imports).

    glibc raises its mmap threshold each time a block it mapped on its own is freed, up to the freed
    block's size (32 MB at most); blocks under it then come from the heap, where a freed one stays. The
    import's blocks of a few megabytes (the file's 8 MB pieces, a batch's COPY text) raised it, and the
    1M-row import's peak memory on PostgreSQL was 192-194 MB. Held at glibc's own starting 128 KB, the
    peak was 182-183 MB but every block over 128 KB was mapped and unmapped: 175,000 page faults against
    70,000, 0.15-0.2 s more CPU in the kernel. Held at 4 MB with the heap's top trimmed past 8 MB: 186 MB,
    70,000 faults, the kernel's CPU as before (measured one after another, Intel, 2026-12-07). Setting
    them turns the moving off (mallopt(3)). True when set: elsewhere (macOS, Windows, a libc without
    mallopt) the system's allocator is left as it is."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # the program imports it anyway (SQLAlchemy, psutil): no cost to its start

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
