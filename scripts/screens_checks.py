"""Screenshots of validations in the task list (run under an X server with a window manager): a check whose rows
would wait for names, a check over the failed-rows limit (its details, its notice, its plan), and the failed
list without them.
Usage: python scripts/screens_checks.py LANG OUT_PREFIX (e.g. zh /tmp/shots/zh-1024x700)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv

    root = Path(tempfile.mkdtemp(prefix="batchdesk-checks-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    # 10 rows: 1 bad phone number, 2 in a department the table lacks
    mostly = [row(1, 手机号="x"), *(row(i, 部门="华东销售部") if i in (3, 7) else row(i) for i in range(2, 11))]
    waiting = run_import(core, write_csv(root / "mostly_good.csv", mostly), dry_run=True)
    # 9 rows, 5 bad: over the 30 % limit
    bad = [row(i, 手机号="x") if i >= 24 else row(i) for i in range(20, 29)]
    over = run_import(core, write_csv(root / "clerk_customers.csv", bad), dry_run=True)
    run_import(core, write_csv(root / "clerk_customers_real.csv", bad))
    shown = ShownWindow(core, root, prefix)
    window, wait, shot = shown.window, shown.wait, shown.shot
    wait(1500)
    window.select_task(waiting.id)
    window.actions_.details.trigger()
    wait(1500)
    shot("waiting")
    window.select_task(over.id)
    wait(1500)
    shot("over")
    window.notices.task_ended(over)  # its notice offers its plan, as a passing check's does
    wait(1500)
    shot("over-notice")
    plan = shown.review_plan(over.id)
    shot("over-plan")
    plan.reject()
    wait(500)
    window.filters.show_failed_list()
    wait(1500)
    shot("failed-list")
    shown.desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
