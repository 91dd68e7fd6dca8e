"""A setting of the wrong type no longer kills the scheduler or the command: its default is used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.test_cli import cli
from tests.support.customers import row, write_csv


@pytest.mark.parametrize("bad", [{"poll_interval": "fast"}, {"max_workers": "x"}, {"heartbeat_interval": "often"}])
def test_an_import_runs_with_a_bad_setting(tmp_path: Path, bad: dict[str, str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps(bad), encoding="utf-8")
    path = write_csv(tmp_path / "c.csv", [row(1), row(2)])
    # Before: "fast" killed the scheduler thread (a traceback, then --wait waited forever); "x" ended
    # in "internal error (TypeError...)".
    code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", str(data),
                          timeout=60)  # fmt: skip
    assert code == 0 and "internal error" not in err, err
    assert isinstance(task, dict) and task["status"] == "succeeded"
    (name,) = bad
    log = (data / "logs" / "batchdesk.log").read_text(encoding="utf-8")
    assert f"The setting {name} = " in log and "using the default" in log
    # and the clerk is told, in one plain line on stderr, not only the log
    (line,) = [ln for ln in err.splitlines() if ln.startswith("BatchDesk: ")]
    assert name in line and ("using the default" in line or "已改用默认值" in line) and "Traceback" not in err


def test_a_settings_file_that_is_not_json_is_named_on_stderr(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    broken = '{"max_workers": 3,}'
    (data / "settings.json").write_text(broken, encoding="utf-8")
    path = write_csv(tmp_path / "c.csv", [row(1), row(2)])
    code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", str(data),
                          timeout=60)  # fmt: skip
    assert code == 0 and isinstance(task, dict) and task["status"] == "succeeded", err
    (line,) = [ln for ln in err.splitlines() if ln.startswith("BatchDesk: ")]
    assert str(data / "settings.json") in line and ("not valid JSON" in line or "不是有效的 JSON" in line)
    assert (data / "settings.json").read_text(encoding="utf-8") == broken, "left for the clerk to mend"
