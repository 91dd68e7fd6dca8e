"""Keeping the window on the screen: a remembered size larger than today's screen is cut to fit."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QPoint, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

DEFAULT_SIZE = QSize(1280, 720)
PLACING_MS = 3000


def fit_rect(frame: QRect, available: QRect) -> QRect:
    """The frame moved and shrunk as little as needed to lie inside `available`."""
    width, height = min(frame.width(), available.width()), min(frame.height(), available.height())
    left = min(max(frame.left(), available.left()), available.right() - width + 1)
    top = min(max(frame.top(), available.top()), available.bottom() - height + 1)
    return QRect(left, top, width, height)


def available_for(window: QWidget) -> QRect:
    """The usable area (without task bars) of the screen the window is on, or the primary screen's."""
    screen = QGuiApplication.screenAt(window.frameGeometry().center()) or window.screen()
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def keep_on_screen(window: QWidget) -> None:
    """Move and shrink a normal (not maximised) window so that all of it, frame included, is visible."""
    if window.isMaximized() or window.isFullScreen():
        return
    frame, inner = window.frameGeometry(), window.geometry()
    available = available_for(window)
    fitted = fit_rect(frame, available)
    if fitted == frame:
        return
    # The frame (title bar, borders) is added by the window manager around the client area.
    extra = QSize(frame.width() - inner.width(), frame.height() - inner.height())
    window.resize(max(1, fitted.width() - extra.width()), max(1, fitted.height() - extra.height()))
    window.move(QPoint(fitted.left(), fitted.top()))


def restore_geometry(window: QWidget, saved: object) -> None:
    """The remembered geometry (or the default size), then kept on today's screen."""
    if saved is None or not window.restoreGeometry(saved):  # type: ignore[arg-type]
        window.resize(DEFAULT_SIZE)
    keep_on_screen(window)


class ScreenKeeper(QObject):
    """Keeps a window on the screen, frame included, for a few seconds after it first shows: the window
    manager adds its frame (a title bar) only some moments later, which would push the bottom (the status
    bar) off a small screen. Then it lets go (the clerk may move the window anywhere)."""

    def __init__(self, window: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._window = window
        self._since = QElapsedTimer()
        window.installEventFilter(self)

    def release(self) -> None:
        """Let go now (the window is placed; what moves it from here on is the clerk)."""
        self._window.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Show and not self._since.isValid():
            self._since.start()
            QTimer.singleShot(0, lambda: keep_on_screen(self._window))
        elif kind in (QEvent.Type.Move, QEvent.Type.Resize) and self._since.isValid():
            if self._since.elapsed() < PLACING_MS:
                keep_on_screen(self._window)
            else:
                self.release()
        return False
