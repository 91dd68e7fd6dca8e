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


# An import task's params exactly as today's main stores them (Submission.submit_import, then submit_file):
# a task queued before any change to ImportOptions must still read, and a resubmission must store it again
# byte for byte.
STORED_BY_MAIN = (
    '{"import_type": "customers", "mode": "upsert", "blank": "clear", "dry_run": false, "encoding": "gbk", '
    '"max_rows": 1000000, "max_file_mb": 50, "batch_size": 0, "repairs": null, "header_overrides": {"名称": "name"}, '
    '"sheet": null, "date_order": "dmy", "delimiter": ";", "decimal_comma": true, "file": "/data/customers.csv", '
    '"file_sha256": "ab12", "file_size": 10, "file_mtime_ns": 7}'
)


def test_a_task_stored_by_main_reads_and_stores_again_byte_for_byte() -> None:
    import json

    from desktop_app.domain.modes import BlankPolicy, ImportMode
    from desktop_app.imports.options import FILE_FACTS

    stored = json.loads(STORED_BY_MAIN)
    options = ImportOptions.from_params(stored, **DEFAULTS)
    assert (options.file, options.mode, options.blank, options.encoding, options.header_overrides) == (
        Path("/data/customers.csv"), ImportMode.UPSERT, BlankPolicy.CLEAR, "gbk", {"名称": "name"})  # fmt: skip
    assert options.conventions == FileConventions(DateOrder.DMY, decimal_comma=True) and options.delimiter == ";"
    assert options.batch_size == DEFAULTS["batch_default"]  # 0 stored: the running path's own size
    # stored again as the submission stores it: the file after the options, then the file's facts
    again = options.but(batch_size=int(stored["batch_size"] or 0)).to_params()
    again["file"] = str(again.pop("file"))
    again.update({k: stored[k] for k in FILE_FACTS})
    assert json.dumps(again, ensure_ascii=False) == STORED_BY_MAIN


def test_a_syncs_scope_and_confirmed_count_round_trip_and_other_modes_store_neither() -> None:
    from desktop_app.domain.modes import ImportMode

    options = ImportOptions(file=Path("/f.csv"), import_type="customers", mode=ImportMode.SYNC,
                            scope={"department": "华东销售部"}, confirm_deletes=1234, max_file_mb=50, max_rows=10,
                            batch_size=5)  # fmt: skip
    params = options.to_params()
    assert (params["scope"], params["confirm_deletes"]) == ({"department": "华东销售部"}, 1234)
    assert ImportOptions.from_params(params, **DEFAULTS) == options
    assert not {"scope", "confirm_deletes"} & set(options.but(mode=ImportMode.UPSERT, scope={}).to_params())


def test_sync_upserts_its_rows_and_is_never_a_feeds_mode() -> None:
    from desktop_app.domain.modes import ImportMode

    assert ImportMode.SYNC.row_mode is ImportMode.UPSERT and ImportMode.DELETE.row_mode is ImportMode.DELETE
    assert [m for m in ImportMode if m.removes_rows] == [ImportMode.DELETE, ImportMode.SYNC]
    assert ImportMode.SYNC.updates and ImportMode.SYNC.inserts and ImportMode.SYNC.keys_only
    assert not ImportMode.SYNC.deletes  # its file's other columns are read, not ignored as a delete's
