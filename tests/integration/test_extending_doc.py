"""docs/EXTENDING.md's examples run as written: a new import type with no code, and a new task type."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import build_core, default_handlers
from desktop_app.cli.main import main
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane
from tests.support.running import run_now

DOC = Path(__file__).resolve().parents[2] / "docs" / "EXTENDING.md"


def example(name: str) -> str:
    match = re.search(rf"<!-- example: {re.escape(name)} -->\n```\w*\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert match, f"docs/EXTENDING.md has no example {name}"
    return match.group(1)


def test_the_import_type_example(tmp_path: Path, capsys: pytest.CaptureFixture[str], qapp: object) -> None:
    # qapp: `--wait` in this process needs a Qt application; the one it would make itself (a
    # QCoreApplication) would be the one later tests' qapp finds, and they need a QApplication
    data = tmp_path / "data"
    (data / "import_types").mkdir(parents=True)
    (data / "import_types" / "suppliers.toml").write_text(example("suppliers.toml"), encoding="utf-8")
    source = tmp_path / "suppliers.csv"
    source.write_text(example("suppliers.csv"), encoding="utf-8")
    code = main(["import", str(source), "--type", "suppliers", "--wait", "--json", "--data-dir", str(data)])
    task: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0 and task["status"] == "partially_succeeded"
    assert (task["inserted_count"], task["fail_count"]) == (3, 1)
    with open(task["error_csv"], encoding="utf-8-sig", newline="") as handle:
        (bad,) = list(csv.DictReader(handle))
    # the error CSV's own columns follow the desk's language (here the system locale's)
    number, code = ("行号", "错误代码") if "行号" in bad else ("Row number", "Error codes")
    assert (bad[number], bad[code]) == ("5", "out_of_range")
    assert main(["template", "suppliers", "--out", str(tmp_path / "s.xlsx"), "--format", "xlsx",
                 "--data-dir", str(data)]) == 0  # fmt: skip
    assert main(["export", "suppliers", "--wait", "--json", "--filter", "region=east", "--data-dir", str(data)]) == 0
    exported = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert exported["total_count"] == 1 and exported["import_type"] == "suppliers"


def test_the_task_type_example(tmp_path: Path) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(example("task_type.py"), "EXTENDING.md", "exec"), namespace)
    handler = namespace["CountRowsHandler"]()
    probe = build_core(data_dir=tmp_path / "data")
    core = build_core(data_dir=tmp_path / "data",
                      handlers=[*default_handlers(probe.paths, probe.settings, probe.catalog), handler])  # fmt: skip
    probe.store.engine.dispose()
    task = core.store.submit(task_type="count_rows", params={}, creator="me", lane=Lane.SHORT).task
    ended = run_now(core, task.id)
    assert ended.status is TaskStatus.SUCCEEDED and ended.success_count == 3 and ended.checkpoint == {"done": 3}
    # the window gets its kind from the registry: its name, its lane, what a clerk may do with it
    kind = core.registry.kinds().of(ended)
    assert kind is namespace["COUNT_ROWS"] and kind.lane is Lane.SHORT and not kind.system
    core.store.engine.dispose()
