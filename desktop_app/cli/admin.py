"""The admin command: list, add and remove the administrators of a shared database (store/admins.py)."""

from __future__ import annotations

import argparse
import sys

from desktop_app.app import Core
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.store import admins
from desktop_app.tasks.submit import current_user


def cmd_admin(core: Core, args: argparse.Namespace) -> int:
    engine, user = core.store.engine, args.user or current_user()
    if args.action != "list":
        if not args.name:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"admin {args.action} takes the user's NAME")
        if args.action == "add":
            admins.add(engine, args.name, by=user)
        elif not admins.remove(engine, args.name, by=user):
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"{args.name} is not an administrator")
    listed = admins.names(engine)
    if getattr(args, "json", False):
        print_json([{"name": a.name, "added_by": a.added_by} for a in listed])
        return EXIT_OK
    if admins.embedded(engine):
        sys.stdout.write("(the embedded database: the desk's user is its administrator)\n")
    for admin in listed:
        sys.stdout.write(f"{admin.name}  (added by {admin.added_by})\n")
    return EXIT_OK
