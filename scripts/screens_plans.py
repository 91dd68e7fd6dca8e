"""Screenshots of the change plan and the workbook (run under an X server with a window manager): a dry run's
plan in the window (every action, then its updates alone), the sync question with its "Check first", and
a workbook's preview. Usage: python scripts/screens_plans.py LANG OUT_PREFIX [DRY_RUN_LANG] (e.g. zh
/tmp/plans-zh-1024x700; DRY_RUN_LANG: the dry run made by a desk in that language, its plan shown in LANG)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    dry_lang = argv[2] if len(argv) > 2 else lang
    from desktop_app.app import build_core
    from desktop_app.domain.modes import ImportMode
    from desktop_app.imports.row_plans import Action
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv
    from tests.support.workbooks import GOODS_HEADER, NOTES_HEADER, PRICES_HEADER, set_up_goods_and_prices, write_book

    root = Path(tempfile.mkdtemp(prefix="batchdesk-plans-"))
    core = build_core(data_dir=root / "data", overrides={"language": dry_lang, "daily_cleanup": False})
    set_up_goods_and_prices(core)
    run_import(core, write_csv(root / "all.csv", [row(i) for i in range(1, 31)]))
    # the next file: five credit limits and a phone changed, two new customers, one bad row
    changed = [row(i, 信用额度=f"{i * 100}.00") if i % 6 == 0 else row(i) for i in range(1, 31)]
    changed[3] = row(4, 手机号="13900000004")
    changed += [row(31), row(32), row(33, 开户日期="2024-13-45")]
    dry = run_import(core, write_csv(root / "customers-week-49.csv", changed), mode=ImportMode.UPSERT.value,
                     dry_run=True)  # fmt: skip
    if dry_lang != lang:  # the plan was made on a desk in the other language: shown here in this one
        core.close()
        core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    wait(1500)
    plan = shown.review_plan(dry.id)
    shot("plan")
    box = plan.filter_box
    box.setCurrentIndex(box.findData(Action.UPDATE.value))
    wait(1500)
    shot("plan-updates")
    plan.reject()
    wait(500)
    book = write_book(root / "goods-and-prices.xlsx", [
        ("PRICE SHEET", PRICES_HEADER, [["P1", "G1", "1.50"], ["P2", "G2", "2"]]),
        ("notes", NOTES_HEADER, [["a", "b"]]),
        ("商品清单", GOODS_HEADER, [["G1", "茶叶"], ["G2", "咖啡"]]),
    ])  # fmt: skip
    window.panel.set_path(book)
    window.menus.workbook_action.trigger()
    wait(2500)
    shot("workbook-preview")
    if window.workbook is not None:
        window.workbook.reject()
    wait(500)
    shown.preview(write_csv(root / "master.csv", [row(i) for i in range(1, 26)]), ImportMode.SYNC.value).accept()
    wait(3000)
    shot("sync-question")
    if window.question is not None:
        window.question.reject()
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
