"""Imports point one way: no Qt below the executor, QtWidgets only in desktop_app/ui."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "desktop_app"
QT_FREE = ("domain", "store", "tasks", "imports", "exports", "feeds", "submission", "team_admin")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_import_direction(path: Path) -> None:
    rel = path.relative_to(PACKAGE)
    top = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    names = _imports(path)
    qt = {n for n in names if n.startswith(("PySide6", "shiboken6"))}
    if top in QT_FREE or top in ("config", "log"):
        assert not qt, f"{rel} imports Qt: {qt}"
        assert not {n for n in names if n.startswith(("desktop_app.executor", "desktop_app.ui", "desktop_app.cli"))}
    if top != "ui":
        widgets = {n for n in qt if n.startswith(("PySide6.QtWidgets", "PySide6.QtGui"))}
        assert not widgets, f"{rel} uses QtWidgets/QtGui outside desktop_app/ui: {widgets}"
        # the window is opened by the program's entry (__main__'s dispatch) and built by the composition
        # root; the command line never imports it
        if top not in ("app", "__main__"):
            assert not {n for n in names if n.startswith("desktop_app.ui")}, f"{rel} imports the ui"


def test_the_guard_sees_a_wrong_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport desktop_app.ui.main\n")
    assert {"PySide6.QtWidgets", "desktop_app.ui.main"} <= _imports(bad)
