"""A one-column MySQL/MariaDB result read straight off PyMySQL's socket: the rows' bytes, a batch at a time.

PyMySQL parses each row in pure Python (a packet object, a field at a time, ~10 µs a row): the
export's rows are one text each (fast_csv._line_sql), so their packets are cut here out of large reads
of the connection's buffered socket, and the texts go to Arrow as they came over the wire. PyMySQL
still sends the query and reads the column descriptions (SSCursor.execute); this reads the rows and the
final EOF packet, then hands the connection back as PyMySQL would leave it after fetching every row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

READ_BYTES = 1 << 20
_MAX_PACKET = 0xFFFFFF  # a longer row comes in several packets: not cut here


class RowTooLong(Exception):
    """A row of 16 MB or more (split over packets by the protocol): read some other way."""


def _lost() -> Exception:
    from pymysql import err
    from pymysql.constants import CR

    return err.OperationalError(CR.CR_SERVER_LOST, "Lost connection to MySQL server during query")


def _error(conn: Any, payload: bytes) -> None:
    from pymysql.protocol import MysqlPacket

    MysqlPacket(payload, conn.encoding).raise_for_error()


def row_texts(cursor: Any) -> Iterator[list[bytes]]:
    """The rows' single column, as bytes, per read of the socket, for an SSCursor that has just run its
    query; the result is finished when the iterator ends (an exception leaves it to the caller to drop
    the connection)."""
    conn = cursor.connection
    result = conn._result
    if result is None or not result.unbuffered_active:
        return  # a statement without rows
    if result.field_count != 1:
        raise ValueError(f"one column expected, got {result.field_count}")
    rfile = conn._rfile
    data = b""
    pos = 0
    while True:
        try:
            chunk = rfile.read1(READ_BYTES)
        except OSError:
            raise _lost() from None
        if not chunk:
            raise _lost()
        data = data[pos:] + chunk if pos < len(data) else chunk
        pos, end = 0, len(data)
        texts: list[bytes] = []
        append = texts.append
        while pos + 4 <= end:
            length = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
            if length == _MAX_PACKET:
                raise RowTooLong  # before it is read: 16 MB more in memory for a row the row path writes
            stop = pos + 4 + length
            if stop > end:
                break
            first = data[pos + 4]
            if first < 0xFB:  # the common case: a text under 251 bytes
                append(data[pos + 5 : stop])
            elif first == 0xFC:
                append(data[pos + 7 : stop])
            elif first == 0xFD:
                append(data[pos + 8 : stop])
            elif first == 0xFE and length < 9:  # EOF: every row read
                result.unbuffered_active = False
                result.connection = None
                result.rows = None
                if stop != end:
                    raise _lost()  # bytes after the last packet: the protocol is not where we think
                yield texts
                return
            elif first == 0xFE:
                append(data[pos + 13 : stop])
            elif first == 0xFF:
                result.unbuffered_active = False
                _error(conn, data[pos + 4 : stop])
            else:  # 0xFB: NULL
                append(b"")
            pos = stop
        if texts:
            yield texts
