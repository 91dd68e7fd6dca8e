"""The bulk CSV reader gives the row reader's rows: the same numbers, the same cells, or it steps aside.

Files are made to put block boundaries everywhere (tiny blocks): inside a quoted multi-line field,
inside a multi-byte character, at a blank line, at an odd record; resumes start at every row.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desktop_app.domain.errors import PermanentError
from desktop_app.imports.bulk import csv_batches
from desktop_app.imports.bulk.csv_batches import BulkReadError, CsvBatches
from desktop_app.imports.readers.csv_reader import CsvReader

Rows = list[tuple[int, tuple[str, ...]]]


def bulk_rows(path: Path, skip_through: int = 1, encoding: str = "utf8", **kwargs: int) -> Rows:
    """The non-blank rows the bulk reader gives (regular and odd records, in file order)."""
    reader = CsvReader(path)
    out: Rows = []
    for batch in CsvBatches(path, reader.header, encoding, **kwargs).batches(skip_through):
        cells = list(zip(*(c.to_pylist() for c in batch.columns), strict=True)) if batch.columns else []
        part = [*zip(batch.row_numbers.to_pylist(), cells, strict=True), *((r.row_number, r.cells) for r in batch.odd)]
        out += sorted(part)
    return [(n, c) for n, c in out if any(x.strip() for x in c)]


def row_rows(path: Path, skip_through: int = 1) -> Rows:
    return [(r.row_number, tuple(r.cells)) for r in CsvReader(path).rows(skip_through)]  # type: ignore[misc]


def _cell(rng: random.Random) -> str:
    return rng.choice([
        "plain", "", " ", "中文字符", "é", "emoji 😀", 'say "hi"', "a,b", "line\nbreak", "cr\rlf\r\n", "  padded  ",
        "x" * rng.randint(1, 60), "混合 text，逗号", "\u3000", "'=1+1", "tab\there", "🀄" * rng.randint(1, 9),
    ])  # fmt: skip


def _quote(cell: str, rng: random.Random) -> str:
    if any(c in cell for c in ',"\r\n') or rng.random() < 0.2:
        return '"' + cell.replace('"', '""') + '"'
    return cell


def messy_file(path: Path, seed: int, rows: int = 600, width: int = 4) -> Path:
    rng = random.Random(seed)
    ends = ["\n", "\r\n", "\r"] if seed % 3 == 0 else ["\n", "\r\n"]
    end = rng.choice(ends)
    lines = [",".join(f'"h{i}\nx"' if i == 1 and seed % 2 else f"h{i}" for i in range(width))]
    for _ in range(rows):
        r = rng.random()
        if r < 0.03:
            lines.append("")
        elif r < 0.05:
            lines.append("   ")
        elif r < 0.08:
            lines.append(",".join(_quote(_cell(rng), rng) for _ in range(rng.choice([1, width - 1, width + 2]))))
        else:
            lines.append(",".join(_quote(_cell(rng), rng) for _ in range(width)))
    text = end.join(lines) + (end if rng.random() < 0.7 else "") + ("\n\n" if rng.random() < 0.2 else "")
    path.write_bytes(("\ufeff" if seed % 4 == 1 else "").encode() + text.encode("utf-8"))
    return path


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_batches, "BLOCK", 1024)


@pytest.mark.parametrize("seed", range(12))
def test_the_same_rows_as_the_row_reader(tmp_path: Path, tiny_blocks: None, seed: int) -> None:
    path = messy_file(tmp_path / "f.csv", seed)
    assert bulk_rows(path) == row_rows(path)


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_a_resume_from_any_row_gives_the_rows_after_it(tmp_path: Path, tiny_blocks: None, seed: int) -> None:
    path = messy_file(tmp_path / "f.csv", seed, rows=150)
    every = row_rows(path)
    for skip in range(1, every[-1][0] + 2):
        assert bulk_rows(path, skip) == [r for r in every if r[0] > skip], f"resume after row {skip}"


def test_a_single_column_file_and_its_end(tmp_path: Path, tiny_blocks: None) -> None:
    path = tmp_path / "one.csv"
    path.write_text("code\nC1\n\n" + "\n".join(f"C{i}" for i in range(2, 400)) + '\n"C,x"\n', encoding="utf-8")
    assert bulk_rows(path) == row_rows(path)
    path.write_text("code\nC1\nC2", encoding="utf-8")
    assert bulk_rows(path) == row_rows(path) == [(2, ("C1",)), (3, ("C2",))]


def test_a_file_of_only_its_header(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("a,b\r\n", encoding="utf-8")
    assert bulk_rows(path) == row_rows(path) == []


@pytest.mark.parametrize("tail", ['a,"b\nc,d\n', 'a,"b', '"open', 'x,y\n"', 'a,"b""'])
def test_a_quote_left_open_at_the_end_steps_aside(tmp_path: Path, tiny_blocks: None, tail: str) -> None:
    path = tmp_path / "open.csv"
    path.write_text("h1,h2\n" + "".join(f"r{i},v{i}\n" for i in range(300)) + tail, encoding="utf-8")
    with pytest.raises(PermanentError) as raised:
        row_rows(path)
    assert raised.value.code.value == "corrupt_file"
    broken = raised.value.params["row"]
    batches = CsvBatches(path, ("h1", "h2"), "utf8").batches()
    seen = []
    with pytest.raises(BulkReadError):
        for batch in batches:
            seen.append(batch.last_row)
    # the batch holding the broken record is never handed out
    assert seen and all(last < broken for last in seen)


def test_a_record_longer_than_a_block_steps_aside(tmp_path: Path, tiny_blocks: None) -> None:
    path = tmp_path / "long.csv"
    path.write_text("h1,h2\n" + "a,b\n" * 50 + "a," + "x" * 5000 + "\n" + "c,d\n", encoding="utf-8")
    with pytest.raises(BulkReadError):
        bulk_rows(path)


def test_a_record_near_the_line_limit_steps_aside(tmp_path: Path) -> None:
    path = tmp_path / "near.csv"
    path.write_text("h1,h2\n" + "a,b\n" + "a," + "x" * 600 + "\n", encoding="utf-8")
    assert bulk_rows(path, line_limit=5000) == row_rows(path)
    with pytest.raises(BulkReadError):
        bulk_rows(path, line_limit=1000)


def test_a_header_that_reads_otherwise_steps_aside(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("h1,h2\n1,2\n", encoding="utf-8")
    with pytest.raises(BulkReadError):
        list(CsvBatches(path, ("other", "h2"), "utf8").batches())


def test_gb18030_with_characters_across_blocks(tmp_path: Path, tiny_blocks: None) -> None:
    path = tmp_path / "gb.csv"
    body = "".join(f'客户{i},{"部门" * (i % 7)},"备注\n第{i}行"\n' for i in range(500))
    path.write_bytes(("编号,部门,备注\n" + body).encode("gb18030"))
    reader = CsvReader(path)
    assert reader.encoding is not None
    assert bulk_rows(path, encoding=csv_batches.bulk_encoding(reader.encoding) or "") == row_rows(path)


def test_only_byte_compatible_encodings_take_the_bulk_path() -> None:
    assert csv_batches.bulk_encoding("utf-8-sig") == "utf8"
    assert csv_batches.bulk_encoding("GB18030") == "gb18030"
    assert csv_batches.bulk_encoding("utf-16") is None
    assert csv_batches.bulk_encoding("utf-16-le") is None
    assert csv_batches.bulk_encoding(None) is None
    assert csv_batches.bulk_encoding("no-such-codec") is None


def test_split_keeps_file_order(tmp_path: Path, tiny_blocks: None) -> None:
    path = messy_file(tmp_path / "f.csv", 3, rows=200)
    reader = CsvReader(path)
    for batch in CsvBatches(path, reader.header, "utf8").batches():
        if batch.records < 3:
            continue
        head, tail = batch.split(batch.records // 2)
        assert head.records == batch.records // 2
        assert head.records + tail.records == batch.records
        assert head.last_row < min([*tail.row_numbers.to_pylist(), *(r.row_number for r in tail.odd)])


@pytest.mark.parametrize("block", range(64, 96))
def test_a_crlf_inside_a_quoted_field_survives_every_block_boundary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    block: int) -> None:  # fmt: skip
    # pyarrow itself drops the LF when a block ends between the CR and the LF of a quoted field
    monkeypatch.setattr(csv_batches, "BLOCK", block)
    path = tmp_path / "crlf.csv"
    body = "".join(f'{i},"{"x" * (i % 13)}\r\n{"y" * (i % 5)}\r\nz"\r\n' for i in range(40))
    path.write_bytes(("a,b\r\n" + body).encode("utf-8"))
    assert bulk_rows(path) == row_rows(path)


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_another_delimiter(tmp_path: Path, tiny_blocks: None, delimiter: str) -> None:
    path = messy_file(tmp_path / "f.csv", 4)
    text = path.read_text(encoding="utf-8-sig")
    import csv as _csv
    import io

    rows = list(_csv.reader(io.StringIO(text, newline="")))
    out = io.StringIO()
    _csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    reader = CsvReader(path, delimiter=delimiter)
    got: Rows = []
    for batch in CsvBatches(path, reader.header, "utf8", delimiter=delimiter).batches():
        cells = list(zip(*(c.to_pylist() for c in batch.columns), strict=True))
        got += sorted([*zip(batch.row_numbers.to_pylist(), cells, strict=True),
                       *((r.row_number, r.cells) for r in batch.odd)])  # fmt: skip
    got = [(n, c) for n, c in got if any(x.strip() for x in c)]
    assert got == [(r.row_number, tuple(r.cells)) for r in reader.rows()]
