"""The window's small Qt-free helpers: the database password split, the remembered mappings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.ui.db_secret import needs_password, split_password, with_password
from desktop_app.ui.mapping_memory import MappingMemory, header_key


def test_the_password_is_split_off_the_url_and_put_back() -> None:
    url, password = split_password("postgresql+psycopg://clerk:s3cret@db.example:5432/batchdesk")
    assert url == "postgresql+psycopg://clerk@db.example:5432/batchdesk" and password == "s3cret"
    assert needs_password(url) and not needs_password("sqlite:////tmp/x.sqlite3") and not needs_password(None)
    assert with_password(url, password) == "postgresql+psycopg://clerk:s3cret@db.example:5432/batchdesk"
    assert split_password("sqlite:////tmp/x.sqlite3") == ("sqlite:////tmp/x.sqlite3", None)


def test_a_mapping_is_remembered_per_type_and_header_set(tmp_path: Path) -> None:
    memory = MappingMemory.in_dir(tmp_path)
    header = ["客户编号", "姓名", "Remark"]
    assert memory.recall("customers", header) == {}
    memory.remember("customers", header, {"Remark": "note"})
    assert memory.recall("customers", ["Remark", "姓名", "客户编号"]) == {"Remark": "note"}, "order does not matter"
    assert memory.recall("customers", [*header, "extra"]) == {}, "another header set"
    assert memory.recall("suppliers", header) == {}
    assert header_key(["\ufeff客户编号 ", "姓名"]) == header_key(["姓名", "客户编号"])
    memory.remember("customers", header, {})
    assert memory.recall("customers", header) == {}


def test_a_broken_memory_file_is_ignored(tmp_path: Path) -> None:
    memory = MappingMemory.in_dir(tmp_path)
    memory.path.write_text("{not json", encoding="utf-8")
    assert memory.recall("customers", ["a"]) == {}


def test_garbage_is_collected_on_the_gui_thread_while_the_window_lives(qapp: object) -> None:
    import gc

    from desktop_app.ui.main_thread_gc import MainThreadGC

    guard = MainThreadGC(interval_ms=10)
    assert gc.isenabled()
    guard.start()
    try:
        assert not gc.isenabled()  # no worker thread can trigger a collection now
    finally:
        guard.stop()
    assert gc.isenabled()


def test_the_windows_batch_pause_is_not_saved_for_the_command_line(make_desk: Any) -> None:
    from desktop_app.config import load_settings

    desk = make_desk()
    assert desk.core.settings.batch_pause > 0  # imports yield to the window's thread
    desk.apply_settings(desk.core.settings)
    assert load_settings(desk.core.paths).batch_pause == 0.0


def test_workers_hand_the_gil_to_the_window_sooner_while_the_desk_runs(make_desk: Any) -> None:
    import sys

    from desktop_app.ui.gil_turns import GUI_SWITCH_INTERVAL

    before = sys.getswitchinterval()
    assert before > GUI_SWITCH_INTERVAL  # Python's default (5 ms), as the command line keeps it
    desk = make_desk()  # started
    assert sys.getswitchinterval() == GUI_SWITCH_INTERVAL
    assert desk.shutdown(20)
    assert sys.getswitchinterval() == before


def test_team_mode_keeps_the_types_a_login_may_not_read_out_of_the_windows_lists(tmp_path: Path) -> None:
    from desktop_app.imports.type_catalog import default_catalog
    from desktop_app.ui.catalog import ImportCatalog

    source = default_catalog(tmp_path)
    everyone = ImportCatalog.load("en", source=source)
    assert "customers" in everyone.names()
    hidden = ImportCatalog.load("en", source=source, visible=lambda itype: itype.name != "customers")
    assert "customers" not in hidden.names() and set(hidden.names()) == set(everyone.names()) - {"customers"}
    # its tasks (an administrator's list, a Team page's column) still read by its title, not its table name
    assert hidden.title("customers") == everyone.title("customers") != "customers"
