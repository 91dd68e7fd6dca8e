"""The built-in task kinds, declared once: the handlers name theirs, the window gets them from the registry."""

from __future__ import annotations

from desktop_app.domain.task import Lane, TaskLink
from desktop_app.tasks.kinds import Action, Duplicate, Stops, TaskKind, TaskKinds, Title, Words

IMPORT = TaskKind(
    name="import", lane=Lane.LONG, words=Words.IMPORT, title=Title.IMPORT_TYPE,
    actions=frozenset({Action.CANCEL, Action.RETRY, Action.RESUME, Action.UNDO, Action.APPLY, Action.OPEN_ERRORS,
                       Action.COMPLETE_REFERENCES, Action.FIX_VALUES, Action.OPEN_WHEN_DONE}),
    duplicate=Duplicate.FILE, stops=Stops.ROWS_STAY,
    links=(TaskLink.UNDONE_BY, TaskLink.RESUMED_BY, TaskLink.APPLIED_BY),
)  # fmt: skip
EXPORT = TaskKind(
    name="export", lane=Lane.LONG, words=Words.EXPORT, title=Title.EXPORT,
    actions=frozenset({Action.CANCEL, Action.OPEN_RESULT, Action.OPEN_WHEN_DONE}),
    duplicate=Duplicate.EXPORT, stops=Stops.NO_FILE, links=(TaskLink.REPLACED_BY,),
)  # fmt: skip
# A workbook of several tables (imports/workbook_task.py): one task whose run imports each matched sheet as
# an ordinary import task of its own (a child: tasks.parent), one after another; undone as a whole.
WORKBOOK = TaskKind(
    name="workbook", lane=Lane.LONG, words=Words.IMPORT, title=Title.WORKBOOK,
    actions=frozenset({Action.CANCEL, Action.UNDO}),
    duplicate=Duplicate.FILE, stops=Stops.ROWS_STAY, links=(TaskLink.UNDONE_BY,),
)  # fmt: skip
UNDO = TaskKind(name="undo", lane=Lane.LONG, words=Words.UNDO, title=Title.UNDO_OF, source="undoes",
                actions=frozenset({Action.CANCEL, Action.OPEN_ERRORS}))  # fmt: skip
# A completion is only ever queued by a clerk (the window's "Complete references", "Add the missing names and
# complete", "Fix values"; `batchdesk references`): listed like any task they asked for, not a system task (a
# clerk who added 31,500 names could not find the task that did it in the window).
COMPLETE_REFERENCES = TaskKind(name="complete_references", lane=Lane.SHORT, words=Words.COMPLETION,
                               title=Title.COMPLETE_REFERENCES, source="task_no",
                               actions=frozenset({Action.CANCEL}))  # fmt: skip
CLEANUP = TaskKind(name="cleanup", lane=Lane.SHORT, title=Title.CLEANUP, system=True, sweeps=True, quiet=True)
# A feed's look at its folder (feeds/scan.py): queued by the feed, not by a clerk; it ends without a notice
# (the imports it queues have theirs). Nothing to cancel: `feed pause` stops a feed.
FEED_SCAN = TaskKind(name="feed_scan", lane=Lane.SHORT, title=Title.FEED_SCAN, system=True, quiet=True,
                     actions=frozenset())  # fmt: skip
# A feed's mail about an import that failed or had failed rows (feeds/mail.py): queued by the feed's scan;
# the import's own notice speaks to the clerk, so it ends without one. A mail server that is away retries.
FEED_MAIL = TaskKind(name="feed_mail", lane=Lane.SHORT, title=Title.FEED_MAIL, system=True, quiet=True,
                     source="task_no", actions=frozenset({Action.CANCEL}))  # fmt: skip


def builtin_task_kinds() -> TaskKinds:
    """The built-in kinds by name, for a view built without a registry (tests, a demo)."""
    return TaskKinds.of_kinds((IMPORT, WORKBOOK, EXPORT, UNDO, COMPLETE_REFERENCES, CLEANUP, FEED_SCAN, FEED_MAIL))
