"""Team mode on MariaDB: every statement of it in this one module (docs/TEAM.md shows the script).

MariaDB has no row-level security. `admin secure` moves BatchDesk's own tables into a database of their own
(`<db>_own`, which no clerk is granted anything on) and puts in their place, under the same names in `<db>`,
views that are `SQL SECURITY DEFINER` (owned by the account that secures) and keep to the caller's rows:
`creator = SUBSTRING_INDEX(USER(), '@', 1)` (inside such a view CURRENT_USER() is the definer; USER() is
the client's login), or every row for an administrator (one named in `<db>_own.batchdesk_team_admins`,
which `admin add-user --admin` writes: a caller's roles cannot be read inside a DEFINER view), `WITH
CASCADED CHECK OPTION` so that no INSERT or UPDATE through a view writes a row of another's. The desks keep
their URL and the application its table names; the import types' tables stay real tables of `<db>`, granted
per account (`admin grant`), so the bulk loader and the reflection of their keys are as before. Names are
quoted by QUOTE() and backticks on the server, by SQLAlchemy's preparer here; never pasted into SQL.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, text
from sqlalchemy.dialects import mysql
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.errors import ErrorCode, PermanentError
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
)

CLERK = "batchdesk_clerk"
ADMIN = "batchdesk_admin"
ADMINS = "batchdesk_team_admins"  # in <db>_own: who administers (add-user --admin); read by the views
TEAM = "batchdesk_team"  # a view: the caller's login and whether it administers (detection)
USERS = "batchdesk_team_users"  # a view for administrators: the clerks' accounts
RIGHTS_VIEW = "batchdesk_team_rights"  # a view for administrators: the accounts' grants on <db>'s tables
ADD_USER = "batchdesk_add_user"
GRANT = "batchdesk_grant"
OWN_SUFFIX = "_own"
RIGHTS = tuple(r.value for r in Right)
NO_SUCH_GRANT = 1147
DENIED = 1142
NO_TABLE = 1146
ACCESS = 1227  # "access denied; you need ... privilege": PERMISSION_DENIED to store/db_errors
_PREPARER = mysql.dialect().identifier_preparer

ME = "SUBSTRING_INDEX(USER(), '@', 1)"  # the client's login (CURRENT_USER() is the definer in a view)


def is_me(column: str) -> str:
    """The row's owner column names the caller, byte for byte: account names are case-sensitive, and the
    tables' collation is not (the first comparison keeps the column's index in use)."""
    return f"({column} = {ME} AND CAST({column} AS BINARY) = CAST({ME} AS BINARY))"


# Whose row it is, per table: tasks and feeds by their owner column; an import's row images through their
# task; a feed's files through their feed. {o}: the database of the tables.
OWNER_OF = {
    "tasks": is_me("creator"),
    "tasks_archive": is_me("creator"),
    feeds.name: is_me("owner"),
    import_rows.name: (
        f"EXISTS (SELECT 1 FROM {{o}}.tasks t WHERE t.task_no = import_rows.task_no AND {is_me('t.creator')}) "
        "OR EXISTS (SELECT 1 FROM {o}.tasks_archive a WHERE a.task_no = import_rows.task_no "
        f"AND {is_me('a.creator')})"
    ),
    feed_files.name: f"EXISTS (SELECT 1 FROM {{o}}.feeds f WHERE f.id = feed_files.feed_id AND {is_me('f.owner')})",
    # a task's error CSV and change file by their creator (the task's); their chunks through their file
    task_files.name: is_me("creator"),
    task_file_chunks.name: (
        f"EXISTS (SELECT 1 FROM {{o}}.task_files f WHERE f.id = task_file_chunks.file_id AND {is_me('f.creator')})"
    ),
}
assert set(OWNER_OF) == {t.name for t in OWNED_ROWS}, "each table of OWNED_ROWS needs its view's filter"

# Account names MariaDB would refuse or that are the server's own: such an owner name gets no account; its
# tasks stay, readable by an administrator.
_NO_ACCOUNT = (
    "who IS NULL OR who = '' OR CHAR_LENGTH(who) > 80 OR who LIKE '%@%' "
    f"OR LOWER(who) IN ('root', 'mariadb.sys', 'mysql', 'public', 'none', '{CLERK}', '{ADMIN}')"
)


def quote(name: str) -> str:
    """An identifier as MariaDB reads it back unchanged (backticks where they are needed)."""
    return _PREPARER.quote(name)


def literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


def own_database(database: str) -> str:
    """The database `admin secure` moves BatchDesk's own tables to (no clerk has any right on it)."""
    return database + OWN_SUFFIX


