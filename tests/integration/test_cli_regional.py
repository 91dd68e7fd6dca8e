"""The import flags for a file's own conventions: --date-order, --delimiter, --decimal-comma."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from desktop_app.cli.parser import build_parser
from tests.integration.test_cli import cli
from tests.support.customers import HEADER, row


def semicolon_file(path: Path) -> Path:
    out = io.StringIO()
    rows = [row(1, 开户日期="03/05/2024", 信用额度="1 234,50"), row(2, 开户日期="04/05/2024", 信用额度="7,5")]
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows([HEADER, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_the_flags_become_task_parameters(tmp_path: Path) -> None:
    path = semicolon_file(tmp_path / "eu.csv")
    data = str(tmp_path / "data")
    code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", data,
                          "--date-order", "dmy", "--delimiter", "semicolon", "--decimal-comma")  # fmt: skip
    assert code == 0, err
    assert isinstance(task, dict) and (task["status"], task["success_count"]) == ("succeeded", 2)


def test_without_the_date_order_the_dates_are_ambiguous(tmp_path: Path) -> None:
    path = semicolon_file(tmp_path / "eu.csv")
    _code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--decimal-comma",
                          "--data-dir", str(tmp_path / "data"))  # fmt: skip
    assert isinstance(task, dict) and task["fail_count"] == 2, err
    with open(task["error_csv"], encoding="utf-8-sig", newline="") as handle:
        assert [r[-2] for r in list(csv.reader(handle))[1:]] == ["ambiguous_date", "ambiguous_date"]


def test_the_delimiter_words() -> None:
    parser = build_parser()
    for word, char in [("comma", ","), ("semicolon", ";"), ("tab", "\t"), ("pipe", "|"), (";", ";"), ("|", "|"),
                       ("TAB", "\t"), ("\\t", "\t")]:  # fmt: skip
        args = parser.parse_args(["import", "f.csv", "--type", "customers", "--delimiter", word])
        assert args.delimiter == char, word


def test_a_bad_delimiter_or_order_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = cli("import", "f.csv", "--type", "customers", "--delimiter", "colon", check_json=False)
    assert code == 2 and "must be comma, semicolon, tab or pipe" in err
    code, _, err = cli("import", "f.csv", "--type", "customers", "--date-order", "ymd", check_json=False)
    assert code == 2 and "invalid choice" in err
