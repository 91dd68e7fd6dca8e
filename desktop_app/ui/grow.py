"""A dialog grown to show all the lines a wrapped label was just given (Qt does not grow a window for them)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def grow_to_fit(window: QWidget) -> None:
    """Taller, at its width, when its layout needs more height than it has (a wrapped label's new lines
    were cut at their tops and bottoms, seen under Xvfb); never shorter."""
    layout = window.layout()
    if layout is None:
        return
    layout.activate()
    width = window.width()
    height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
    if height > window.height():
        window.resize(width, height)
