"""Encoding detection: BOMs, strict UTF-8 over a bounded sample, GB18030 preferred for Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers import decode_sample_encoding
from desktop_app.imports.readers.encoding import (
    SAMPLE_BYTES,
    detect_encoding,
    looks_chinese,
    normalize_encoding,
)

CHINESE = "客户编号,姓名,手机号,地址\n" + "".join(
    f"C{i:04d},王小明,1380013{i:04d},北京市朝阳区建国路{i}号，备注。\n" for i in range(50)
)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "utf-8"),
        (b"id,name\n1,plain ascii\n", "utf-8"),
        ("名字\n张三\n".encode(), "utf-8"),
        (b"\xef\xbb\xbfid\n", "utf-8-sig"),
        (b"\xff\xfei\x00d\x00\n\x00", "utf-16"),
        (b"\xfe\xff\x00i\x00d\x00\n", "utf-16"),
        (b"\xff\xfe\x00\x00i\x00\x00\x00", "utf-32"),
    ],
)
def test_bom_and_utf8(data: bytes, expected: str) -> None:
    assert detect_encoding(data, complete=True) == expected


@pytest.mark.parametrize(
    "text",
    [
        CHINESE,
        "姓名\n张三\n",  # charset-normalizer alone says Big5 for this
        "性别\n男\n女\n",
        "id,name,city\n1,Li,北京\n",
        "姓名,手机号,地址\n张三,13800138000,北京市朝阳区\n",
    ],
)
def test_gbk_text_is_gb18030(text: str) -> None:
    assert detect_encoding(text.encode("gbk"), complete=True) == "gb18030"


def test_gb18030_text_is_gb18030() -> None:
    assert detect_encoding(("名,备注\n𠀀,😀\n" + CHINESE).encode("gb18030"), complete=True) == "gb18030"


def test_other_encodings_are_not_taken_for_gb18030() -> None:
    japanese = "名前,住所\n" + "山田太郎,東京都新宿区西新宿二丁目,これはテストです。\n" * 20
    assert detect_encoding(japanese.encode("shift_jis"), complete=True) in {"cp932", "shift_jis"}
    big5 = "姓名,地址\n陳大文,臺北市中正區\n"
    assert detect_encoding(big5.encode("big5"), complete=True) in {"big5", "big5hkscs", "cp950"}
    latin = "name,city\nMüller,Köln\nJürgen,Zürich\n".encode("cp1252")
    codec = detect_encoding(latin, complete=True)
    assert codec not in {"utf-8", "gb18030"}
    assert latin.decode(codec) == latin.decode("cp1252")


def test_looks_chinese() -> None:
    assert looks_chinese("姓名\n张三\n")
    assert not looks_chinese("name\nM黮ler\n")  # cp1252 "Müller" read as GB18030
    assert not looks_chinese("plain ascii")
    assert not looks_chinese("张三\ue000")


def test_partial_sample_may_end_inside_a_character() -> None:
    data = ("a" * 10 + "中").encode()
    assert detect_encoding(data[:-1], complete=False) == "utf-8"
    assert detect_encoding(data[:-2], complete=False) == "utf-8"
    with pytest.raises(UnicodeDecodeError):
        data[:-1].decode("utf-8")


def test_sample_boundary_splitting_a_character(tmp_path: Path) -> None:
    # "中" takes bytes SAMPLE_BYTES-1 .. SAMPLE_BYTES+1: the sample ends inside it
    data = b"h\n" + b"x" * (SAMPLE_BYTES - 3) + "中文\n".encode()
    assert data[SAMPLE_BYTES - 1 : SAMPLE_BYTES + 2] == "中".encode()
    (tmp_path / "a.csv").write_bytes(data)
    assert decode_sample_encoding(tmp_path / "a.csv") == "utf-8"
    gb = (CHINESE * 400).encode("gbk")
    assert len(gb) > SAMPLE_BYTES
    (tmp_path / "g.csv").write_bytes(gb)
    assert decode_sample_encoding(tmp_path / "g.csv") == "gb18030"


def test_only_the_sample_is_examined(tmp_path: Path) -> None:
    data = b"h\n" + b"x\n" * SAMPLE_BYTES + b"\xff\n"
    (tmp_path / "a.csv").write_bytes(data)
    assert decode_sample_encoding(str(tmp_path / "a.csv")) == "utf-8"


def test_undetectable() -> None:
    with pytest.raises(PermanentError) as info:
        detect_encoding(bytes(range(0x80, 0x100)) * 3 + b"\x00\x01\x02" * 100, complete=True)
    assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("utf8", "utf-8"),
        ("UTF-8-SIG", "utf-8-sig"),
        ("GBK", "gb18030"),
        ("gb2312", "gb18030"),
        ("cp936", "gb18030"),
        ("GB18030", "gb18030"),
        ("utf_16_le", "utf-16-le"),
        ("big5", "big5"),
        ("latin-1", "iso8859-1"),
    ],
)
def test_normalize_encoding(name: str, expected: str) -> None:
    assert normalize_encoding(name) == expected


@pytest.mark.parametrize("name", ["klingon", "rot13", "hex", ""])
def test_normalize_encoding_rejects(name: str) -> None:
    with pytest.raises(PermanentError) as info:
        normalize_encoding(name)
    assert info.value.code == ErrorCode.ENCODING_UNDETECTABLE


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PermanentError) as info:
        decode_sample_encoding(tmp_path / "nope.csv")
    assert info.value.code == ErrorCode.FILE_NOT_FOUND
