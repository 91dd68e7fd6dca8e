"""The feeds and the files they saw (migration 0010): each change one conditional statement.

A file's row moves settling -> ready -> queued -> moving -> done; every step is an UPDATE conditional on
the state it leaves, so two scans of one feed at once (a recovered scan beside its successor, two desks)
each win a step or neither does, and a scan killed between two steps finds the file where it was.
`claim` (unique per feed) holds a file's SHA-256 on the one row that imports those bytes.
"""

from __future__ import annotations

import builtins
import datetime as dt
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

from sqlalchemy import Connection, Engine, delete, func, select, true, type_coerce, update
from sqlalchemy.exc import IntegrityError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.feeds import Feed, FeedFile, FeedSpec, FeedState, FileState, Outcome, Schedule
from desktop_app.store.db import READONLY
from desktop_app.store.dialects import dialect_of
from desktop_app.store.schema import Stamp, feed_files, feeds

log = logging.getLogger(__name__)

# the states of a file whose way is not over (a list's "waiting")
UNDER_WAY = (FileState.SETTLING, FileState.READY, FileState.QUEUED, FileState.MOVING)


_STATES = {s.value: s for s in FileState}


class FileRef(Protocol):
    """A file's row as far as a step needs it: its id."""

    @property
    def id(self) -> int: ...


class Brief(NamedTuple):
    """What a look compares of a file the feed believes is in its folder (a full row costs 20 times more
    to read: a folder of 10,000 files left in place is compared in a few tens of milliseconds)."""

    id: int
    name: str
    size: int
    mtime_ns: int
    state: FileState
    first_seen_at: dt.datetime


def name_key(name: str) -> str:
    """A feed's name as its unique key: folded to lower case (one feed per name on every database)."""
    return name.strip().casefold()


