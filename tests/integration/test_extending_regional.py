"""docs/EXTENDING.md's regional example loads as written, and does what its table says."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import load_import_type
from desktop_app.imports.regional import DateOrder, FileConventions
from desktop_app.imports.validator import compile_validator
from tests.integration.test_extending_doc import example

TOP = 'name = "regional"\ntitle_zh = "地区"\ntitle_en = "Regional"\ntable = "regional"\nunique_key = "phone"\n\n'


def test_the_regional_example(tmp_path: Path) -> None:
    path = tmp_path / "regional.toml"
    path.write_text(TOP + example("regional.toml"), encoding="utf-8")
    itype = load_import_type(path)
    header = ["手机号", "开户日期", "折扣"]
    v = compile_validator(itype, map_header(itype, header), conventions=FileConventions(DateOrder.DMY))
    assert v.check(("+86 139 1234 5678", "03/05/2024", "12.5%")).values == (
        "13912345678", dt.date(2024, 5, 3), Decimal("0.125"))  # fmt: skip
    assert v.check(("139-1234-5678", "45356", "0.5")).values == ("13912345678", dt.date(2024, 3, 5), Decimal("0.5"))
