"""Mapping profiles in the task database (migration 0009): save a new version, read one, list, remove.

A name is one row of ``batchdesk_profiles`` (its latest version, its import type, whether it was
removed); each saved version one row of ``batchdesk_profile_versions``, written once and never changed
nor deleted, so a task that names NAME and version N reads what it was queued with, whatever was saved
or removed since. Names compare folded (NFKC, case-folded): "East" and "east" are one profile, shown as
last saved.

Removing hides a name: it is no longer listed, shown, exported nor given to a new import. Its versions
stay (tasks name them: their retries, resumes and undos read them). Saving the name again brings it back
with the next version number (the history goes on: 1, 2, then 3 after a removal), for any import type;
a name that is not removed keeps its import type.
"""

from __future__ import annotations

import builtins
import json
import logging
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Row, select, update
from sqlalchemy.exc import IntegrityError

from desktop_app.domain.errors import ErrorCode, PermanentError, TransientError
from desktop_app.domain.profiles import Profile, ProfileVersion, check_name
from desktop_app.store.db import READONLY
from desktop_app.store.dialects import dialect_of
from desktop_app.store.schema import profile_versions, profiles
from desktop_app.store.task_rows import retry_db

log = logging.getLogger(__name__)


def name_key(name: str) -> str:
    """How profile names compare: NFKC, trimmed, case-folded."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


class ProfileStore:
    """The profiles of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
            yield conn

    # --- writing -------------------------------------------------------------------------------

    def save(self, name: str, profile: Profile, *, by: str) -> ProfileVersion:
        """Save a new version of `name` (1 for a new name): the version saved. A name that is not removed
        and belongs to another import type is refused (PROFILE_TYPE_MISMATCH)."""
        name = check_name(name)
        key = name_key(name)
        content = json.dumps(profile.to_dict(), ensure_ascii=False)
        for _ in range(5):
            try:
                # a deadlock or a lost connection is tried again as every write of the store is (retry_db)
                version = retry_db(lambda: self._save_once(key, name, profile, content, by))
            except IntegrityError:
                continue  # another desk saved this name at the same moment: read it again
            log.info("%s saved profile %s version %d (%s)", by, name, version, profile.import_type)
            return self.get(name, version, removed_ok=True)
        raise TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail=f"could not save profile {name} after 5 tries")

    def _save_once(self, key: str, name: str, profile: Profile, content: str, by: str) -> int:
        """One transaction: the name's row locked (or made), the next version written; that version."""
        with self.engine.begin() as conn:
            now = dialect_of(self.engine).now()
            # locked for the transaction (SQLite: BEGIN IMMEDIATE serialises the writers already)
            row = conn.execute(select(profiles).where(profiles.c.name_key == key).with_for_update()).first()
            if row is None:
                # a unique key: a desk saving the same new name at once wins, this one tries again
                conn.execute(profiles.insert().values(name_key=key, name=name, import_type=profile.import_type,
                                                      latest_version=0, updated_at=now))  # fmt: skip
                latest = 0
            else:
                if row.removed_at is None and row.import_type != profile.import_type:
                    raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=row.name, profile_type=row.import_type,
                                         import_type=profile.import_type)  # fmt: skip
                latest = int(row.latest_version)
            version = latest + 1
            conn.execute(profile_versions.insert().values(
                name_key=key, version=version, name=name, import_type=profile.import_type, content=content,
                saved_by=by, saved_at=now))  # fmt: skip
            conn.execute(update(profiles).where(profiles.c.name_key == key).values(
                name=name, import_type=profile.import_type, latest_version=version, removed_at=None,
                removed_by=None, updated_at=now))  # fmt: skip
        return version

    def remove(self, name: str, *, by: str) -> ProfileVersion:
        """Hide a name (its versions stay, for the tasks that name them): its latest version. A name that
        is unknown or already removed is PROFILE_NOT_FOUND."""
        latest = self.get(name)
        with self.engine.begin() as conn:
            done = conn.execute(update(profiles).where(profiles.c.name_key == name_key(name),
                                                       profiles.c.removed_at.is_(None)).values(
                removed_at=dialect_of(self.engine).now(), removed_by=by,
                updated_at=dialect_of(self.engine).now())).rowcount  # fmt: skip
        if not done:
            raise PermanentError(ErrorCode.PROFILE_NOT_FOUND, name=name)
        log.info("%s removed profile %s (latest version %d)", by, latest.name, latest.version)
        return latest

    # --- reading -------------------------------------------------------------------------------

    def get(self, name: str, version: int | None = None, *, removed_ok: bool = False) -> ProfileVersion:
        """Version `version` of a profile (None: its latest). A removed name is PROFILE_NOT_FOUND unless
        `removed_ok` (a task that names a version reads it whatever became of the name)."""
        key = name_key(name)
        with self._reading() as conn:
            head = conn.execute(select(profiles).where(profiles.c.name_key == key)).first()
            if head is None:
                raise PermanentError(ErrorCode.PROFILE_NOT_FOUND, name=name)
            if head.removed_at is not None and not removed_ok:
                raise PermanentError(ErrorCode.PROFILE_NOT_FOUND, reason="removed", name=head.name)
            wanted = int(head.latest_version) if version is None else version
            versions = profile_versions.c
            row = conn.execute(select(profile_versions).where(versions.name_key == key,
                                                              versions.version == wanted)).first()  # fmt: skip
        if row is None:
            raise PermanentError(ErrorCode.PROFILE_NOT_FOUND, reason="version", name=head.name, version=wanted)
        return _version(row, removed=head.removed_at is not None)

    def list(self, *, removed: bool = False) -> list[ProfileVersion]:
        """The latest version of each name, by name (with `removed`, the removed names' too)."""
        query = select(profile_versions, profiles.c.removed_at).join(
            profiles, (profiles.c.name_key == profile_versions.c.name_key)
            & (profiles.c.latest_version == profile_versions.c.version))  # fmt: skip
        if not removed:
            query = query.where(profiles.c.removed_at.is_(None))
        with self._reading() as conn:
            rows = conn.execute(query).all()
        found = [_version(r, removed=r.removed_at is not None) for r in rows]
        return sorted(found, key=lambda v: (name_key(v.name), v.name))

    def versions(self, name: str) -> builtins.list[int]:
        """The version numbers of a name that is not removed, oldest first."""
        self.get(name)
        with self._reading() as conn:
            versions = profile_versions.c
            query = select(versions.version).where(versions.name_key == name_key(name)).order_by(versions.version)
            return [int(n) for n in conn.execute(query).scalars()]


def _version(row: Row[Any], *, removed: bool) -> ProfileVersion:
    m = row._mapping
    profile = Profile.from_dict(json.loads(m["content"]))
    return ProfileVersion(name=m["name"], version=int(m["version"]), profile=profile, saved_by=m["saved_by"],
                          saved_at=m["saved_at"], removed=removed)  # fmt: skip