def _signal(message: str, *, state: str = "42000", number: int = ACCESS) -> str:
    """A stored program's refusal, in words (the error number: store/db_errors reads it)."""
    return f"    SIGNAL SQLSTATE '{state}' SET MYSQL_ERRNO = {number}, MESSAGE_TEXT = {literal(message)};\n"


def statements(database: str) -> list[str]:
    """The whole script for `database` (the one BatchDesk's tables are in), one statement a string; a
    compound statement (BEGIN NOT ATOMIC ... END, a procedure) is one string. Comments start with --."""
    d, o = quote(database), quote(own_database(database))
    ld = literal(database)
    backticked = "`" + database.replace("`", "``") + "`"
    own = [t.name for t in own_tables()]
    read_only = [admins.name, "alembic_version"]
    owned = {t.name for t in OWNED_ROWS}
    is_admin = f"EXISTS (SELECT 1 FROM {o}.{ADMINS} adm WHERE adm.name = {ME})"
    reserved = ", ".join(literal(t) for t in [*own, *read_only, TEAM, USERS, RIGHTS_VIEW])
    member = (
        "EXISTS (SELECT 1 FROM mysql.roles_mapping m WHERE m.User = g.User AND m.Host = g.Host "
        f"AND m.Role IN ('{CLERK}', '{ADMIN}'))"
    )
    # an account that is a clerk's and nothing more: no global right, no right on a whole database, no
    # role but BatchDesk's (and no role itself: a role's Host is empty)
    plain = (
        "COALESCE(JSON_VALUE(g.Priv, '$.access'), 0) = 0 AND g.Host <> '' "
        "AND NOT EXISTS (SELECT 1 FROM mysql.db x WHERE x.User = g.User AND x.Host = g.Host) "
        "AND NOT EXISTS (SELECT 1 FROM mysql.roles_mapping r WHERE r.User = g.User AND r.Host = g.Host "
        f"AND r.Role NOT IN ('{CLERK}', '{ADMIN}'))"
    )
    account = "CONCAT(QUOTE(who), '@', QUOTE(host))"
    one_right = "(" + "|".join(RIGHTS) + ")"
    out = [
        f"-- BatchDesk team mode for the database {database} (docs/TEAM.md). Run it as root (or an account with",
        "-- every global right, WITH GRANT OPTION); running it again changes nothing. MariaDB commits each",
        "-- statement that changes the schema on its own: a script stopped halfway is run again to finish.",
        "",
        "-- 1. The roles: every clerk's account has batchdesk_clerk as its default role; an administrator's",
        "--    batchdesk_admin, which holds batchdesk_clerk too.",
        f"CREATE ROLE IF NOT EXISTS {CLERK}",
        f"CREATE ROLE IF NOT EXISTS {ADMIN}",
        f"GRANT {CLERK} TO {ADMIN}",
        "",
        f"-- 2. BatchDesk's own tables move to {own_database(database)}, where no clerk has any right; who",
        "--    administers BatchDesk is kept there too (whoever secures does).",
        f"CREATE DATABASE IF NOT EXISTS {o}",
        f"CREATE TABLE IF NOT EXISTS {o}.{ADMINS} (name VARCHAR(128) NOT NULL PRIMARY KEY, "
        "added_by VARCHAR(128) NOT NULL, added_at DATETIME NOT NULL) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
        f"INSERT IGNORE INTO {o}.{ADMINS} (name, added_by, added_at) VALUES ({ME}, {ME}, UTC_TIMESTAMP())",
    ]
    for table in [*own, *read_only]:
        out.append(
            "BEGIN NOT ATOMIC\n"
            f"  IF EXISTS (SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = {ld} "
            f"AND TABLE_NAME = {literal(table)} AND TABLE_TYPE = 'BASE TABLE') THEN\n"
            f"    RENAME TABLE {d}.{quote(table)} TO {o}.{quote(table)};\n"
            "  END IF;\n"
            "END"
        )
    out += [
        "",
        "-- 3. In their place, views of the same names (the desks' SQL is unchanged): each clerk's rows are",
        "--    theirs alone (an administrator sees all), and WITH CASCADED CHECK OPTION refuses a row written",
        "--    through a view that the view would not show. Mapping profiles, departments and business_tables",
        "--    are the team's; the old administrators' table and the schema's version are read only.",
    ]
    for table in [*own, *read_only]:
        name = quote(table)
        where = ""
        if table in owned:
            mine = OWNER_OF[table].replace("{o}", o)
            where = f" WHERE {mine} OR {is_admin} WITH CASCADED CHECK OPTION"
        out.append(
            f"CREATE OR REPLACE ALGORITHM = MERGE DEFINER = CURRENT_USER SQL SECURITY DEFINER VIEW {d}.{name} "
            f"AS SELECT * FROM {o}.{name}{where}"
        )
    out += [
        f"CREATE OR REPLACE DEFINER = CURRENT_USER SQL SECURITY DEFINER VIEW {d}.{TEAM} AS "
        f"SELECT {ME} AS name, {is_admin} AS is_admin",
        f"CREATE OR REPLACE DEFINER = CURRENT_USER SQL SECURITY DEFINER VIEW {d}.{USERS} AS "
        "SELECT g.User AS name, g.Host AS host, "
        "COALESCE(JSON_VALUE(g.Priv, '$.account_locked'), 'false') NOT IN ('true', '1') AS can_login, "
        f"EXISTS (SELECT 1 FROM {o}.{ADMINS} adm WHERE adm.name = g.User) AS is_admin "
        f"FROM mysql.global_priv g WHERE {plain} AND {member}",
        f"CREATE OR REPLACE DEFINER = CURRENT_USER SQL SECURITY DEFINER VIEW {d}.{RIGHTS_VIEW} AS "
        f"SELECT User AS name, Table_name AS tbl, Table_priv AS privs FROM mysql.tables_priv WHERE Db = {ld}",
        "",
        "-- 4. What a clerk's desk reads and writes: the views (never the tables). The import types' tables",
        "--    are granted per account: `batchdesk admin grant NAME TYPE --insert`.",
    ]
    out += [f"GRANT SELECT, INSERT, UPDATE, DELETE, SHOW VIEW ON {d}.{quote(t)} TO {CLERK}" for t in own]
    out += [f"GRANT SELECT ON {d}.{quote(t)} TO {CLERK}" for t in [*read_only, TEAM]]
    out += [f"GRANT SELECT ON {d}.{quote(t)} TO {ADMIN}" for t in (USERS, RIGHTS_VIEW)]
    out += [
        "",
        "-- 5. Each name that owns tasks or feeds already gets an account (locked) to claim: an administrator",
        "--    gives it a password with `batchdesk admin add-user NAME`. Every task is kept.",
        "BEGIN NOT ATOMIC\n"
        "  DECLARE who VARCHAR(512);\n"
        "  DECLARE done INT DEFAULT 0;\n"
        f"  DECLARE owners CURSOR FOR SELECT creator FROM {o}.tasks UNION SELECT creator FROM {o}.tasks_archive\n"
        f"    UNION SELECT owner FROM {o}.feeds;\n"
        "  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;\n"
        "  OPEN owners;\n"
        "  each_owner: LOOP\n"
        "    FETCH owners INTO who;\n"
        "    IF done THEN LEAVE each_owner; END IF;\n"
        f"    IF NOT ({_NO_ACCOUNT}) "
        "AND NOT EXISTS (SELECT 1 FROM mysql.global_priv WHERE CAST(User AS BINARY) = CAST(who AS BINARY)) THEN\n"
        "      BEGIN\n"
        "        DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;  -- a name the server refuses: no account\n"
        "        EXECUTE IMMEDIATE CONCAT('CREATE USER ', QUOTE(who), '@''%'' ACCOUNT LOCK');\n"
        f"        EXECUTE IMMEDIATE CONCAT('GRANT {CLERK} TO ', QUOTE(who), '@''%''');\n"
        f"        EXECUTE IMMEDIATE CONCAT('SET DEFAULT ROLE {CLERK} FOR ', QUOTE(who), '@''%''');\n"
        "      END;\n"
        "    END IF;\n"
        "  END LOOP;\n"
        "  CLOSE owners;\n"
        "END",
        "",
        "-- 6. What an administrator who has no global right may do, and only that: add a clerk's account (or",
        "--    claim an owner's), and grant or revoke rights on an import type's table of this database.",
        f"CREATE OR REPLACE DEFINER = CURRENT_USER PROCEDURE {d}.{ADD_USER}(IN who VARCHAR(128), IN secret TEXT, "
        "IN make_admin BOOLEAN)\n"
        "SQL SECURITY DEFINER\n"
        "BEGIN\n"
        "  DECLARE n INT;\n"
        "  DECLARE host VARCHAR(255);\n"
        "  DECLARE clerk INT;\n"
        f"  IF NOT {is_admin} THEN\n" + _signal("only an administrator of BatchDesk adds a login") + "  END IF;\n"
        f"  IF {_NO_ACCOUNT} THEN\n" + _signal("not a name for a BatchDesk login") + "  END IF;\n"
        "  SELECT COUNT(*), MIN(g.Host), "
        f"COALESCE(SUM({plain} AND {member}), 0) INTO n, host, clerk FROM mysql.global_priv g\n"
        "    WHERE CAST(g.User AS BINARY) = CAST(who AS BINARY);\n"
        "  IF n = 0 THEN\n"
        "    SET host = '%';\n"
        f"    EXECUTE IMMEDIATE CONCAT('CREATE USER ', {account}, ' IDENTIFIED BY ', QUOTE(secret));\n"
        f"    EXECUTE IMMEDIATE CONCAT('GRANT {CLERK} TO ', {account});\n"
        f"    EXECUTE IMMEDIATE CONCAT('SET DEFAULT ROLE {CLERK} FOR ', {account});\n"
        "  ELSEIF n > 1 OR clerk <> 1 THEN\n"
        + _signal("the account is not a BatchDesk clerk's: its DBA sets its password")
        + "  ELSE\n"
        f"    EXECUTE IMMEDIATE CONCAT('ALTER USER ', {account}, ' IDENTIFIED BY ', QUOTE(secret),\n"
        "      ' ACCOUNT UNLOCK');\n"
        "  END IF;\n"
        "  IF make_admin THEN\n"
        f"    EXECUTE IMMEDIATE CONCAT('GRANT {ADMIN} TO ', {account});\n"
        f"    EXECUTE IMMEDIATE CONCAT('SET DEFAULT ROLE {ADMIN} FOR ', {account});\n"
        f"    INSERT IGNORE INTO {o}.{ADMINS} (name, added_by, added_at)\n"
        f"      VALUES (who, {ME}, UTC_TIMESTAMP());\n"
        "  END IF;\n"
        "  SELECT n = 0 AS created;\n"
        "END",
        f"CREATE OR REPLACE DEFINER = CURRENT_USER PROCEDURE {d}.{GRANT}(IN who VARCHAR(128), IN tbl VARCHAR(64), "
        "IN rights VARCHAR(64), IN give BOOLEAN)\n"
        "SQL SECURITY DEFINER\n"
        "BEGIN\n"
        "  DECLARE n INT;\n"
        "  DECLARE host VARCHAR(255);\n"
        "  DECLARE clerk INT;\n"
        "  DECLARE target TEXT;\n"
        f"  IF NOT {is_admin} THEN\n" + _signal("only an administrator of BatchDesk grants rights") + "  END IF;\n"
        "  SELECT COUNT(*), MIN(g.Host), "
        f"COALESCE(SUM({plain} AND {member}), 0) INTO n, host, clerk FROM mysql.global_priv g\n"
        "    WHERE CAST(g.User AS BINARY) = CAST(who AS BINARY);\n"
        "  IF n <> 1 OR clerk <> 1 THEN\n" + _signal("no BatchDesk login of that name") + "  END IF;\n"
        f"  IF tbl IN ({reserved}) THEN\n"
        + _signal("that is BatchDesk's own table, not an import type's")
        + "  END IF;\n"
        f"  IF NOT EXISTS (SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = {ld} AND TABLE_NAME = tbl\n"
        "                 AND TABLE_TYPE = 'BASE TABLE') THEN\n"
        + _signal(f"no such table in the database {database}", state="42S02", number=NO_TABLE)
        + "  END IF;\n"
        f"  IF rights IS NULL OR rights NOT REGEXP BINARY '^{one_right}(,{one_right})*$' THEN\n"
        + _signal("not a right", state="22023")
        + "  END IF;\n"
        f"  SET target = CONCAT({literal(backticked)}, '.`', REPLACE(tbl, '`', '``'), '`');\n"
        "  IF give THEN\n"
        f"    EXECUTE IMMEDIATE CONCAT('GRANT ', REPLACE(rights, ',', ', '), ' ON ', target, ' TO ', {account});\n"
        "  ELSE\n"
        "    BEGIN\n"
        f"      DECLARE CONTINUE HANDLER FOR {NO_SUCH_GRANT} BEGIN END;  -- a right not held: nothing to take back\n"
        "      IF FIND_IN_SET('SELECT', rights) THEN\n"
        f"        EXECUTE IMMEDIATE CONCAT('REVOKE SELECT ON ', target, ' FROM ', {account});\n"
        "      END IF;\n"
        "      IF FIND_IN_SET('INSERT', rights) THEN\n"
        f"        EXECUTE IMMEDIATE CONCAT('REVOKE INSERT ON ', target, ' FROM ', {account});\n"
        "      END IF;\n"
        "      IF FIND_IN_SET('UPDATE', rights) THEN\n"
        f"        EXECUTE IMMEDIATE CONCAT('REVOKE UPDATE ON ', target, ' FROM ', {account});\n"
        "      END IF;\n"
        "      IF FIND_IN_SET('DELETE', rights) THEN\n"
        f"        EXECUTE IMMEDIATE CONCAT('REVOKE DELETE ON ', target, ' FROM ', {account});\n"
        "      END IF;\n"
        "    END;\n"
        "  END IF;\n"
        "END",
        f"GRANT EXECUTE ON PROCEDURE {d}.{ADD_USER} TO {ADMIN}",
        f"GRANT EXECUTE ON PROCEDURE {d}.{GRANT} TO {ADMIN}",
    ]
    return out


