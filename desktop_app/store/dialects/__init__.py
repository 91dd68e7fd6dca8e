"""The database a URL, an engine or a connection is on, as its dialect module: the only place that
compares database names (tests/unit/store/test_dialect_rooms.py holds every other module to that)."""

from __future__ import annotations

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL, make_url

from desktop_app.store.dialects.base import READONLY, BulkPath, Dialect, ExportRead
from desktop_app.store.dialects.mysql import DIALECT as MYSQL
from desktop_app.store.dialects.postgresql import DIALECT as POSTGRESQL
from desktop_app.store.dialects.sqlite import DIALECT as SQLITE

__all__ = ["ALL", "READONLY", "BulkPath", "Dialect", "ExportRead", "UnknownDatabase", "dialect_of"]

# In the order db_errors asks them whose an error is: PyMySQL's errors carry a coarse sqlstate too
ALL: tuple[Dialect, ...] = (MYSQL, POSTGRESQL, SQLITE)

# SQLAlchemy's dialect (and URL back-end) names -> the module that answers for it
_BY_NAME: dict[str, Dialect] = {"sqlite": SQLITE, "postgresql": POSTGRESQL, "mysql": MYSQL, "mariadb": MYSQL}


class UnknownDatabase(LookupError):
    """A database BatchDesk has no dialect module for."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def dialect_of(where: Engine | Connection | URL | str) -> Dialect:
    """The dialect module of an engine, a connection, a URL or a URL's text (UnknownDatabase if none)."""
    if isinstance(where, Engine | Connection):
        name = where.dialect.name
    else:
        name = (make_url(where) if isinstance(where, str) else where).get_backend_name()
    found = _BY_NAME.get(name)
    if found is None:
        raise UnknownDatabase(name)
    return found
