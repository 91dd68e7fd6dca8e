"""Table definitions (SQLAlchemy Core): the task table and the built-in business tables."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects import mysql, sqlite

metadata = MetaData()

# BIGINT on servers, INTEGER on SQLite so the id is the rowid alias that autoincrements.
Id = BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
# Microseconds on MySQL/MariaDB (the default DATETIME drops them).
Stamp = DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
# Each table says mysql_charset="utf8mb4": on MySQL/MariaDB, Chinese text needs it whatever the
# database's default character set is.

tasks = Table(
    "tasks",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("task_no", String(32), nullable=False, unique=True),
    Column("task_type", String(40), nullable=False),
    Column("lane", String(10), nullable=False, server_default="long"),
    Column("biz_key", String(128), nullable=True, index=True),
    # Holds biz_key only while the task is pending or running, NULL after: the unique index makes
    # "one active task per file" a database rule that works on SQLite, PostgreSQL and MySQL alike.
    Column("active_key", String(128), nullable=True, unique=True),
    Column("params", JSON, nullable=False),
    Column("status", String(24), nullable=False),
    Column("progress", Integer, nullable=False, server_default="0"),
    Column("stage", String(200), nullable=False, server_default=""),
    Column("total_count", Integer, nullable=False, server_default="0"),
    Column("success_count", Integer, nullable=False, server_default="0"),
    Column("fail_count", Integer, nullable=False, server_default="0"),
    Column("result_path", String(1024), nullable=True),
    Column("error_code", String(64), nullable=True),
    Column("error_msg", String(2000), nullable=True),
    # stage and error_msg as catalogue code and params, NULL for plain text (migration 0007): shown in the
    # language in use, not the one the task ran in
    Column("stage_phrase", JSON(none_as_null=True), nullable=True),
    Column("error_phrase", JSON(none_as_null=True), nullable=True),
    Column("creator", String(128), nullable=False, server_default=""),
    Column("owner", String(200), nullable=True),
    # the desk whose files the task reads and writes; NULL: any desk may run it (migration 0003)
    Column("host", String(80), nullable=True),
    Column("attempt", Integer, nullable=False, server_default="0"),
    # recoveries since the task last moved on (a batch further than any run before): the crash-loop count
    Column("recoveries", Integer, nullable=False, server_default="0"),
    Column("retries", Integer, nullable=False, server_default="0"),
    Column("cancel_requested", Boolean, nullable=False, server_default="0"),
    Column("next_run_at", Stamp, nullable=True),
    Column("checkpoint", JSON, nullable=True),
    Column("summary", JSON, nullable=True),
    # a later task's mark on this one (migration 0008; domain/task.py TaskLink): the undo that took its
    # rows back, the import that continues it, the export whose file replaced its file
    Column("undone_by", String(32), nullable=True),
    Column("resumed_by", String(32), nullable=True),
    Column("replaced_by", String(32), nullable=True),
    # the import that committed this dry run's change plan (migration 0012); set once
    Column("applied_by", String(32), nullable=True),
    # a workbook's sheet: the workbook task it belongs to (migration 0012); NULL for every other task
    Column("parent", String(32), nullable=True),
    Column("started_at", Stamp, nullable=True),
    Column("ended_at", Stamp, nullable=True),
    Column("heartbeat_at", Stamp, nullable=True),
    Column("created_at", Stamp, nullable=False),
    Column("updated_at", Stamp, nullable=False),
    Index("ix_tasks_claim", "status", "lane", "id"),
    Index("ix_tasks_created", "created_at"),
    Index("ix_tasks_updated", "updated_at"),  # the window asks "what changed since" every few seconds
    Index("ix_tasks_creator", "creator", "id"),  # a clerk's own tasks, newest first (migration 0005)
    Index("ix_tasks_parent", "parent"),  # a workbook's sheets (migration 0012)
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# Final tasks the daily clean-up moved out of the task table after the retention period (seed 000 §6,
# migration 0005): the same columns, so a row moves over unchanged and reads back as a TaskRecord. A
# column added to `tasks` is added here in the same migration (test_migrations compares the two).
tasks_archive = Table(
    "tasks_archive",
    metadata,
    *(
        Column(c.name, c.type, primary_key=c.primary_key, autoincrement=False, nullable=c.nullable)
        for c in tasks.columns
    ),
    Index("ix_tasks_archive_task_no", "task_no", unique=True),
    Index("ix_tasks_archive_creator", "creator", "id"),
    Index("ix_tasks_archive_biz_key", "biz_key"),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# The administrators of a shared database (migration 0005): they see and manage every clerk's tasks.
# `first_key` is "first" on the row that named the first administrator, NULL on the others: the unique
# index lets only one such row exist, so two desks naming "the first" at once cannot both succeed.
admins = Table(
    "batchdesk_admins",
    metadata,
    Column("name", String(128), primary_key=True),
    Column("added_by", String(128), nullable=False),
    Column("added_at", Stamp, nullable=False),
    Column("first_key", String(8), nullable=True, unique=True),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# Feeds, watched folders (migration 0010; docs/FEEDS.md): one row per feed. `name_key` is the name
# folded to lower case: one feed per name on every database (MySQL's collation folds case, the others'
# do not). `reason` is a stored phrase (kind, code, params) saying why it is offline or blocked.
feeds = Table(
    "feeds",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("name", String(100), nullable=False),
    Column("name_key", String(100), nullable=False, unique=True),
    Column("folder", String(1000), nullable=False),
    Column("pattern", String(400), nullable=False),
    Column("import_type", String(100), nullable=False),
    Column("profile", String(200), nullable=True),
    Column("mode", String(20), nullable=False, server_default="insert"),
    Column("settle_seconds", Integer, nullable=False, server_default="10"),
    Column("every_seconds", Integer, nullable=True),
    Column("at_times", String(200), nullable=True),
    Column("in_order", Boolean, nullable=False, server_default="0"),
    Column("leave_files", Boolean, nullable=False, server_default="0"),
    Column("owner", String(128), nullable=False),
    # the desk whose folder it is (its scans and imports run there); NULL: a network folder any desk reaches
    Column("host", String(80), nullable=True),
    Column("paused", Boolean, nullable=False, server_default="0"),
    Column("state", String(20), nullable=False, server_default="new"),
    Column("reason", JSON(none_as_null=True), nullable=True),
    # `feed run` adds one; a scan that looked at the folder notes the count it saw: more asked since means
    # a look now
    Column("run_requests", Integer, nullable=False, server_default="0"),
    Column("runs_seen", Integer, nullable=False, server_default="0"),
    Column("next_look_at", Stamp, nullable=True),
    Column("last_scan_at", Stamp, nullable=True),
    Column("last_look_at", Stamp, nullable=True),
    Column("created_at", Stamp, nullable=False),
    Column("updated_at", Stamp, nullable=False),
    # who is mailed when one of its files' imports fails or has failed rows: addresses, comma-separated
    # (migration 0011); NULL: nobody
    Column("mail_to", String(2000), nullable=True),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# The files a feed saw, one row per version of a file (its size and time; a file changed under the same
# name is a new row). `claim` holds the file's SHA-256 on the one row that imports those bytes for the
# feed: the unique index makes "each file of a feed once" a rule of the database, whichever desk scans.
# `move_to` and `note_to` are where the file and its note go, written before the move (a crash finishes
# it). `in_folder`: the file is (as far as the feed knows) still in the feed's folder.
feed_files = Table(
    "feed_files",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("feed_id", BigInteger, nullable=False),
    Column("name", String(400), nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("mtime_ns", BigInteger, nullable=False),
    Column("first_seen_at", Stamp, nullable=False),
    Column("sha256", String(64), nullable=True),
    Column("claim", String(64), nullable=True),
    Column("state", String(12), nullable=False),
    Column("outcome", String(12), nullable=True),
    Column("task_no", String(32), nullable=True),
    Column("duplicate_of", String(32), nullable=True),
    Column("tries", Integer, nullable=False, server_default="0"),
    Column("in_folder", Boolean, nullable=False, server_default="1"),
    Column("move_to", String(1000), nullable=True),
    Column("note_to", String(1000), nullable=True),
    Column("moved_to", String(1000), nullable=True),
    Column("problem", JSON(none_as_null=True), nullable=True),
    Column("day", String(10), nullable=True),
    Column("created_at", Stamp, nullable=False),
    Column("updated_at", Stamp, nullable=False),
    UniqueConstraint("feed_id", "claim", name="uq_feed_files_claim"),
    Index("ix_feed_files_present", "feed_id", "in_folder"),
    Index("ix_feed_files_state", "feed_id", "state"),
    Index("ix_feed_files_day", "feed_id", "day"),
    Index("ix_feed_files_task", "task_no"),  # which feed's file a task imported (the window's notices; 0011)
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

departments = Table(
    "departments",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("name", String(100), nullable=False, unique=True),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# No surrogate id and no index on task_no (migration 0006): rows are found by their unique key.
customers = Table(
    "customers",
    metadata,
    Column("code", String(16), nullable=False, unique=True),
    Column("name", String(50), nullable=False),
    Column("phone", String(11), nullable=False),
    Column("email", Text, nullable=True),
    Column("level", String(10), nullable=False, server_default="standard"),
    Column("opened_on", Date, nullable=True),
    Column("credit_limit", Numeric(12, 2), nullable=False, server_default="0"),
    Column("department", Text, nullable=True),
    Column("department_id", Id, nullable=True),
    Column("note", String(200), nullable=True),
    Column("task_no", String(32), nullable=True),
    Column("import_row", Integer, nullable=True),
    Column("import_sig", String(16), nullable=True),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# Which rows an import wrote and what it replaced (migration 0004): undo and duplicate look-ups.
import_rows = Table(
    "import_rows",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("task_no", String(32), nullable=False),
    Column("key_text", String(700), nullable=False),
    Column("row_number", Integer, nullable=False),
    Column("action", String(10), nullable=False),
    Column("data", Text, nullable=True),
    UniqueConstraint("task_no", "key_text", name="uq_import_rows_task_key"),
    Index("ix_import_rows_task", "task_no", "id"),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# A task's error CSV and change file kept in the shared database (migration 0013; store/task_files.py,
# docs/TEAM.md): the owner (and an administrator) opens them from any desk, under the same rules as the
# task's row (team mode: row-level security, or MariaDB's views). One row per task and kind; `creator` is
# the task's. The content is in `task_file_chunks`, ~1 MB of zlib-compressed bytes a row: no statement
# nears MariaDB's max_allowed_packet, and a file is written and read as a stream.
task_files = Table(
    "task_files",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("task_no", String(32), nullable=False),
    Column("kind", String(10), nullable=False),
    Column("name", String(400), nullable=False),
    Column("creator", String(128), nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("chunks", Integer, nullable=False),
    Column("stored_at", Stamp, nullable=False),
    UniqueConstraint("task_no", "kind", name="uq_task_files_task_kind"),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# MEDIUMBLOB on MySQL/MariaDB (BLOB stops at 64 KB); bytea on PostgreSQL.
Chunk = LargeBinary().with_variant(mysql.MEDIUMBLOB(), "mysql", "mariadb")

task_file_chunks = Table(
    "task_file_chunks",
    metadata,
    Column("file_id", BigInteger, nullable=False),
    Column("chunk_no", Integer, nullable=False),
    Column("data", Chunk, nullable=False),
    PrimaryKeyConstraint("file_id", "chunk_no", name="pk_task_file_chunks"),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# The business tables BatchDesk created (it may add columns to these, never to a company's own).
business_tables = Table(
    "business_tables",
    metadata,
    Column("name", String(200), primary_key=True),
    Column("import_type", String(100), nullable=False),
    Column("created_at", Stamp, nullable=False, server_default=func.current_timestamp()),
    # JSON, column -> characters: no stored text of the column is longer (migration 0014; NULL: unknown)
    Column("text_bounds", Text, nullable=True),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# Mapping profiles (migration 0009; store/profiles.py, docs/PROFILES.md), shared by a team's desks. A name
# is one row (its latest version, whether it was removed); each saved version is a row of its own, never
# changed nor deleted, so a task that names a version reads it as it was. `name_key` is the name folded
# (NFKC, case-folded): compared byte for byte on every database (MySQL/MariaDB: a binary collation, where
# the table's own would also take accents as equal).
NameKey = String(100).with_variant(mysql.VARCHAR(100, collation="utf8mb4_bin"), "mysql", "mariadb")
# A version's content, the profile file's tables as JSON text: written and read back as it was (a JSON
# column would reorder its keys on MySQL); MEDIUMTEXT on MySQL/MariaDB, whose TEXT stops at 64 KB.
ProfileText = Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")

profiles = Table(
    "batchdesk_profiles",
    metadata,
    Column("name_key", NameKey, primary_key=True),
    Column("name", String(100), nullable=False),
    Column("import_type", String(100), nullable=False),
    Column("latest_version", Integer, nullable=False),
    Column("removed_at", Stamp, nullable=True),
    Column("removed_by", String(128), nullable=True),
    Column("updated_at", Stamp, nullable=False),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

profile_versions = Table(
    "batchdesk_profile_versions",
    metadata,
    Column("name_key", NameKey, nullable=False),
    Column("version", Integer, nullable=False),
    Column("name", String(100), nullable=False),
    Column("import_type", String(100), nullable=False),
    Column("content", ProfileText, nullable=False),
    Column("saved_by", String(128), nullable=False),
    Column("saved_at", Stamp, nullable=False),
    PrimaryKeyConstraint("name_key", "version", name="pk_batchdesk_profile_versions"),
    mysql_charset="utf8mb4",
    mysql_collate="utf8mb4_unicode_ci",
)

# Team mode (store/team_sql, docs/TEAM.md): the tables whose rows hold a clerk's tasks and feeds, each row
# kept to its owner by the server; and the built-in import type's table, whose rights an administrator
# grants to each login (`admin grant NAME customers --insert`) like any other type's.
OWNED_ROWS = (tasks, tasks_archive, import_rows, feeds, feed_files, task_files, task_file_chunks)
BUSINESS = (customers,)


def own_tables() -> list[Table]:
    """BatchDesk's own tables, every clerk's desk reads and writes them (the owned rows kept to their
    owners); the administrators' table of the shared login era is read only (team mode asks the server)."""
    return [t for t in metadata.sorted_tables if t not in BUSINESS and t is not admins]


SEEDED_DEPARTMENTS = ("销售部", "市场部", "财务部", "人事部", "技术部", "客服部", "采购部", "物流部")
