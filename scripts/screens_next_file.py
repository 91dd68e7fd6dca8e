"""Screenshots of what a clerk's tryout of 2026-12-07 found: the export dialog's "Save to" (the name's form,
its time and task number as words) and a second file queued at once after a first of another type (its
preview reads its own header). Run under an X server with a window manager.
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
        return 0
    finally:
        shown.desk.shutdown(10)
        core.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
