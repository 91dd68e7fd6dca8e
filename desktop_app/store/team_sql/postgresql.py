"""Team mode on PostgreSQL: every statement of it in this one module (docs/TEAM.md shows the script).

`admin secure` runs script() and `admin secure --print-sql` prints it: the roles batchdesk_clerk and
batchdesk_admin, the clerks' grants on BatchDesk's own tables, row-level security (ENABLE and FORCE) with
a policy on each table holding a clerk's rows, a NOLOGIN role for each existing owner name (to be claimed
with `admin add-user NAME`), and the SECURITY DEFINER functions through which an administrator who is no
superuser adds logins and grants rights on the import types' tables. Names are always quoted: by
PostgreSQL's own format('%I') on the server, by SQLAlchemy's preparer here; never pasted into SQL.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.viewer import Right, TeamLogin, TeamUser
from desktop_app.store.schema import (
    OWNED_ROWS,
    admins,
    feed_files,
    feeds,
    import_rows,
    own_tables,
    task_file_chunks,
    task_files,
    tasks,
)

CLERK = "batchdesk_clerk"
ADMIN = "batchdesk_admin"
POLICY = "batchdesk_owner"
ADD_USER = "batchdesk_add_user"
GRANT = "batchdesk_grant"
RIGHTS = tuple(r.value for r in Right)
_PREPARER = postgresql.dialect().identifier_preparer

# An administrator (a member of batchdesk_admin, a superuser too) sees every row; the sub-select makes it
# one look per statement, not one per row.
IS_ADMIN = f"(SELECT pg_has_role(current_user, '{ADMIN}', 'MEMBER'))"
# Whose row it is, per table: tasks and feeds by their owner column; an import's row images through
# their task (whose own policy hides another clerk's); a feed's files through their feed; a task's stored
# files by their creator, their chunks through their file.
OWNER_OF = {
    "tasks": "creator = current_user",
    "tasks_archive": "creator = current_user",
    feeds.name: "owner = current_user",
    import_rows.name: (
        "EXISTS (SELECT 1 FROM {s}.tasks t WHERE t.task_no = import_rows.task_no) "
        "OR EXISTS (SELECT 1 FROM {s}.tasks_archive a WHERE a.task_no = import_rows.task_no)"
    ),
    feed_files.name: "EXISTS (SELECT 1 FROM {s}.feeds f WHERE f.id = feed_files.feed_id)",
    # a task's error CSV and change file by their creator (the task's); their chunks through their file
    task_files.name: "creator = current_user",
    task_file_chunks.name: "EXISTS (SELECT 1 FROM {s}.task_files f WHERE f.id = task_file_chunks.file_id)",
}
assert set(OWNER_OF) == {t.name for t in OWNED_ROWS}, "each table of OWNED_ROWS needs its policy"

_LOGIN = text(
    "SELECT current_user AS name, "
    f"CASE WHEN to_regrole('{ADMIN}') IS NULL THEN false ELSE pg_has_role(current_user, '{ADMIN}', 'MEMBER') END "
    "AS is_admin, to_regrole(:admin) IS NOT NULL AS roles, "
    "coalesce((SELECT relrowsecurity FROM pg_class WHERE oid = to_regclass(:tasks)), false) AS secured"
)

_MAY = text("SELECT CASE WHEN to_regclass(:t) IS NULL THEN NULL ELSE has_table_privilege(to_regclass(:t), :r) END")

# Role names the server refuses (reserved) or would cut (longer than 63 bytes): such an owner name gets no
# role; its tasks stay, readable by an administrator.
_NO_ROLE = (
    "who = '' OR octet_length(who) > 63 OR who LIKE 'pg\\_%' "
    "OR lower(who) IN ('public', 'none', 'current_user', 'session_user', 'current_role')"
)


def quote(name: str) -> str:
    """An identifier as PostgreSQL reads it back unchanged (quoted where it must be)."""
    return _PREPARER.quote(name)


def literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def regclass_text(table: str, schema: str | None = None) -> str:
    """A table's name (`table` or `schema.table` as an import type writes it) as to_regclass() reads it."""
    parts = table.split(".") if "." in table else [p for p in (schema, table) if p]
    return ".".join(quote(p) for p in parts)


