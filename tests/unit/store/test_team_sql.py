"""Team mode's SQL (store/team_sql/postgresql.py, mysql.py): one script per database, every owned table
policed, names quoted, and docs/TEAM.md showing each script as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.domain.modes import ImportMode
from desktop_app.domain.viewer import Right
from desktop_app.store.dialects import ALL
from desktop_app.store.schema import OWNED_ROWS, admins, customers, own_tables
from desktop_app.store.team_sql import mysql as mariadb
from desktop_app.store.team_sql.postgresql import regclass_text, render
from desktop_app.submission import needed_rights

DOC = Path(__file__).resolve().parents[3] / "docs" / "TEAM.md"


def test_docs_team_shows_the_script_admin_secure_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = text.split("```sql\n", 1)[1].split("```", 1)[0]
    assert shown == render("batchdesk"), "docs/TEAM.md's script is not render('batchdesk'): paste it again"


def test_every_table_holding_a_clerks_rows_is_forced_and_policed() -> None:
    script = render("s")
    for table in OWNED_ROWS:
        assert f"ALTER TABLE s.{table.name} FORCE ROW LEVEL SECURITY;" in script
        assert f"CREATE POLICY batchdesk_owner ON s.{table.name} USING (" in script
    # the business table is granted per login, the old administrators' table read only
    assert customers not in own_tables() and admins not in own_tables()
    assert "ON s.customers" not in script


def test_names_are_quoted_never_pasted() -> None:
    script = render('Büro "x"')
    assert 'GRANT USAGE ON SCHEMA "Büro ""x""" TO batchdesk_clerk;' in script
    assert "n.nspname = 'Büro \"x\"'" in script
    assert regclass_text("sales.Customers") == 'sales."Customers"'
    assert regclass_text("tasks", "it's") == '"it\'s".tasks'


def test_postgresql_and_mariadb_have_team_mode() -> None:
    assert sorted(d.name for d in ALL if d.team is not None) == ["mysql", "postgresql"]


# --- MariaDB ------------------------------------------------------------------------------------------


def test_docs_team_shows_the_mariadb_script_admin_secure_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = text.split("```sql\n")[2].split("```", 1)[0]
    assert shown == mariadb.render("batchdesk"), "docs/TEAM.md's MariaDB script is not render('batchdesk')"


def test_every_table_holding_a_clerks_rows_is_a_checked_definer_view() -> None:
    script = mariadb.render("s")
    for table in OWNED_ROWS:
        view = f"SQL SECURITY DEFINER VIEW s.{table.name} AS SELECT * FROM s_own.{table.name} WHERE "
        assert view in script
        assert script.split(view, 1)[1].split(";\n", 1)[0].endswith("WITH CASCADED CHECK OPTION")
    for table in own_tables():
        assert f"RENAME TABLE s.{table.name} TO s_own.{table.name};" in script
    # the clerks' grants are on the views of s only, never on the tables' own database; the business table
    # is granted per account, the old administrators' table read only
    granted = [line for line in script.splitlines() if line.startswith("GRANT ") and " ON " in line]
    assert granted and not [g for g in granted if "s_own" in g or "s.customers" in g]
    assert "GRANT SELECT ON s.batchdesk_admins TO batchdesk_clerk;" in script


def test_mariadb_names_are_quoted_never_pasted() -> None:
    script = mariadb.render("Büro `x'")
    assert "CREATE DATABASE IF NOT EXISTS `Büro ``x'_own`;" in script
    assert "TABLE_SCHEMA = 'Büro `x'''" in script
    assert "SET target = CONCAT('`Büro ``x''`', '.`', REPLACE(tbl, '`', '``'), '`');" in script
    assert mariadb.literal("a\\'b") == "'a\\\\''b'"


@pytest.mark.parametrize(
    ("mode", "rights"),
    [
        (ImportMode.INSERT, [Right.SELECT, Right.INSERT]),
        (ImportMode.INSERT_NEW, [Right.SELECT, Right.INSERT]),
        (ImportMode.UPDATE, [Right.SELECT, Right.UPDATE]),
        (ImportMode.UPSERT, [Right.SELECT, Right.INSERT, Right.UPDATE]),
        (ImportMode.DELETE, [Right.SELECT, Right.DELETE]),
        (ImportMode.SYNC, [Right.SELECT, Right.INSERT, Right.UPDATE, Right.DELETE]),
    ],
)
def test_an_imports_mode_needs_these_rights(mode: ImportMode, rights: list[Right]) -> None:
    assert needed_rights(mode) == rights
