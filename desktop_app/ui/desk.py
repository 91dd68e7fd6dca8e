"""The window's composition root: builds executor, service, window, tray and translations from a Core."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop_app import __version__
from desktop_app.app import Core, build_executor, system_lang
from desktop_app.config import Settings, resources_dir, save_settings
from desktop_app.domain.errors import Lang
from desktop_app.feeds.mail import send, test_mail
from desktop_app.feeds.mail_secret import MAIL_SETTINGS, PASSWORD_ENV, store_mail_password
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.db_secret import split_password, store_password
from desktop_app.ui.dialogs.about import AboutInfo
from desktop_app.ui.dialogs.feeds import FeedsWindow
from desktop_app.ui.dialogs.settings import SettingsDialog
from desktop_app.ui.file_open import FileOpenFilter
from desktop_app.ui.focus_ring import FocusRing
from desktop_app.ui.gil_turns import GilTurns
from desktop_app.ui.i18n import Translations
from desktop_app.ui.main_thread_gc import MainThreadGC
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.mapping_memory import MappingMemory, carry_over
from desktop_app.ui.outcomes import Tone
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.task_service import EXPORT_TASK, TaskService
from desktop_app.ui.tray import Tray
from desktop_app.ui.window_geometry import ScreenKeeper

log = logging.getLogger(__name__)


def app_icon() -> QIcon:
    path = resources_dir() / "icons" / "batchdesk.svg"
    return QIcon(str(path)) if path.exists() else QIcon()


def export_definitions(core: Core) -> dict[str, Any]:
    """The export definitions of the registered `export` task type (none when it is not registered)."""
    if EXPORT_TASK not in core.registry:
        return {}
    return dict(getattr(core.registry.get(EXPORT_TASK), "definitions", {}) or {})


MEMORY_CARRIED_OVER = "profiles/mapping_memory_carried_over"
"""QSettings flag: the remembered header mappings were saved as profiles (done once)."""
WINDOW_BATCH_PAUSE = 0.001
TYPES_CHECK_MS = 30_000


class Desk(QObject):
    """Everything the window needs, wired once; start() begins running tasks, shutdown() stops them
    gracefully (running tasks go back to pending with their checkpoint)."""

    def __init__(
        self,
        app: QApplication,
        core: Core,
        qsettings: QSettings,
        *,
        refresh_ms: int = 3000,
        page_size: int = 500,
        cache_dir: Path | None = None,
        on_quit: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.app = app
        self._on_quit = on_quit or app.quit
        self.core = core
        self._qsettings = qsettings
        # With the window open, imports pause 1 ms between batches: with two imports running, the
        # window's thread otherwise waits up to ~190 ms for the GIL (bench/bench_gui_lag.py).
        if not core.settings.batch_pause:
            core.settings = core.settings.with_overrides(batch_pause=WINDOW_BATCH_PAUSE)
        self.executor = build_executor(core)
        self.gc = MainThreadGC(parent=self)
        self.gil_turns = GilTurns()
        self.translations = Translations(app, cache_dir or core.paths.data_dir / "cache" / "i18n")
        self.translations.switch(core.lang)
        self.catalog = ImportCatalog.load(core.lang, exports=export_definitions(core), source=core.catalog,
                                          visible=core.submitter().visible if core.login else None)  # fmt: skip
        # team mode, an administrator's login: Settings has a Team page (logins, rights per import type)
        self.team_admin = core.team_admin()
        self.kinds = core.registry.kinds()  # what each task type shows and offers, handed to the window
        self.service = TaskService(self.executor, core.store, core.paths.log_dir, refresh_ms=refresh_ms,
                                   submitter=core.submitter(), kinds=self.kinds, parent=self)  # fmt: skip
        self.tray = Tray(app_icon(), self.kinds, self)
        self.window = MainWindow(
            service=self.service,
            catalog=self.catalog,
            kinds=self.kinds,
            settings=core.settings,
            results_dir=core.paths.results_dir,
            qsettings=qsettings,
            tray=self.tray,
            page_size=page_size,
            about=AboutInfo(__version__, core.paths.data_dir, core.paths.log_dir, core.paths.results_dir),
        )
        self.focus_ring = FocusRing(app, self)  # a focus that can be seen, in the window and its dialogs
        self.window.setWindowIcon(app_icon())
        self.window.settings_requested.connect(self.open_settings)
        self.window.feeds_requested.connect(self.open_feeds)
        self.feeds_window: FeedsWindow | None = None
        self.service.task_ended.connect(self._feeds_task_ended)  # the Feeds view, while open, follows
        # The tray's Quit goes through the window's close (MainWindow._wire): one path, which asks.
        self.window.close_decided.connect(self._close_decided)
        self.settings_dialog: SettingsDialog | None = None
        # The import types are looked at again now and then: a company's type dropped into the data
        # folder appears, one with a problem is shown with it (the check runs off the GUI thread).
        self.service.types_checked.connect(self._types_checked)
        self._types_timer = QTimer(self)
        self._types_timer.setInterval(TYPES_CHECK_MS)
        self._types_timer.timeout.connect(self.service.check_types)
        self.window.panel.template_written.connect(
            lambda path: self.window.inform(self.tr("Template saved: %1").replace("%1", path), dialog=False)
        )
        self.window.panel.template_failed.connect(
            lambda reason: self.window.inform(self.tr("The template could not be saved: %1").replace("%1", reason))
        )
        self._stopped = False
        self._workers_done = False
        # macOS Finder's documents arrive as QFileOpenEvent on the application (see file_open.py).
        self.file_open_filter = FileOpenFilter(self.open_file, self)
        app.installEventFilter(self.file_open_filter)

    def start(self) -> None:
        if self.core.setting_problems:  # named once, in the clerk's language; the defaults are in use
            self._show_setting_problems()
        self.gc.start()  # before the workers start allocating in their threads
        self.gil_turns.start()
        self.executor.start()
        self.window.model.fetchMore()
        self.service.check_types()
        self._types_timer.start()
        self.carry_over_memory()

    def carry_over_memory(self) -> None:
        """Once: the header mappings this desk remembered (before profiles) become profiles, in the
        background; the flag is set when it was done (a database that cannot be reached: next start)."""
        if self._qsettings.value(MEMORY_CARRIED_OVER, False, type=bool):
            return
        memory, service = MappingMemory.in_dir(self.core.paths.data_dir), self.service

        def run() -> list[Any]:
            taken = [p.name for p in service.submitter.profiles().list(removed=True)]
            return carry_over(memory, service.save_profile, taken)

        def done(saved: list[Any]) -> None:
            self._qsettings.setValue(MEMORY_CARRIED_OVER, True)
            self._qsettings.sync()
            if saved:
                names = ", ".join(f"“{v.name}”" for v in saved)
                log.info("remembered header mappings saved as profiles: %s", names)
                self.window.inform(self.tr("Remembered header mappings are now profiles for the team: %1")
                                   .replace("%1", names), dialog=False)  # fmt: skip

        def failed(exc: BaseException) -> None:
            log.warning("the remembered header mappings were not carried over (tried next start): %s", exc)

        self.service.background.call(run, done, failed)

    def _types_checked(self, types: dict[str, Any], problems: dict[str, str]) -> None:
        if types == {n: self.catalog.get(n) for n in self.catalog.names()} and problems == self.catalog.problems:
            return
        self.catalog.update(types, problems)
        self.window.panel.fill_types()

    def open_file(self, path: Path) -> bool:
        """A file to import handed over from outside (`--open FILE`, the file verb, Finder): the window
        comes to the front with it in the file field and its preview open, as Choose… + Queue… give."""
        return self.window.open_file(path)

    def _show_setting_problems(self) -> None:
        lang: Lang = "zh" if self.translations.lang == "zh" else "en"  # said again after a language switch
        text = "\n".join(p.text(lang) for p in self.core.setting_problems)
        self.window.notice.show_notice(text, Tone.WARNING, timeout_ms=0, again=self._show_setting_problems)

    def set_language(self, lang: str) -> None:
        """Switch the window's language now ("zh", "en"; "" follows the system)."""
        chosen = system_lang(lang)
        self.catalog.lang = chosen
        self.executor.lang = chosen  # stage texts and messages of tasks that start from now on
        self.translations.switch(chosen)

    def open_feeds(self) -> None:
        """The Feeds view beside the window (one at a time), read again as tasks end."""
        if self.feeds_window is not None and shiboken6.isValid(self.feeds_window):
            self.feeds_window.show()
            self.feeds_window.raise_()
            self.feeds_window.activateWindow()
            return
        catalog, service = self.catalog, self.service
        dialog = FeedsWindow(self.core.feeds(), viewer=lambda: service.viewer, user=service.viewer.user,
                             types=lambda: [(n, catalog.title(n)) for n in catalog.names()], type_title=catalog.title,
                             background=service.background, parent=self.window)  # fmt: skip
        self.feeds_window = dialog
        dialog.finished.connect(lambda _r: self._feeds_closed(dialog))
        # its first size (1,100 px wide) is more than a 1,024-px screen: cut to the screen, frame included
        dialog.screen_keeper = ScreenKeeper(dialog, dialog)  # type: ignore[attr-defined]
        dialog.show()

    def _feeds_task_ended(self, _record: object) -> None:
        # the view may be gone with the window (its C++ side deleted) without having been closed
        if self.feeds_window is not None and shiboken6.isValid(self.feeds_window):
            self.feeds_window.refresh()

    def _feeds_closed(self, dialog: FeedsWindow) -> None:
        if self.feeds_window is dialog:
            self.feeds_window = None
        dialog.deleteLater()

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.core.settings, self.window,
                                tester=lambda settings, password, done: self._test_mail(settings, password, done,
                                                                                        context=dialog),
                                team=self.team_admin, background=self.service.background,
                                type_title=self.catalog.title)  # fmt: skip
        self.settings_dialog = dialog
        dialog.accepted.connect(lambda: self.apply_settings(dialog.result_settings(), dialog.password(),
                                                            mail_password=dialog.mail_password()))  # fmt: skip
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()

    def _test_mail(self, settings: Settings, password: str | None, done: Callable[[str | None], None], *,
                   context: QObject) -> None:  # fmt: skip
        """A test mail to the sender through these settings, off the GUI thread; `done` gets the reason it
        could not be sent (None: it went)."""
        lang: Lang = "zh" if self.catalog.lang == "zh" else "en"

        def run() -> None:
            send(test_mail(settings, settings.mail_from, lang), settings, password=password)

        def failed(exc: BaseException) -> None:
            done(plain_error(exc, lang, "a test mail"))  # the catalog's words; anything else logged in full

        self.service.background.call(run, lambda _none: done(None), failed, context=context)

    def apply_settings(self, settings: Settings, password: str | None = None, *,
                       mail_password: str | None = None) -> None:  # fmt: skip
        """Save (the URL without its password) and apply what applies at once: language, limits and the mail
        server (the mail password to the keyring)."""
        url, _ = split_password(settings.db_url or "")
        settings = replace(settings, db_url=url or None)
        # the window's own pause is not a saved preference: the command line must not inherit it
        save_settings(self.core.paths, replace(settings, batch_pause=0.0))
        if password and url and not store_password(url, password):
            log.info("no keyring: the database password will be asked for at the next start")
        if mail_password and settings.smtp_user and not store_mail_password(settings, mail_password):
            log.info("no keyring: the mail password is not kept (a worker may take it from %s)", PASSWORD_ENV)
        # the tasks that start from now on send through the mail server set here
        self.executor.settings = replace(self.executor.settings, **{f: getattr(settings, f) for f in MAIL_SETTINGS})
        language_changed = settings.language != self.core.settings.language
        self.core.settings = settings
        self.window.settings = settings
        if language_changed:
            self.set_language(settings.language)

    def _close_decided(self, choice: str) -> None:
        if choice in ("stop", "quit"):
            self.quit()

    def quit(self) -> None:
        self.window.allow_close = True
        self.window.save_state()
        # Often called from inside the window's closeEvent, where close() does nothing more: hide the
        # window before waiting for the workers, so the clerk does not face a frozen, unpainted window.
        self.window.hide()
        self.window.close()
        if self.executor.running_count():
            self.tray.notify(
                self.tr("BatchDesk"), self.tr("Stopping the running tasks; they continue at the next start…")
            )
        self.shutdown()
        self._on_quit()

    def shutdown(self, timeout: float = 60.0) -> bool:
        """Stop the executor; True when every worker ended in time. Called again after a False, it
        waits for the workers once more."""
        if self._workers_done:
            return True
        if not self._stopped:
            self._stopped = True
            self.app.removeEventFilter(self.file_open_filter)
            self._types_timer.stop()
            self.focus_ring.stop()
            self.service.stop()
        done = self.executor.shutdown(timeout)
        self.tray.shutdown()  # after the wait: the "stopping" notice stays up meanwhile
        if not done:
            # A worker still runs Python code: automatic collection could then run in its thread and
            # destroy a Qt object there (main_thread_gc.py), so collection stays on the GUI thread.
            log.error("workers still running %.0f s after the stop request: garbage collection stays on "
                      "the GUI thread", timeout)  # fmt: skip
            return False
        self._workers_done = True
        self.gil_turns.stop()
        self.gc.stop()  # the workers are gone: collection may run anywhere again
        return True