def render(schema: str, owners: str = "") -> str:
    """The whole script for `schema` (the schema BatchDesk's tables are in)."""
    s, ls = quote(schema), literal(schema)
    own = [t.name for t in own_tables()]
    serial = [t.name for t in own_tables() if "id" in t.c]  # the tables whose id a sequence may give
    owned = ", ".join(f"{s}.{quote(t)}" for t in own)
    functions = f"{s}.{ADD_USER}(text, text, boolean), {s}.{GRANT}(text, text, text[], boolean)"
    own_literals = ", ".join(literal(t) for t in [*own, admins.name, "alembic_version"])
    out = [
        f"-- BatchDesk team mode for the schema {schema} (docs/TEAM.md). Run it as a superuser, or as the",
        "-- tables' owner with CREATEROLE, in one transaction; running it again changes nothing.",
        "",
        "-- 1. The roles: every clerk's login is a member of batchdesk_clerk; an administrator's of",
        "--    batchdesk_admin too (it sees and manages every clerk's tasks).",
        "DO $$",
        "BEGIN",
        f"  IF to_regrole('{CLERK}') IS NULL THEN CREATE ROLE {CLERK} NOLOGIN; END IF;",
        f"  IF to_regrole('{ADMIN}') IS NULL THEN CREATE ROLE {ADMIN} NOLOGIN; END IF;",
        "END $$;",
        f"GRANT {CLERK} TO {ADMIN};",
        "",
        "-- 2. What a clerk's desk reads and writes: BatchDesk's own tables and their id sequences. The",
        "--    import types' tables are granted per login: `batchdesk admin grant NAME TYPE --insert`.",
        f"GRANT USAGE ON SCHEMA {s} TO {CLERK};",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {owned} TO {CLERK};",
        f"GRANT SELECT ON {s}.{quote(admins.name)}, {s}.alembic_version TO {CLERK};",
        "DO $$",
        "DECLARE seq text;",
        "BEGIN",
        f"  FOREACH seq IN ARRAY ARRAY[{', '.join(literal(regclass_text(t, schema)) for t in serial)}] LOOP",
        "    seq := pg_get_serial_sequence(seq, 'id');",
        f"    IF seq IS NOT NULL THEN EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s TO {CLERK}', seq); END IF;",
        "  END LOOP;",
        "END $$;",
        "",
        "-- 3. Each clerk's rows are theirs alone: row-level security, forced on the tables' owner too; an",
        "--    administrator sees all.",
    ]
    for table in OWNED_ROWS:
        name = f"{s}.{quote(table.name)}"
        mine = OWNER_OF[table.name].replace("{s}", s)
        out += [
            f"ALTER TABLE {name} ENABLE ROW LEVEL SECURITY;",
            f"ALTER TABLE {name} FORCE ROW LEVEL SECURITY;",
            f"DROP POLICY IF EXISTS {POLICY} ON {name};",
            f"CREATE POLICY {POLICY} ON {name} USING ({mine} OR {IS_ADMIN}) WITH CHECK ({mine} OR {IS_ADMIN});",
        ]
    out += [
        "",
        "-- 4. Whoever secures the database administers it (a superuser does anyway): with FORCE, the",
        "--    tables' owner would otherwise see only the rows it owns (its migrations included).",
        "DO $$",
        "BEGIN",
        "  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN",
        f"    EXECUTE format('GRANT {ADMIN} TO %I', current_user);",
        "  END IF;",
        "END $$;",
        "",
        "-- 5. Each name that owns tasks or feeds already gets a role (NOLOGIN) to claim: an administrator",
        "--    gives it a password with `batchdesk admin add-user NAME`. Every task is kept.",
        "DO $$",
        "DECLARE who text;",
        "BEGIN",
        f"  FOR who IN SELECT creator FROM {s}.tasks UNION SELECT creator FROM {s}.tasks_archive",
        f"             UNION SELECT owner FROM {s}.feeds LOOP",
        f"    CONTINUE WHEN {_NO_ROLE} OR to_regrole(quote_ident(who)) IS NOT NULL;",
        "    BEGIN",
        f"      EXECUTE format('CREATE ROLE %I NOLOGIN IN ROLE {CLERK}', who);",
        "    EXCEPTION WHEN OTHERS THEN",
        "      RAISE NOTICE 'BatchDesk: no role for the owner name %: %', who, SQLERRM;",
        "    END;",
        "  END LOOP;",
        "END $$;",
        "",
        "-- 6. What an administrator who is no superuser may do, and only that: add a clerk's login (or",
        "--    claim an owner's role), and grant or revoke rights on an import type's table of this schema.",
        f"CREATE OR REPLACE FUNCTION {s}.{ADD_USER}(who text, secret text, make_admin boolean)",
        "RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$",
        "DECLARE r record;",
        "BEGIN",
        f"  IF NOT pg_has_role(session_user, '{ADMIN}', 'MEMBER') THEN",
        "    RAISE EXCEPTION 'only an administrator of BatchDesk adds a login' USING ERRCODE = '42501';",
        "  END IF;",
        "  SELECT oid, rolsuper, rolcreaterole, rolbypassrls, rolreplication INTO r FROM pg_roles WHERE rolname = who;",
        "  IF NOT FOUND THEN",
        f"    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE {CLERK}', who, secret);",
        "  ELSIF r.rolsuper OR r.rolcreaterole OR r.rolbypassrls OR r.rolreplication OR NOT EXISTS (",
        f"      SELECT 1 FROM pg_auth_members m WHERE m.roleid = to_regrole('{CLERK}') AND m.member = r.oid) THEN",
        "    RAISE EXCEPTION 'the role % is not a BatchDesk clerk''s: its DBA sets its password', who",
        "      USING ERRCODE = '42501';",
        "  ELSE",
        "    EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', who, secret);",
        "  END IF;",
        f"  IF make_admin THEN EXECUTE format('GRANT {ADMIN} TO %I', who); END IF;",
        "  RETURN r IS NULL;",
        "END $fn$;",
        f"CREATE OR REPLACE FUNCTION {s}.{GRANT}(who text, tbl text, rights text[], give boolean)",
        "RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$",
        "DECLARE r record; one text;",
        "BEGIN",
        f"  IF NOT pg_has_role(session_user, '{ADMIN}', 'MEMBER') THEN",
        "    RAISE EXCEPTION 'only an administrator of BatchDesk grants rights' USING ERRCODE = '42501';",
        "  END IF;",
        "  SELECT oid, rolsuper INTO r FROM pg_roles WHERE rolname = who;",
        "  IF NOT FOUND OR r.rolsuper OR NOT EXISTS (",
        f"      SELECT 1 FROM pg_auth_members m WHERE m.roleid = to_regrole('{CLERK}') AND m.member = r.oid) THEN",
        "    RAISE EXCEPTION 'no BatchDesk login %', who USING ERRCODE = '42704';",
        "  END IF;",
        "  IF NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace",
        f"                 WHERE n.nspname = {ls} AND c.relname = tbl AND c.relkind IN ('r', 'p')) THEN",
        f"    RAISE EXCEPTION 'no table % in the schema %', tbl, {ls} USING ERRCODE = '42P01';",
        "  END IF;",
        f"  IF tbl = ANY (ARRAY[{own_literals}]) THEN",
        "    RAISE EXCEPTION '% is BatchDesk''s own table, not an import type''s', tbl USING ERRCODE = '42501';",
        "  END IF;",
        "  FOREACH one IN ARRAY rights LOOP",
        f"    IF one IS NULL OR NOT one = ANY (ARRAY[{', '.join(literal(r) for r in RIGHTS)}]) THEN",
        "      RAISE EXCEPTION 'not a right: %', one USING ERRCODE = '22023';",
        "    END IF;",
        "  END LOOP;",
        "  IF give THEN",
        f"    EXECUTE format('GRANT %s ON %I.%I TO %I', array_to_string(rights, ', '), {ls}, tbl, who);",
        "  ELSE",
        f"    EXECUTE format('REVOKE %s ON %I.%I FROM %I', array_to_string(rights, ', '), {ls}, tbl, who);",
        "  END IF;",
        "END $fn$;",
        f"REVOKE ALL ON FUNCTION {functions} FROM PUBLIC;",
        f"GRANT EXECUTE ON FUNCTION {functions} TO {ADMIN};",
    ]
    return "\n".join(out) + "\n"


