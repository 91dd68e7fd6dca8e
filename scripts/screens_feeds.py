"""Screenshots of daily feeds (run under an X server with a window manager): the task list with a feed's
imports and the notice of a file with errors, the Feeds view (watching, paused, a folder away), and the
edit dialog with its live pattern count.
Usage: python scripts/screens_feeds.py LANG OUT_PREFIX (e.g. zh docs/screens/feeds-zh-1024x700)."""

from __future__ import annotations

import csv
import io
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "east-customers.toml"


def customer(i: int, **changes: str) -> list[str]:
    values = {"客户编号": f"C{i:06d}", "姓名": f"客户{i}", "手机号": f"139{i:08d}", "邮箱": f"c{i}@example.com",
              "等级": "金卡", "开户日期": "2024-03-05", "信用额度": f"{i}000.50", "部门": "销售部",
              "备注": ""}  # fmt: skip
    values.update(changes)
    return [values[h] for h in HEADER]


def write(path: Path, rows: list[list[str]]) -> Path:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([HEADER, *rows])
    path.write_text(out.getvalue(), encoding="utf-8-sig")
    return path


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from desktop_app.domain.feeds import FeedSpec, Schedule
    from desktop_app.imports.profiles import read_profile_file
    from scripts.screen_window import ShownWindow

    root = Path(tempfile.mkdtemp(prefix="batchdesk-feeds-"))
    bank, east, paused = root / "bank", root / "east", root / "suppliers"
    for folder in (bank, east, paused):
        folder.mkdir()
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    from desktop_app.tasks.submit import current_user

    user = current_user()  # the desk's own clerk: the window lists their tasks and feeds
    core.submitter().save_profile("East branch", read_profile_file(str(EXAMPLE)), user=user, source=str(EXAMPLE))
    write(bank / "bank-0501.csv", [customer(i) for i in range(1, 41)])
    write(bank / "bank-0502.csv", [customer(i, 等级="钻石" if i % 9 == 0 else "金卡") for i in range(41, 81)])
    write(bank / "bank-0502-copy.csv", [customer(i) for i in range(1, 41)])  # bank-0501's bytes again
    (east / "east-0501.csv").write_text("Customer No;姓名;手机号;等级;Remark\nC900001;张三;13800000001;钻石;\n",
                                        encoding="utf-8")  # fmt: skip
    for i in range(3):
        write(paused / f"prices-{i}.csv", [customer(500 + i)])
    feeds = core.feeds()
    feeds.add(FeedSpec(name="Bank", folder=str(bank), import_type="customers", settle=0), user=user)
    feeds.add(FeedSpec(name="East branch", folder=str(east), import_type="customers", profile="East branch",
                       settle=0, schedule=Schedule(every=300)), user=user)  # fmt: skip
    feeds.add(FeedSpec(name="Suppliers", folder=str(paused), import_type="customers", settle=0), user=user)
    from desktop_app.domain.viewer import Viewer

    feeds.pause("Suppliers", Viewer(user, is_admin=True))
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot

    for _ in range(60):  # the feeds' first scans, their imports and the moves
        wait(500)
        done = [p for p in (bank / "imported").glob("*/*.csv")] if (bank / "imported").exists() else []
        if len(done) >= 2 and any((bank / "duplicates").glob("*/*.csv")):
            break
    wait(1500)
    shot("list")
    # the file with errors: its bad levels fixed once (Fix values), then the preview of the east branch's
    # next file, read through its profile
    with_errors = next((r for r in window.model.records() if r.fail_count), None)
    if with_errors is not None:
        window.select_task(with_errors.id)
        for _ in range(20):
            wait(300)
            if window.actions_.fix_values.isEnabled():
                break
        window.actions_.fix_values.trigger()
        wait(2000)
        shot("fix-values")
        if window.value_fix_dialog is not None:
            window.value_fix_dialog.reject()
        wait(500)
    nxt = root / "east-0502.csv"
    nxt.write_text("Customer No;姓名;手机号;等级;Remark\nC900002;李四;13800000002;钻石;老客户\n", encoding="utf-8")
    window.open_preview(nxt, None, False)
    wait(3000)
    shot("profile")
    if window.preview is not None:
        window.preview.reject()
    wait(500)
    desk.open_feeds()
    wait(2500)
    view = desk.feeds_window
    assert view is not None
    view.select("Bank")
    shot("view")
    shutil.rmtree(east)  # the east branch's folder goes away: the feed says so and looks again
    view.select("East branch")
    feeds.run("East branch", Viewer(user, is_admin=True))
    wait(4000)
    view.refresh()
    wait(1000)
    shot("offline")
    view.select("Bank")
    view.edit_feed()
    wait(2500)
    shot("edit")
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
