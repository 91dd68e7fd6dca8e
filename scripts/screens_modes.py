"""Screenshots of the modes that remove rows (run under an X server with a window manager): the preview in
delete mode (what the first rows would delete, the ignored columns), and a sync's question naming the rows
it would delete. Usage: python scripts/screens_modes.py LANG OUT_PREFIX (e.g. zh /tmp/modes-zh-1024x700)."""

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

    root = Path(tempfile.mkdtemp(prefix="batchdesk-modes-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    run_import(core, write_csv(root / "all.csv", [row(i) for i in range(1, 31)]))
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot

    def preview(path: Path, mode: ImportMode) -> object:
        return shown.preview(path, mode.value)

    wait(1500)
    leaving = write_csv(root / "closed-branch.csv", [row(i) for i in (3, 5, 8, 40)])
    dialog = preview(leaving, ImportMode.DELETE)
    shot("delete-preview")
    dialog.reject()  # type: ignore[attr-defined]
    wait(500)
    master = write_csv(root / "master.csv", [row(i) for i in range(1, 26)] + [row(31)])
    dialog = preview(master, ImportMode.SYNC)
    shot("sync-preview")
    dialog.accept()  # type: ignore[attr-defined]
    wait(3000)
    shot("sync-question")
    if window.question is not None:
        window.question.reject()
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
