"""Exports saved where the clerk chose ("Save as"): the file appears whole, never over a file not chosen,
and it is the clerk's: BatchDesk's clean-up never expires nor deletes it."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.exports import placing
from tests.integration.test_cli import cli
from tests.integration.test_retention import age
from tests.support.customers import row, run_import, write_csv
from tests.support.exports import run_export
from tests.support.running import run_cleanup


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"daily_cleanup": False})
    run_import(core, write_csv(tmp_path / "src.csv", [row(i) for i in range(1, 31)]))
    yield core
    core.store.engine.dispose()


def test_cli_export_output_saves_there_and_replaces_only_when_told(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    source = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 6)])
    code, _task, err = cli("import", str(source), "--type", "customers", "--wait", "--json", "--data-dir", data)
    assert code == 0, err
    (tmp_path / "mine").mkdir()
    out = tmp_path / "mine" / "客户.csv"
    code, task, err = cli("export", "customers", "--output", str(out), "--wait", "--json", "--data-dir", data)
    assert code == 0, err
    assert isinstance(task, dict) and task["status"] == "succeeded" and task["result_path"] == str(out)
    assert len(out.read_text(encoding="utf-8-sig").splitlines()) == 6
    assert list((tmp_path / "data" / "results" / ".work").glob("*")) == [], "moved, not copied and left"
    assert list((tmp_path / "mine").iterdir()) == [out]
    # there now: not replaced unless asked
    out.write_text("the clerk's own", encoding="utf-8")
    code, _task, err = cli("export", "customers", "--output", str(out), "--wait", "--json", "--data-dir", data)
    assert code != 0 and "already exists" in err and str(out) in err, err
    assert out.read_text(encoding="utf-8") == "the clerk's own"
    code, task, err = cli("export", "customers", "--output", str(out), "--replace", "--wait", "--json",
                          "--data-dir", data)  # fmt: skip
    assert code == 0 and isinstance(task, dict) and task["status"] == "succeeded", err
    assert len(out.read_text(encoding="utf-8-sig").splitlines()) == 6


def test_an_export_saved_elsewhere_on_every_backend_is_never_cleaned_up(core: Core, tmp_path: Path) -> None:
    out = tmp_path / "elsewhere.xlsx"
    task = run_export(core, fmt="xlsx", output=out)
    assert task.status is TaskStatus.SUCCEEDED and task.result_path == str(out) and out.is_file()
    assert task.params["output"] == str(out) and task.params["replace"] is False
    inside = run_export(core)  # the same export into the results folder: another file, another task
    assert inside.status is TaskStatus.SUCCEEDED and inside.result_path != str(out)
    assert inside.result_path and Path(inside.result_path).parent == core.paths.results_dir / "exports"
    saved = core.store.get(task.task_no)
    assert saved is not None and not saved.summary.get("expired"), "not replaced by an export elsewhere"
    age(core, task, 30)
    age(core, inside, 30)
    run_cleanup(core)
    assert out.is_file(), "the clerk's file"
    kept = core.store.get(task.task_no)
    assert kept is not None and not kept.summary.get("expired")
    gone = core.store.get(inside.task_no)
    assert gone is not None and gone.summary.get("expired") and not Path(inside.result_path).exists()


def test_a_destination_is_checked_when_asked(core: Core, tmp_path: Path) -> None:
    there = tmp_path / "there.csv"
    there.write_text("x", encoding="utf-8")
    with pytest.raises(PermanentError) as caught:
        core.submitter().submit_export("customers", filters={}, user="t", output=there)
    assert caught.value.code is ErrorCode.OUTPUT_EXISTS and there.read_text(encoding="utf-8") == "x"
    with pytest.raises(PermanentError) as caught:
        core.submitter().submit_export("customers", filters={}, user="t", output=tmp_path / "no" / "x.csv")
    assert caught.value.code is ErrorCode.OUTPUT_UNUSABLE


def test_a_file_that_appears_meanwhile_is_not_replaced(tmp_path: Path) -> None:
    written = tmp_path / "written.part"
    written.write_text("new", encoding="utf-8")
    target = tmp_path / "out.csv"
    target.write_text("appeared meanwhile", encoding="utf-8")
    with pytest.raises(PermanentError) as caught:
        placing.place(written, target, replace=False)
    assert caught.value.code is ErrorCode.OUTPUT_EXISTS
    assert target.read_text(encoding="utf-8") == "appeared meanwhile" and not written.exists()


@pytest.mark.parametrize("links", [True, False])
def test_a_file_that_appears_after_the_check_is_not_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              links: bool) -> None:  # fmt: skip
    written = tmp_path / "written.part"
    written.write_text("new", encoding="utf-8")
    target = tmp_path / "out.csv"
    checked = placing.check_destination

    def then_it_appears(path: Path, *, replace: bool) -> None:
        checked(path, replace=replace)
        target.write_text("saved by someone else meanwhile", encoding="utf-8")

    monkeypatch.setattr(placing, "check_destination", then_it_appears)
    if not links:  # a volume without hard links (FAT): the rename, after a last look
        monkeypatch.setattr(placing.os, "link", lambda *_a: (_ for _ in ()).throw(PermissionError(errno.EPERM, "no")))
    with pytest.raises(PermanentError) as caught:
        placing.place(written, target, replace=False)
    assert caught.value.code is ErrorCode.OUTPUT_EXISTS
    assert target.read_text(encoding="utf-8") == "saved by someone else meanwhile" and not written.exists()


def test_another_volume_is_copied_beside_then_renamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = tmp_path / "written.part"
    written.write_text("whole", encoding="utf-8")
    target = tmp_path / "stick" / "out.csv"
    target.parent.mkdir()
    renames: list[tuple[str, str]] = []  # each move into place: a rename, or a hard link (never over a file)
    real_replace, real_link = os.replace, os.link

    def across(real: Any) -> Any:
        def move(src: Any, dst: Any) -> None:
            if Path(src) == written:  # from results/.work to a USB stick: no rename across volumes
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            renames.append((Path(src).name, Path(dst).name))
            real(src, dst)

        return move

    monkeypatch.setattr(placing.os, "replace", across(real_replace))
    monkeypatch.setattr(placing.os, "link", across(real_link))
    placing.place(written, target, replace=False)
    assert target.read_text(encoding="utf-8") == "whole" and not written.exists()
    assert renames == [(".out.csv.batchdesk-part", "out.csv")]
    assert list(target.parent.iterdir()) == [target]
