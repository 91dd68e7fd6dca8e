"""The import type commands: types (what this desk can import, each with its problem) and template."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from desktop_app.app import Core
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.template import write_template
from desktop_app.imports.type_catalog import TypeEntry
from desktop_app.imports.type_schema import type_problem


def type_json(core: Core, entry: TypeEntry) -> dict[str, Any]:
    """One type as `types --json` shows it; its problem is the file's, else its table's on this database."""
    itype = entry.import_type
    problem = entry.problem
    if itype is not None and problem is None:
        try:
            problem = type_problem(core.store.engine, itype)
        except Exception as exc:  # the database itself: say so rather than fail the listing
            problem = f"the table could not be checked: {type(exc).__name__}"
    if itype is None:
        return {"name": entry.name, "title": None, "table": None, "source": entry.source.value, "unique_key": [],
                "columns": [], "problem": problem}  # fmt: skip
    return {
        "name": itype.name,
        "title": itype.title(core.lang),
        "table": itype.table,
        "source": entry.source.value,
        "unique_key": list(itype.unique_keys),
        "columns": [
            {"key": c.key, "label": c.label(core.lang), "kind": c.kind, "required": c.required} for c in itype.columns
        ],
        "problem": problem,
    }


def cmd_types(core: Core, args: argparse.Namespace) -> int:
    submitter = core.submitter()
    # team mode: a type whose table the login may not read is not theirs to see (docs/TEAM.md)
    shown = [e for e in submitter.catalog.entries() if e.import_type is None or submitter.visible(e.import_type)]
    listed = [type_json(core, e) for e in shown]
    if args.json:
        print_json(listed)
    else:
        for item in listed:
            state = f"PROBLEM: {item['problem']}" if item["problem"] else "ok"
            sys.stdout.write(f"{item['name']}  ({item['source']})  table {item['table']}  {state}\n")
    return EXIT_OK


def cmd_template(core: Core, args: argparse.Namespace) -> int:
    itype = core.submitter().import_type(args.type_name)
    out = Path(args.out).expanduser()
    try:
        write_template(itype, out, args.format, core.lang)
    except OSError as exc:
        raise PermanentError(ErrorCode.FILE_UNREADABLE, path=f"{out} ({exc.strerror or exc})") from exc
    if args.json:
        print_json({"import_type": itype.name, "format": args.format, "file": str(out.resolve())})
    else:
        sys.stdout.write(f"{out}\n")
    return EXIT_OK
