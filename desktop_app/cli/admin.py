"""The admin command: a shared login's administrators (store/admins.py), and team mode (store/team.py,
docs/TEAM.md): secure the database, add clerks' logins, grant and revoke their rights per import type."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_app.app import Core
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.viewer import Right, TeamUser
from desktop_app.store import admins, team
from desktop_app.team_admin import new_password


def cmd_admin(core: Core, args: argparse.Namespace) -> int:
    engine = core.store.engine
    if core.login is not None:
        if args.action != "list":
            raise PermanentError(ErrorCode.INVALID_PARAMS,
                                 detail="in team mode an administrator is a member of batchdesk_admin: "
                                 "batchdesk admin add-user NAME --admin")  # fmt: skip
        core.user(args.user)
        return _print_users(core, [u for u in team.users(engine, _tables(core)) if u.is_admin], args.json)
    user = core.user(args.user)
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


def cmd_admin_secure(core: Core, args: argparse.Namespace) -> int:
    """Team mode on (a DBA, once; again changes nothing), or its SQL printed for a DBA to run by hand."""
    engine = core.store.engine
    if args.print_sql:
        sys.stdout.write("BEGIN;\n" + team.script(engine) + "COMMIT;\n")
        return EXIT_OK
    created = team.secure(engine)
    sys.stdout.write("Team mode is on: each clerk is a login of the database and sees only their own tasks.\n")
    for name in created:
        sys.stdout.write(f"  {name}: a role to claim (batchdesk admin add-user {name} gives it a password)\n")
    return EXIT_OK


def cmd_admin_add_user(core: Core, args: argparse.Namespace) -> int:
    """A clerk's login; a generated password is printed once (never logged) unless read from stdin."""
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="no password on the first line of stdin")
    else:
        password = new_password()
    created = team.add_user(core.store.engine, args.name, password, admin=args.admin)
    shown = None if args.password_stdin else password
    if args.json:
        print_json({"name": args.name, "created": created, "admin": bool(args.admin), "password": shown})
        return EXIT_OK
    what = "added" if created else "may log in now (its tasks were kept)"
    sys.stdout.write(f"{args.name} {what}{' as an administrator' if args.admin else ''}\n")
    if shown is not None:
        sys.stdout.write(f"password (shown once, give it to {args.name}): {shown}\n")
    return EXIT_OK


def cmd_admin_grant(core: Core, args: argparse.Namespace) -> int:
    """Reading the type's table always; inserting, updating, deleting its rows as the flags say."""
    rights = [Right.SELECT, *_flagged(args)]
    return _grant(core, args, rights, give=True)


def cmd_admin_revoke(core: Core, args: argparse.Namespace) -> int:
    """The rights the flags name; none named: every right, reading too (the type leaves their lists)."""
    rights = _flagged(args) or list(Right)
    return _grant(core, args, rights, give=False)


def cmd_admin_users(core: Core, args: argparse.Namespace) -> int:
    return _print_users(core, team.users(core.store.engine, _tables(core)), args.json)


def _flagged(args: argparse.Namespace) -> list[Right]:
    return [right for right in (Right.INSERT, Right.UPDATE, Right.DELETE) if getattr(args, right.value.lower())]


def _grant(core: Core, args: argparse.Namespace, rights: list[Right], *, give: bool) -> int:
    itype = core.catalog.get(args.import_type)
    team.grant(core.store.engine, args.name, itype.table, rights, give=give)
    listed = [u for u in team.users(core.store.engine, {itype.name: itype.table}) if u.name == args.name]
    return _print_users(core, listed, args.json)


def _tables(core: Core) -> dict[str, str]:
    """Each valid import type's table, by the type's name."""
    return {e.name: e.import_type.table for e in core.catalog.entries() if e.import_type is not None}


def _user_json(user: TeamUser) -> dict[str, Any]:
    return {"name": user.name, "login": user.can_login, "admin": user.is_admin,
            "rights": {kind: [r.value.lower() for r in rights] for kind, rights in user.rights.items()}}  # fmt: skip


def _print_users(core: Core, users: list[TeamUser], as_json: bool) -> int:
    if as_json:
        print_json([_user_json(u) for u in users])
        return EXIT_OK
    for user in users:
        state = ("administrator" if user.is_admin else "clerk") + ("" if user.can_login else ", no login yet")
        rights = "; ".join(f"{kind}: {', '.join(r.value.lower() for r in held)}" for kind, held in user.rights.items()
                           if held)  # fmt: skip
        sys.stdout.write(f"{user.name}  ({state})  {rights or 'no import type'}\n")
    return EXIT_OK
