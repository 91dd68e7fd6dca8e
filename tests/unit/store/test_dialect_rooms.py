"""Each database's knowledge lives in its module of store/dialects: no other module asks which one it is on."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from desktop_app.store import dialects
from desktop_app.store.dialects.base import Dialect

PACKAGE = Path(__file__).resolve().parents[3] / "desktop_app"
ROOM = PACKAGE / "store" / "dialects"
# Alembic's migration files keep their own frozen copies of the column types, with_variant(..., "sqlite")
# included: naming a variant is not a test of the database. They hold no comparison today; the walk
# covers them too, so one added there fails like anywhere else.
NAMES = {"sqlite", "postgresql", "postgres", "mysql", "mariadb", "mssql", "oracle"}
ASKS = {"drivername", "get_backend_name", "get_dialect"}  # a URL's names (Arrow's pool has a backend_name)


def _names_a_database(node: ast.AST) -> bool:
    """A string naming a database (or starting with one's name, as 'sqlite+pysqlite')."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        word = node.value.lower().split("+")[0]
        return word in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_database(e) for e in node.elts)
    return False


def _is_dialect_name(node: ast.AST) -> bool:
    """`x.dialect.name` (or `x.name` where x is a dialect), `x.drivername`, `x.get_backend_name()`."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        if node.attr in ASKS:
            return True
        if node.attr == "name" and isinstance(node.value, ast.Attribute) and node.value.attr == "dialect":
            return True
    return False


def violations(source: str, filename: str = "<source>") -> list[str]:
    """Where the source asks which database it is on: a comparison with a database's name or with a
    dialect's or URL's name, a look-up keyed by one, a startswith of one."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_a_database(s) for s in sides) or any(_is_dialect_name(s) for s in sides):
                found.append(f"{filename}:{node.lineno}: compares a database's name")
        elif isinstance(node, ast.Dict) and sum(_names_a_database(k) for k in node.keys if k is not None) >= 2:
            found.append(f"{filename}:{node.lineno}: a table keyed by databases' names")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("startswith", "endswith") and any(_names_a_database(a) for a in node.args):
                found.append(f"{filename}:{node.lineno}: tests a name against a database's")
            elif node.func.attr in ("get", "__getitem__") and _is_dialect_name(node.args[0] if node.args else node):
                found.append(f"{filename}:{node.lineno}: looks a database's name up")
            elif node.func.attr in ("get_backend_name", "get_dialect"):
                found.append(f"{filename}:{node.lineno}: asks the URL which database it is")
        elif isinstance(node, ast.Subscript) and _is_dialect_name(node.slice):
            found.append(f"{filename}:{node.lineno}: looks a database's name up")
    return found


def test_no_module_outside_the_dialects_asks_which_database_it_is_on() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ROOM in path.parents:
            continue
        found += violations(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    assert not found, "ask the dialect (store/dialects) instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "planted",
    [
        'if engine.dialect.name == "sqlite":\n    pass\n',
        'if conn.dialect.name in ("mysql", "mariadb"):\n    pass\n',
        'empty = "coalesce" if dialect == "postgresql" else "IFNULL"\n',
        'ok = not parsed.drivername.startswith("sqlite")\n',
        'if parsed.get_backend_name() != "postgresql":\n    pass\n',
        'READERS = {"sqlite": 1, "postgresql": 2}\n',
        "read = READERS.get(engine.dialect.name)\n",
        'if store.dialect != "sqlite":\n    pass\n',
    ],
)
def test_the_guard_sees_a_planted_dialect_test(planted: str) -> None:
    assert violations(planted)


def test_the_guard_lets_a_variant_and_a_csv_dialect_be() -> None:
    assert not violations('Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")\n')
    assert not violations("delimiter = sample.dialect.delimiter if sample.dialect else None\n")
    assert not violations("if dialect_of(engine).row_locks:\n    pass\n")


def _protocol_members() -> set[str]:
    return {n for n in dir(Dialect) if not n.startswith("_")} | set(Dialect.__annotations__)


@pytest.mark.parametrize("dialect", dialects.ALL, ids=lambda d: d.name)
def test_each_dialect_module_implements_the_whole_protocol(dialect: Dialect) -> None:
    assert isinstance(dialect, Dialect)
    for member in sorted(_protocol_members()):
        assert hasattr(dialect, member), f"{dialect.name} lacks {member}"
        wanted = getattr(Dialect, member, None)
        if callable(wanted):
            got = getattr(type(dialect), member)
            assert list(inspect.signature(got).parameters) == list(inspect.signature(wanted).parameters), member


def test_the_protocol_is_what_the_code_asks() -> None:
    # the docs name these (docs/EXTENDING.md "A new database"): a method added is a method documented
    text = (PACKAGE.parent / "docs" / "EXTENDING.md").read_text(encoding="utf-8")
    section = text[text.index("## A new database") :]
    missing = [m for m in sorted(_protocol_members()) if f"`{m}" not in section]
    assert not missing, f"docs/EXTENDING.md's 'A new database' does not name {missing}"


@pytest.mark.parametrize(
    ("where", "name"),
    [
        ("sqlite:///x.db", "sqlite"),
        ("postgresql+psycopg://u@h/d", "postgresql"),
        ("mysql+pymysql://u@h/d", "mysql"),
        ("mariadb+pymysql://u@h/d", "mysql"),
    ],
)
def test_a_url_finds_its_dialect(where: str, name: str) -> None:
    assert dialects.dialect_of(where).name == name


def test_an_unknown_database_is_said() -> None:
    with pytest.raises(dialects.UnknownDatabase):
        dialects.dialect_of("oracle://u@h/d")
