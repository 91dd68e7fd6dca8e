"""Screenshots of the preview (run under an X server with a window manager): the first rows checked with
a bad cell's reason shown, the day/month question, a workbook's sheets with the decimal comma, an empty
file, a file over the size limit, two headers for one column, and the re-import of an unedited error file.
Usage: python scripts/screens_preview.py LANG OUT_PREFIX (e.g. zh docs/screens/preview-zh-1024x700)."""

from __future__ import annotations

import csv
import io
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]


def customer(i: int, **changes: str) -> list[str]:
    values = {"客户编号": f"C{i:06d}", "姓名": f"客户{i}", "手机号": f"139 {i:04d} 5678", "邮箱": f"c{i}@example.com",
              "等级": "金卡", "开户日期": f"{i % 12 + 1:02d}/03/2024", "信用额度": f"¥{i},000.50", "部门": "销售部",
              "备注": ""}  # fmt: skip
    values.update(changes)
    return [values[h] for h in HEADER]


def write(path: Path, rows: list[list[str]], *, delimiter: str = ",", header: list[str] = HEADER) -> Path:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8-sig")
    return path


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from openpyxl import Workbook
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication, QToolTip

    from desktop_app.app import build_core
    from desktop_app.ui.desk import Desk

    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    data_dir = Path(tempfile.mkdtemp(prefix="batchdesk-preview-"))
    files = data_dir / "files"
    files.mkdir()
    core = build_core(data_dir=data_dir / "data", overrides={"language": lang, "daily_cleanup": False,
                                                             "max_file_mb": 1})  # fmt: skip
    desk = Desk(app, core, QSettings(str(data_dir / "window.ini"), QSettings.Format.IniFormat))
    desk.start()
    window = desk.window
    window.showMaximized()
    loop = QEventLoop()

    def wait(ms: int) -> None:
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def shot(name: str) -> None:
        wait(900)
        app.primaryScreen().grabWindow(0).save(f"{prefix}-{name}.png")

    def preview(path: Path, **kwargs: object) -> object:
        window.open_preview(path, "customers", False, **kwargs)  # type: ignore[arg-type]
        wait(2000)
        dialog = window.preview
        assert dialog is not None
        return dialog

    wait(1500)
    # 1. rows checked: a bad phone and amount, dates that read both ways (the order is asked)
    rows = [customer(i) for i in range(1, 16)]
    rows[2] = customer(3, 手机号="139 1234 567")
    rows[5] = customer(6, 信用额度="1,00")
    dialog = preview(write(files / "regional.csv", rows))
    wait(1500)
    table = dialog.rows_table  # type: ignore[attr-defined]
    item = table.item(2, 2)
    rect = table.visualItemRect(item)
    QToolTip.showText(table.viewport().mapToGlobal(rect.center()), item.toolTip(), table.viewport(), rect, 60_000)
    wait(300)
    app.primaryScreen().grabWindow(0).save(f"{prefix}-checks.png")
    QToolTip.hideText()
    dialog.reject()  # type: ignore[attr-defined]
    wait(300)
    # 2. a workbook of two sheets, the second chosen; amounts written with a decimal comma
    book = Workbook()
    book.active.title = "说明" if lang == "zh" else "Notes"
    book.active.append(["请填写“客户”表" if lang == "zh" else "Fill in the sheet 客户"])
    book.active.append([""])
    sheet = book.create_sheet("客户")
    sheet.append(HEADER)
    for i in range(1, 12):
        sheet.append(customer(i, 开户日期=f"2024年3月{i}日", 信用额度=f"{i} 234,50"))
    book.save(files / "workbook.xlsx")
    dialog = preview(files / "workbook.xlsx")
    dialog.sheet_box.setCurrentIndex(1)  # type: ignore[attr-defined]
    dialog.sheet_box.activated.emit(1)  # type: ignore[attr-defined]
    wait(1500)
    dialog.decimal_comma_box.setChecked(True)  # type: ignore[attr-defined]
    shot("sheets")
    dialog.reject()  # type: ignore[attr-defined]
    wait(300)
    # 3. an empty file
    (files / "empty.csv").write_text(",".join(HEADER) + "\r\n", encoding="utf-8")
    dialog = preview(files / "empty.csv")
    shot("empty")
    dialog.reject()  # type: ignore[attr-defined]
    wait(300)
    # 4. a file over the size limit (1 MB here), with the offer to raise it
    big = write(files / "big.csv", [customer(i, 备注="x" * 150, 开户日期="2024-03-05") for i in range(1, 7001)],
                delimiter=";")  # fmt: skip
    dialog = preview(big)
    shot("too-large")
    dialog.reject()  # type: ignore[attr-defined]
    wait(300)
    # 5. two headers for one column
    two = write(files / "two.csv", [[*customer(i, 开户日期="2024-03-05"), "13900000000"] for i in range(1, 6)],
                header=[*HEADER, "mobile"])  # fmt: skip
    dialog = preview(two)
    dialog.mapping_table.scrollToBottom()  # type: ignore[attr-defined]
    shot("two-headers")
    dialog.accept()  # type: ignore[attr-defined]
    # 6. the re-import of an error file nobody edited yet
    for _ in range(60):
        wait(500)
        records = list(window.model.records())
        if records and records[0].status.is_final:
            break
    bad = write(files / "bad.csv", [customer(i, 开户日期="2024-03-05", 手机号="x" if i % 4 == 0 else "139 0000 0000")
                                    for i in range(21, 31)])  # fmt: skip
    window._queue(bad, {"import_type": "customers", "dry_run": False, "mode": "insert"})  # queued without a preview
    for _ in range(60):
        wait(500)
        records = list(window.model.records())
        if len(records) == 2 and records[0].status.is_final:
            break
    window.select_task(records[0].id)
    window.actions_.reimport.trigger()
    wait(2000)
    shot("reimport")
    desk.shutdown(20)
    shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
