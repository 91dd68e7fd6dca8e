"""Screenshots of an import's missing names (run under an X server with a window manager): the question before
the names are added, the notice after "Do not add" (still offering its other buttons), and the preview saying
which rows will wait for a department the table lacks. Usage: python scripts/screens_names.py LANG OUT_PREFIX
(e.g. zh /tmp/shots-names/zh-1024x700)."""

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

    root = Path(tempfile.mkdtemp(prefix="batchdesk-names-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    # 4 rows in a department the table lacks, 3 in another, one with a bad phone (an error file)
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i, 部门="西北区域客户服务中心") if i % 7 == 0 else row(i)
            for i in range(1, 21)]  # fmt: skip
    rows[1] = row(2, 手机号="bad")
    ended = run_import(core, write_csv(root / "customers-new-departments.csv", rows))
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    shown.ended_notice(ended)
    question = window.add_names_question
    assert question is not None
    shot("question")
    question.keep_button.click()
    wait(1000)
    shot("notice-after-do-not-add")
    sample = [row(i + 100, 部门="华东销售部") if i in (2, 5, 9) else row(i + 100) for i in range(1, 16)]
    shown.preview(write_csv(root / "week-50.csv", sample), ImportMode.INSERT.value)
    shot("preview")
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
