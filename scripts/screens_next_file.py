"""Screenshots of what a clerk's tryout of 2026-12-07 found: the export dialog's "Save to" (the name's form,
its time and task number as words), a second file queued at once after a first of another type (its
preview reads its own header), the cancel question of a delete (its rows are deleted, not "in"), and
the question of a file already imported (its task number on one line), and Settings with every section
open (its fields as wide as their placeholders).
Run under an X server with a window manager.
Usage: python scripts/screens_next_file.py LANG OUT_PREFIX (e.g. zh /tmp/shots-next/zh-1024x700)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SAMPLES = Path(__file__).resolve().parents[1] / "resources" / "samples"


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from scripts.screen_window import ShownWindow

    root = Path(tempfile.mkdtemp(prefix="batchdesk-next-file-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    shown = ShownWindow(core, root, prefix)
    window, panel = shown.window, shown.window.panel
    try:
        shown.wait(1500)
        panel.set_path(SAMPLES / "customers_clean.csv")
        shown.wait(1000)  # its header read: the box shows the customers type
        panel.path_edit.setText(str(SAMPLES / "price_list.csv"))
        panel.request_queue()  # at once, as Enter in the field does
        for _ in range(40):
            shown.wait(250)
            if window.preview is not None and window.preview.rows_table.rowCount():
                break
        shown.shot("next-file-preview")
        if window.preview is not None:
            window.preview.reject()
        shown.wait(500)
        window.open_export()
        shown.shot("export-dialog")
        if window.export_dialog is not None:
            window.export_dialog.reject()
        shown.wait(500)
        cancel_of_a_delete(shown)
        already_imported(shown)
        if window.question is not None:
            window.question.reject()
        shown.wait(500)
        shown.desk.open_settings()
        dialog = shown.desk.settings_dialog
        if dialog is not None:
            dialog.advanced.set_expanded(True)
            dialog.mail.set_expanded(True)
            shown.shot("settings")
            dialog.reject()
        return 0
    finally:
        shown.desk.shutdown(10)
        core.close()
        shutil.rmtree(root, ignore_errors=True)


def cancel_of_a_delete(shown: object) -> None:
    """The cancel question of a delete midway (a sample import's record, made a running delete)."""
    from dataclasses import replace

    from desktop_app.domain.status import TaskStatus
    from desktop_app.imports.options import ImportOptions
    from desktop_app.ui.dialogs.confirm_cancel import CancelQuestion

    desk, window = shown.desk, shown.window  # type: ignore[attr-defined]
    desk.service.submit_import(ImportOptions(file=SAMPLES / "customers_clean.csv", import_type="customers"))
    for _ in range(40):
        shown.wait(250)  # type: ignore[attr-defined]
        if window.model.rowCount() and window.model.record(0).status.is_final:
            break
    record = window.model.record(0)
    deleting = replace(record, status=TaskStatus.RUNNING, total_count=20_000, success_count=12_000, fail_count=0,
                       checkpoint={"rows_in_file": 50_000}, params={**record.params, "mode": "delete"})  # fmt: skip
    box = CancelQuestion(deleting, window, kind=desk.kinds.of(record))
    box.open()
    shown.shot("cancel-of-a-delete")  # type: ignore[attr-defined]
    box.reject()


def already_imported(shown: object) -> None:
    """The question when the sample imported above is queued again (its task number on one line)."""
    window = shown.window  # type: ignore[attr-defined]
    shown.wait(500)  # type: ignore[attr-defined]
    window.open_file(SAMPLES / "customers_clean.csv")  # the same file again: the preview, then the question
    for _ in range(20):
        shown.wait(250)  # type: ignore[attr-defined]
        if window.preview is not None and window.preview.rows_table.rowCount():
            window.preview.accept()
            break
    for _ in range(20):
        shown.wait(250)  # type: ignore[attr-defined]
        if window.question is not None:
            break
    shown.shot("already-imported")  # type: ignore[attr-defined]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
