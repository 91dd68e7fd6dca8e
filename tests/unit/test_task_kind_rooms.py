"""One place per task type: no code outside the kind registry compares a task's type by name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "desktop_app"
# the registry: the kinds (TaskKind.owns) and the handlers by name
REGISTRY = {Path("tasks/kinds.py"), Path("tasks/registry.py")}


def _is_type(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "task_type"
    return isinstance(node, ast.Attribute) and node.attr == "task_type"


def _is_column(node: ast.expr) -> bool:
    """tasks.c.task_type: a SQL comparison builds a query, it decides nothing about a type."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "c"


def _asks_the_registry(node: ast.expr) -> bool:
    """`X.task_type in self.registry`: whether a type is registered, which the registry answers."""
    return isinstance(node, ast.Attribute | ast.Name) and getattr(node, "attr", getattr(node, "id", "")) == "registry"


def violations(source: str) -> list[int]:
    """The lines that decide by a task type's name (==, !=, in, not in, match)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                if not isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) or _is_column(left):
                    continue
                if (_is_type(left) and not _asks_the_registry(right)) or _is_type(right):
                    lines.append(node.lineno)
        elif isinstance(node, ast.Match) and _is_type(node.subject):
            lines.append(node.lineno)
    return lines


def _modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE) not in REGISTRY]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_task_type_comparison_outside_the_registry(path: Path) -> None:
    found = violations(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE)} decides by a type's name at lines {found}: ask its TaskKind"


@pytest.mark.parametrize(
    "planted",
    [
        'if record.task_type == "import":\n    pass\n',
        "ok = record.task_type != EXPORT_TASK\n",
        "system = record.task_type in (COMPLETE, CLEANUP)\n",
        "shown = task.task_type not in SYSTEM_TASKS\n",
        'same = "export" == record.task_type\n',
        "match record.task_type:\n    case 'import':\n        pass\n",
    ],
)
def test_the_guard_finds_a_planted_comparison(planted: str) -> None:
    assert violations(planted) == [1]


def test_the_guard_lets_queries_and_registry_look_ups_pass() -> None:
    assert violations("q = query.where(table.c.task_type == task_type)\n") == []
    assert violations("known = CleanupHandler.task_type not in self.registry\n") == []
    assert violations("kind.allows(Action.UNDO)\n") == []


def link_in_summary(source: str) -> list[int]:
    """The lines that read or write a task link as a summary key (summary.get("undone_by"), summary[...],
    an annotate(..., undone_by=...) keyword): links are the record's typed columns (TaskLink)."""
    from desktop_app.domain.task import TaskLink

    names = {link.value for link in TaskLink}
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            reads = (isinstance(func, ast.Attribute) and func.attr == "get" and isinstance(func.value, ast.Attribute)
                     and func.value.attr == "summary" and node.args and isinstance(node.args[0], ast.Constant)
                     and node.args[0].value in names)  # fmt: skip
            writes = (isinstance(func, ast.Attribute) and func.attr == "annotate"
                      and any(k.arg in names for k in node.keywords))  # fmt: skip
            if reads or writes:
                lines.append(node.lineno)
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "summary"
              and isinstance(node.slice, ast.Constant) and node.slice.value in names):  # fmt: skip
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_task_link_kept_in_a_summary(path: Path) -> None:
    found = link_in_summary(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE)} keeps a task link in a summary at lines {found}: use TaskLink"


@pytest.mark.parametrize("planted", ['record.summary.get("undone_by")\n', 'r.summary["resumed_by"]\n',
                                     'ctx.annotate(older, expired=True, replaced_by="T1")\n'])  # fmt: skip
def test_the_link_guard_sees_a_planted_summary_link(planted: str) -> None:
    assert link_in_summary(planted) == [1]
