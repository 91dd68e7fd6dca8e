"""CSV reading: decoding across chunk boundaries, row numbers, blank rows, counting, resuming."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers import Cell, SourceRow, open_table, preview
from desktop_app.imports.readers.encoding import SAMPLE_BYTES


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def rows_of(path: Path, **kwargs: object) -> list[tuple[int, tuple[Cell, ...]]]:
    with open_table(path, **kwargs) as reader:  # type: ignore[arg-type]
        return [(r.row_number, r.cells) for r in reader.rows()]


def test_utf8_without_bom(tmp_path: Path) -> None:
    path = write(tmp_path / "a.csv", "姓名,手机号\r\n张三,13800138000\r\n李四,13900139000\r\n".encode())
    with open_table(path) as reader:
        assert reader.format == "csv"
        assert reader.encoding == "utf-8"
        assert reader.header == ("姓名", "手机号")
        assert list(reader.rows()) == [
            SourceRow(2, ("张三", "13800138000")),
            SourceRow(3, ("李四", "13900139000")),
        ]


def test_utf8_with_bom_is_stripped_from_header(tmp_path: Path) -> None:
    path = write(tmp_path / "a.csv", b"\xef\xbb\xbf" + "name,city\nWang,北京\n".encode())
    with open_table(path) as reader:
        assert reader.encoding == "utf-8-sig"
        assert reader.header == ("name", "city")
        assert [r.cells for r in reader.rows()] == [("Wang", "北京")]


def test_bom_stripped_even_when_utf8_is_forced(tmp_path: Path) -> None:
    path = write(tmp_path / "a.csv", b"\xef\xbb\xbfname,city\nWang,Xi'an\n")
    with open_table(path, encoding="UTF8") as reader:
        assert reader.encoding == "utf-8"
        assert reader.header == ("name", "city")
        assert list(reader.rows(skip_through=0)) == [
            SourceRow(1, ("name", "city")),
            SourceRow(2, ("Wang", "Xi'an")),
        ]


def test_gbk_file_is_read_as_gb18030(tmp_path: Path) -> None:
    text = "客户编号,姓名,地址\r\nC001,张三,北京市朝阳区建国路88号\r\nC002,李四,上海市浦东新区\r\n"
    path = write(tmp_path / "gbk.csv", text.encode("gbk"))
    with open_table(path) as reader:
        assert reader.encoding == "gb18030"
        assert reader.header == ("客户编号", "姓名", "地址")
        assert [r.cells for r in reader.rows()] == [
            ("C001", "张三", "北京市朝阳区建国路88号"),
            ("C002", "李四", "上海市浦东新区"),
        ]


def test_tiny_gbk_file_is_not_taken_for_big5(tmp_path: Path) -> None:
    # charset-normalizer alone ranks these few bytes as Big5
    path = write(tmp_path / "gbk.csv", "姓名\n张三\n".encode("gbk"))
    assert rows_of(path) == [(2, ("张三",))]
    with open_table(path) as reader:
        assert reader.encoding == "gb18030"


def test_gb18030_characters_beyond_gbk(tmp_path: Path) -> None:
    # U+20000 and U+1F600 take four bytes in GB18030 and do not exist in GBK
    for ch in ("𠀀", "😀"):
        assert len(ch.encode("gb18030")) == 4
        with pytest.raises(UnicodeEncodeError):
            ch.encode("gbk")
    text = "姓名,备注\n张𠀀,客户说😀很好\n王五,正常\n"
    path = write(tmp_path / "gb.csv", text.encode("gb18030"))
    with open_table(path) as reader:
        assert reader.encoding == "gb18030"
        assert [r.cells for r in reader.rows()] == [("张𠀀", "客户说😀很好"), ("王五", "正常")]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_bom(tmp_path: Path, codec: str) -> None:
    bom = b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff"
    text = "姓名,城市\r\n张三,深圳\r\n"
    path = write(tmp_path / "u16.csv", bom + text.encode(codec))
    with open_table(path) as reader:
        assert reader.encoding == "utf-16"
        assert reader.header == ("姓名", "城市")
        assert rows_of(path) == [(2, ("张三", "深圳"))]


def test_explicit_encoding_wins(tmp_path: Path) -> None:
    path = write(tmp_path / "l1.csv", "name,city\nMüller,Köln\n".encode("latin-1"))
    with open_table(path, encoding="latin-1") as reader:
        assert reader.encoding == "iso8859-1"
        assert [r.cells for r in reader.rows()] == [("Müller", "Köln")]
    # a valid UTF-8 file read as GBK when the clerk says so: GBK is read as its superset
    path = write(tmp_path / "u8.csv", "h\n中文\n".encode())
    with open_table(path, encoding="GBK") as reader:
        assert reader.encoding == "gb18030"
        assert [r.cells for r in reader.rows()] == [("中文".encode().decode("gb18030"),)]


@pytest.mark.parametrize("name", ["no-such-codec", "rot13", "base64"])
def test_bad_explicit_encoding(tmp_path: Path, name: str) -> None:
    path = write(tmp_path / "a.csv", b"a\n1\n")
    with pytest.raises(PermanentError) as info:
        open_table(path, encoding=name)
    assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE


def test_binary_garbage_is_undetectable(tmp_path: Path) -> None:
    path = write(tmp_path / "bin.csv", bytes(range(0x80, 0x100)) * 3 + b"\x00\x01\x02" * 100)
    with pytest.raises(PermanentError) as info:
        open_table(path)
    assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE


def _file_with_char_at(boundary: int, split: int, ch: str, codec: str) -> tuple[bytes, list[tuple[str, ...]]]:
    """A CSV whose multi-byte character ch starts `split` bytes before `boundary`."""
    encoded = ch.encode(codec)
    assert 0 < split < len(encoded)
    head = "编号,内容\n".encode(codec)
    filler: list[tuple[str, ...]] = []
    body = bytearray(head)
    line_no = 0
    while True:
        line_no += 1
        prefix = f"{line_no},"
        # stop when a line starting with the prefix can put ch at boundary - split
        gap = boundary - split - len(body) - len(prefix)
        if gap < 200:
            break
        cells = (str(line_no), "中" * 20 + "x" * 37)
        body += (",".join(cells) + "\n").encode(codec)
        filler.append(cells)
    pad = "a" * gap
    target = (prefix[:-1], pad + ch + "尾")
    body += (",".join(target) + "\n").encode(codec)
    start = boundary - split
    assert bytes(body[start : start + len(encoded)]) == encoded
    after = (str(line_no + 1), "后面的行")
    body += (",".join(after) + "\n").encode(codec)
    return bytes(body), [*filler, target, after]


@pytest.mark.parametrize("boundary", [8191, 8192, 65536, SAMPLE_BYTES])
@pytest.mark.parametrize("split", [1, 2])
def test_utf8_char_split_across_chunk_boundaries(tmp_path: Path, boundary: int, split: int) -> None:
    data, expected = _file_with_char_at(boundary, split, "中", "utf-8")
    path = write(tmp_path / "split.csv", data)
    with open_table(path) as reader:
        assert reader.encoding == "utf-8"
        got = [r.cells for r in reader.rows()]
    assert got == expected


@pytest.mark.parametrize("boundary", [8191, 8192, 65536, SAMPLE_BYTES])
@pytest.mark.parametrize("split", [1, 2, 3])
def test_gb18030_four_byte_char_split_across_chunk_boundaries(tmp_path: Path, boundary: int, split: int) -> None:
    data, expected = _file_with_char_at(boundary, split, "𠀀", "gb18030")
    path = write(tmp_path / "split.csv", data)
    with open_table(path) as reader:
        assert reader.encoding == "gb18030"
        got = [r.cells for r in reader.rows()]
    assert got == expected


def test_invalid_bytes_mid_file_raise_instead_of_being_replaced(tmp_path: Path) -> None:
    lines = [b"id,name\n"] + [f"{i},name{i}\n".encode() for i in range(200_000)]
    good = b"".join(lines)
    assert len(good) > SAMPLE_BYTES * 2
    data = good + b"200000,bad\xff\xfebytes\n200001,after\n"
    path = write(tmp_path / "bad.csv", data)
    with open_table(path) as reader:
        assert reader.encoding == "utf-8"  # the sample alone looks fine
        seen = 0
        with pytest.raises(PermanentError) as info:
            for _ in reader.rows():
                seen += 1
        assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE
        assert seen <= 200_000
        with pytest.raises(PermanentError) as info:
            reader.count_rows()
        assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE


def test_row_numbers_follow_records_not_physical_lines(tmp_path: Path) -> None:
    data = (
        b"id,note\r\n"  # row 1
        b'1,"line one\r\nline two\r\nline three"\r\n'  # row 2, three physical lines
        b"2,plain\r\n"  # row 3
        b"\r\n"  # row 4: blank line
        b",,\r\n"  # row 5: only empty fields
        b" , \t\r\n"  # row 6: only whitespace
        b'3,"a,b","c""d"\r\n'  # row 7
        b'"4","multi\nline"\n'  # row 8
        b"5,last"  # row 9, no final line break
    )
    path = write(tmp_path / "rows.csv", data)
    assert rows_of(path) == [
        (2, ("1", "line one\r\nline two\r\nline three")),
        (3, ("2", "plain")),
        (7, ("3", "a,b", 'c"d')),
        (8, ("4", "multi\nline")),
        (9, ("5", "last")),
    ]
    with open_table(path) as reader:
        assert reader.count_rows() == 5


def test_fields_are_not_trimmed_and_ragged_rows_pass_through(tmp_path: Path) -> None:
    path = write(tmp_path / "r.csv", b"a,b,c\n x ,y\n1,2,3,4\n,,z\n")
    assert rows_of(path) == [(2, (" x ", "y")), (3, ("1", "2", "3", "4")), (4, ("", "", "z"))]


def test_count_rows_with_limit(tmp_path: Path) -> None:
    data = b"h\n" + b"".join(f"{i}\n".encode() for i in range(10)) + b"\n,\n"
    path = write(tmp_path / "c.csv", data)
    with open_table(path) as reader:
        assert reader.count_rows() == 10
        assert reader.count_rows(limit=20) == 10
        assert reader.count_rows(limit=10) == 10
        assert reader.count_rows(limit=9) == 10
        assert reader.count_rows(limit=3) == 4
        assert reader.count_rows(limit=0) == 1


def test_resume_with_skip_through(tmp_path: Path) -> None:
    data = b'h1,h2\n1,a\n2,"b\nb"\n\n4,d\n5,e\n'
    path = write(tmp_path / "s.csv", data)
    with open_table(path) as reader:
        assert [r.row_number for r in reader.rows()] == [2, 3, 5, 6]
        assert [(r.row_number, r.cells) for r in reader.rows(skip_through=3)] == [
            (5, ("4", "d")),
            (6, ("5", "e")),
        ]
        assert [r.row_number for r in reader.rows(skip_through=4)] == [5, 6]
        assert [r.row_number for r in reader.rows(skip_through=6)] == []
        assert [r.row_number for r in reader.rows(skip_through=100)] == []
        # every call starts again from the top
        assert [r.row_number for r in reader.rows()] == [2, 3, 5, 6]


def test_header_only_and_zero_byte_files_open_without_error(tmp_path: Path) -> None:
    path = write(tmp_path / "h.csv", b"a,b\r\n")
    with open_table(path) as reader:
        assert reader.header == ("a", "b")
        assert list(reader.rows()) == []
        assert reader.count_rows() == 0
    path = write(tmp_path / "z.csv", b"")
    with open_table(path) as reader:
        assert reader.header == ()
        assert reader.encoding == "utf-8"
        assert list(reader.rows()) == []
        assert list(reader.rows(skip_through=0)) == []
        assert reader.count_rows() == 0
        assert reader.fraction_done() == 1.0


def test_header_is_not_normalised(tmp_path: Path) -> None:
    path = write(tmp_path / "h.csv", b"\xef\xbb\xbf Name ,CITY,,\n1,2,3,4\n")
    with open_table(path) as reader:
        assert reader.header == (" Name ", "CITY", "", "")


def test_giant_field_is_a_corrupt_file(tmp_path: Path) -> None:
    # an unbalanced quote swallows the rest of the file into one field
    data = b'id,note\n1,"oops\n' + b"2,fine\n" * 400
    path = write(tmp_path / "q.csv", data)
    old = csv.field_size_limit(1000)
    try:
        with open_table(path) as reader, pytest.raises(PermanentError) as info:
            list(reader.rows())
        assert info.value.code == ErrorCode.CORRUPT_FILE
    finally:
        csv.field_size_limit(old)


def test_fraction_done_tracks_bytes(tmp_path: Path) -> None:
    data = b"id,v\n" + b"".join(f"{i},{'x' * 90}\n".encode() for i in range(40_000))
    path = write(tmp_path / "p.csv", data)
    with open_table(path) as reader:
        assert reader.fraction_done() == 0.0
        it = reader.rows()
        for _ in range(20_000):
            next(it)
        assert 0.3 < reader.fraction_done() < 0.7
        for _ in it:
            pass
        assert reader.fraction_done() == 1.0
        again = reader.rows(skip_through=30_000)
        assert reader.fraction_done() == 0.0
        assert next(again).row_number == 30_001
        assert 0.0 < reader.fraction_done() < 1.0
        assert sum(1 for _ in again) == 10_000  # rows 30_002 .. 40_001
        assert reader.fraction_done() == 1.0


def test_preview_and_closed_reader(tmp_path: Path) -> None:
    data = b"a,b\n" + b"".join(f"{i},{i * 2}\n".encode() for i in range(50))
    path = write(tmp_path / "p.csv", data)
    pv = preview(path, max_rows=3)
    assert (pv.format, pv.encoding, pv.header) == ("csv", "utf-8", ("a", "b"))
    assert pv.rows == [SourceRow(2, ("0", "0")), SourceRow(3, ("1", "2")), SourceRow(4, ("2", "4"))]
    reader = open_table(path)
    reader.close()
    with pytest.raises(ValueError):
        reader.rows()
