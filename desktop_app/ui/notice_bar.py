"""A message strip above the task list: seen where the clerk looks, with a button or two, closable."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle, QToolButton, QWidget

from desktop_app.ui.outcomes import Tone

# Background and border per tone: the task list's status colours, so a notice reads as its task does.
COLOURS = {
    Tone.GOOD: ("#e9f7ec", "#7cc28b"),
    Tone.WARNING: ("#fff4d6", "#e0b04a"),
    Tone.BAD: ("#ffe9e9", "#e08080"),
    Tone.RUNNING: ("#e6f0ff", "#7aa7e0"),
    Tone.NEUTRAL: ("#f0f0f0", "#b0b0b0"),
    Tone.PENDING: ("#f0f0f0", "#b0b0b0"),
}
SHOWN_MS = 15_000  # a notice that asks nothing goes away by itself after this long


class NoticeBar(QFrame):
    """Shows one notice at a time (a newer one replaces it): a text, up to two buttons, a close button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notice")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = [QPushButton(), QPushButton()]
        self._handlers: list[Callable[[], None] | None] = [None, None]
        self._stays: frozenset[int] = frozenset()
        self._again: Callable[[], None] | None = None
        self.close_button = QToolButton()
        self.close_button.setAutoRaise(True)
        self.close_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 3, 3)
        layout.addWidget(self.label, 1)
        for i, button in enumerate(self.buttons):
            button.setAutoDefault(False)
            button.clicked.connect(lambda _checked=False, i=i: self._clicked(i))
            layout.addWidget(button)
        layout.addWidget(self.close_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self.retranslate()
        self.hide()

    def show_notice(
        self,
        text: str,
        tone: Tone = Tone.NEUTRAL,
        actions: list[tuple[str, Callable[[], None]]] | None = None,
        *,
        timeout_ms: int = SHOWN_MS,
        again: Callable[[], None] | None = None,
        stays: frozenset[int] = frozenset(),
    ) -> None:
        """Show `text`; each action is (button text, what it does; the notice then closes). `again` says the
        notice anew (in the window's language of the moment); without it a switch of language closes it.
        `stays`: the actions (by position) that ask a question first: the notice stays up, so that a "no"
        leaves it as it was with its other buttons (the caller closes it on a "yes")."""
        self._again = again
        self._stays = stays
        background, border = COLOURS[tone]
        self.setStyleSheet(f"QFrame#notice {{ background: {background}; border: 1px solid {border}; "
                           "border-radius: 4px; }")  # fmt: skip
        self.label.setText(text)
        actions = (actions or [])[: len(self.buttons)]
        for i, button in enumerate(self.buttons):
            if i < len(actions):
                button.setText(actions[i][0])
                self._handlers[i] = actions[i][1]
                button.show()
            else:
                self._handlers[i] = None
                button.hide()
        self.show()
        if timeout_ms > 0:
            self._timer.start(timeout_ms)
        else:
            self._timer.stop()

    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    def _clicked(self, i: int) -> None:
        handler = self._handlers[i]
        if i not in self._stays:
            self.dismiss()
        if handler is not None:
            handler()

    def dismiss(self) -> None:
        self._timer.stop()
        self.hide()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            # A notice in the language just left would be the one other-language line in the window.
            if not self.isHidden():
                if self._again is not None:
                    self._again()
                else:
                    self.dismiss()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.close_button.setToolTip(self.tr("Close this message"))
        self.close_button.setAccessibleName(self.tr("Close this message"))
