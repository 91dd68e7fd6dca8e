"""Where import types come from: built-in and the data folder's own, a broken file listed, never blocking."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.import_type import builtin_import_types_dir
from desktop_app.imports.type_catalog import TypeCatalog, TypeSource, user_types_dir

GOOD = """\
name = "suppliers"
title_zh = "供应商"
title_en = "Suppliers"
table = "suppliers"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["编号", "code"]
required = true
"""


def catalog(tmp_path: Path) -> TypeCatalog:
    return TypeCatalog(builtin_import_types_dir(), user_types_dir(tmp_path))


def test_builtin_types(tmp_path: Path) -> None:
    entries = catalog(tmp_path).entries()
    assert {e.name for e in entries} == {"customers", "products", "price_list"}
    assert all(e.source is TypeSource.BUILTIN and e.ok for e in entries)


def test_a_user_type_is_found_and_a_broken_one_never_blocks_the_others(tmp_path: Path) -> None:
    folder = user_types_dir(tmp_path)
    folder.mkdir()
    (folder / "suppliers.toml").write_text(GOOD, encoding="utf-8")
    (folder / "broken.toml").write_text(GOOD.replace('kind', 'x').replace('required = true', 'required = "yes"'),
                                        encoding="utf-8")  # fmt: skip
    (folder / "clash.toml").write_text(GOOD.replace('name = "suppliers"', 'name = "customers"'), encoding="utf-8")
    cat = catalog(tmp_path)
    by_name = {e.name: e for e in cat.entries()}
    assert by_name["suppliers"].ok and by_name["suppliers"].source is TypeSource.USER
    assert by_name["broken"].import_type is None and "'required' must be true or false" in (
        by_name["broken"].problem or ""
    )
    clash = next(e for e in cat.entries() if e.path.name == "clash.toml")
    assert "already declared by" in (clash.problem or "") and "customers.toml" in (clash.problem or "")
    assert cat.get("suppliers").table == "suppliers"
    assert cat.get("customers").source_path.parent == builtin_import_types_dir()  # the built-in one wins
    with pytest.raises(PermanentError) as info:
        cat.get("broken")
    assert info.value.code is ErrorCode.IMPORT_TYPE_INVALID and "required" in info.value.text("en")
    with pytest.raises(PermanentError) as info:
        cat.get("nope")
    assert info.value.code is ErrorCode.UNKNOWN_IMPORT_TYPE


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    folder = user_types_dir(tmp_path)
    folder.mkdir()
    path = folder / "suppliers.toml"
    path.write_text(GOOD, encoding="utf-8")
    cat = catalog(tmp_path)
    assert cat.get("suppliers").title_en == "Suppliers"
    path.write_text(GOOD.replace('title_en = "Suppliers"', 'title_en = "Vendors"'), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert cat.get("suppliers").title_en == "Vendors"
    path.write_text("broken = ", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    with pytest.raises(PermanentError) as info:  # a type that became broken is refused
        cat.get("suppliers")
    # its name cannot be read now: the file's name stands for it, so its tasks fail with the problem
    assert info.value.code is ErrorCode.IMPORT_TYPE_INVALID
    assert any(e.problem and "not valid TOML" in e.problem for e in cat.entries())


def test_a_file_is_parsed_once_per_process_until_its_bytes_change(tmp_path: Path) -> None:
    import tomllib
    from unittest import mock

    from desktop_app.imports import type_parser

    path = user_types_dir(tmp_path) / "suppliers.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GOOD, encoding="utf-8")
    type_parser._checked.cache_clear()  # the built-in types as a new process finds them
    with mock.patch.object(type_parser.tomllib, "load", wraps=tomllib.load) as parsed:
        first = catalog(tmp_path).get("suppliers")  # two catalogs, as two cores of one process
        assert catalog(tmp_path).get("suppliers") is first and parsed.call_count == 4  # 3 built-in + 1, once
        stamp = path.stat()
        path.write_text(GOOD.replace('"Suppliers"', '"Vendors!!"'), encoding="utf-8")  # same size
        os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same time: the bytes tell
        assert catalog(tmp_path).get("suppliers").title_en == "Vendors!!"
        assert parsed.call_count == 5
