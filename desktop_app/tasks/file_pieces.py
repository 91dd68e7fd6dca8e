"""A file's bytes read a large piece at a time into one buffer, for the passes made over a whole file."""

from __future__ import annotations

from collections.abc import Iterator
from io import BufferedReader

# Pieces of 8 MB: a pass over a file shares the GIL with a thread running Python (the command line
# loading its modules, the window), and each time it lets go of the GIL (a read, a hash, Arrow's check)
# it waits up to the interpreter's 5 ms switch interval to have it back. Over 90.8 MB beside a thread
# busy in Python the line count took 5.7 s in 256 KB reads, 1.0 s in 1 MB, 0.23 s in 8 MB; alone
# 0.13-0.18 s in each. A byte search of 8 MB holds the GIL ~2 ms, under a frame of the window's.
PIECE = 1 << 23


def pieces(handle: BufferedReader, size: int = PIECE) -> Iterator[bytearray]:
    """The file's bytes `size` at a time, each read into the same buffer: a piece is gone at the next
    read (a new 8 MB object for each read cost its page faults, measured)."""
    piece = bytearray(size)
    while read := handle.readinto(piece):
        if read < len(piece):
            del piece[read:]
        yield piece
