"""The command line's parser is built once a process and parses each command line afresh."""

from __future__ import annotations

from desktop_app.cli.parser import build_parser


def test_one_parser_serves_every_command_line_and_keeps_none_of_them() -> None:
    assert build_parser() is build_parser()
    first = build_parser().parse_args(["import", "a.csv", "--type", "customers", "--scope", "region=east",
                                       "--scope", "team=2"])  # fmt: skip
    second = build_parser().parse_args(["import", "b.csv", "--type", "customers"])
    assert first.scope == ["region=east", "team=2"] and not second.scope
    assert first.file != second.file
