"""The pre-count's UTF-8 check (Arrow's validation, a piece at a time) says what Python's strict decoder
says, wherever the pieces are cut; the neutralised-cell scan finds a quote's pattern across reads."""

from __future__ import annotations

import codecs
import random
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports import precount
from desktop_app.imports.precount import Utf8Check, holds_neutralised_cells, line_bound

TRICKY = [
    b"plain ascii",
    "中文 é 😀".encode(),
    b"\xef\xbb\xbfwith a BOM",
    b"\xc0\x80",  # overlong NUL
    b"\xe0\x80\x80",  # overlong
    b"\xed\xa0\x80",  # a surrogate
    b"\xf4\x90\x80\x80",  # past U+10FFFF
    b"\xf5\x80\x80\x80",
    b"\xff",
    b"\x80",  # a lone continuation byte
    b"\xe4\xb8",  # a character cut short at the end
    b"\xf0\x9f\x98",
    b"\xc3",
    b"a\x80\x80\x80\x80b",
]


def python_says(data: bytes) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=True)
    except UnicodeDecodeError:
        return False
    return True


def check_says(data: bytes, cuts: list[int]) -> bool:
    check, start = Utf8Check(), 0
    try:
        for cut in [*sorted(cuts), len(data)]:
            check.decode(data[start:cut])
            start = cut
        check.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.parametrize("data", TRICKY)
def test_tricky_bytes_at_every_cut(data: bytes) -> None:
    for cut in range(len(data) + 1):
        assert check_says(data, [cut]) is python_says(data), (data, cut)


def test_random_bytes_and_cuts_agree_with_python() -> None:
    rng = random.Random(10)
    pieces = [*TRICKY, b"x", b"\n", "é".encode(), "中".encode(), "😀".encode()]
    for _ in range(2000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.3:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
        cuts = [rng.randint(0, len(data)) for _ in range(rng.randint(0, 4))]
        assert check_says(data, cuts) is python_says(data), (data, cuts)


@pytest.mark.parametrize("encoding", ["utf-8", "UTF8", "utf_8_sig"])
def test_a_file_bad_only_across_a_read_boundary_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    monkeypatch.setattr(precount, "CHUNK", 16)
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_bytes(b"h\n" + "中".encode() * 40 + b"\n")  # characters across every read's end
    bad.write_bytes(b"h\n" + "中".encode() * 5 + b"\xe4\xb8" + b"\n")  # one cut short, mid-file
    assert line_bound(good, encoding) == 1
    with pytest.raises(PermanentError) as refused:
        line_bound(bad, encoding)
    assert refused.value.code is ErrorCode.ENCODING_UNDETECTABLE


def test_a_neutralised_cell_across_a_read_boundary_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(precount, "CHUNK", 8)
    for at in range(12):
        path = tmp_path / f"n{at}.csv"
        path.write_bytes(b"x" * at + b"'=SUM(A1)\n" + b"y" * 20)
        assert holds_neutralised_cells(path, "utf-8")
    plain = tmp_path / "plain.csv"
    plain.write_bytes(b"O'Brien,=1\n" * 5)  # a quote, but not before a trigger
    assert not holds_neutralised_cells(plain, "utf-8")
