"""The profile command: save, list, show, export and remove mapping profiles (docs/PROFILES.md).

profile save NAME --type T (--from-task TASK_NO | --file F.toml)   a new version (1, 2, 3...)
profile list [--json]                                             each profile's latest version
profile show NAME [--version N] [--json]                          a version, as its TOML file or JSON
profile export NAME [--version N] --output F.toml [--replace]     a version written to a file
profile remove NAME                                               hidden; the versions tasks name stay
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from desktop_app.app import Core
from desktop_app.cli.commands import viewer_of
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK, EXIT_USAGE
from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.profiles import Profile, ProfileVersion, check_name
from desktop_app.imports.profiles import from_task, profile_text, read_profile_file
from desktop_app.store.profiles import ProfileStore
from desktop_app.tasks import builtin_kinds


def cmd_profile(core: Core, args: argparse.Namespace) -> int:
    store = ProfileStore(core.store.engine)
    action = args.profile_action
    if action == "save":
        return _save(core, store, args)
    if action == "list":
        return _list(store, args)
    if action == "remove":
        removed = store.remove(args.name, by=core.user(args.user))
        if args.json:
            print_json({"name": removed.name, "removed": True, "latest_version": removed.version})
        else:
            sys.stdout.write(f"removed profile {removed.name} (its versions 1-{removed.version} stay readable for "
                             "the tasks that name them; saving the name again makes the next version)\n")  # fmt: skip
        return EXIT_OK
    version = store.get(args.name, args.version)
    if action == "show":
        if args.json:
            print_json(version.to_json())
        else:
            sys.stdout.write(profile_text(version))
        return EXIT_OK
    return _export(version, Path(args.output).expanduser(), replace=args.replace, lang=core.lang)


def _save(core: Core, store: ProfileStore, args: argparse.Namespace) -> int:
    name = check_name(args.name)
    submitter = core.submitter()
    submitter.import_type(args.import_type)  # unknown or with a problem: exit 2
    if args.file:
        profile = read_profile_file(args.file)
        if profile.import_type != args.import_type:
            raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=name, profile_type=profile.import_type,
                                 import_type=args.import_type)  # fmt: skip
    else:
        profile = _from_task(core, store, args, name)
    saved = submitter.save_profile(name, profile, user=core.user(args.user), source=args.file or args.from_task)
    if args.json:
        print_json(saved.to_json())
    else:
        sys.stdout.write(f"saved profile {saved.name} version {saved.version} ({saved.import_type})\n")
    return EXIT_OK


def _from_task(core: Core, store: ProfileStore, args: argparse.Namespace, name: str) -> Profile:
    """A task's header mapping and reading options (over the profile version it used, if any)."""
    task_no = args.from_task.strip().upper()
    viewer = viewer_of(core, args)
    record = core.store.find(task_no, creator=viewer.creator_filter)
    if record is None or not builtin_kinds.IMPORT.owns(record):
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
    its_import_type = str(record.params.get("import_type"))
    if its_import_type != args.import_type:
        raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=name, profile_type=its_import_type,
                             import_type=args.import_type)  # fmt: skip
    base = None
    if record.params.get("profile") and record.params.get("profile_version"):
        base = store.get(str(record.params["profile"]), int(record.params["profile_version"]), removed_ok=True).profile
    return from_task(record.params, base=base, import_type=its_import_type)


def _list(store: ProfileStore, args: argparse.Namespace) -> int:
    listed = store.list()
    if args.json:
        print_json([{k: v for k, v in p.to_json().items() if k in _LISTED} for p in listed])
        return EXIT_OK
    for p in listed:
        data = p.to_json()
        sys.stdout.write(f"{p.name}  {p.import_type}  version {p.version}  saved by {p.saved_by} {data['saved_at']}\n")
    return EXIT_OK


_LISTED = ("name", "type", "version", "saved_by", "saved_at")


def _export(version: ProfileVersion, output: Path, *, replace: bool, lang: Lang) -> int:
    """The version's TOML file at `output`, written whole (a hidden file beside it, then renamed); a file
    already there stays unless `replace`."""
    if output.is_dir() or (output.exists() and not replace):
        reason = {"reason": "is_folder"} if output.is_dir() else {}
        code = ErrorCode.OUTPUT_UNUSABLE if output.is_dir() else ErrorCode.OUTPUT_EXISTS
        error = PermanentError(code, path=str(output), detail="", **reason)
        sys.stderr.write(f"batchdesk: {error.text(lang)}\n")  # a bad argument: exit 2, as the others
        return EXIT_USAGE
    partial = output.with_name(f".{output.name}.part")
    try:
        partial.write_text(profile_text(version), encoding="utf-8")
        os.replace(partial, output)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise PermanentError(ErrorCode.OUTPUT_UNUSABLE, path=str(output), detail=exc.strerror or str(exc)) from None
    sys.stdout.write(f"{output}\n")
    return EXIT_OK
