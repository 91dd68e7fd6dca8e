"""CSV lines from Arrow columns of cell texts, in Arrow's C++ kernels: RFC 4180 quoting where needed."""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa
import pyarrow.compute as pc

from desktop_app.domain.formula_cells import PLAIN_NEGATIVE_NUMBER
from desktop_app.exports.cell_spec import CellSpec
from desktop_app.exports.row_texts import texts_bytes

NEEDS_QUOTES = '[,"\r\n]'  # as the csv module's QUOTE_MINIMAL decides
_SPECIAL = (b",", b'"', b"\r", b"\n")


def cell_texts(texts: pa.Array, spec: CellSpec) -> pa.Array:
    """writer.cell_text's texts as the row writer's cells: labelled, then neutralised (NULL stays NULL)."""
    texts = texts.cast(pa.string())
    if spec.labels:
        stored = pa.array(list(spec.labels), pa.string())
        shown = pa.array(list(spec.labels.values()), pa.string())
        found = pc.index_in(texts, value_set=stored)
        return pc.coalesce(pc.take(shown, found), _neutralised(texts, spec.triggers))
    return _neutralised(texts, spec.triggers)


def _neutralised(texts: pa.Array, triggers: tuple[str, ...]) -> pa.Array:
    if not triggers:
        return texts
    starts = _starts_with(texts, triggers)
    if not pc.any(starts).as_py():
        return texts
    if "-" in triggers:  # a plain negative number is no formula (formula_cells): left as it is
        numbers = pc.fill_null(pc.match_substring_regex(texts, f"^{PLAIN_NEGATIVE_NUMBER}$"), False)
        starts = pc.and_(starts, pc.invert(numbers))
    return pc.if_else(starts, pc.binary_join_element_wise("'", texts, ""), texts)


def _starts_with(texts: pa.Array, triggers: tuple[str, ...]) -> pa.Array:
    """Whether each text starts with one of the one-character ASCII triggers (NULL and empty: False).
    Each text's first byte is taken where its offset points, not sliced off as a text of its own
    (half the CPU, measured); a UTF-8 character's first byte is never ASCII unless it is the character."""
    if any(len(t.encode()) != 1 for t in triggers):
        first = pc.utf8_slice_codeunits(texts, 0, 1)
        return pc.fill_null(pc.is_in(first, value_set=pa.array(triggers, pa.string())), False)
    n = len(texts)
    _, offsets, data = texts.buffers()
    if n == 0 or data is None or data.size == 0:
        return pa.nulls(n, pa.bool_()).fill_null(False)
    bounds = pa.Array.from_buffers(pa.int32(), n + 1, [None, offsets], offset=texts.offset)
    begins, ends = bounds.slice(0, n), bounds.slice(1, n)
    data_bytes = pa.Array.from_buffers(pa.uint8(), data.size, [None, data])
    # an empty text's offset may be the data's end: clamped there, then masked out as empty
    first = pc.take(data_bytes, pc.min_element_wise(begins, data.size - 1))
    found = pc.and_(pc.is_in(first, value_set=pa.array([ord(t) for t in triggers], pa.uint8())), pc.less(begins, ends))
    return pc.and_(found, texts.is_valid()) if texts.null_count else found


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


def csv_bytes(batch: pa.RecordBatch | pa.Table, encoding: str = "utf-8", specs: Sequence[CellSpec] = ()) -> bytes:
    """The batch's rows as CSV lines (each ended by CR LF, as the csv module writes them), in the file's
    encoding; with specs, each column's texts are made cells first (cell_texts)."""
    if batch.num_rows == 0:
        return b""
    columns = [column if isinstance(column, pa.Array) else column.combine_chunks() for column in batch.columns]
    if specs:
        columns = [cell_texts(column, spec) for column, spec in zip(columns, specs, strict=True)]
    fields = [quoted(column) for column in columns]
    if len(fields) == 1:
        # the csv module writes a row of one empty field as "" (an empty line would read as no row)
        lines = pc.if_else(pc.equal(pc.binary_length(fields[0]), 0), '""', fields[0])
    else:
        lines = pc.binary_join_element_wise(*fields, ",")
    lines = pc.binary_join_element_wise(lines, "\r\n", "")
    text = texts_bytes(lines)
    if encoding in ("utf-8", "utf-8-sig"):
        return bytes(text)
    return bytes(text).decode("utf-8").encode(encoding)