class FeedStore:
    """The feeds table and the feed_files table behind a narrow interface."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = dialect_of(engine)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
            yield conn

    def now(self, offset: float = 0.0) -> Any:
        return self.dialect.now(offset)

    def db_now(self) -> dt.datetime:
        """The database's clock now (UTC, naive), as the stamps it writes read."""
        with self.reading() as conn:
            value = conn.execute(select(type_coerce(self.now(), Stamp))).scalar_one()
        return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))

    # --- feeds ---------------------------------------------------------------------------

    def add(self, spec: FeedSpec, *, owner: str, host: str | None) -> Feed:
        """A new feed; FEED_EXISTS when one has the name already (whatever its case)."""
        values = {**_spec_values(spec), "name_key": name_key(spec.name), "owner": owner, "host": host,
                  "paused": False, "state": FeedState.NEW.value, "created_at": self.now(),
                  "updated_at": self.now()}  # fmt: skip
        try:
            with self.engine.begin() as conn:
                conn.execute(feeds.insert().values(**values))
        except IntegrityError:
            raise PermanentError(ErrorCode.FEED_EXISTS, name=spec.name) from None
        found = self.get(spec.name)
        assert found is not None
        log.info("feed %s added by %s: %s (%s)", spec.name, owner, spec.folder, spec.import_type)
        return found

    def get(self, name: str) -> Feed | None:
        with self.reading() as conn:
            row = conn.execute(select(feeds).where(feeds.c.name_key == name_key(name))).first()
        return _feed(row) if row else None

    def get_by_id(self, feed_id: int) -> Feed | None:
        with self.reading() as conn:
            row = conn.execute(select(feeds).where(feeds.c.id == feed_id)).first()
        return _feed(row) if row else None

    def list(self, *, owner: str | None = None) -> builtins.list[Feed]:
        """The feeds by name; with `owner`, only that user's."""
        query = select(feeds).order_by(feeds.c.name_key)
        if owner is not None:
            query = query.where(feeds.c.owner == owner)
        with self.reading() as conn:
            return [_feed(r) for r in conn.execute(query).all()]

    def update(self, feed_id: int, spec: FeedSpec, *, host: str | None) -> None:
        """A feed's settings changed (its name stays): not looked at with them yet, its old reason gone."""
        values = {k: v for k, v in _spec_values(spec).items() if k != "name"}
        with self.engine.begin() as conn:
            conn.execute(update(feeds).where(feeds.c.id == feed_id)
                         .values(**values, host=host, state=FeedState.NEW.value, reason=None,
                                 updated_at=self.now()))  # fmt: skip

    def count_in(self, feed_id: int, *states: FileState) -> int:
        """How many of the feed's files are in one of these states."""
        query = select(func.count()).where(feed_files.c.feed_id == feed_id,
                                           feed_files.c.state.in_([s.value for s in states]))  # fmt: skip
        with self.reading() as conn:
            return int(conn.execute(query).scalar_one())

    def set_paused(self, feed_id: int, paused: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(feeds).where(feeds.c.id == feed_id).values(paused=paused, updated_at=self.now()))

    def set_mail_to(self, feed_id: int, addresses: Sequence[str]) -> None:
        """Who is mailed about the feed's failed imports (none: nobody)."""
        with self.engine.begin() as conn:
            conn.execute(update(feeds).where(feeds.c.id == feed_id)
                         .values(mail_to=",".join(addresses) or None, updated_at=self.now()))  # fmt: skip

    def request_run(self, feed_id: int) -> None:
        """`feed run`: the next scan looks at the folder whatever its schedule says."""
        with self.engine.begin() as conn:
            conn.execute(update(feeds).where(feeds.c.id == feed_id)
                         .values(run_requests=feeds.c.run_requests + 1, updated_at=self.now()))  # fmt: skip

    def remove(self, feed_id: int) -> None:
        """The feed and the record of its files go (its import tasks stay: they are the history)."""
        with self.engine.begin() as conn:
            conn.execute(delete(feed_files).where(feed_files.c.feed_id == feed_id))
            conn.execute(delete(feeds).where(feeds.c.id == feed_id))

    def scanned(
        self,
        feed_id: int,
        *,
        state: FeedState,
        reason: dict[str, Any] | None,
        looked: bool,
        runs_seen: int | None = None,
        next_look_in: float | None = None,
    ) -> None:
        """What a scan found: the feed's state and reason, when it last scanned and looked, and when it
        looks next (seconds from now on the database's clock)."""
        values: dict[str, Any] = {"state": state.value, "reason": reason, "last_scan_at": self.now(),
                                  "updated_at": self.now()}  # fmt: skip
        if looked:
            values["last_look_at"] = self.now()
        if runs_seen is not None:
            # never backwards: a later scan (two at once) may have seen more
            values["runs_seen"] = self.dialect.greatest(feeds.c.runs_seen, runs_seen)
        if next_look_in is not None:
            values["next_look_at"] = self.now(max(0.0, next_look_in))
        with self.engine.begin() as conn:
            conn.execute(update(feeds).where(feeds.c.id == feed_id).values(**values))

    # --- files: reading ----------------------------------------------------------------------

    def present(self, feed_id: int) -> builtins.list[FeedFile]:
        """The files the feed believes are in its folder (every row whose way is not over, and the
        files left in place), oldest row first."""
        query = select(feed_files).where(feed_files.c.feed_id == feed_id, feed_files.c.in_folder == true())
        with self.reading() as conn:
            return [_file(r) for r in conn.execute(query.order_by(feed_files.c.id)).all()]

    def present_brief(self, feed_id: int) -> builtins.list[Brief]:
        """present(), as what a look compares (oldest row first)."""
        c = feed_files.c
        query = (select(c.id, c.name, c.size, c.mtime_ns, c.state, c.first_seen_at)
                 .where(c.feed_id == feed_id, c.in_folder == true()).order_by(c.id))  # fmt: skip
        with self.reading() as conn:
            rows = conn.execute(query).all()
        return [Brief(int(i), n, int(s), int(m), _STATES[st], f) for i, n, s, m, st, f in rows]

    def files(self, ids: Sequence[int]) -> builtins.list[FeedFile]:
        """Full rows by id (a look's candidates), in id order."""
        found: builtins.list[FeedFile] = []
        for start in range(0, len(ids), 500):
            query = select(feed_files).where(feed_files.c.id.in_(list(ids[start : start + 500])))
            with self.reading() as conn:
                found += [_file(r) for r in conn.execute(query).all()]
        return sorted(found, key=lambda r: r.id)

    def in_state(self, feed_id: int, *states: FileState) -> builtins.list[FeedFile]:
        query = select(feed_files).where(feed_files.c.feed_id == feed_id,
                                         feed_files.c.state.in_([s.value for s in states]))  # fmt: skip
        with self.reading() as conn:
            return [_file(r) for r in conn.execute(query.order_by(feed_files.c.id)).all()]

    def holder(self, feed_id: int, sha256: str) -> FeedFile | None:
        """The row that holds the claim on these bytes for the feed."""
        query = select(feed_files).where(feed_files.c.feed_id == feed_id, feed_files.c.claim == sha256)
        with self.reading() as conn:
            row = conn.execute(query).first()
        return _file(row) if row else None

    def files_of_tasks(self, task_nos: Sequence[str]) -> dict[str, FeedFile]:
        """The feed files imported by these tasks, by task number (a task of no feed is not there)."""
        found: dict[str, FeedFile] = {}
        numbers = list(dict.fromkeys(task_nos))
        for start in range(0, len(numbers), 500):
            query = select(feed_files).where(feed_files.c.task_no.in_(numbers[start : start + 500]))
            with self.reading() as conn:
                found.update({r.task_no: r for r in (_file(row) for row in conn.execute(query).all()) if r.task_no})
        return found

    def file(self, file_id: int) -> FeedFile | None:
        with self.reading() as conn:
            row = conn.execute(select(feed_files).where(feed_files.c.id == file_id)).first()
        return _file(row) if row else None

    def recent(self, feed_id: int, *, limit: int = 50, since: dt.datetime | None = None) -> builtins.list[FeedFile]:
        """The feed's files, the most recently changed first; with `since`, those changed since then."""
        query = select(feed_files).where(feed_files.c.feed_id == feed_id)
        if since is not None:
            query = query.where(feed_files.c.updated_at >= since)
        query = query.order_by(feed_files.c.updated_at.desc(), feed_files.c.id.desc()).limit(limit)
        with self.reading() as conn:
            return [_file(r) for r in conn.execute(query).all()]

    def day_counts(self, day: str, feed_ids: Sequence[int] | None = None) -> dict[int, dict[Outcome, int]]:
        """Per feed, its files that ended on `day` (the desk's date, YYYY-MM-DD) by outcome."""
        query = (
            select(feed_files.c.feed_id, feed_files.c.outcome, func.count())
            .where(feed_files.c.day == day, feed_files.c.state == FileState.DONE.value)
            .group_by(feed_files.c.feed_id, feed_files.c.outcome)
        )
        if feed_ids is not None:
            query = query.where(feed_files.c.feed_id.in_(list(feed_ids)))
        counts: dict[int, dict[Outcome, int]] = {}
        with self.reading() as conn:
            for feed_id, outcome, count in conn.execute(query).all():
                if outcome:
                    counts.setdefault(int(feed_id), {})[Outcome(outcome)] = int(count)
        return counts

    def waiting_counts(self, feed_ids: Sequence[int] | None = None) -> dict[int, int]:
        """Per feed, its files whose way is not over."""
        query = (
            select(feed_files.c.feed_id, func.count())
            .where(feed_files.c.state.in_([s.value for s in UNDER_WAY]))
            .group_by(feed_files.c.feed_id)
        )
        if feed_ids is not None:
            query = query.where(feed_files.c.feed_id.in_(list(feed_ids)))
        with self.reading() as conn:
            return {int(f): int(c) for f, c in conn.execute(query).all()}

    def with_problems(self, feed_ids: Sequence[int] | None = None) -> builtins.list[FeedFile]:
        """Files on their way with a problem said (not readable yet, could not be moved)."""
        query = select(feed_files).where(feed_files.c.problem.is_not(None),
                                         feed_files.c.state.in_([s.value for s in UNDER_WAY]))  # fmt: skip
        if feed_ids is not None:
            query = query.where(feed_files.c.feed_id.in_(list(feed_ids)))
        with self.reading() as conn:
            return [_file(r) for r in conn.execute(query.order_by(feed_files.c.id)).all()]

    # --- files: their way ---------------------------------------------------------------------

    def seen(self, feed_id: int, name: str, size: int, mtime_ns: int) -> None:
        """A file seen for the first time (or a new version of it): settling from now."""
        with self.engine.begin() as conn:
            conn.execute(feed_files.insert().values(
                feed_id=feed_id, name=name, size=size, mtime_ns=mtime_ns, first_seen_at=self.now(),
                state=FileState.SETTLING.value, in_folder=True, created_at=self.now(),
                updated_at=self.now()))  # fmt: skip

    def seen_many(self, feed_id: int, found: Sequence[tuple[str, int, int]]) -> None:
        """Many files seen for the first time, in one transaction."""
        if not found:
            return
        with self.engine.begin() as conn:
            now = conn.execute(select(type_coerce(self.now(), Stamp))).scalar_one()
            conn.execute(feed_files.insert(), [
                {"feed_id": feed_id, "name": name, "size": size, "mtime_ns": mtime, "first_seen_at": now,
                 "state": FileState.SETTLING.value, "in_folder": True, "created_at": now, "updated_at": now}
                for name, size, mtime in found
            ])  # fmt: skip

    def changed(self, row: FileRef, size: int, mtime_ns: int) -> bool:
        """A settling file whose size or time changed: settling again from now."""
        return self._step(row, FileState.SETTLING, size=size, mtime_ns=mtime_ns, first_seen_at=self.now(),
                          sha256=None, problem=None)  # fmt: skip

    def drop(self, row: FileRef, *states: FileState) -> bool:
        """A row whose file left the folder before it was queued (its claim goes with it)."""
        with self.engine.begin() as conn:
            matched = conn.execute(delete(feed_files).where(
                feed_files.c.id == row.id, feed_files.c.state.in_([s.value for s in states]))).rowcount  # fmt: skip
        return bool(matched == 1)

    def left_folder(self, row: FileRef) -> bool:
        """A file left in place (or replaced by a new version) is no longer where the feed saw it."""
        with self.engine.begin() as conn:
            matched = conn.execute(update(feed_files).where(
                feed_files.c.id == row.id, feed_files.c.state == FileState.DONE.value)
                .values(in_folder=False, updated_at=self.now())).rowcount  # fmt: skip
        return bool(matched == 1)

    def unreadable(self, row: FeedFile, problem: dict[str, Any] | None) -> None:
        """A settled file that cannot be opened for reading yet (held by another program): it stays."""
        self._step(row, FileState.SETTLING, problem=problem)

    def claim(self, row: FeedFile, sha256: str) -> bool:
        """The settled file's bytes claimed for the feed: True when this row holds them now (ready to be
        queued), False when another row of the feed holds them (the unique index decides)."""
        try:
            return self._step(row, FileState.SETTLING, sha256=sha256, claim=sha256, state=FileState.READY.value,
                              problem=None)  # fmt: skip
        except IntegrityError:
            return False

    def release_claim(self, holder: FeedFile) -> bool:
        """A finished row gives up its claim (its import wrote nothing: the same bytes may be tried again)."""
        with self.engine.begin() as conn:
            matched = conn.execute(update(feed_files).where(
                feed_files.c.id == holder.id, feed_files.c.claim == holder.claim,
                feed_files.c.state == FileState.DONE.value,
            ).values(claim=None, updated_at=self.now())).rowcount  # fmt: skip
        return bool(matched == 1)

    def came_back(self, holder: FeedFile, row: FeedFile) -> bool:
        """A file left in place came back after it was missed (a share that was away): its old row is in
        the folder again with the size and time seen now, the new row goes."""
        with self.engine.begin() as conn:
            gone = conn.execute(delete(feed_files).where(
                feed_files.c.id == row.id, feed_files.c.state == FileState.SETTLING.value)).rowcount  # fmt: skip
            if gone != 1:
                return False
            conn.execute(update(feed_files).where(feed_files.c.id == holder.id).values(
                in_folder=True, size=row.size, mtime_ns=row.mtime_ns, updated_at=self.now()))  # fmt: skip
        return True

    def queued(self, row: FeedFile, task_no: str) -> bool:
        """Its import task is queued (or was, by a scan that died before it said so)."""
        return self._step(row, FileState.READY, state=FileState.QUEUED.value, task_no=task_no,
                          tries=feed_files.c.tries + 1, problem=None)  # fmt: skip

    def ready_again(self, row: FeedFile) -> bool:
        """Its import could not find or read the file (a folder that was away): queued again."""
        return self._step(row, FileState.QUEUED, state=FileState.READY.value, task_no=None)

    def intend(
        self,
        row: FeedFile,
        expected: FileState,
        *,
        outcome: Outcome,
        day: str,
        move_to: str | None,
        note_to: str | None,
        duplicate_of: str | None = None,
        sha256: str | None = None,
    ) -> bool:
        """Its outcome and where it goes, written before it moves (a crash finishes the move). With no
        destination (the feed leaves its files in place) the row is done at once."""
        values: dict[str, Any] = {"outcome": outcome.value, "day": day, "move_to": move_to, "note_to": note_to}
        if duplicate_of is not None:
            values["duplicate_of"] = duplicate_of
        if sha256 is not None:
            values["sha256"] = sha256
        if move_to is None:
            values.update(state=FileState.DONE.value, in_folder=outcome is not Outcome.GONE, problem=None)
        else:
            values["state"] = FileState.MOVING.value
        return self._step(row, expected, **values)

    def retarget(self, row: FeedFile, move_to: str, note_to: str | None) -> bool:
        """A destination another file took meanwhile: the next free name, written before the move."""
        return self._step(row, FileState.MOVING, move_to=move_to, note_to=note_to)

    def move_problem(self, row: FeedFile, problem: dict[str, Any]) -> None:
        """The file could not be moved (held open, no permission): it stays, the row says why."""
        self._step(row, FileState.MOVING, problem=problem)

    def moved(self, row: FeedFile, moved_to: str | None, *, problem: dict[str, Any] | None = None,
              outcome: Outcome | None = None) -> bool:  # fmt: skip
        """The file is where it was going (or gone, with `problem` saying so)."""
        values: dict[str, Any] = {"state": FileState.DONE.value, "moved_to": moved_to, "in_folder": False,
                                  "problem": problem}  # fmt: skip
        if outcome is not None:
            values["outcome"] = outcome.value
        return self._step(row, FileState.MOVING, **values)

    def _step(self, row: FileRef, expected: FileState, **values: Any) -> bool:
        with self.engine.begin() as conn:
            matched = conn.execute(
                update(feed_files)
                .where(feed_files.c.id == row.id, feed_files.c.state == expected.value)
                .values(**values, updated_at=self.now())
            ).rowcount
        return bool(matched == 1)

    def forget_files(self, feed_id: int, names: Sequence[str]) -> None:
        """Test and bench helper: the rows of these names go."""
        with self.engine.begin() as conn:
            conn.execute(delete(feed_files).where(feed_files.c.feed_id == feed_id, feed_files.c.name.in_(list(names))))

    def count(self, feed_id: int, *, state: FileState | None = None, outcome: Outcome | None = None) -> int:
        query = select(func.count()).select_from(feed_files).where(feed_files.c.feed_id == feed_id)
        if state is not None:
            query = query.where(feed_files.c.state == state.value)
        if outcome is not None:
            query = query.where(feed_files.c.outcome == outcome.value)
        with self.reading() as conn:
            return int(conn.execute(query).scalar_one())


