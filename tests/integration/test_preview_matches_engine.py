"""What the preview says would stop an import is what the import itself fails with: the same code and
the same words, for an empty file, a header only, a missing column and a file over the size limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.file_preview import check_sample, read_sample
from desktop_app.imports.options import ImportOptions
from tests.support.customers import HEADER, row, run_import, write_csv


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", overrides={"max_file_mb": 1})
    yield core
    core.store.engine.dispose()


def files(tmp_path: Path) -> dict[str, Path]:
    out = {
        "zero bytes": tmp_path / "zero.csv",
        "header only": tmp_path / "header.csv",
        "blank rows only": tmp_path / "blank.csv",
        "a missing column": tmp_path / "missing.csv",
    }
    out["zero bytes"].write_bytes(b"")
    out["header only"].write_text(",".join(HEADER) + "\r\n", encoding="utf-8")
    out["blank rows only"].write_text(",".join(HEADER) + "\r\n\r\n,,,,,,,,\r\n", encoding="utf-8")
    out["a missing column"].write_text("客户编号,姓名\r\nC000001,张三\r\n", encoding="utf-8")
    out["over the limit"] = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    return out


def test_the_preview_and_the_task_say_the_same(core: Core, tmp_path: Path) -> None:
    itype = core.catalog.get("customers")
    for what, path in files(tmp_path).items():
        options = ImportOptions(file=path, import_type="customers", max_rows=core.settings.max_rows,
                                max_file_mb=core.settings.max_file_mb)  # fmt: skip
        blocking = check_sample(read_sample(path, max_file_mb=options.max_file_mb), itype, options, "zh").blocking
        task = run_import(core, path)
        assert task.status is TaskStatus.FAILED, what
        assert blocking is not None, what
        assert (blocking.code.value, blocking.text("zh")) == (task.error_code, task.error_msg), what