def render(database: str) -> str:
    """The script as the mysql client runs it (`mysql DB < secure.sql`): each statement ends with `;`, and
    the compound ones (their own `;` inside) between `DELIMITER //` and `DELIMITER ;`."""
    lines = []
    for one in statements(database):
        if not one or one.startswith("--"):
            lines.append(one)
        elif "\n" in one:
            lines += ["DELIMITER //", one + " //", "DELIMITER ;"]
        else:
            lines.append(one + ";")
    return "\n".join(lines) + "\n"


_DETECT = text(
    "SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() "
    f"AND TABLE_NAME IN ('tasks', '{TEAM}') AND SECURITY_TYPE = 'DEFINER'"
)


class MariaDBTeam:
    """Team mode on MariaDB (store/dialects/base.py TeamSecurity): DEFINER views in place of the tables."""

    def login(self, conn: Connection) -> TeamLogin | None:
        if conn.execute(_DETECT).scalar_one() != 2:
            return None
        row = conn.execute(text(f"SELECT name, is_admin, SUBSTRING_INDEX(CURRENT_USER(), '@', 1) AS account "
                                f"FROM {TEAM}")).one()  # fmt: skip
        if row.account != row.name:
            # the views know the client's login name (USER()); an account of another name (an anonymous
            # one, a proxy) would be taken for the clerk it names: no team work through it
            detail = f"the login {row.name} was let in as the account {row.account or '(anonymous)'}"
            raise PermanentError(ErrorCode.PERMISSION_DENIED, detail=detail)
        return TeamLogin(str(row.name), bool(row.is_admin))

    def script(self, conn: Connection) -> str:
        return render(self._database(conn))

    def _database(self, conn: Connection) -> str:
        database, ours = conn.execute(text("SELECT DATABASE(), VERSION() LIKE '%MariaDB%'")).one()
        if not ours:  # roles, EXECUTE IMMEDIATE, mysql.global_priv: MariaDB's, not MySQL's
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="team mode needs MariaDB (10.6 or newer), not MySQL")
        if database is None:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="the database URL names no database")
        moved = conn.execute(
            text("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = :t"),
            {"t": ADMINS},
        ).scalar_one()
        if moved:  # <db>_own: securing it would move the tables once more
            detail = f"{database} holds the tables a secured database moved; secure the database the desks use"
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=detail)
        return str(database)

    def owners_without_role(self, conn: Connection) -> list[str]:
        found = conn.execute(
            text(
                "SELECT who FROM (SELECT creator AS who FROM tasks UNION SELECT creator FROM tasks_archive "
                "UNION SELECT owner FROM feeds) o "
                f"WHERE NOT ({_NO_ACCOUNT}) AND NOT EXISTS (SELECT 1 FROM mysql.global_priv "
                "WHERE CAST(User AS BINARY) = CAST(who AS BINARY)) "
                "ORDER BY who"
            )
        )
        return [str(w) for w in found.scalars()]

    def secure(self, conn: Connection) -> None:
        # the DBAPI cursor itself, no parameters: the compound statements' text reaches the server as written
        import pymysql

        cursor = conn.connection.cursor()
        try:
            for one in statements(self._database(conn)):
                if one and not one.startswith("--"):
                    cursor.execute(one)
        except pymysql.Error as exc:  # as SQLAlchemy's own error, which store/db_errors reads
            raise DBAPIError.instance(one, None, exc, pymysql.Error) from exc
        finally:
            cursor.close()

    def add_user(self, conn: Connection, name: str, password: str, *, admin: bool) -> bool:
        call = text(f"CALL {ADD_USER}(:who, :secret, :admin)")
        return bool(conn.execute(call, {"who": name, "secret": password, "admin": admin}).scalar_one())

    def grant(self, conn: Connection, name: str, table: str, rights: tuple[Right, ...], *, give: bool) -> None:
        call = text(f"CALL {GRANT}(:who, :tbl, :rights, :give)")
        conn.execute(call, {"who": name, "tbl": table, "rights": ",".join(r.value for r in rights), "give": give})

    def users(self, conn: Connection, tables: Mapping[str, str]) -> list[TeamUser]:
        rows = conn.execute(text(f"SELECT name, can_login, is_admin FROM {USERS} ORDER BY name")).all()
        held: dict[tuple[str, str], set[str]] = {}
        for grant in conn.execute(text(f"SELECT name, tbl, privs FROM {RIGHTS_VIEW}")).all():
            held[(str(grant.name), str(grant.tbl))] = {p.upper() for p in str(grant.privs or "").split(",") if p}
        here = text(
            "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = :t"
        )
        existing = {
            kind: table
            for kind, table in tables.items()
            if "." not in table and conn.execute(here, {"t": table}).scalar_one()
        }
        out = []
        for row in rows:
            rights = {
                kind: tuple(r for r in Right if r.value in held.get((str(row.name), table), set()))
                for kind, table in existing.items()
            }
            out.append(TeamUser(str(row.name), bool(row.can_login), bool(row.is_admin), rights))
        return out

    def may(self, conn: Connection, table: str, right: Right) -> bool | None:
        # the server's own word on the login's rights (its roles, its grants on the database or table):
        # EXPLAIN checks a statement's privileges and runs nothing
        name = ".".join(quote(p) for p in table.split("."))
        if right is Right.UPDATE:
            column = self._a_column(conn, table)
            if column is None:
                return False
            probe = f"EXPLAIN UPDATE {name} SET {quote(column)} = {quote(column)} WHERE 1 = 0"
        else:
            probe = {
                Right.SELECT: f"EXPLAIN SELECT 1 FROM {name} WHERE 1 = 0",
                Right.INSERT: f"EXPLAIN INSERT INTO {name} () VALUES ()",
                Right.DELETE: f"EXPLAIN DELETE FROM {name} WHERE 1 = 0",
            }[right]
        try:
            conn.exec_driver_sql(probe).all()
        except DBAPIError as exc:
            number = exc.orig.args[0] if exc.orig is not None and exc.orig.args else None
            if number == NO_TABLE:
                return None
            if number in (DENIED, 1143):
                return False
            raise
        return True

    def _a_column(self, conn: Connection, table: str) -> str | None:
        schema, _, name = table.rpartition(".")
        found = conn.execute(
            text("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(:s, DATABASE()) "
                 "AND TABLE_NAME = :t ORDER BY ORDINAL_POSITION LIMIT 1"), {"s": schema or None, "t": name},
        ).scalar()  # fmt: skip
        return None if found is None else str(found)


TEAM_SECURITY = MariaDBTeam()
