"""Housekeeping on every back-end: old task rows move to the archive (never deleted), result files expire
after 7 days on the desk that holds them, and the archive still knows what was imported (seed 000 §6)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text, update

from desktop_app.app import Core, build_core
from desktop_app.domain.task import TaskRecord
from desktop_app.store.schema import tasks
from desktop_app.store.task_rows import new_task_no
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.submit import submit_file
from tests.support.customers import row, run_import, write_csv
from tests.support.planted import plant
from tests.support.running import run_cleanup


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"daily_cleanup": False})
    yield core
    core.store.engine.dispose()


def archive_ended_before(core: Core, days: float, **options: int) -> int:
    from desktop_app.store.archive import archive_ended_before as archive

    return archive(core.store, core.store.now(-days * 86400), **options)


def age(core: Core, task: TaskRecord, days: float) -> None:
    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == task.id).values(ended_at=core.store.now(-days * 86400)))


def test_tasks_older_than_the_retention_move_to_the_archive(core: Core, tmp_path: Path) -> None:
    assert core.settings.task_retention_days == 90
    old = run_import(core, write_csv(tmp_path / "old.csv", [row(1), row(2, 手机号="x")]), user="alice")
    recent = run_import(core, write_csv(tmp_path / "recent.csv", [row(3)]), user="alice")
    pending = core.store.submit(task_type="import", params={"file": "/x.csv"}, creator="alice").task
    age(core, old, 91)
    age(core, recent, 89)
    done = run_cleanup(core)
    assert done.summary["archived"] == 1
    assert core.store.get(old.task_no) is None  # out of the task table ...
    archived = core.store.find(old.task_no)
    assert archived is not None and archived.status is old.status and archived.creator == "alice"  # ... not deleted
    assert archived.summary["expired"] is True and archived.success_count == 1  # its files went first
    from desktop_app.cli.output import task_line

    assert "errors: expired" in task_line(archived) and str(archived.error_csv) not in task_line(archived)
    assert [t.task_no for t in core.store.list(archived=True)] == [old.task_no]
    assert [t.task_no for t in core.store.list(archived=True, creator="bob")] == []
    assert {t.task_no for t in core.store.list()} >= {recent.task_no, pending.task_no}
    with core.store.reading() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM tasks_archive")).scalar_one() == 1


def test_the_archive_still_refuses_the_same_file_again(core: Core, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "c.csv", [row(1)])
    first = run_import(core, path)
    age(core, first, 100)
    assert archive_ended_before(core, 90) == 1
    again = submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                        params={"import_type": "customers", "dry_run": False})  # fmt: skip
    assert again.refused and again.duplicate_of == first.task_no


def test_archiving_is_batched_and_leaves_each_row_in_one_table(core: Core) -> None:
    numbers = [plant(core.store, new_task_no(), ended_days_ago=120).task_no for _ in range(7)]
    assert archive_ended_before(core, 90, batch=3) == 7
    assert core.store.list() == []
    assert sorted(t.task_no for t in core.store.list(archived=True)) == sorted(numbers)


def test_the_clean_up_expires_only_the_files_of_this_desk(core: Core, tmp_path: Path) -> None:
    """On a shared database, another desk's task keeps its files and is not marked expired here: its
    own desk's clean-up deletes them (else they would stay forever, marked expired)."""
    ours = plant(core.store, new_task_no(), host=host_name())
    theirs = plant(core.store, new_task_no(), host="another-desk")
    ran_there = plant(core.store, new_task_no(), owner="another-desk:7:7:bb")
    run_cleanup(core, retention_days=7)
    assert core.store.get(ours.task_no).summary.get("expired") is True  # type: ignore[union-attr]
    assert not core.store.get(theirs.task_no).summary.get("expired")  # type: ignore[union-attr]
    assert not core.store.get(ran_there.task_no).summary.get("expired")  # type: ignore[union-attr]


def test_two_desks_archiving_at_once_move_each_row_once(core: Core) -> None:
    for _ in range(40):
        plant(core.store, new_task_no(), ended_days_ago=120)
    moved: list[int] = []
    errors: list[BaseException] = []

    def sweep() -> None:
        try:
            moved.append(archive_ended_before(core, 90, batch=4))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and sum(moved) == 40
    assert core.store.list() == [] and len(core.store.list(archived=True)) == 40
