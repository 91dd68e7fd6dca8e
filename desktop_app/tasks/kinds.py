"""What the engine and the window need of a task type, declared once: its lane, words, actions and links.

The window asks a record's kind (TaskKinds.of) what to show and offer; it never compares type names. This
module and tasks/builtin_kinds.py are the only places that do (tests/unit/test_task_kind_rooms.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from desktop_app.domain.task import Lane, TaskLink, TaskRecord


class Action(StrEnum):
    """What a clerk may do with a task of a kind (its state decides the rest: an ended task is not cancelled)."""

    CANCEL = "cancel"
    RETRY = "retry"
    RESUME = "resume"  # "Import the remaining rows" of a stopped one
    UNDO = "undo"
    APPLY = "apply"  # "Import for real" after a validate-only run
    OPEN_ERRORS = "open_errors"  # the error file, and re-importing it fixed
    OPEN_RESULT = "open_result"
    COMPLETE_REFERENCES = "complete_references"  # and adding the missing names
    FIX_VALUES = "fix_values"  # map the values its enum columns refused (issue 25), when rows failed for them
    OPEN_WHEN_DONE = "open_when_done"


class Words(StrEnum):
    """Which family of the window's outcome words a kind reads in (each a set of catalog texts in ui/)."""

    IMPORT = "import"  # "Done: 10 of 20 imported, 10 rows with errors"
    EXPORT = "export"  # "Done: 20 rows exported"
    COMPLETION = "completion"  # "Completed 3 of 5 references"
    UNDO = "undo"  # "Done: 3 rows removed, 5 rows put back"
    PLAIN = "plain"  # the status, and the reason of a failure


class Title(StrEnum):
    """How the task list names a task of a kind (the words are the window's catalog)."""

    IMPORT_TYPE = "import_type"  # the import type's title, "(validate only)" when it only checks
    EXPORT = "export"  # the export's title and format
    COMPLETE_REFERENCES = "complete_references"
    CLEANUP = "cleanup"
    UNDO_OF = "undo_of"  # "Undo of T…"
    WORKBOOK = "workbook"  # "Workbook import", "(validate only)" when it only checks
    FEED_SCAN = "feed_scan"  # a feed's look at its folder
    FEED_MAIL = "feed_mail"  # a feed's mail about an import
    TYPE_NAME = "type_name"  # the bare type name (a kind with no words of its own)


class Duplicate(StrEnum):
    """How the window says that a request of a kind was already queued."""

    FILE = "file"  # "This file is already queued as task T…" (and the remaining rows of a resumed one)
    EXPORT = "export"  # "The same export is already queued as task T…"
    REQUEST = "request"  # "The same request is already queued as task T…"


class Stops(StrEnum):
    """What cancelling a running task of a kind leaves behind, in the cancel question's words."""

    ROWS_STAY = "rows_stay"  # "12,000 of 200,000 rows are in. They stay in the table; …"
    NO_FILE = "no_file"  # "The export stops; no file is written."
    WHERE_IT_IS = "where_it_is"  # "The task stops where it is."


@dataclass(frozen=True)
class TaskKind:
    """One task type as the engine and the window see it. `source` names the param holding the task this
    one works on (a completion's or an undo's import): the list's notice offers to show it."""

    name: str
    lane: Lane
    words: Words = Words.PLAIN
    title: Title = Title.TYPE_NAME
    actions: frozenset[Action] = frozenset({Action.CANCEL})
    system: bool = False  # queued for the clerk, not by them: hidden unless asked for, no notice of its own
    duplicate: Duplicate = Duplicate.REQUEST
    stops: Stops = Stops.WHERE_IT_IS
    links: tuple[TaskLink, ...] = ()  # the links from other tasks this kind's tasks read, first one wins
    source: str | None = None
    sweeps: bool = False  # its run moves tasks out of the task table (the list reads them again)
    quiet: bool = False  # it ends without a notice (the daily clean-up)
    def allows(self, action: Action) -> bool:
        return action in self.actions

    def owns(self, record: TaskRecord) -> bool:
        """Whether the record is a task of this kind (the engine's question: "is this an import?")."""
        return record.task_type == self.name

    def link(self, record: TaskRecord) -> tuple[TaskLink, str] | None:
        """The first link from another task that this record carries: (how it reads, that task's number)."""
        for link in self.links:
            other = record.linked(link)
            if other:
                return link, other
        return None

    def undone(self, record: TaskRecord) -> bool:
        """An import an undo took back: its rows are no longer as it left them, whatever its status says (the
        window's Status "Undone", the command line's line alike)."""
        return self.words is Words.IMPORT and bool(record.undone_by)


@dataclass(frozen=True)
class TaskKinds:
    """The kinds this process knows, by name (built by the composition root from the handler registry).
    A type it does not know (a newer version's, in a shared database) reads as a plain kind."""

    kinds: tuple[TaskKind, ...] = ()
    _by_name: dict[str, TaskKind] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {k.name: k for k in self.kinds})

    @classmethod
    def of_kinds(cls, kinds: Iterable[TaskKind]) -> TaskKinds:
        return cls(tuple(kinds))

    def known(self, name: str) -> TaskKind | None:
        return self._by_name.get(name)

    def named(self, name: str) -> TaskKind:
        return self._by_name.get(name) or TaskKind(name=name, lane=Lane.LONG)

    def of(self, record: TaskRecord) -> TaskKind:
        return self.named(record.task_type)

    def __iter__(self) -> Iterator[TaskKind]:
        return iter(self.kinds)
