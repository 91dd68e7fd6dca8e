"""Cleaning up does not trust the task table: rows planted in it never make BatchDesk delete, move or
overwrite anything outside its results folder (issue 12), on every back-end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.exports.task import export_key
from desktop_app.imports.error_csv import keep_error_rows
from desktop_app.store.task_rows import new_task_no
from desktop_app.store.tasks import Fence
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.identity import host_name
from tests.support.customers import row, run_import, write_csv
from tests.support.exports import run_export
from tests.support.planted import plant
from tests.support.running import run_cleanup


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "desk" / "data", db_url=db_url, overrides={"daily_cleanup": False})
    yield core
    core.store.engine.dispose()


def victims(tmp_path: Path) -> tuple[Path, Path]:
    """A folder and a file beside the data folder, where a path climbing out of results/ lands."""
    folder, file = tmp_path / "desk" / "victim_dir", tmp_path / "desk" / "victim_file"
    folder.mkdir(parents=True)
    (folder / "keep.txt").write_text("the clerk's own file")
    file.write_text("the clerk's own file")
    return folder, file


def test_a_planted_task_number_does_not_delete_a_folder_outside(core: Core, tmp_path: Path) -> None:
    folder, _ = victims(tmp_path)
    # results/../../victim_dir is tmp/desk/victim_dir
    plant(core.store, "../../victim_dir", host=host_name())
    run_cleanup(core, retention_days=7)
    assert (folder / "keep.txt").exists()


def test_a_planted_result_path_does_not_delete_a_file_outside(core: Core, tmp_path: Path) -> None:
    _, file = victims(tmp_path)
    results = core.paths.results_dir
    plant(core.store, new_task_no(), host=host_name(), result_path=f"{results}/../../victim_file")
    plant(core.store, new_task_no(), host=host_name(), result_path="results/../../../victim_file")
    run_cleanup(core, retention_days=7)
    assert file.exists()


def test_a_symlink_out_of_the_results_folder_is_not_followed(core: Core, tmp_path: Path) -> None:
    folder, file = victims(tmp_path)
    task_no = new_task_no()
    (core.paths.results_dir / task_no).symlink_to(folder, target_is_directory=True)
    link = core.paths.results_dir / "exports" / "link.csv"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(file)
    plant(core.store, task_no, host=host_name())
    plant(core.store, new_task_no(), host=host_name(), task_type="export", result_path=str(link))
    run_cleanup(core, retention_days=7)
    assert (folder / "keep.txt").exists() and file.exists()


def test_the_clean_up_still_deletes_what_is_its_own(core: Core, tmp_path: Path) -> None:
    old = run_import(core, write_csv(tmp_path / "old.csv", [row(1), row(2, 手机号="x")]))
    assert old.error_csv and Path(old.error_csv).exists()
    exported = core.paths.results_dir / "exports" / "customers-old.csv"
    exported.parent.mkdir(parents=True, exist_ok=True)
    exported.write_text("old export")
    plant(core.store, new_task_no(), host=host_name(), task_type="export", result_path=str(exported))
    from sqlalchemy import update

    from desktop_app.store.schema import tasks

    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == old.id).values(ended_at=core.store.now(-10 * 86400)))
    done = run_cleanup(core, retention_days=7)
    assert not Path(old.error_csv).parent.exists() and not exported.exists()
    assert done.summary["removed"] == 2


def test_a_planted_export_row_does_not_make_an_export_delete_a_file(core: Core, tmp_path: Path) -> None:
    _, file = victims(tmp_path)
    # an ended export with the standard key (the plain `batchdesk export customers`) naming any file
    key = export_key("customers", {}, "csv", "utf-8-sig")
    planted = plant(core.store, new_task_no(), task_type="export", biz_key=key, result_path=str(file),
                    ended_days_ago=0.01)  # fmt: skip
    exported = run_export(core)
    assert exported.status is TaskStatus.SUCCEEDED and file.exists()
    assert exported.summary["replaces"] == [planted.task_no]  # its row is marked, its "file" left alone


def test_a_planted_task_number_does_not_move_a_file_into_or_out_of_results(core: Core, tmp_path: Path) -> None:
    _, file = victims(tmp_path)
    # work_dir / "<task_no>-errors.csv.part" with task_no "../../../victim_file" ... lands outside results/
    bad = "../../../victim"
    (tmp_path / "desk" / "victim-errors.csv.part").write_text("行号,姓名\n1,x\n2,y\n")
    task = plant(core.store, bad, status=TaskStatus.RUNNING.value, ended_at=None)
    ctx = TaskContext(task=task, store=core.store, fence=Fence(task.id, "o", 1), paths=core.paths,
                      settings=core.settings, stop_event=threading.Event())  # fmt: skip
    assert keep_error_rows(ctx) == {}
    assert (tmp_path / "desk" / "victim-errors.csv.part").exists() and file.exists()
    from desktop_app.tasks.result_paths import is_task_no

    assert not is_task_no(bad) and is_task_no(new_task_no())
