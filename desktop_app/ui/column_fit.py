"""Fitting the task list's columns into the view's width, so the counts never need sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer
from PySide6.QtWidgets import QStyle, QTableView

PADDING = 12  # a cell's margins and the grid line
HEADER_PADDING = 16  # the sorted column's header: its margins and the sort arrow (which overlaps the text's end)
HEADER_MARGINS = 8  # another column's header: its margins and the grid line, no room kept for an arrow it lacks
PILL_PADDING = 28  # the status label's rounded background and its inset
MIN_FIXED = {"progress": 64}  # a bar narrower than this cannot be read
MEASURED_ROWS = 300  # the widest text among this many rows sizes a column
CONTENT_CAP = 1.6  # a fit_content column's minimum grows at most to this many times its own
# the header's least section width, below every width fitted here: Qt's own is the font's widest glyph, 40 px
# in Noto Sans CJK (a Chinese desk), and widened the Failed and Elapsed columns past their fit (seen: the last
# column cut, a sideways scroll bar at 1024 and 1400 in Chinese)
LEAST_SECTION = 20
Index = QModelIndex | QPersistentModelIndex


class ColumnFitter(QObject):
    """Sizes each fixed column to its header and to what the rows hold, and shares what is left among
    the elastic ones (file, type, stage) by weight, down to their minimum, then to their floor: the kept
    ones (`keep`: the stage, at least as wide as its texts a clerk must read whole) give way last. A `spare`
    column with nothing to show (the speed while no task runs) is hidden, until a row has something for it.
    Short of room while a task runs, the fixed columns hold the texts they show now (not the widest to come),
    the spare columns give way with their texts, and the kept ones first. A column the clerk (or code) sized
    is theirs: fitting stops until fit() is asked for again; `custom` is saved with the header."""

    def __init__(
        self,
        table: QTableView,
        *,
        fixed: dict[int, str],
        elastic: dict[int, tuple[int, int, int]],
        pills: tuple[int, Callable[[], Iterable[str]]],
        widest_role: int | None = None,
        keep: dict[int, Callable[[Iterable[str]], Iterable[str]]] | None = None,
        keep_least: dict[int, Callable[[Iterable[str]], Iterable[str]]] | None = None,
        fit_content: tuple[int, ...] = (),
        spare: tuple[int, ...] = (),
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._table = table
        self._fixed = fixed  # column -> a name (MIN_FIXED may give it a least width)
        self._elastic = elastic  # column -> (weight, minimum width, floor width)
        # elastic column -> given the texts its rows hold, those of its heads they show, to be read whole at
        # their start, an ellipsis after them ("Undone by T…" of "Undone by T… — Done: 60 rows imported"); it
        # gives way only after the other elastic columns, and keeps no room while no row shows such a head
        self._keep = keep or {}
        self._kept: dict[int, list[str]] = {}
        # a kept column's heads at their least, while room is short: what still tells the row apart ("Undone by
        # T…", the number in the line below the list); the column gives way no further than them
        self._keep_least = keep_least or {}
        self._kept_least: dict[int, list[str]] = {}
        # elastic columns of a few short texts (the type): their minimum grows to the widest the rows hold, up
        # to CONTENT_CAP times it, while there is room ("Customer import", not "Customer imp…" at 1366)
        self._fit_content = fit_content
        self._content: dict[int, int] = {}
        self._spare = spare  # fixed columns hidden, while their rows show nothing, where room is short
        self._blank: set[int] = set()  # the spare columns no row has a text (or a text to come) for
        self._pill_column, self._pill_texts = pills
        # a cell's widest text to come (an active task's counts, speed and time): room made when its row comes
        self._widest_role = widest_role
        self._reserved = False  # the last measure made room for a text to come: let it go once none is left
        # short of room for the elastic columns' minimums (1024 px, a task running), the fixed columns hold
        # their texts of now, not the widest to come: a tick that outgrows one refits then (seen: the Type
        # column read "C…" and the File "custo…" while a task ran)
        self._tight = False
        self._now: dict[int, int] = {}  # each fixed column's width for the texts its rows show now
        self._crowded: set[int] = set()  # spare columns hidden while tight, their texts notwithstanding
        self._fitting = False
        self.custom = False
        self._needed: dict[int, int] | None = None  # measured once per change of texts, not per resize
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(150)
        self._later.timeout.connect(self.remeasure)
        header = table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(LEAST_SECTION)
        header.sectionResized.connect(self._resized)
        header.sortIndicatorChanged.connect(self._sorted)
        table.viewport().installEventFilter(self)
        model = table.model()
        model.rowsInserted.connect(lambda _p, first, last: self._check(first, last))
        model.dataChanged.connect(self._changed)
        model.modelReset.connect(self._later.start)

    def restore(self, state: object, *, custom: bool) -> None:
        """A saved header (widths, order, sorting): the clerk's widths stay theirs only if they were."""
        self._fitting = True
        try:
            self._table.horizontalHeader().restoreState(state)  # type: ignore[arg-type]
            for column in self._spare:  # hidden for a narrower window than this start's: fit() decides
                self._table.setColumnHidden(column, False)
        finally:
            self._fitting = False
        self.custom = custom

    def _sorted(self, _column: int, _order: object) -> None:
        """The sort arrow moved to another header: its room with it (a restored header's is measured later)."""
        self._needed = None
        if not self._fitting:
            self.fit(keep_custom=True)

    def _resized(self, _column: int, _old: int, _new: int) -> None:
        if not self._fitting:
            self.custom = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and not self.custom:
            self.fit(keep_custom=True)
        return False

    def _texts(self, row: int, column: int) -> tuple[str, str]:
        """What a cell reads, and the widest it may come to read ("" when it does not grow)."""
        index = self._table.model().index(row, column)
        widest = index.data(self._widest_role) if self._widest_role is not None else None
        return str(index.data() or ""), str(widest or "")

    def _changed(self, first: Index, last: Index, _roles: object = ()) -> None:
        if self._reserved and first.column() == 0 and not self.custom and not self._later.isActive():
            # a whole row changed (a task claimed or ended, not a tick): once no row has a text to come,
            # the room made for it goes back to the other columns, when the run is over, not during it
            model = self._table.model()
            rows = min(model.rowCount(), MEASURED_ROWS)
            if not any(self._texts(row, column)[1] for row in range(rows) for column in self._fixed):
                self._later.start()
                return
        self._check(first.row(), last.row())

    def _check(self, first: int, last: int) -> None:
        """Rows came or changed: refit (soon, once) if one holds a text wider than its column. With room
        made for the widest texts to come, a progress tick finds its texts within their columns but for
        the unforeseen (a file of millions of rows), once."""
        if self.custom or self._later.isActive():
            return
        metrics, model = self._table.fontMetrics(), self._table.model()
        for row in range(first, min(last, first + 20) + 1):
            for column in self._fixed.keys() - self._crowded:
                texts = self._texts(row, column)[:1] if self._tight else self._texts(row, column)
                width = max((metrics.horizontalAdvance(t) for t in texts if t), default=0)
                if width and width + PADDING > self._table.columnWidth(column):
                    self._later.start()
                    return
            for column, heads in self._keep.items():  # a head to read whole that the last measure did not see
                if set(heads([str(model.index(row, column).data() or "")])) - set(self._kept.get(column, ())):
                    self._later.start()
                    return
            for column, measured in self._content.items():  # wider than measured, not than shown: no refit
                text = str(model.index(row, column).data() or "")  # per tick where the type is cut at 1024
                if text and metrics.horizontalAdvance(text) + PADDING > measured:
                    self._later.start()
                    return

    def remeasure(self) -> None:
        """The texts changed (rows, a language): measure them again, then fit (unless the clerk sized)."""
        self._needed = None
        self.fit(keep_custom=True)

    def needed(self) -> dict[int, int]:
        """Each fixed column's width: its header, and the widest text of the rows the list holds."""
        if self._needed is None:
            self._needed = self._measure()
        return dict(self._needed)

    def _measure(self) -> dict[int, int]:
        metrics, model = self._table.fontMetrics(), self._table.model()
        rows = min(model.rowCount(), MEASURED_ROWS)
        widths = {}
        self._reserved = False
        self._blank = set()
        self._now = {}
        for column, name in self._fixed.items():
            texts = [self._texts(row, column) for row in range(rows)]
            self._reserved = self._reserved or any(widest for _, widest in texts)
            if column in self._spare and not any(t for cell in texts for t in cell):
                self._blank.add(column)
            least = max(self._header_width(column), MIN_FIXED.get(name, 0))
            content = max((metrics.horizontalAdvance(t) for cell in texts for t in cell if t), default=0) + PADDING
            widths[column] = max(least, content)
            now = max((metrics.horizontalAdvance(shown) for shown, _ in texts if shown), default=0) + PADDING
            self._now[column] = max(least, now)
        for kept, keep in ((self._kept, self._keep), (self._kept_least, self._keep_least)):
            for column, heads in keep.items():
                kept[column] = list(heads([str(model.index(row, column).data() or "") for row in range(rows)]))
        for column in self._fit_content:
            shown = (str(model.index(row, column).data() or "") for row in range(rows))
            self._content[column] = max((metrics.horizontalAdvance(t) for t in shown if t), default=0) + PADDING
        pill = max((metrics.horizontalAdvance(t) for t in self._pill_texts()), default=0) + PILL_PADDING
        widths[self._pill_column] = max(self._header_width(self._pill_column), pill)
        return widths

    def _header_width(self, column: int) -> int:
        """What a column's header needs: its title, its margins, and the sort arrow where it is shown."""
        header = self._table.horizontalHeader()
        title = str(self._table.model().headerData(column, Qt.Orientation.Horizontal) or "")
        sorted_here = header.isSortIndicatorShown() and header.sortIndicatorSection() == column
        return self._table.fontMetrics().horizontalAdvance(title) + (HEADER_PADDING if sorted_here else HEADER_MARGINS)

    def elastic(self) -> dict[int, tuple[int, int, int]]:
        """Each elastic column's (weight, minimum, floor), a kept column's minimum as wide as its texts, a
        fit_content one's as its rows' (within its cap)."""
        metrics = self._table.fontMetrics()
        self.needed()  # the rows' texts measured
        specs = {}
        for column, (weight, minimum, floor) in self._elastic.items():
            if column in self._content:
                minimum = max(minimum, min(self._content[column], int(minimum * CONTENT_CAP)))
            texts = self._kept.get(column)
            if texts:
                widest = max((metrics.horizontalAdvance(t + "…") for t in texts), default=0)
                minimum = max(minimum, widest + self.text_margins())
            least = self._kept_least.get(column)
            if least:
                widest = max((metrics.horizontalAdvance(t + "…") for t in least), default=0)
                floor = min(minimum, max(floor, widest + self.text_margins()))
            specs[column] = (weight, minimum, floor)
        return specs

    def text_margins(self) -> int:
        """What a cell's text cannot use of its column's width: the style's margin each side, the grid line."""
        style = self._table.style()
        return 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self._table) + 1) + 1

    def minimum_width(self) -> int:
        """The narrowest view that shows every column at its minimum without sideways scrolling."""
        scrollbar = self._table.verticalScrollBar().sizeHint().width()
        return sum(self.needed().values()) + sum(e[1] for e in self.elastic().values()) + scrollbar + 2

    def fit(self, *, keep_custom: bool = False) -> None:
        """Size the columns to the view now (and, unless keep_custom, take the sizing back from the clerk)."""
        if keep_custom and self.custom:
            return
        self.custom = False
        widths = self.needed()
        specs = self.elastic()
        weights = sum(e[0] for e in specs.values())
        minimums = sum(e[1] for e in specs.values())
        room = self._table.viewport().width() - sum(widths.values())
        # short of room, a task running or not (seen idle at 1024: "Cu…" and "Un…" for the types beside an
        # undone task's whole "Undone by T…" head): the type and the file read first
        self._tight = room < minimums
        if self._tight and self._reserved:  # no room kept for the texts to come: the elastic columns come first
            widths = {column: self._now.get(column, width) for column, width in widths.items()}
            room = self._table.viewport().width() - sum(widths.values())
        # a spare column with nothing to show is hidden (seen at 1400: an empty Speed column while no task ran),
        # and while tight one with a text too (the speed: the line below the list reads the selected task's)
        hidden = set(self._spare) if self._tight and room < minimums else set(self._blank)
        self._crowded = hidden - self._blank
        for column in hidden:
            room += widths.pop(column)
        if room >= minimums:
            for column, (weight, minimum, _floor) in specs.items():
                widths[column] = minimum + (room - minimums) * weight // weights
        else:  # narrower still: the elastic columns give way towards their floors, each by its share, the
            short = minimums - room  # kept ones (the stage) only once the others are at their floors; while
            kept = [c for c in specs if c in self._keep]  # tight, first (the type and file read, the stage's
            others = [c for c in specs if c not in self._keep]  # whole text is in the line below the list)
            for group in (kept, others) if self._tight else (others, kept):
                give = sum(specs[c][1] - specs[c][2] for c in group)
                taken = min(short, give)
                for column in group:
                    _weight, minimum, floor = specs[column]
                    widths[column] = minimum - -(-taken * (minimum - floor) // max(1, give))  # ceil
                short -= taken
        self._fitting = True
        try:
            for column in self._spare:
                self._table.setColumnHidden(column, column in hidden)
            for column, width in widths.items():
                self._table.setColumnWidth(column, width)
        finally:
            self._fitting = False
