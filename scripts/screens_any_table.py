"""Screenshots of the window's any-table features (run under an X server with a window manager):
the preview's mode choice, the undo question, the import types with a broken user type and the
Template… button. Usage: python scripts/screens_any_table.py LANG OUT_PREFIX (e.g. zh docs/screens/any-zh)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BROKEN = """name = "suppliers"
title_zh = "供应商"
title_en = "Suppliers"
table = "suppliers"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["code"]
required = "yes"
"""


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop_app.app import build_core
    from desktop_app.config import resources_dir
    from desktop_app.ui.desk import Desk

    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    data_dir = Path(tempfile.mkdtemp(prefix="batchdesk-any-"))
    (data_dir / "import_types").mkdir()
    (data_dir / "import_types" / "suppliers.toml").write_text(BROKEN, encoding="utf-8")
    core = build_core(data_dir=data_dir, overrides={"language": lang, "daily_cleanup": False})
    desk = Desk(app, core, QSettings(str(data_dir / "window.ini"), QSettings.Format.IniFormat))
    desk.start()
    window = desk.window
    window.showMaximized()
    loop = QEventLoop()

    def wait(ms: int) -> None:
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def shot(name: str) -> None:
        wait(800)
        app.primaryScreen().grabWindow(0).save(f"{prefix}-{name}.png")

    products = resources_dir() / "samples" / "products.csv"
    # 1. the type box: the built-in types, then the broken user type greyed out; the Template… button
    wait(1500)
    panel = window.panel
    panel.set_path(products)
    panel.type_box.showPopup()
    shot("types")
    panel.type_box.hidePopup()
    # 2. the preview with its mode choice
    window.open_preview(products, "products", False)
    wait(1500)
    dialog = window.preview
    assert dialog is not None
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("upsert"))
    shot("preview-mode")
    dialog.accept()
    # 3. the undo question once the import ended
    for _ in range(60):
        wait(500)
        records = list(window.model.records())
        if records and records[0].status.is_final:
            break
    window.select_task(records[0].id)
    window.actions_.undo.trigger()
    shot("undo")
    if window.undo_question is not None:
        window.undo_question.keep_button.click()
    window.allow_close = True
    desk.shutdown()
    shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
