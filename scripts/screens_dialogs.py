"""Screenshots of the dialogs a clerk's tryout found wanting (run under an X server with a window manager): an
import failed by its levels and its notice offering "Fix values…", the value-fix dialog and its list of levels,
a dry run's plan (every action, its updates, inserts and failing rows), and the preview with "Validate only"
ticked. Usage: python scripts/screens_dialogs.py LANG OUT_PREFIX (e.g. zh /tmp/shots-dialogs/zh-1024x700)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from desktop_app.domain.modes import ImportMode
    from desktop_app.imports.row_plans import Action
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv

    root = Path(tempfile.mkdtemp(prefix="batchdesk-dialogs-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    run_import(core, write_csv(root / "all.csv", [row(i) for i in range(1, 31)]))
    # a week's file: credit limits changed, new customers (金卡, 银卡), a bad date
    changed = [row(i, 信用额度=f"{i * 100}.00") if i % 6 == 0 else row(i) for i in range(1, 31)]
    changed += [row(31), row(32), row(33, 开户日期="2024-13-45")]
    dry = run_import(core, write_csv(root / "customers-week-49.csv", changed), mode=ImportMode.UPSERT.value,
                     dry_run=True)  # fmt: skip
    # 8 of 20 levels misspelt: the import fails by its rows
    levels = [row(i + 100, 等级="钻石" if i % 5 == 0 else "白金") if i % 5 < 2 else row(i + 100) for i in range(1, 21)]
    failed = run_import(core, write_csv(root / "levels.csv", levels))
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    shown.ended_notice(failed)
    dialog = window.value_fix_dialog
    assert dialog is not None
    shot("value-fix")
    dialog.combos[0].showPopup()
    wait(500)
    shot("value-fix-levels")
    dialog.combos[0].hidePopup()
    dialog.reject()
    wait(500)
    plan = shown.review_plan(dry.id)
    shot("plan")
    plan.choose_filter(Action.UPDATE)
    wait(1500)
    shot("plan-updates")
    plan.choose_filter(Action.INSERT)  # the new customers' levels, as the file wrote them
    wait(1500)
    shot("plan-inserts")
    plan.choose_filter(Action.FAIL)
    wait(1500)
    shot("plan-failing")
    plan.reject()
    wait(500)
    preview = shown.preview(write_csv(root / "week-50.csv", [row(i) for i in range(1, 26)]), ImportMode.UPSERT.value)
    preview.dry_run_box.setChecked(True)
    wait(500)
    shot("preview-validate")
    preview.reject()
    wait(500)
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
