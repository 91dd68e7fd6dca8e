"""The import task's parameters for a file's conventions: date order, delimiter, decimal comma, a raised limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.regional import DateOrder, FileConventions

DEFAULTS = {"batch_default": 1000, "rows_default": 1_000_000, "mb_default": 50}


def test_the_new_parameters_round_trip() -> None:
    options = ImportOptions(file=Path("/f.csv"), import_type="customers", date_order=DateOrder.MDY, delimiter=";",
                            decimal_comma=True, max_file_mb=89, max_rows=10, batch_size=5)  # fmt: skip
    params = options.to_params()
    assert (params["date_order"], params["delimiter"], params["decimal_comma"], params["max_file_mb"]) == (
        "mdy", ";", True, 89)  # fmt: skip
    again = ImportOptions.from_params(params, **DEFAULTS)
    assert again == options and again.conventions == FileConventions(DateOrder.MDY, decimal_comma=True)


def test_a_task_queued_before_them_reads_as_undeclared() -> None:
    options = ImportOptions.from_params({"file": "/f.csv", "import_type": "customers"}, **DEFAULTS)
    assert (options.date_order, options.delimiter, options.decimal_comma) == (None, None, False)
    assert options.conventions == FileConventions()


def test_a_window_dict_gives_the_typed_order() -> None:
    assert ImportOptions(file=Path("/f"), import_type="t", date_order="dmy").date_order is DateOrder.DMY  # type: ignore[arg-type]


@pytest.mark.parametrize("params", [{"date_order": "ymd"}, {"delimiter": ":"}, {"delimiter": ",,"}])
def test_bad_values_are_invalid_params(params: dict[str, str]) -> None:
    with pytest.raises(PermanentError) as info:
        ImportOptions.from_params({"file": "/f.csv", "import_type": "customers", **params}, **DEFAULTS)
    assert info.value.code == ErrorCode.INVALID_PARAMS