def _spec_values(spec: FeedSpec) -> dict[str, Any]:
    return {
        "name": spec.name.strip(),
        "folder": spec.folder,
        "pattern": spec.pattern,
        "import_type": spec.import_type,
        "profile": spec.profile or None,
        "mode": spec.mode,
        "settle_seconds": spec.settle,
        "every_seconds": spec.schedule.every,
        "at_times": spec.schedule.at_text,
        "in_order": spec.in_order,
        "leave_files": spec.leave,
        "mail_to": ",".join(spec.mail_to) or None,
    }


def _feed(row: Any) -> Feed:
    m = row._mapping
    at = tuple(dt.time.fromisoformat(t) for t in (m["at_times"] or "").split(",") if t)
    spec = FeedSpec(
        name=m["name"],
        folder=m["folder"],
        import_type=m["import_type"],
        pattern=m["pattern"],
        profile=m["profile"],
        mode=m["mode"],
        settle=int(m["settle_seconds"]),
        schedule=Schedule(every=m["every_seconds"], at=at),
        in_order=bool(m["in_order"]),
        leave=bool(m["leave_files"]),
        mail_to=tuple(a for a in (m["mail_to"] or "").split(",") if a),
    )
    return Feed(
        id=int(m["id"]),
        spec=spec,
        owner=m["owner"],
        host=m["host"],
        paused=bool(m["paused"]),
        state=FeedState(m["state"]),
        reason=m["reason"],
        run_requests=int(m["run_requests"]),
        runs_seen=int(m["runs_seen"]),
        next_look_at=m["next_look_at"],
        last_scan_at=m["last_scan_at"],
        last_look_at=m["last_look_at"],
        created_at=m["created_at"],
    )


def _file(row: Any) -> FeedFile:
    m = row._mapping
    return FeedFile(
        id=int(m["id"]),
        feed_id=int(m["feed_id"]),
        name=m["name"],
        size=int(m["size"]),
        mtime_ns=int(m["mtime_ns"]),
        first_seen_at=m["first_seen_at"],
        state=FileState(m["state"]),
        sha256=m["sha256"],
        claim=m["claim"],
        outcome=Outcome(m["outcome"]) if m["outcome"] else None,
        task_no=m["task_no"],
        duplicate_of=m["duplicate_of"],
        tries=int(m["tries"]),
        in_folder=bool(m["in_folder"]),
        move_to=m["move_to"],
        note_to=m["note_to"],
        moved_to=m["moved_to"],
        problem=m["problem"],
        day=m["day"],
        updated_at=m["updated_at"],
    )
