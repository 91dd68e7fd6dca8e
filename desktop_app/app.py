"""The composition root: builds paths, settings, the store, the task types and the executor, once."""

from __future__ import annotations

import locale
import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_app.config import AnySettingProblem, Paths, Settings, read_settings, resolve_paths
from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.viewer import TeamLogin
from desktop_app.log import close_logging, our_handlers, setup_logging
from desktop_app.store import migrate, team
from desktop_app.store.db import describe, make_engine, sqlite_url
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks.registry import HandlerRegistry, TaskHandler
from desktop_app.tasks.submit import current_user

if TYPE_CHECKING:
    from desktop_app.executor.executor import Executor
    from desktop_app.feeds.service import Feeds
    from desktop_app.imports.type_catalog import TypeCatalog
    from desktop_app.submission import Submitter
    from desktop_app.team_admin import TeamAdmin

log = logging.getLogger(__name__)


@dataclass
class Core:
    """Everything below the executor, wired: what the command line and the window share."""

    paths: Paths
    settings: Settings
    store: TaskStore
    registry: HandlerRegistry
    lang: Lang
    db_url: str
    catalog: TypeCatalog  # the import types: built-in and the data folder's own
    # settings of the settings file that were not valid (their defaults are in use): shown once
    setting_problems: tuple[AnySettingProblem, ...] = ()
    log_handlers: tuple[logging.Handler, ...] = ()  # what setup_logging opened for this core
    # team mode (store/team.py, docs/TEAM.md): the database login, asked of the server as the core starts;
    # None: the embedded database or a shared one not secured, where a clerk is whom --user names
    login: TeamLogin | None = None

    def user(self, asked: str | None = None) -> str:
        """Who a request runs as: in team mode the database login (another name asked for is refused in
        words), else the name asked for (--user), else the OS login name."""
        if self.login is not None:
            return self.login.user(asked)
        return asked or current_user()

    def close(self) -> None:
        """Close what this core opened: its database connections and its log file (a core built later
        has closed that file's handler already; closing it again does nothing)."""
        self.store.engine.dispose()
        close_logging(self.log_handlers)

    def submitter(self) -> Submitter:
        """The one submission path (the window, the command line and the demo share it)."""
        from desktop_app.submission import Submitter

        return Submitter(self.store, self.registry, self.settings, self.catalog, results_dir=self.paths.results_dir)

    def team_admin(self) -> TeamAdmin | None:
        """Team administration (logins, rights per type) when this core's login administers a team
        database; None for a clerk, a desk's embedded database or a database not in team mode."""
        if self.login is None or not self.login.is_admin:
            return None
        from desktop_app.team_admin import TeamAdmin

        return TeamAdmin(self.store.engine, self.catalog)

    def feeds(self) -> Feeds:
        """The feeds (watched folders) of this database, their words in the desk's language."""
        from desktop_app.feeds.service import Feeds

        return Feeds(self.store, self.submitter(), self.lang)


def system_lang(setting: str = "") -> Lang:
    """The settings' language, else the system locale's: Chinese for zh_*, English otherwise."""
    if setting in ("zh", "en"):
        return setting  # type: ignore[return-value]
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    code = (locale.getlocale()[0] or "").lower()
    return "zh" if code.startswith("zh") or code.startswith("chinese") else "en"


def default_handlers(paths: Paths, settings: Settings, catalog: TypeCatalog) -> list[TaskHandler]:
    """The built-in task types. A new type is one more line here and one new class."""
    from desktop_app.tasks.builtin import builtin_handlers

    return builtin_handlers(paths, settings, catalog)


def build_core(
    *,
    data_dir: str | os.PathLike[str] | None = None,
    db_url: str | None = None,
    overrides: dict[str, Any] | None = None,
    handlers: list[TaskHandler] | None = None,
    log_to_stderr: bool = False,
) -> Core:
    """Resolve paths and settings, open and migrate the database, register the task types."""
    try:
        paths = resolve_paths(data_dir).ensure()
    except OSError as exc:
        raise PermanentError(ErrorCode.DATA_DIR_UNUSABLE, path=str(data_dir or "the user data folder"),
                             detail=exc.strerror or str(exc)) from exc  # fmt: skip
    setup_logging(paths.log_dir, console=log_to_stderr)
    log_handlers = our_handlers()
    read, problems = read_settings(paths)
    settings = read.with_overrides(**(overrides or {}))
    url = db_url or settings.db_url or sqlite_url(paths.database_file)
    engine = make_engine(url, stale_after=settings.stale_after)
    try:
        migrate.upgrade(engine)
    except PermanentError:
        engine.dispose()  # refused (a schema too new): no connection left open behind the refusal
        raise
    except Exception as exc:
        engine.dispose()
        from sqlalchemy.exc import SQLAlchemyError

        from desktop_app.store.db_errors import classify

        if isinstance(exc, SQLAlchemyError):
            typed = classify(exc)
            raise type(typed)(typed.code, detail=f"{describe(url)}: {typed.params['detail']}") from exc
        raise
    store = TaskStore(engine)
    login = team.detect(engine)  # once per connection pool: the server's answer for this core's life
    from desktop_app.imports.type_catalog import default_catalog

    catalog = default_catalog(paths.data_dir)
    registry = HandlerRegistry(handlers if handlers is not None else default_handlers(paths, settings, catalog))
    log.info("BatchDesk core on %s (data dir %s)", describe(url), paths.data_dir)
    return Core(paths=paths, settings=settings, store=store, registry=registry,
                lang=system_lang(settings.language), db_url=url, catalog=catalog,
                setting_problems=tuple(problems), log_handlers=log_handlers, login=login)  # fmt: skip


def build_executor(core: Core, *, only_task_ids: list[int] | None = None) -> Executor:
    from desktop_app.executor.executor import Executor

    return Executor(
        store=core.store,
        registry=core.registry,
        paths=core.paths,
        settings=core.settings,
        lang=core.lang,
        only_task_ids=only_task_ids,
    )
