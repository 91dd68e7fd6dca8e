"""Screenshots of team mode (run under an X server with a window manager) on a secured PostgreSQL schema: an
administrator's Settings > Team page with two clerks and their rights, the Add login dialog then the password it
generated, the Rights dialog, and a clerk's preview refused before queueing.
Usage: python scripts/screens_team.py LANG OUT_PREFIX (e.g. zh /tmp/team-zh-1024x700). Needs PostgreSQL as the
tests use it (tests/support/backends.py); the roles it makes are dropped at the end."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    import pytest

    from desktop_app.app import build_core
    from desktop_app.domain.modes import ImportMode
    from scripts.screen_window import ShownWindow
    from tests.support.customers import row, run_import, write_csv
    from tests.support.team_pg import secure_with_clerks, team_schema

    root = Path(tempfile.mkdtemp(prefix="batchdesk-team-"))
    patch = pytest.MonkeyPatch()
    try:
        with team_schema(root, patch) as team:
            secure_with_clerks(team)  # alice and bob: insert on customers; boss administers
            team.ok(None, "admin", "grant", team.name("alice"), "customers", "--update")
            # the customers bob's update would change: imported by the administrator (a desk of its login runs
            # only its login's tasks)
            run_import(team.core("boss"), write_csv(root / "customers.csv", [row(i) for i in range(1, 31)]),
                       user=team.name("boss"))  # fmt: skip

            def core_of(who: str) -> Any:
                core = build_core(data_dir=root / f"window-{who}", db_url=team.url_of(who),
                                  overrides={"language": lang, "daily_cleanup": False})  # fmt: skip
                team.cores.append(core)  # closed by team_schema
                return core

            shown = ShownWindow(core_of("boss"), root / "boss", prefix)
            desk, wait, shot = shown.desk, shown.wait, shown.shot
            wait(1500)
            desk.open_settings()
            wait(1500)
            settings = desk.settings_dialog
            assert settings is not None and settings.team_page is not None and settings.tabs is not None
            page = settings.team_page
            settings.tabs.setCurrentWidget(page)
            wait(2000)
            page.select(team.name("alice"))
            wait(500)
            shot("settings-team")
            page.open_add()
            wait(800)
            add = page.add_dialog
            assert add is not None
            add.name_edit.setText(team.name("carol"))
            wait(500)
            shot("add-login")
            add.buttons.accepted.emit()
            wait(2500)
            if page.password_dialog is not None:
                shot("add-login-password")
                page.password_dialog.reject()
            wait(1000)
            page.select(team.name("alice"))
            page.open_rights()
            wait(1200)
            shot("rights")
            if page.rights_dialog is not None:
                page.rights_dialog.reject()
            settings.reject()
            wait(500)
            desk.shutdown(20)
            shown.window.hide()
            wait(500)
            # bob may insert customers, not update them: his preview says so as soon as update is chosen
            clerk = ShownWindow(core_of("bob"), root / "bob", prefix)
            clerk.wait(1500)
            dialog = clerk.preview(write_csv(root / "customers-week-49.csv",
                                             [row(i, 信用额度=f"{i * 100}.00") if i % 4 == 0 else row(i)
                                              for i in range(1, 26)]),
                                   ImportMode.UPDATE.value)  # fmt: skip
            clerk.shot("preview-refused")
            dialog.reject()
            clerk.wait(500)
            clerk.desk.shutdown(20)
    finally:
        patch.undo()
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
