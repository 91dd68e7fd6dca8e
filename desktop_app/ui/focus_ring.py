"""A focus ring that can be seen: a 2-px ring in the highlight colour around the widget with the focus."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPen, QRegion
from PySide6.QtWidgets import QApplication, QLabel, QMenu, QMenuBar, QWidget

MARGIN = 3  # the ring lies this far outside the widget
WIDTH = 2


class _Ring(QWidget):
    """Paints only the ring (its mask is the ring), never takes a click."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def place(self, rect: QRect) -> None:
        self.setGeometry(rect)
        inner = QRect(0, 0, rect.width(), rect.height())
        self.setMask(QRegion(inner).subtracted(QRegion(inner.adjusted(WIDTH + 1, WIDTH + 1, -WIDTH - 1, -WIDTH - 1))))
        self.raise_()
        self.show()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.palette().highlight().color(), WIDTH))
        painter.drawRoundedRect(self.rect().adjusted(1, 1, -1, -1), 4, 4)


class FocusRing(QObject):
    """Follows QApplication.focusChanged: one ring per window, around the focus widget, following it when
    it (or anything it sits in) moves or resizes."""

    def __init__(self, app: QApplication, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._target: QWidget | None = None
        self._watched: list[QWidget] = []
        self._rings: dict[int, _Ring] = {}
        app.focusChanged.connect(self._focus_changed)

    def ring_for(self, window: QWidget) -> _Ring | None:
        return self._rings.get(id(window))

    def stop(self) -> None:
        self._app.focusChanged.disconnect(self._focus_changed)
        self._unwatch()

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        self._unwatch()
        for ring in self._rings.values():
            ring.hide()
        if (
            new is None
            or isinstance(new, (QMenu, QMenuBar, QLabel))
            or new.window().windowType() == Qt.WindowType.Popup
        ):
            self._target = None
            return
        self._target = new
        widget: QWidget | None = new
        while widget is not None:
            widget.installEventFilter(self)
            self._watched.append(widget)
            widget = None if widget.isWindow() else widget.parentWidget()
        self._place()

    def _unwatch(self) -> None:
        for widget in self._watched:
            with contextlib.suppress(RuntimeError):  # already deleted
                widget.removeEventFilter(self)
        self._watched = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide):
            self._place()
        elif event.type() == QEvent.Type.Destroy and watched is self._target:
            self._target = None
        return False

    def _place(self) -> None:
        target = self._target
        if target is None:
            return
        window = target.window()
        ring = self._rings.get(id(window))
        if ring is None:
            ring = _Ring(window)
            self._rings[id(window)] = ring
            key = id(window)
            window.destroyed.connect(lambda _o=None: self._rings.pop(key, None))
        if not target.isVisible():
            ring.hide()
            return
        # Only what is seen of the widget: a field scrolled half out of a panel gets a ring around its half.
        visible = target.visibleRegion().boundingRect()
        if visible.isEmpty():
            ring.hide()
            return
        top_left = target.mapTo(window, visible.topLeft())
        ring.place(QRect(top_left, visible.size()).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))
