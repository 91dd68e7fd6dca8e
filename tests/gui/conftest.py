"""GUI fixtures: a Desk (executor, service, window) on a temp data dir, always shut down after."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QSettings
from PySide6.QtWidgets import QApplication

from desktop_app.app import build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.tasks.context import TaskContext
from desktop_app.ui.desk import Desk
from desktop_app.ui.task_model import TaskTableModel
from tests.support.backends import seed_desk_database

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


class SlowImport:
    """A fake `import` type: `steps` batches of `pause` seconds; stops when asked; fails on demand."""

    task_type = "import"
    lane = Lane.LONG

    def __init__(self, steps: int = 50, pause: float = 0.05) -> None:
        self.steps = steps
        self.pause = pause
        self.fail_next = False
        self.fail_code = ErrorCode.CORRUPT_FILE  # what fail_next fails with
        self.gate = threading.Event()  # set: run; clear: wait at the first batch (stays "running")
        self.gate.set()

    def run(self, ctx: TaskContext) -> TaskOutcome:
        if self.fail_next:
            self.fail_next = False
            raise PermanentError(self.fail_code)
        for step in range(self.steps):
            ctx.check_stop()
            while not self.gate.wait(0.02):
                ctx.report(stage="waiting", force=True)
                ctx.check_stop()
            time.sleep(self.pause)
            ctx.report(progress=100 * (step + 1) / self.steps, stage=f"step {step + 1}",
                       counts=(self.steps, step + 1, 0))  # fmt: skip
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=self.steps, success_count=self.steps)


@pytest.fixture
def qsettings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_desk(qapp: QApplication, tmp_path: Path, qsettings: QSettings) -> Iterator[Callable[..., Desk]]:
    desks: list[Desk] = []

    def make(handlers: list[Any] | None = None, *, data_dir: Path | None = None, refresh_ms: int = 0,
             page_size: int = 500, **overrides: Any) -> Desk:  # fmt: skip
        folder = data_dir or tmp_path / "data"
        seed_desk_database(folder)  # at head already: no migration per window test
        core = build_core(data_dir=folder, handlers=handlers,
                          overrides={"poll_interval": 0.1, "language": "en", "daily_cleanup": False,
                                     **overrides})  # fmt: skip
        quits: list[bool] = []
        desk = Desk(qapp, core, qsettings, refresh_ms=refresh_ms, page_size=page_size, cache_dir=tmp_path / "i18n",
                    on_quit=lambda: quits.append(True))  # fmt: skip
        desk.quits = quits  # type: ignore[attr-defined]
        desks.append(desk)
        desk.start()
        desk.window.show()
        return desk

    yield make
    # Last built, first shut down: each desk puts back the switch interval it found at its start, and
    # the first desk's is Python's own (in the other order a later test found the window's 1 ms).
    for desk in reversed(desks):
        for handler in desk.core.registry:
            gate = getattr(handler, "gate", None)
            if gate is not None:
                gate.set()
        desk.window.allow_close = True
        desk.window.close()
        assert desk.shutdown(20), "every worker stopped in time"
        desk.core.close()
        desk.translations.switch("en")
        desk.window.deleteLater()
    # The windows go now, before their desks (and trays) are freed: a window left for a later test's
    # event loop would still get that test's LanguageChange.
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def row_of(model: TaskTableModel, task_no: str) -> int:
    for row in range(model.rowCount()):
        if model.record(row).task_no == task_no:
            return row
    raise AssertionError(f"no row for {task_no}")
