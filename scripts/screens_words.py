"""Screenshots of the task list's words (run under an X server with a window manager): a validate-only run
with failing rows ("Checked: … would import, … would fail"), an import whose rows wait for names, and the
details of the validation. Usage: python scripts/screens_words.py LANG OUT_PREFIX (e.g. zh /tmp/shots/zh-1024x700)."""

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

    root = Path(tempfile.mkdtemp(prefix="batchdesk-words-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    run_import(core, write_csv(root / "customers.csv", [row(i) for i in range(1, 41)]))
    # a validation: 5 of 200 rows with a bad phone number
    checked = [row(i, 手机号="x") if i % 40 == 0 else row(i) for i in range(101, 301)]
    dry = run_import(core, write_csv(root / "customers-week-49.csv", checked), dry_run=True)
    # 10 of 100 rows in a department the table does not have yet
    waiting = [row(i, 部门="华东销售部") if i % 10 == 0 else row(i) for i in range(401, 501)]
    run_import(core, write_csv(root / "customers-new-departments.csv", waiting))
    shown = ShownWindow(core, root, prefix)
    window, wait, shot = shown.window, shown.wait, shown.shot
    wait(1500)
    window.select_task(dry.id)
    wait(500)
    shot("list")
    window.actions_.details.trigger()
    wait(1500)
    shot("details")
    shown.desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
