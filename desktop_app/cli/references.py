"""The `references` command: the names an import's references did not find, and adding them (--add)."""

from __future__ import annotations

import argparse
import sys

from desktop_app.app import Core
from desktop_app.cli.commands import run_until_done, viewer_of
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED
from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.missing_references import describe, missing_of
from desktop_app.imports.task import ImportHandler


def cmd_references(core: Core, args: argparse.Namespace) -> int:
    """List the import's missing references (words on stdout, or its JSON); with --add, add the names to
    their reference tables and complete the references (a short task, waited for), then list again."""
    viewer = viewer_of(core, args)
    task_no = args.task_no.strip().upper()
    source = core.store.find(task_no, creator=viewer.creator_filter)
    if source is None or not ImportHandler.kind.owns(source):
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
    extra: dict[str, object] = {}
    code = EXIT_OK
    if args.add:
        result = core.submitter().submit_completion(task_no, user=viewer.user, add=True,
                                                    creator=viewer.creator_filter)  # fmt: skip
        ended = run_until_done(core, result.task)
        extra = {"completion": ended.task_no, "added_count": int(ended.summary.get("added_count") or 0)}
        if ended.status is not TaskStatus.SUCCEEDED:
            extra["error_msg"] = ended.error_in(core.lang)
            code = EXIT_TASK_FAILED
        source = core.store.get(task_no) or source
    if args.json:
        print_json({**source.to_json(lang=core.lang), **extra})
        return code
    try:
        itype = core.submitter().catalog.get(str(source.params.get("import_type")))
    except BatchDeskError:  # the type is gone or broken since: the column keys stand for its labels
        itype = None
    for missing in missing_of(source.summary):
        sys.stdout.write(describe(missing, itype, core.lang) + "\n")
    if extra.get("error_msg"):
        sys.stdout.write(f"{extra['error_msg']}\n")
    return code
