"""The `values` command: the values an import's enum columns refused, and fixing them (--map) once."""

from __future__ import annotations

import argparse
import sys

from desktop_app.app import Core
from desktop_app.cli.commands import run_until_done, viewer_of
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.status import TaskStatus
from desktop_app.imports import value_fixes


def cmd_values(core: Core, args: argparse.Namespace) -> int:
    """List the import's bad values (plain lines in the desk's language, or JSON); with --map, fix them (a
    short task, waited for) and, with --save-to, keep the mappings in a profile as its new version."""
    viewer = viewer_of(core, args)
    submitter = core.submitter()
    task_no = args.task_no.strip().upper()
    source, itype = submitter.value_fix_source(task_no, creator=viewer.creator_filter)
    if not args.map:
        if args.save_to:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="--save-to needs --map COLUMN:BAD=GOOD")
        found = submitter.bad_values(task_no, creator=viewer.creator_filter)
        if args.json:
            print_json([bad.to_dict() for bad in found])
        elif not found:
            sys.stdout.write(Note(NoteCode.NO_BAD_VALUES, {"task_no": source.task_no}).text(core.lang) + "\n")
        for bad in [] if args.json else found:
            sys.stdout.write(value_fixes.describe(bad, itype, core.lang) + "\n")
        return EXIT_OK
    mappings = value_fixes.parse_mappings(itype, args.map)  # refused here: nothing queued
    if args.save_to:  # a name of another type is refused before anything is written
        try:
            existing = submitter.profiles().get(args.save_to)
        except PermanentError as exc:
            if exc.code is not ErrorCode.PROFILE_NOT_FOUND:
                raise
        else:
            if existing.profile.import_type != itype.name:
                raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=args.save_to,
                                     profile_type=existing.profile.import_type, import_type=itype.name)  # fmt: skip
    result = submitter.submit_value_fix(source.task_no, mappings, user=viewer.user, creator=viewer.creator_filter)
    ended = run_until_done(core, result.task)
    extra: dict[str, object] = {
        "fix": ended.task_no,
        "fixed_count": int(ended.summary.get("fixed") or 0),
        "refused_count": int(ended.summary.get("refused") or 0),
    }
    code = EXIT_OK
    if ended.status is not TaskStatus.SUCCEEDED:
        extra["error_msg"] = ended.error_in(core.lang)
        code = EXIT_TASK_FAILED
    elif args.save_to:
        saved = submitter.save_value_mappings(args.save_to, itype.name, mappings, user=viewer.user,
                                              source=f"task {source.task_no}")  # fmt: skip
        extra["profile"], extra["profile_version"] = saved.name, saved.version
    after = core.store.get(source.task_no) or source
    if args.json:
        print_json({**after.to_json(lang=core.lang), **extra})
        return code
    if code == EXIT_OK:
        params = {"task_no": after.task_no, "fixed": extra["fixed_count"], "left": after.fail_count,
                  "fix_task": ended.task_no}  # fmt: skip
        sys.stdout.write(Note(NoteCode.VALUES_FIXED, params).text(core.lang) + "\n")
    if "profile" in extra:
        sys.stdout.write(f"{extra['profile']}@{extra['profile_version']}\n")
    if extra.get("error_msg"):
        sys.stdout.write(f"{extra['error_msg']}\n")
    return code
