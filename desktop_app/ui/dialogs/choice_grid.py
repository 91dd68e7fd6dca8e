"""The preview's choices in two columns that close up around the hidden ones, no line left half empty."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

Choice = tuple[QLabel | None, QWidget]  # a label (None: the field says it, a check box) and its field


class ChoiceGrid(QObject):
    """The file's choices on the left, the rows' on the right, each column's shown ones from the top; what
    the right holds beyond the left's lines gets lines of its own from the left edge. Laid out again when a
    field is shown or hidden. Seen: an .xlsx file's decimal comma alone on the right of a line whose left
    half, where a CSV's encoding goes, was empty."""

    def __init__(self, grid: QGridLayout, left: list[Choice], right: list[Choice], parent: QObject) -> None:
        super().__init__(parent)
        self._grid, self._left, self._right = grid, left, right
        for _label, field in left + right:
            field.installEventFilter(self)
        self.arrange()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.arrange()
        return False

    def lines(self) -> list[tuple[Choice | None, Choice | None]]:
        """The shown choices line by line: (left, right); an overflowing right choice as (it, None)."""
        left = [c for c in self._left if not c[1].isHidden()]
        right = [c for c in self._right if not c[1].isHidden()]
        paired: list[tuple[Choice | None, Choice | None]] = [
            (left[i] if i < len(left) else None, right[i] if i < len(right) else None)
            for i in range(max(len(left), len(right)))
        ]
        return [(a, b) if a is not None else (b, None) for a, b in paired]

    def arrange(self) -> None:
        grid = self._grid
        for label, field in self._left + self._right:
            for widget in (label, field):
                if widget is not None:
                    grid.removeWidget(widget)
        shown = self.lines()
        placed: set[int] = set()
        for row, (first, second) in enumerate(shown):
            for column, choice in ((0, first), (2, second)):
                if choice is None:
                    continue
                label, field = choice
                wide = second is None and column == 0 and label is None  # a check box on a line of its own
                # beside a check box (no label), a field reaches over the right labels' column, the check box
                # standing with the right fields: seen at 1024, "Detected: Chinese (GBK) - Excel on Chinese W…"
                # cut beside a check box with room to spare
                beside_box = column == 0 and second is not None and second[0] is None
                if label is not None:
                    grid.addWidget(label, row, column)
                    grid.addWidget(field, row, column + 1, 1, 2 if beside_box else 1)
                elif column == 2:
                    grid.addWidget(field, row, 3)
                else:
                    grid.addWidget(field, row, column, 1, 4 if wide else 2)
                placed.add(id(field))
        # the hidden ones stay in the grid below the shown (a hidden widget takes no room there)
        row = len(shown)
        for label, field in self._left + self._right:
            if id(field) not in placed:
                if label is not None:
                    grid.addWidget(label, row, 0)
                grid.addWidget(field, row, 1)
                row += 1
