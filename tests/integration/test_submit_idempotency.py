"""One file, one task: concurrent submissions from threads and from processes, and refusal after the end."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import func, select

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.store.schema import tasks
from desktop_app.store.tasks import Fence
from desktop_app.tasks.submit import submit_file
from tests.support.handlers import make_test_handlers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Core:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers())
    yield core
    core.store.engine.dispose()


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "客户.csv"
    path.write_bytes("客户编号,姓名\nC000001,张三\n".encode())
    return path


def _submit(core: Core, path: Path, user: str = "clerk", force: bool = False, **params: object):
    return submit_file(core.store, core.registry, task_type="test.steps", path=path, user=user,
                       params={"steps": 1, **params}, force=force)  # fmt: skip


def _task_count(core: Core) -> int:
    with core.store.reading() as conn:
        return int(conn.execute(select(func.count()).select_from(tasks)).scalar_one())


def test_eight_threads_fifty_submissions_one_task(core: Core, sample: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: _submit(core, sample), range(400)))
    numbers = {r.task.task_no for r in results}
    assert len(numbers) == 1 and _task_count(core) == 1
    assert sum(1 for r in results if r.duplicate_of is None) == 1
    assert all(r.duplicate_of == r.task.task_no for r in results if r.duplicate_of)


def test_three_processes_same_moment_one_task(db_url: str, core: Core, sample: Path, tmp_path: Path) -> None:
    start = time.time() + 4.0  # every process is up and connected before the moment
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.submitproc", db_url, str(tmp_path / "data"), str(sample), str(start)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for _ in range(3)
    ]  # fmt: skip
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (_, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert "Traceback" not in err
    numbers = {out.split()[0] for out, _ in outputs}
    assert len(numbers) == 1 and _task_count(core) == 1


def test_different_user_or_bytes_make_another_task(core: Core, sample: Path, tmp_path: Path) -> None:
    first = _submit(core, sample)
    assert _submit(core, sample, user="someone else").task.task_no != first.task.task_no
    other = tmp_path / "other.csv"
    other.write_bytes(sample.read_bytes() + "C000002,李四\n".encode())
    assert _submit(core, other).task.task_no != first.task.task_no
    copy = tmp_path / "copy-of-the-same-bytes.csv"
    copy.write_bytes(sample.read_bytes())
    assert _submit(core, copy).task.task_no == first.task.task_no  # the content decides, not the name


def _finish(core: Core, task_no: str, status: TaskStatus, success: int = 1) -> None:
    (task,) = core.store.claim("a:1:1:aa", 1, only_ids=[core.store.get(task_no).id])  # type: ignore[union-attr]
    assert core.store.finish(Fence(task.id, "a:1:1:aa", task.attempt), status, total=2, success=success)


@pytest.mark.parametrize("status", [TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED])
def test_ended_task_refuses_same_bytes_unless_forced(core: Core, sample: Path, status: TaskStatus) -> None:
    first = _submit(core, sample).task
    _finish(core, first.task_no, status)
    again = _submit(core, sample)
    assert again.refused and again.duplicate_of == first.task_no and _task_count(core) == 1
    forced = _submit(core, sample, force=True)
    assert not forced.refused and forced.duplicate_of is None and forced.task.task_no != first.task_no
    # while the forced one is active, another forced submission returns it instead of a third task
    assert _submit(core, sample, force=True).task.task_no == forced.task.task_no


def test_ended_task_that_committed_nothing_does_not_refuse(core: Core, sample: Path) -> None:
    first = _submit(core, sample).task
    _finish(core, first.task_no, TaskStatus.FAILED, success=0)  # e.g. a missing column, or retries spent
    again = _submit(core, sample)
    assert not again.refused and again.duplicate_of is None and again.task.task_no != first.task_no


def test_cancelled_task_does_not_refuse(core: Core, sample: Path) -> None:
    first = _submit(core, sample).task
    core.store.cancel(first.task_no)
    again = _submit(core, sample)
    assert not again.refused and again.task.task_no != first.task_no


def test_dry_run_is_its_own_key_and_never_refused(core: Core, sample: Path) -> None:
    dry = _submit(core, sample, dry_run=True).task
    _finish(core, dry.task_no, TaskStatus.SUCCEEDED)
    assert not _submit(core, sample, dry_run=True).refused
    real = _submit(core, sample)
    assert not real.refused and real.task.task_no != dry.task_no


def test_missing_file_is_a_plain_error(core: Core, tmp_path: Path) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError

    with pytest.raises(PermanentError) as info:
        _submit(core, tmp_path / "nope.csv")
    assert info.value.code is ErrorCode.FILE_NOT_FOUND
    assert "nope.csv" in info.value.text("zh")
