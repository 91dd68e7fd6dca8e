"""Screenshots of the row limit in the preview and of an insert's change plan (run under an X server with a
window manager): a file over the row limit and the size limit (both said, both boxes offered), then a dry run
of an insert with a failing row and a row waiting for a department's name, its plan reviewed, and the plan of
30 rows with 4 failing. Usage:
python scripts/screens_limits.py LANG OUT_PREFIX (e.g. zh /tmp/limits-zh-1024x700)."""

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
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv

    root = Path(tempfile.mkdtemp(prefix="batchdesk-limits-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False,
                                                          "max_rows": 5000, "max_file_mb": 1})  # fmt: skip
    rows = [row(100 + i) for i in range(1, 10)]
    rows[4] = row(105, 手机号="not a phone")
    rows[6] = row(107, 部门="研发中心")
    dry = run_import(core, write_csv(root / "mostly_good.csv", rows), mode=ImportMode.INSERT.value, dry_run=True)
    # 30 rows, 4 failing: the grid scrolls, the reasons wrap (the Reason column beside the scroll bar)
    mixed = [row(200 + i, 手机号="x") if i % 8 == 3 else row(200 + i) for i in range(30)]
    many = run_import(core, write_csv(root / "customers_mixed2.csv", mixed), mode=ImportMode.INSERT.value,
                      dry_run=True)  # fmt: skip
    shown = ShownWindow(core, root, prefix)
    desk, wait, shot = shown.desk, shown.wait, shown.shot
    wait(1500)
    big = write_csv(root / "huge_customers.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    dialog = shown.preview(big, ImportMode.INSERT.value)
    wait(2000)
    shot("preview-rows")
    dialog.raise_limit_box.setChecked(True)
    wait(500)
    shot("preview-rows-size-ticked")
    dialog.reject()
    wait(500)
    plan = shown.review_plan(dry.id)
    shot("plan")
    plan.reject()
    wait(500)
    plan = shown.review_plan(many.id)
    shot("plan-mixed")
    plan.reject()
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