class PostgresTeam:
    """Team mode on PostgreSQL (store/dialects/base.py TeamSecurity)."""

    def login(self, conn: Connection) -> TeamLogin | None:
        row = conn.execute(_LOGIN, {"admin": ADMIN, "tasks": tasks.name}).one()
        if not (row.roles and row.secured):
            return None
        return TeamLogin(str(row.name), bool(row.is_admin))

    def script(self, conn: Connection) -> str:
        schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        return render(str(schema))

    def owners_without_role(self, conn: Connection) -> list[str]:
        found = conn.execute(
            text(
                "SELECT who FROM (SELECT creator AS who FROM tasks UNION SELECT creator FROM tasks_archive "
                "UNION SELECT owner FROM feeds) o "
                f"WHERE NOT ({_NO_ROLE}) AND NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who) ORDER BY who"
            )
        )
        return [str(w) for w in found.scalars()]

    def secure(self, conn: Connection) -> None:
        script = self.script(conn)
        # the DBAPI cursor itself, no parameters: format()'s %I and %L reach the server as written
        import psycopg

        cursor = conn.connection.cursor()
        try:
            cursor.execute(script)
        except psycopg.Error as exc:  # as SQLAlchemy's own error, which store/db_errors reads
            raise DBAPIError.instance(script, None, exc, psycopg.Error) from exc
        finally:
            cursor.close()

    def add_user(self, conn: Connection, name: str, password: str, *, admin: bool) -> bool:
        call = text(f"SELECT {ADD_USER}(:who, :secret, :admin)")
        return bool(conn.execute(call, {"who": name, "secret": password, "admin": admin}).scalar_one())

    def grant(self, conn: Connection, name: str, table: str, rights: tuple[Right, ...], *, give: bool) -> None:
        call = text(f"SELECT {GRANT}(:who, :tbl, CAST(:rights AS text[]), :give)")
        conn.execute(call, {"who": name, "tbl": table, "rights": [r.value for r in rights], "give": give})

    def users(self, conn: Connection, tables: Mapping[str, str]) -> list[TeamUser]:
        rows = conn.execute(
            text(
                "SELECT r.rolname AS name, r.rolcanlogin AS can_login, pg_has_role(r.oid, :admin, 'MEMBER') AS "
                "is_admin FROM pg_roles r WHERE NOT r.rolsuper AND r.rolname NOT IN (:clerk, :admin) "
                "AND pg_has_role(r.oid, :clerk, 'MEMBER') ORDER BY r.rolname"
            ),
            {"admin": ADMIN, "clerk": CLERK},
        ).all()
        existing = {
            kind: table
            for kind, table in tables.items()
            if conn.execute(text("SELECT to_regclass(:t) IS NOT NULL"), {"t": regclass_text(table)}).scalar_one()
        }
        ask = text("SELECT has_table_privilege(:who, to_regclass(:t), :right)")
        out = []
        for row in rows:
            rights = {
                kind: tuple(r for r in Right if conn.execute(ask, {"who": row.name, "t": regclass_text(table),
                                                                   "right": r.value}).scalar_one())
                for kind, table in existing.items()
            }  # fmt: skip
            out.append(TeamUser(str(row.name), bool(row.can_login), bool(row.is_admin), rights))
        return out

    def may(self, conn: Connection, table: str, right: Right) -> bool | None:
        answer = conn.execute(_MAY, {"t": regclass_text(table), "r": right.value}).scalar_one()
        return None if answer is None else bool(answer)


TEAM = PostgresTeam()
