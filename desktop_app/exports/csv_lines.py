"""CSV lines from Arrow columns of cell texts, in Arrow's C++ kernels: RFC 4180 quoting where needed."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

NEEDS_QUOTES = '[,"\r\n]'  # as the csv module's QUOTE_MINIMAL decides
_SPECIAL = (b",", b'"', b"\r", b"\n")


def quoted(texts: pa.Array) -> pa.Array:
    """The column's texts as CSV fields: NULL as empty, a field with a comma, quote or line break quoted."""
    texts = pc.fill_null(texts.cast(pa.string()), "")
    data = texts.buffers()[2]
    if data is None:
        return texts
    raw = data.to_pybytes()  # one memchr per character class beats a regex on every cell when none is there
    if not any(special in raw for special in _SPECIAL):
        return texts
    needs = pc.match_substring_regex(texts, NEEDS_QUOTES)
    escaped = pc.binary_join_element_wise('"', pc.replace_substring(texts, '"', '""'), '"', "")
    return pc.if_else(needs, escaped, texts)


def csv_bytes(batch: pa.RecordBatch | pa.Table, encoding: str = "utf-8") -> bytes:
    """The batch's rows as CSV lines (each ended by CR LF, as the csv module writes them), in the file's encoding."""
    if batch.num_rows == 0:
        return b""
    fields = [quoted(column if isinstance(column, pa.Array) else column.combine_chunks()) for column in batch.columns]
    lines = pc.binary_join_element_wise(*fields, ",") if len(fields) > 1 else fields[0]
    lines = pc.binary_join_element_wise(lines, "\r\n", "")
    offsets = memoryview(lines.buffers()[1]).cast("i")
    start, end = offsets[lines.offset], offsets[lines.offset + len(lines)]
    text = memoryview(lines.buffers()[2])[start:end]
    if encoding in ("utf-8", "utf-8-sig"):
        return bytes(text)
    return bytes(text).decode("utf-8").encode(encoding)
