"""Before queueing: the first rows as read and checked by the import's own rules and, their keys looked up
in the table, what the chosen mode does with each; the row count, the file's choices (sheet, encoding,
separator, day/month order, decimal comma, size limit), the header mapping, and why the file cannot be
queued when it cannot."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.errors import BatchDeskError, ErrorCode
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.profiles import OPTION_NAMES, ProfileVersion
from desktop_app.imports import file_preview
from desktop_app.imports.file_preview import (
    ALREADY_IN_TABLE,
    FAILS,
    NOT_IN_TABLE,
    FileSample,
    Name,
    RowCount,
    SampleCheck,
    StoredKeys,
)
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import MIB, size_problem
from desktop_app.imports.profiles import from_task, header_overrides, with_options
from desktop_app.imports.row_plans import Action
from desktop_app.store.business_rows import Key
from desktop_app.ui.background import Background
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.dialogs.choice_grid import Choice, ChoiceGrid
from desktop_app.ui.dialogs.preview_choices import ENCODINGS, FileChoices
from desktop_app.ui.dialogs.preview_profile import ListProfiles, ProfileChoice, SaveProfile, matching_profile
from desktop_app.ui.dialogs.preview_table import GREY, RED, fill_rows, mark_mapping, mark_outcomes, mark_rows
from desktop_app.ui.full_text_tip import NarrowCombo
from desktop_app.ui.plain_errors import plain_error

log = logging.getLogger(__name__)

__all__ = ["ENCODINGS", "GREY", "RED", "PreviewDialog"]

PREVIEW_ROWS = file_preview.SHOWN_ROWS
MODES = tuple(m.value for m in ImportMode)
BLANKS = tuple(b.value for b in BlankPolicy)
NUMBER_KINDS = ("decimal", "integer")
PREFERRED_SIZE = (1040, 700)  # the dialog's size where the screen has room (PreviewDialog._fit)
# the table's rows for some keys of a type, and which of some reference names its reference tables hold
# (TaskService.look_up_keys): asks the database, so never called on the GUI thread
LookUp = Callable[[ImportType, Sequence[Key], Sequence[Name]], StoredKeys]
# team mode: why the login may not import into a type (its name) in a mode (its value), None when it may
# (TaskService.rights_refusal): asks the database, so never called on the GUI thread
RightsCheck = Callable[[str, str], BatchDeskError | None]


class PreviewDialog(QDialog):
    """Shows a file as it will be read and checked, and lets the clerk fix how it is read and mapped.

    ``request``: an earlier import's parameters to start from (the re-import of a fixed error file);
    ``notice``: a warning shown above everything (that error file is unchanged). ``max_file_mb`` and
    ``max_rows``: the settings' limits, which the preview holds the file to as the task would.
    ``look_up``: finds the shown rows' keys in the table (run in the background), so that a row the mode
    would fail, skip or update for its key reads so; without it only the rows' cells are checked.
    ``rights``: team mode; the login's rights on the chosen type's table, asked (in the background) as the
    type and the mode are chosen: one the login lacks is said, and Queue stays off (docs/TEAM.md).
    ``list_profiles`` / ``save_profile``: the database's mapping profiles, read and saved in the background
    (docs/PROFILES.md); the profile whose header mapping fits the file is applied and named, the clerk may
    choose another or none, and may save the header choices as a profile. Without them (or when the
    database cannot be read) the preview works with no profile.

    Signals:
        loaded(): a preview (first or after another encoding, separator or sheet) is on screen.
        load_failed(str): the file could not be read; the plain-language reason.
        counted(): the row count (or its estimate) is shown.
        looked_up(): the shown rows' keys were looked up in the table (or could not be), and it is said.
        profiles_read(): the profiles were read (or could not be), and the fitting one applied.
        profile_saved(): a save as profile ended (saved, or said why not).
        rights_checked(): the login's rights for the chosen type and mode are known (or could not be read).
    """

    loaded = Signal()
    load_failed = Signal(str)
    counted = Signal()
    looked_up = Signal()
    profiles_read = Signal()
    profile_saved = Signal()
    rights_checked = Signal()

    def __init__(
        self,
        path: Path,
        catalog: ImportCatalog,
        background: Background,
        *,
        import_type: str | None = None,
        dry_run: bool = False,
        mode: str = "insert",
        request: ImportOptions | None = None,
        notice: str = "",
        max_file_mb: int = 50,
        max_rows: int = 1_000_000,
        fail_threshold: float = 0.30,
        look_up: LookUp | None = None,
        list_profiles: ListProfiles | None = None,
        save_profile: SaveProfile | None = None,
        rights: RightsCheck | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._rights = rights
        # (type, mode) -> the refusal, or None: allowed (or not known: the Queue's own check says it then)
        self._refusals: dict[tuple[str, str], BatchDeskError | None] = {}
        self._rights_asked: set[tuple[str, str]] = set()
        self.path = path
        self._catalog = catalog
        self._background = background
        self._request = request
        self._notice = notice
        self._max_file_mb = max_file_mb
        self._max_rows = max_rows
        self._fail_threshold = fail_threshold  # more rows failing than this share: the import counts as failed
        if request is not None:
            import_type, mode = request.import_type, request.mode.value
        self._type_given = import_type is not None
        self._sample: FileSample | None = None
        self._check: SampleCheck | None = None
        self._count: RowCount | None = None
        self._generation = 0  # answers of an earlier read are dropped
        self._header: tuple[str, ...] = ()
        self._auto: dict[int, str] = {}
        self._look_up = look_up
        self._stored: StoredKeys | None = None  # the table's rows for the shown rows' keys, as last looked up
        # the look-up under way: type, keys and reference names
        self._looking: tuple[str, frozenset[Key], frozenset[Name]] | None = None
        self._look_up_failed: tuple[str, frozenset[Key], frozenset[Name], str] | None = None  # ..., and why
        self._save_profile = save_profile
        self._profiles: list[ProfileVersion] = []  # every profile's latest version, once read
        self._clerk_chose_profile = False  # the clerk chose in the Profile box: no automatic choice again
        self.profiles_known = list_profiles is None  # the profiles were read (or could not be)
        self._read_with: tuple[str | None, str | None, str | None] | None = None  # encoding, delimiter, sheet
        self.profile_choice = ProfileChoice(self)
        self.profile_box = self.profile_choice.box
        self.profile_line = self.profile_choice.line
        self.save_profile_button = self.profile_choice.save_button

        self.type_box = NarrowCombo()
        for name in catalog.names():
            self.type_box.addItem(catalog.title(name), name)
        if import_type is not None and self.type_box.findData(import_type) >= 0:
            self.type_box.setCurrentIndex(self.type_box.findData(import_type))
        self.choices = FileChoices(self)
        self.encoding_box = self.choices.encoding_box
        self.delimiter_box = self.choices.delimiter_box
        self.sheet_box = self.choices.sheet_box
        self.date_order_box = self.choices.date_order_box
        self.decimal_comma_box = self.choices.decimal_comma_box
        self.raise_limit_box = self.choices.raise_limit_box
        self.raise_rows_box = self.choices.raise_rows_box
        if request is not None:
            self.decimal_comma_box.setChecked(request.decimal_comma)
            self.choices.prefer(request.date_order)
        # what to do with rows whose key is already in the table (the task's mode)
        self.mode_box = NarrowCombo()
        for value in MODES:
            self.mode_box.addItem("", value)
        self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(mode)))
        self.blank_box = NarrowCombo()
        for value in BLANKS:
            self.blank_box.addItem("", value)
        if request is not None:
            self.blank_box.setCurrentIndex(max(0, self.blank_box.findData(request.blank.value)))
        # a sync's scope: the rows of the table it may delete, those whose column holds a value (none: all)
        self.scope_column_box = NarrowCombo()
        self.scope_value_edit = QLineEdit()
        self.scope_field = QWidget()
        scope_line = QHBoxLayout(self.scope_field)
        scope_line.setContentsMargins(0, 0, 0, 0)
        scope_line.addWidget(self.scope_column_box, 1)
        self._scope_equals = QLabel("=")
        scope_line.addWidget(self._scope_equals)
        scope_line.addWidget(self.scope_value_edit, 1)
        self._given_scope = dict(request.scope) if request is not None else {}
        self.notice_label = QLabel(notice)
        self.notice_label.setWordWrap(True)
        self.notice_label.setStyleSheet("background: #fff4ce; color: #6b4e00; padding: 6px;")
        self.notice_label.setVisible(bool(notice))
        self.count_label = QLabel()
        self.date_note = QLabel()
        self.date_note.setWordWrap(True)
        self.rows_table = QTableWidget()
        self.rows_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.rows_table.setTabKeyNavigation(False)  # read only: Tab goes on to the next control
        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        # rows that wait for a name are no failure, nor quite a pass: amber, as their cells, in a label of their
        # own (seen in a tryout: in the failure's label they read red)
        self.waiting_label = QLabel()
        self.waiting_label.setWordWrap(True)
        self.waiting_label.setStyleSheet("color: #9a6700;")
        self.mapping_table = QTableWidget(0, 2)
        self.mapping_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.mapping_table.verticalHeader().hide()
        self.mapping_note = QLabel()
        self.mapping_note.setWordWrap(True)
        self.mapping_note.setStyleSheet("color: #9a6700;")
        self.missing_label = QLabel()  # why the file cannot be queued, in the import's own words
        self.missing_label.setStyleSheet("color: #c62828; font-weight: bold;")
        self.missing_label.setWordWrap(True)
        self.dry_run_box = QCheckBox()
        self.dry_run_box.setChecked(dry_run)
        self.dry_run_box.toggled.connect(lambda _checked: self._name_ok_button())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.status_label = QLabel()
        # Long choices ("Add new rows only (a row already…)") must not widen the dialog past a small screen:
        # every choice box is a NarrowCombo (cut with "…", whole on hover and in its list).
        self._layout()
        self._fit()
        self.retranslate()

        self._fill_scope_columns()
        self.scope_column_box.currentIndexChanged.connect(lambda _i: self._scope_changed())
        self.scope_value_edit.textChanged.connect(lambda _t: self._update_state())
        self.type_box.currentIndexChanged.connect(lambda _i: self._type_changed())
        self.profile_choice.chosen.connect(self._profile_chosen)
        self.save_profile_button.clicked.connect(self._ask_profile_name)
        self.mode_box.currentIndexChanged.connect(lambda _i: self._mode_changed())
        self.choices.reread.connect(self.reload)
        self.choices.changed.connect(self._update_state)
        self._mode_changed()
        self._read_profiles(list_profiles)
        self.reload()

    def _fit(self) -> None:
        """1040 x 700, or the screen less its window frame when smaller (1024 x 700 leaves 984 x 640)."""
        screen = self.screen().availableGeometry()
        self.resize(min(PREFERRED_SIZE[0], screen.width() - 40), min(PREFERRED_SIZE[1], screen.height() - 60))

    def _layout(self) -> None:
        self._type_label, self._mode_label, self._blank_label = QLabel(), QLabel(), QLabel()
        self._scope_label = QLabel()
        self._scope_label.setBuddy(self.scope_column_box)
        self._type_label.setBuddy(self.type_box)
        self._mode_label.setBuddy(self.mode_box)
        self._blank_label.setBuddy(self.blank_box)
        c = self.choices
        # two columns of choices: the file on the left, what the rows do on the right
        grid = QGridLayout()
        p = self.profile_choice
        left: list[Choice] = [(self._type_label, self.type_box), (p.label, p.box), (c.sheet_label, c.sheet_box),
                              (c.encoding_label, c.encoding_box), (c.delimiter_label, c.delimiter_box)]  # fmt: skip
        right: list[Choice] = [(self._mode_label, self.mode_box), (self._scope_label, self.scope_field),
                               (self._blank_label, self.blank_box), (c.date_order_label, c.date_order_box),
                               (None, c.decimal_comma_box)]  # fmt: skip
        self._choice_grid = ChoiceGrid(grid, left, right, self)  # a workbook's close up: no encoding, no separator
        # the right-hand choices are the long ones ("Add new rows only (a row already in the table is an error)")
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(3, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.notice_label)
        layout.addLayout(grid)
        layout.addWidget(self.profile_line)
        layout.addWidget(self.date_note)
        layout.addWidget(self.count_label)
        self._rows_title, self._mapping_title = QLabel(), QLabel()
        layout.addWidget(self._rows_title)
        layout.addWidget(self.rows_table, 3)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.waiting_label)
        # the save button beside the mapping's title: no line of its own taken from the tables on a small screen
        mapping_head = QHBoxLayout()
        mapping_head.addWidget(self._mapping_title, 1)
        mapping_head.addWidget(self.save_profile_button)
        layout.addLayout(mapping_head)
        layout.addWidget(self.mapping_table, 2)
        layout.addWidget(self.mapping_note)
        layout.addWidget(self.missing_label)
        layout.addWidget(c.raise_limit_box)  # right under the reason it answers
        layout.addWidget(c.raise_rows_box)
        layout.addWidget(self.dry_run_box)
        layout.addWidget(self.status_label)
        layout.addWidget(self.buttons)

    # --- loading -------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the first rows again with the chosen encoding, separator and sheet (None: the file's)."""
        path, limit = self.path, self._max_file_mb
        encoding, delimiter, sheet = self._reading()
        self._read_with = (encoding, delimiter, sheet)
        self._generation += 1
        generation = self._generation
        self.status_label.setText(self.tr("Reading the file…"))
        self._ok_button().setEnabled(False)

        def read() -> FileSample:
            return file_preview.read_sample(path, encoding=encoding, sheet=sheet, delimiter=delimiter,
                                            max_file_mb=limit)  # fmt: skip

        # context: the clerk may close the dialog while it reads; its answer is then dropped.
        self._background.call(read, lambda sample: self._show(sample, generation),
                              lambda exc: self._failed(exc, generation), context=self)  # fmt: skip

    def _failed(self, exc: BaseException, generation: int) -> None:
        if generation != self._generation:
            return
        reason = plain_error(exc, self._catalog.lang, f"previewing {self.path}")
        self.status_label.setText(reason)
        self.load_failed.emit(reason)

    def _show(self, sample: FileSample, generation: int) -> None:
        if generation != self._generation:
            return
        self._sample = sample
        self._header = tuple(sample.header)
        self._count = None
        self.choices.show_rows_needed(0)
        over = size_problem(sample.path, self._max_file_mb) is not None  # the engine's rule, at the settings' limit
        self.choices.show_sample(sample, over_limit=over, numbers=self._has_numbers())
        fill_rows(self.rows_table, self._header, sample.rows[:PREVIEW_ROWS])
        if not self._type_given:
            best = self._catalog.best_match(self._header)
            if best is not None:
                self.type_box.blockSignals(True)
                self.type_box.setCurrentIndex(max(0, self.type_box.findData(best)))
                self.type_box.blockSignals(False)
        self.status_label.setText("")
        self._show_mapping(recall=not self._clerk_chose_profile)
        self.loaded.emit()
        self._start_count(sample, generation)

    def _start_count(self, sample: FileSample, generation: int) -> None:
        encoding, _delimiter, sheet = self._reading()

        def done(count: RowCount) -> None:
            if generation == self._generation:
                self._count = count
                # the engine's rule at the settings' limit, as the size box is offered
                over = file_preview.count_problem(count, self._max_rows)
                too_many = over is not None and over.code == ErrorCode.TOO_MANY_ROWS
                self.choices.show_rows_needed(count.limit_to_allow() if too_many else 0)
                self._update_state()
                self.counted.emit()

        def failed(exc: BaseException) -> None:
            log.info("counting the rows of %s failed: %s", sample.path, exc)  # the import counts again

        limit = self._max_rows  # an estimate over it is counted, as the import counts it
        self._background.call(lambda: file_preview.count_rows(sample, encoding=encoding, sheet=sheet,
                                                              max_rows=limit),
                              done, failed, context=self)  # fmt: skip

    def chosen_encoding(self) -> str | None:
        return self.choices.encoding()

    def _reading(self) -> tuple[str | None, str | None, str | None]:
        """The encoding, separator and sheet the file is read with: the clerk's, else the profile's, else
        the file's own (None)."""
        version = self.profile()
        given = version.profile.options if version is not None else None
        encoding, delimiter, sheet = self.chosen_encoding(), self.choices.delimiter(), self.choices.sheet()
        if given is not None:
            encoding, delimiter, sheet = encoding or given.encoding, delimiter or given.delimiter, sheet or given.sheet
        return encoding, delimiter, sheet

    def _has_numbers(self) -> bool:
        itype = self._catalog.get(self.import_type() or "")
        return itype is not None and any(c.kind in NUMBER_KINDS for c in itype.columns)

    # --- the mode ------------------------------------------------------------------------

    def mode(self) -> str:
        return str(self.mode_box.currentData() or "insert")

    def blank(self) -> str:
        return str(self.blank_box.currentData() or "keep")

    def _mode_changed(self) -> None:
        updates = ImportMode(self.mode()).updates
        self.blank_box.setEnabled(updates)  # blank cells only matter when stored rows change
        self.scope_field.setVisible(self.mode() == ImportMode.SYNC.value)  # only a sync deletes the rows it lacks
        self._scope_label.setVisible(self.scope_field.isVisibleTo(self))
        self._update_state()

    def _fill_scope_columns(self) -> None:
        """The chosen type's columns, after "all its rows"; the scope asked before (a re-import's) chosen."""
        box = self.scope_column_box
        wanted = str(box.currentData() or "") or next(iter(self._given_scope), "")
        box.blockSignals(True)
        try:
            box.clear()
            box.addItem(self.tr("All its rows"), "")
            for column in self._catalog.columns(self.import_type() or ""):
                box.addItem(column.label, column.key)
            box.setCurrentIndex(max(0, box.findData(wanted)))
        finally:
            box.blockSignals(False)
        if self._given_scope.get(wanted) is not None and not self.scope_value_edit.text():
            self.scope_value_edit.setText(self._given_scope[wanted])
        self._scope_changed()

    def _scope_changed(self) -> None:
        chosen = bool(self.scope_column_box.currentData())
        self.scope_value_edit.setEnabled(chosen)
        self._scope_equals.setEnabled(chosen)
        self._update_state()

    def scope(self) -> dict[str, str]:
        """A sync's scope as the clerk chose it: {column key: value}, or {} for every row of the table."""
        column = str(self.scope_column_box.currentData() or "")
        if self.mode() != ImportMode.SYNC.value or not column:
            return {}
        return {column: self.scope_value_edit.text().strip()}

    # --- mapping -------------------------------------------------------------------------

    def import_type(self) -> str | None:
        value = self.type_box.currentData()
        return str(value) if value else None

    def _show_mapping(self, *, recall: bool) -> None:
        name = self.import_type()
        table = self.mapping_table
        table.setRowCount(0)
        self.decimal_comma_box.setVisible(self._sample is not None and self._has_numbers())
        if name is None or not self._header:
            self._update_state()
            return
        if recall:
            self._pick_profile()
        version = self.profile()
        # what the file's headers fill with the profile applied (without one, the type's aliases): the
        # clerk's choices are what differs from it
        given = header_overrides(version.profile if version else None, {}) or None
        try:
            auto = self._catalog.map_header(name, self._header, given)
        except ValueError:  # the profile maps two headers to one column: the aliases' mapping, the check says why
            auto = self._catalog.map_header(name, self._header)
        self._auto = {index: key for key, index in auto.index_by_key.items()}
        columns = self._catalog.columns(name)
        table.setRowCount(len(self._header))
        for i, text in enumerate(self._header):
            item = QTableWidgetItem(text)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            table.setItem(i, 0, item)
            box = NarrowCombo(least_chars=8)  # the table's column sizes it; its list shows each column whole
            box.setAccessibleName(self.tr("Column for header %s") % text)
            box.addItem(self.tr("(ignored)"), "")
            for column in columns:
                mark = " *" if column.required else ""
                box.addItem(f"{column.label}{mark}", column.key)
            key = self._auto.get(i, "")
            box.setCurrentIndex(max(0, box.findData(key)))
            box.currentIndexChanged.connect(lambda _i: self._update_state())
            table.setCellWidget(i, 1, box)
        self._update_state()

    def header_overrides(self) -> dict[str, str]:
        """The clerk's choices that differ from the automatic mapping: {header text: key or ""}."""
        overrides: dict[str, str] = {}
        for i, text in enumerate(self._header):
            box = self.mapping_table.cellWidget(i, 1)
            if isinstance(box, QComboBox) and box.currentData() != self._auto.get(i, ""):
                overrides[text] = str(box.currentData() or "")
        return overrides

    def mapping(self) -> Any:
        name = self.import_type()
        if name is None or not self._header:
            return None
        try:
            return self._catalog.map_header(name, self._header, self.header_overrides())
        except ValueError:
            return None

    # --- the check -----------------------------------------------------------------------

    def options(self) -> ImportOptions | None:
        """The import the clerk chose here, as the task's request (None before a type is chosen): the
        settings' limits, or a size or row limit raised for this file, and the task a fixed error file repairs.
        What blank cells do is part of an update's request only (an insert keeps its key the same)."""
        name = self.import_type()
        if name is None:
            return None
        mode = ImportMode(self.mode())
        blank = BlankPolicy(self.blank()) if mode.updates else BlankPolicy.KEEP
        request = ImportOptions(
            file=self.path, import_type=name, mode=mode, blank=blank,
            dry_run=self.dry_run_box.isChecked(), encoding=self.chosen_encoding(), sheet=self.choices.sheet(),
            header_overrides=self.header_overrides(), date_order=self.choices.date_order(),
            delimiter=self.choices.delimiter(), decimal_comma=self.choices.decimal_comma(),
            max_rows=self.choices.raised_rows() or self._max_rows,
            max_file_mb=self.choices.raised_mb() or self._max_file_mb,
            repairs=self._request.repairs if self._request is not None else None, scope=self.scope(),
        )  # fmt: skip
        version = self.profile()
        if version is None or version.import_type != name:
            return request
        # the request names the version (as Submitter.with_profile builds it); the profile's reading options
        # where the preview shows no choice of the clerk's (a detected encoding or separator, the first sheet,
        # an order the file does not ask): the mode, blank cells and decimal comma are on screen, set from
        # the profile when it was applied, so the clerk's boxes hold
        shown = {"mode", "blank", "decimal_comma"}
        keep = {n for n in OPTION_NAMES if n in shown or getattr(request, n) is not None}
        return with_options(request, version, keep=keep)

    def _update_state(self) -> None:
        """Check the shown rows with the import's rules and say what stops the queueing, if anything."""
        ok_button = self._ok_button()
        sample, options = self._sample, self.options()
        itype = self._catalog.get(options.import_type) if options is not None else None
        check = None
        if sample is not None and itype is not None and options is not None:
            version = self.profile()
            profile = version.profile if version is not None else None
            check = file_preview.check_sample(sample, itype, options, self._lang(), self._stored, profile=profile)
            self.choices.show_day_month(check.day_month)
            if self.choices.date_order() is not None and self.choices.date_order() != options.date_order:
                # the order the file's own dates show
                options = options.but(date_order=self.choices.date_order())
                check = file_preview.check_sample(sample, itype, options, self._lang(), self._stored, profile=profile)
        self._check = check
        self.date_note.setText(self.choices.date_order_note())
        self.date_note.setVisible(bool(self.date_note.text()))
        mark_rows(self.rows_table, check, itype, self._lang())
        mark_outcomes(self.rows_table, check.table if check is not None else None)
        self._say_problems(check)
        if check is not None and itype is not None:
            self._look_up_keys(itype, check)
        self._say_count()
        notes: list[str] = []
        mapping = check.mapping if check is not None else self.mapping()
        if mapping is not None and itype is not None:
            labels = {c.key: c.label for c in self._catalog.columns(itype.name)}
            notes = mark_mapping(self.mapping_table, self._header, mapping, labels, self.palette().text().color())
        self.mapping_note.setText("\n".join(notes))
        self.mapping_note.setVisible(bool(notes))
        reason = self._rights_reason() or self._blocking_reason(check)
        self.missing_label.setText(reason)
        self.missing_label.setVisible(bool(reason))
        self._offer_save()
        ok_button.setEnabled(sample is not None and check is not None and not reason and self._rights_known())

    # --- the login's rights (team mode) -----------------------------------------------------

    def _rights_key(self) -> tuple[str, str] | None:
        name = self.import_type()
        return None if self._rights is None or name is None else (name, self.mode())

    def _rights_known(self) -> bool:
        key = self._rights_key()
        return key is None or key in self._refusals

    def _rights_reason(self) -> str:
        """The login may not import into the chosen type in the chosen mode: the Queue's refusal, said now."""
        key = self._rights_key()
        if key is None:
            return ""
        if key not in self._refusals:
            self._ask_rights(key)
            return ""
        refusal = self._refusals[key]
        return self.tr("Cannot queue: %1").replace("%1", refusal.text(self._lang())) if refusal is not None else ""

    def _ask_rights(self, key: tuple[str, str]) -> None:
        if key in self._rights_asked or self._rights is None:
            return
        self._rights_asked.add(key)
        rights = self._rights

        def done(refusal: BatchDeskError | None) -> None:
            self._refusals[key] = refusal
            self._update_state()
            self.rights_checked.emit()

        def failed(exc: BaseException) -> None:
            # the rights could not be read: Queue is let through, and the submission checks them again
            log.info("the login's rights could not be read for the preview: %s", exc)
            self._refusals[key] = None
            self._update_state()
            self.rights_checked.emit()

        self._background.call(lambda: rights(*key), done, failed, context=self)

    def _blocking_reason(self, check: SampleCheck | None) -> str:
        if check is None:
            return ""
        blocking: BatchDeskError | None = check.blocking
        rows = self._rows_problem()
        if blocking is None and rows:
            return rows
        if blocking is not None:
            text = blocking.text(self._lang())
            if blocking.code == ErrorCode.FILE_TOO_LARGE:
                text += "\n" + self.tr("Or tick “Raise the size limit … for this file” below to import it whole.")
                # both limits said at once (seen: the rows' limit only once the size box was ticked)
                return self.tr("Cannot queue: %1").replace("%1", text) + (f"\n{rows}" if rows else "")
            if blocking.code == ErrorCode.TOO_MANY_ROWS and rows:
                return rows
            if blocking.code == ErrorCode.MISSING_REQUIRED_COLUMN:
                return text  # the clerk fixes it in the mapping below; it says which
            return self.tr("Cannot queue: %1").replace("%1", text)
        if self.choices.date_order_missing():
            return self.tr("Choose how the file writes its dates (day first or month first) before queueing.")
        return ""

    def _rows_problem(self) -> str:
        """The file's count over the row limit it would run with, in words with the way out ("" within it)."""
        count = self._count
        limit = self.choices.raised_rows() or self._max_rows
        problem = file_preview.count_problem(count, limit) if count is not None else None
        if count is None or problem is None or problem.code != ErrorCode.TOO_MANY_ROWS:
            return ""
        said = (self.tr("Cannot queue: about %1 rows, more than the limit of %2 rows.") if count.estimated
                else self.tr("Cannot queue: %1 rows, more than the limit of %2 rows."))  # fmt: skip
        text = said.replace("%1", f"{count.rows:,}").replace("%2", f"{limit:,}")
        if self.raise_rows_box.isHidden():
            return text + "\n" + self.tr("Split the file and import the parts.")
        return text + "\n" + self.tr("Split the file, or tick “Raise the row limit … for this import” below.")

    # --- the rows against the table ------------------------------------------------------

    @property
    def check(self) -> SampleCheck | None:
        """The shown rows as last checked (``table``: what the mode does with each, once looked up)."""
        return self._check

    def _look_up_keys(self, itype: ImportType, check: SampleCheck) -> None:
        """Find the shown rows' keys in the table in the background, when the check needs them: the
        answer checks the rows again, now with what the mode does with each."""
        if self._look_up is None or check.table is not None or check.blocking is not None:
            return
        request = (itype.name, frozenset(check.keys), frozenset(check.names))
        failed_before = self._look_up_failed
        if request == self._looking or (failed_before is not None and failed_before[:3] == request):
            return
        self._looking = request
        look_up, keys, names = self._look_up, check.keys, check.names

        def done(stored: StoredKeys) -> None:
            if self._looking != request:
                return  # an earlier look-up: a later one is under way for the rows now shown
            self._looking = None
            self._stored = stored
            self._update_state()
            self.looked_up.emit()

        def failed(exc: BaseException) -> None:
            if self._looking != request:
                return
            self._looking = None
            log.info("looking the preview's keys up in the table failed: %s", exc)
            self._look_up_failed = (*request, plain_error(exc, self._catalog.lang, "looking up the preview's keys"))
            self._update_state()
            self.looked_up.emit()

        self._background.call(lambda: look_up(itype, keys, names), done, failed, context=self)

    def _look_up_problem(self, check: SampleCheck) -> str | None:
        """Why the shown rows could not be looked up in the table, when that is why the check has no verdict."""
        failed = self._look_up_failed
        if failed is None or check.table is not None or failed[1:3] != (frozenset(check.keys), frozenset(check.names)):
            return None
        return failed[3] if failed[0] == self.import_type() else None

    def _say_problems(self, check: SampleCheck | None) -> None:
        text, failing = ("", False) if check is None else self._verdict_words(check)
        self.problems_label.setText(text)
        self.problems_label.setStyleSheet("color: #c62828;" if failing else "color: #2e7d32;")
        self.problems_label.setVisible(bool(text))
        shown = check is not None and check.blocking is None and bool(check.checked) and check.table is not None
        waiting = self._waiting_words(check) if check is not None and shown else []
        # Chinese sentences end with "。" and follow each other without a space
        self.waiting_label.setText(("" if self._lang() == "zh" else " ").join(waiting))
        self.waiting_label.setVisible(bool(waiting))

    def _verdict_words(self, check: SampleCheck) -> tuple[str, bool]:
        """What the import will do with the shown rows, in the clerk's words; and whether any fails."""
        if check.blocking is not None or not check.checked:
            return "", False
        verdict = check.table
        shown = str(check.checked)

        def of_shown(text: str, count: int) -> str:
            return text.replace("%1", str(count)).replace("%2", shown)

        checks_failed = verdict.count(FAILS) if verdict is not None else len(check.rows)
        sentences: list[str] = []
        if checks_failed:
            sentences.append(of_shown(self.tr("%1 of the first %2 rows would fail: hover a red cell for the reason."),
                                      checks_failed))  # fmt: skip
        if verdict is not None:
            words = {
                ALREADY_IN_TABLE: self.tr("%1 of the first %2 rows would fail as already in the table: this mode "
                                          "adds new rows only."),
                NOT_IN_TABLE: self.tr("%1 of the first %2 rows would fail as not in the table: this mode updates "
                                      "rows already in the table only.") if verdict.mode is not ImportMode.DELETE
                else self.tr("%1 of the first %2 rows would fail as not in the table: there is no row to delete."),
                Action.SKIP.value: self.tr("%1 of the first %2 rows will be skipped: already in the table."),
                Action.UPDATE.value: self.tr("%1 of the first %2 rows will update rows already in the table."),
                Action.UNCHANGED.value: self.tr("%1 of the first %2 rows will change nothing: already in the "
                                                "table with these values."),
                Action.DELETE.value: self.tr("%1 of the first %2 rows will delete their rows from the table."),
            }  # fmt: skip
            sentences += [of_shown(text, verdict.count(o)) for o, text in words.items() if verdict.count(o)]
        failing = bool(len(check.rows))
        if failing:
            sentences.append(self._failing_words(check))
        problem = self._look_up_problem(check)
        pending = verdict is None and self._look_up is not None and problem is None
        if pending and not failing:
            sentences.append(self.tr("The cells of the one row pass every check; looking it up in the table…")
                             if shown == "1" else
                             self.tr("The cells of the first %1 rows pass every check; looking the rows up in "
                                     "the table…").replace("%1", shown))  # fmt: skip
        elif pending:
            sentences.append(self.tr("Looking the rows up in the table…"))
        elif not failing:
            sentences.insert(0, self.tr("The one row passes every check.") if shown == "1"  # never "1 rows"
                             else self.tr("The first %1 rows pass every check.").replace("%1", shown))
        if problem is not None:
            sentences.append(self.tr("Whether they are already in the table could not be checked: %1")
                             .replace("%1", problem))  # fmt: skip
        # Chinese sentences end with "。" and follow each other without a space
        return ("" if self._lang() == "zh" else " ").join(sentences), failing

    def _failing_words(self, check: SampleCheck) -> str:
        """Where the failing rows go, and, when the shown rows already fail above the failed-rows limit, what
        that does (domain/status.outcome_status): the import counts as failed, the rows that went in stay
        (its batches commit as they go: imports/summary.py's too_many_failed)."""
        verdict = check.table
        deletes = verdict is not None and verdict.mode is ImportMode.DELETE
        if not (check.checked and len(check.rows) / check.checked > self._fail_threshold):  # rows: every one failing
            return (self.tr("Rows that fail go to the error file; the others are still deleted.") if deletes
                    else self.tr("Rows that fail go to the error file; the others still import."))  # fmt: skip
        text = (self.tr("Rows that fail go to the error file; the others are still deleted, but with more than %1 "
                        "of the rows failing the delete counts as failed (the rows deleted stay deleted).")
                if deletes else
                self.tr("Rows that fail go to the error file; the others still import, but with more than %1 of "
                        "the rows failing the import counts as failed (the rows that went in stay)."))  # fmt: skip
        return text.replace("%1", f"{self._fail_threshold:.0%}")

    def _waiting_words(self, check: SampleCheck) -> list[str]:
        """Per reference column, the shown rows that name a value its table lacks: they import, then wait."""
        labels = {c.key: c.label for c in self._catalog.columns(self.import_type() or "")}
        rows: dict[str, int] = {}
        for waiting in check.waiting:
            for column in {e.column for errors in waiting.cells.values() for e in errors if e.column is not None}:
                rows[column] = rows.get(column, 0) + 1
        one = self.tr("1 row names a %2 not in the table yet: it will wait until the name is added.")
        many = self.tr("%1 rows name a %2 not in the table yet: they will wait until the names are added.")
        return [(one if count == 1 else many).replace("%1", str(count)).replace("%2", labels.get(column, column))
                for column, count in rows.items()]  # fmt: skip

    def _say_count(self) -> None:
        sample, count = self._sample, self._count
        if sample is None:
            self.count_label.setText("")
            return
        if sample.size < 1024:  # an empty file read "1 KB" (seen by a clerk)
            size = self.tr("%1 bytes").replace("%1", f"{sample.size:,}")
        elif sample.size < MIB:
            size = self.tr("%1 KB").replace("%1", f"{round(sample.size / 1024):,}")
        else:
            size = self.tr("%1 MB").replace("%1", f"{sample.size / MIB:.1f}")
        if count is None:
            rows = self.tr("Counting the rows…")
        elif count.estimated:
            rows = self.tr("About %1 rows").replace("%1", f"{count.rows:,}")
        else:
            rows = self.tr("1 row") if count.rows == 1 else self.tr("%1 rows").replace("%1", f"{count.rows:,}")
        self.count_label.setText(f"{rows} · {size}")

    def _lang(self) -> Any:
        return "zh" if self._catalog.lang == "zh" else "en"

    def _ok_button(self) -> Any:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    def _name_ok_button(self) -> None:
        """The button says what it will do: validate (a dry run) while "Validate only" is ticked, else queue
        (seen: "Queue" on a validation). L: the box itself has V."""
        text = self.tr("Va&lidate") if self.dry_run_box.isChecked() else self.tr("&Queue")
        self._ok_button().setText(text)

    # --- the answer ----------------------------------------------------------------------

    # --- the mapping profile -------------------------------------------------------------

    def profile(self) -> ProfileVersion | None:
        """The profile applied (chosen automatically or by the clerk), or None."""
        return self.profile_choice.current()

    def _read_profiles(self, list_profiles: ListProfiles | None) -> None:
        if list_profiles is None:
            return

        def done(found: list[ProfileVersion]) -> None:
            self._profiles = list(found)
            if self._sample is not None and not self._clerk_chose_profile:
                self._show_mapping(recall=True)
                self._read_as_profile_says()
            else:
                self._offer_profiles(self.profile())
            self.profiles_known = True
            self.profiles_read.emit()

        def failed(exc: BaseException) -> None:  # the preview works without: "None" is the only choice
            log.info("the mapping profiles could not be read: %s", exc)
            self.profiles_known = True
            self.profiles_read.emit()

        self._background.call(list_profiles, done, failed, context=self)

    def _offer_profiles(self, current: ProfileVersion | None) -> None:
        name = self.import_type()
        self.profile_choice.fill([p for p in self._profiles if p.import_type == name], current)

    def _pick_profile(self) -> None:
        """The profile whose header mapping fits the file (or the one a re-import's request named), with its
        options on screen."""
        name = self.import_type()
        version = None
        if name is not None:
            wanted = self._request.profile if self._request is not None else None
            if wanted:
                version = next((p for p in self._profiles if p.import_type == name and p.name == wanted), None)
            else:
                version = matching_profile(self._profiles, name, self._header)
        self._offer_profiles(version)
        self._show_profile_options(version)

    def _show_profile_options(self, version: ProfileVersion | None) -> None:
        """The options a profile sets that the preview shows as boxes: the mode, blank cells, the decimal
        comma and the day/month order."""
        if version is None:
            return
        given = version.profile.options
        if given.mode is not None:
            self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(given.mode.value)))
        if given.blank is not None:
            self.blank_box.setCurrentIndex(max(0, self.blank_box.findData(given.blank.value)))
        if given.decimal_comma is not None:
            self.decimal_comma_box.setChecked(given.decimal_comma)
        if given.date_order is not None:
            from desktop_app.imports.regional import DateOrder

            self.choices.prefer(DateOrder(given.date_order))

    def _read_as_profile_says(self) -> None:
        """Read the file again when the profile's encoding, separator or sheet is not what it was read with."""
        if self._reading() != self._read_with:
            self.reload()

    def _type_changed(self) -> None:
        self._fill_scope_columns()
        self._clerk_chose_profile = False
        self._show_mapping(recall=True)
        self._read_as_profile_says()

    def _profile_chosen(self) -> None:
        self._clerk_chose_profile = True
        self._show_profile_options(self.profile())
        self._show_mapping(recall=False)
        self._read_as_profile_says()

    def _offer_save(self) -> None:
        """Saving is offered once the clerk's header choices differ from the profile's (or the aliases')."""
        button = self.save_profile_button
        button.setVisible(self._save_profile is not None)
        button.setEnabled(self._sample is not None and self.import_type() is not None and bool(self.header_overrides())
                          and self.profile_choice.name_dialog is None)  # fmt: skip

    def _ask_profile_name(self) -> None:
        version = self.profile()
        self.profile_choice.ask_name(version.name if version is not None else "", self.save_as_profile)

    def save_as_profile(self, name: str) -> None:
        """Save the header choices and reading options as profile NAME's next version, in the background;
        the saved version is then the one applied."""
        save, options, version = self._save_profile, self.options(), self.profile()
        if save is None or options is None:
            return
        base = version.profile if version is not None and version.import_type == options.import_type else None
        content = from_task(options.to_params(), base=base, import_type=options.import_type)
        self.save_profile_button.setEnabled(False)
        self.profile_choice.say(self.tr("Saving the profile…"))

        def done(saved: ProfileVersion) -> None:
            self._profiles = [p for p in self._profiles if p.name.casefold() != saved.name.casefold()] + [saved]
            self._clerk_chose_profile = True
            self._offer_profiles(saved)
            self._show_mapping(recall=False)
            self.profile_choice.say(self.profile_choice.saved_words(saved))
            self.profile_saved.emit()

        def failed(exc: BaseException) -> None:
            reason = plain_error(exc, self._catalog.lang, "saving a profile")
            self.profile_choice.say(self.tr("The profile could not be saved: %1").replace("%1", reason))
            self._offer_save()
            self.profile_saved.emit()

        self._background.call(lambda: save(name, content), done, failed, context=self)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Preview: %s") % self.path.name)
        self._type_label.setText(self.tr("Import &type:"))
        self._mode_label.setText(self.tr("&Rows already in the table:"))
        self._blank_label.setText(self.tr("&Blank cells:"))
        mode_texts = {
            "insert": self.tr("Add new rows only (a row already in the table is an error)"),
            "insert_new": self.tr("Add new, skip existing"),
            "update": self.tr("Update existing (only rows already in the table)"),
            "upsert": self.tr("Add new and update existing"),
            "delete": self.tr("Delete rows (the file lists their keys)"),
            "sync": self.tr("Make the table equal to the file (sync)"),
        }
        for i in range(self.mode_box.count()):
            self.mode_box.setItemText(i, mode_texts[str(self.mode_box.itemData(i))])
        blank_texts = {"keep": self.tr("Keep what is stored"), "clear": self.tr("Empty the stored value")}
        for i in range(self.blank_box.count()):
            self.blank_box.setItemText(i, blank_texts[str(self.blank_box.itemData(i))])
        self.mode_box.setAccessibleName(self.tr("What to do with rows already in the table"))
        self.blank_box.setAccessibleName(self.tr("What a blank cell does to a row being updated"))
        self._scope_label.setText(self.tr("Rows it may &delete:"))
        self.scope_column_box.setItemText(0, self.tr("All its rows"))
        self.scope_column_box.setAccessibleName(self.tr("The column whose value picks the rows a sync may delete"))
        self.scope_value_edit.setPlaceholderText(self.tr("value"))
        self.scope_value_edit.setAccessibleName(self.tr("The value the column holds in the rows a sync may delete"))
        self._rows_title.setText(self.tr("First rows as they will be read and checked:"))
        self._mapping_title.setText(self.tr("Headers and the columns they fill (* required):"))
        self.mapping_table.setHorizontalHeaderLabels([self.tr("Header in the file"), self.tr("Column")])
        self.dry_run_box.setText(self.tr("&Validate only (dry run: check every row, import nothing)"))
        self._name_ok_button()
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.type_box.setAccessibleName(self.tr("Import type"))
        self.rows_table.setAccessibleName(self.tr("First rows of the file"))
        self.mapping_table.setAccessibleName(self.tr("Header mapping"))
        self.choices.retranslate()
        self.profile_choice.retranslate()
        if self._sample is not None:
            self._update_state()
