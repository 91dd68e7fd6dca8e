"""mysql_rows cuts one-column rows out of the socket's bytes as PyMySQL's own parser reads them."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from pymysql import err

from desktop_app.exports import mysql_rows


def packet(seq: int, payload: bytes) -> bytes:
    return struct.pack("<I", len(payload))[:3] + bytes([seq % 256]) + payload


def lenenc(text: bytes) -> bytes:
    n = len(text)
    if n < 251:
        return bytes([n]) + text
    if n < 1 << 16:
        return b"\xfc" + struct.pack("<H", n) + text
    if n < 1 << 24:
        return b"\xfd" + struct.pack("<I", n)[:3] + text
    return b"\xfe" + struct.pack("<Q", n) + text


EOF_PACKET = b"\xfe\x00\x00\x02\x00"  # EOF: no warnings, status "autocommit"


class Result:
    def __init__(self) -> None:
        self.unbuffered_active = True
        self.field_count = 1
        self.connection: Any = None
        self.rows: Any = ()


class Stream:
    """The socket's buffered file, handing over at most `step` bytes a read (packets cut anywhere)."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.step, self.pos = data, step, 0

    def read1(self, size: int) -> bytes:
        chunk = self.data[self.pos : self.pos + min(size, self.step)]
        self.pos += len(chunk)
        return chunk


class Conn:
    encoding = "utf8"

    def __init__(self, data: bytes, step: int) -> None:
        self._result = Result()
        self._rfile = Stream(data, step)


class Cursor:
    def __init__(self, data: bytes, step: int) -> None:
        self.connection = Conn(data, step)


TEXTS = [b"a\x1fb", "中文".encode(), b"", b"x" * 250, b"y" * 251, b"z" * 70_000]


@pytest.mark.parametrize("step", [1, 3, 7, 1 << 20])
def test_rows_are_cut_wherever_the_reads_end(step: int) -> None:
    wire = b"".join(packet(i + 1, lenenc(t)) for i, t in enumerate(TEXTS)) + packet(99, b"\xfb")
    cursor = Cursor(wire + packet(100, EOF_PACKET), step)
    got = [t for batch in mysql_rows.row_texts(cursor) for t in batch]
    assert got == [*TEXTS, b""]  # a NULL as an empty text, as IFNULL would make it
    result = cursor.connection._result
    assert not result.unbuffered_active and result.connection is None  # finished, as PyMySQL leaves it


def test_an_error_packet_raises_the_servers_error() -> None:
    error = b"\xff" + struct.pack("<H", 1317) + b"#70100Query execution was interrupted"
    cursor = Cursor(packet(1, lenenc(b"ok")) + packet(2, error), 1 << 20)
    with pytest.raises(err.OperationalError, match="interrupted"):
        list(mysql_rows.row_texts(cursor))
    assert not cursor.connection._result.unbuffered_active


def test_a_connection_that_ends_early_is_lost() -> None:
    cursor = Cursor(packet(1, lenenc(b"ok"))[:-1], 1 << 20)
    with pytest.raises(err.OperationalError, match="Lost connection"):
        list(mysql_rows.row_texts(cursor))


def test_a_row_of_16_mb_is_left_to_the_row_path() -> None:
    cursor = Cursor(b"\xff\xff\xff\x01" + b"\x00" * 16, 1 << 20)
    with pytest.raises(mysql_rows.RowTooLong):
        list(mysql_rows.row_texts(cursor))
