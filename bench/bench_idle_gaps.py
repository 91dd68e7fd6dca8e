"""The longest time a live desk leaves a transaction idle between statements, as the server sees it.

Run from the repository root:
    .venv/bin/python bench/bench_idle_gaps.py [--rows 100000] [--backends postgresql mariadb]

Per server, on a fresh schema: a bulk import of the rows; the same codes again with other values and
--force (every bulk batch refused, then validated again row by row inside its transaction: the
longest gap the bulk path makes); an export of the table (PostgreSQL streams it on a server-side
cursor, idle between fetches). A sampler polls the server every 20 ms for BatchDesk's sessions idle
inside a transaction (PostgreSQL pg_stat_activity 'idle in transaction' since state_change; MariaDB a
sleeping connection with an open InnoDB transaction, its TIME_MS) and keeps the longest. The figure is
what store/db.IDLE_FLOOR_S must stay well above.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from machine import machine_line  # noqa: E402
from make_customers import make  # noqa: E402

PG_URL = os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test")
PG_IDLE = ("SELECT COALESCE(MAX(EXTRACT(EPOCH FROM now() - state_change)), 0) FROM pg_stat_activity "
           "WHERE application_name = :n AND state = 'idle in transaction'")  # fmt: skip
MARIADB_IDLE = ("SELECT COALESCE(MAX(p.TIME_MS), 0) / 1000 FROM information_schema.processlist p "
                "JOIN information_schema.innodb_trx t ON t.trx_mysql_thread_id = p.ID "
                "WHERE p.DB = :n AND p.COMMAND = 'Sleep'")  # fmt: skip


class Sampler(threading.Thread):
    def __init__(self, admin_url: str, sql: str, name: str) -> None:
        super().__init__(daemon=True)
        self.engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        self.sql, self.name = sql, name
        self.longest = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        with self.engine.connect() as conn:
            while not self.done.is_set():
                self.longest = max(self.longest, float(conn.execute(text(self.sql), {"n": self.name}).scalar() or 0))
                time.sleep(0.02)

    def stop(self) -> float:
        self.done.set()
        self.join(10)
        self.engine.dispose()
        return self.longest


def _cli(url: str, home: Path, *args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-m", "desktop_app", *args, "--wait", "--json", "--db", url],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(home)},
                         capture_output=True, text=True, check=False)  # fmt: skip
    return dict(json.loads(out.stdout)) if out.stdout.strip() else {"error": out.stderr[-500:]}


def measure(backend: str, rows: int, work: Path) -> dict[str, object]:
    name = "bd_gaps_" + secrets.token_hex(4)
    admin_url = PG_URL if backend == "postgresql" else MYSQL_URL
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {name}" if backend == "postgresql" else f"CREATE DATABASE {name}"))
    if backend == "postgresql":
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={name}", "application_name": name})
    else:
        url = make_url(MYSQL_URL).set(database=name).update_query_dict({"charset": "utf8mb4"})
    db = url.render_as_string(hide_password=False)
    first, again = make(work / f"{backend}-a.csv", rows), make(work / f"{backend}-b.csv", rows, seed=7)
    figures: dict[str, object] = {"backend": backend, "rows": rows}
    try:
        for step, args in (("bulk import", ["import", str(first), "--type", "customers"]),
                           ("refused batches", ["import", str(again), "--type", "customers", "--force"]),
                           ("export", ["export", "customers"])):  # fmt: skip
            sampler = Sampler(admin_url, PG_IDLE if backend == "postgresql" else MARIADB_IDLE, name)
            sampler.start()
            started = time.monotonic()
            result = _cli(db, work / "home", *args)
            took = round(time.monotonic() - started, 1)
            figures[step] = {"longest idle in a transaction (s)": round(sampler.stop(), 2), "took (s)": took,
                             "status": result.get("status")}  # fmt: skip
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP SCHEMA {name} CASCADE" if backend == "postgresql" else f"DROP DATABASE {name}"))
        admin.dispose()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--backends", nargs="+", default=["postgresql", "mariadb"])
    args = parser.parse_args()
    print(machine_line(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends:
            print(json.dumps(measure(backend, args.rows, Path(tmp)), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
