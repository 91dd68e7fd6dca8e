"""Screenshots for the second tryout's items (run under an X server with a window manager): an undone import in
the list ("Undone", "Undone by T… — …"), the quit question naming an unfinished undo with its import's file, and
several unfinished tasks joined with the language's separator. Usage: python scripts/screens_second_tryout.py
LANG OUT_PREFIX (e.g. zh /tmp/shots-second/zh-1024x700)."""

from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop_app.app import build_core
    from desktop_app.domain.status import TaskStatus
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv
    from tests.support.running import run_now

    root = Path(tempfile.mkdtemp(prefix="batchdesk-second-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    first = run_import(core, write_csv(root / "customers-week-49.csv", [row(i) for i in range(1, 151)]))
    undo = core.submitter().submit_undo(first.task_no, user="tester").task
    run_now(core, undo.id)
    second = run_import(core, write_csv(root / "customers-week-50.csv", [row(i) for i in range(200, 260)]))
    shown = ShownWindow(core, root, prefix)
    window, wait, shot = shown.window, shown.wait, shown.shot
    wait(2500)
    shot("undone")
    # an undo of the second import, as the list holds it while it runs (none runs here: the shot's moment)
    running = replace(undo, id=undo.id + 100, task_no="T261207-UNDO02", status=TaskStatus.RUNNING,
                      params={**undo.params, "undoes": second.task_no})  # fmt: skip

    def question(records: list[object], name: str) -> None:
        window.service._active = {r.id: r for r in records}  # type: ignore[attr-defined]

        def take() -> None:
            shot(name)
            box = QApplication.activeModalWidget()
            if isinstance(box, QMessageBox):
                box.reject()

        QTimer.singleShot(1200, take)
        window.ask_close()

    question([running], "quit-undo")
    several = [replace(running, id=running.id + n, task_no=f"T261207-UNDO1{n}") for n in range(3)]
    question(several, "quit-several")
    window.allow_close = True
    shown.desk.shutdown(10)
    core.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
