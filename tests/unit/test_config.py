"""Settings are validated when read: a bad one is named in plain words, logged, and its default used."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from desktop_app.config import Settings, load_settings, read_settings, resolve_paths


def with_file(tmp_path: Path, content: object) -> tuple[Settings, list[str]]:
    paths = resolve_paths(tmp_path)
    paths.settings_file.write_text(json.dumps(content), encoding="utf-8")
    settings, problems = read_settings(paths)
    assert load_settings(paths) == settings
    return settings, [p.text("en") for p in problems]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("poll_interval", "fast"),
        ("max_workers", "x"),
        ("max_workers", True),
        ("max_workers", 2.5),
        ("batch_size", 0),
        ("heartbeat_interval", -1),
        ("stale_after", None),
        ("fail_threshold", 3),
        ("daily_cleanup", "yes"),
        ("language", "fr"),
        ("db_url", 5),
        ("task_retention_days", "90"),
        ("bulk_batch_rows", -1),
        ("smtp_security", "tls"),
        ("smtp_port", 70000),
        ("mail_attach_mb", -1),
        ("mail_attach_mb", 26),  # above what mail servers take (the window's spin box stops there too)
        ("smtp_timeout", 0),
        ("smtp_host", 25),
    ],
)
def test_a_bad_setting_gives_way_to_its_default(tmp_path: Path, name: str, value: object,
                                                caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    around = {} if name == "batch_size" else {"batch_size": 500}
    with caplog.at_level(logging.WARNING, logger="desktop_app.config"):
        settings, problems = with_file(tmp_path, {**around, name: value})
    assert getattr(settings, name) == getattr(Settings(), name)
    assert len(problems) == 1 and name in problems[0] and "using the default" in problems[0]
    assert name in caplog.text
    if name != "batch_size":
        assert settings.batch_size == 500  # the good ones around it still count


def test_good_settings_are_kept_and_numbers_may_be_whole(tmp_path: Path) -> None:
    good = {"poll_interval": 1, "max_workers": 3, "language": "zh", "db_url": None, "daily_cleanup": False}
    settings, problems = with_file(tmp_path, {**good, "unknown": "ignored"})
    assert problems == []
    assert (settings.poll_interval, settings.max_workers, settings.language) == (1, 3, "zh")
    assert settings.daily_cleanup is False


def test_the_mail_server_is_ready_with_a_host_and_a_sender(tmp_path: Path) -> None:
    good = {"smtp_host": "mail.bank.example", "smtp_port": 465, "smtp_security": "ssl", "mail_attach_mb": 0.5}
    settings, problems = with_file(tmp_path, good)
    assert problems == [] and (settings.smtp_port, settings.smtp_security, settings.mail_attach_mb) == (465, "ssl", 0.5)
    assert not settings.mail_ready and settings.with_overrides(mail_from="desk@bank.example").mail_ready
    assert not Settings().mail_ready and Settings().mail_attach_mb == 5.0


def test_the_attachment_limit_stops_at_25_mb(tmp_path: Path) -> None:
    settings, problems = with_file(tmp_path, {"mail_attach_mb": 25})
    assert problems == [] and settings.mail_attach_mb == 25
    settings, problems = with_file(tmp_path, {"mail_attach_mb": 1000})
    assert settings.mail_attach_mb == 5.0 and len(problems) == 1 and "a number from 0 to 25" in problems[0]


def test_the_problem_reads_in_chinese_too(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path)
    paths.settings_file.write_text('{"max_workers": "x"}', encoding="utf-8")
    (problem,) = read_settings(paths)[1]
    assert problem.text("zh") == (
        '设置文件中的 max_workers 值 "x" 无效（应为不小于 0 的整数），已改用默认值 0（处理器核数的两倍）'
    )


def test_a_file_that_holds_no_object_is_ignored(tmp_path: Path) -> None:
    assert with_file(tmp_path, ["poll_interval", 1]) == (Settings(), [])


def test_a_file_that_is_not_json_is_named_and_left_as_it_is(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # seen: a missing comma left only a log line; the clerk did not know their settings were all ignored
    paths = resolve_paths(tmp_path)
    broken = '{\n  "max_workers": 3\n  "language": "zh"\n}\n'
    paths.settings_file.write_text(broken, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="desktop_app.config"):
        settings, problems = read_settings(paths)
    assert settings == Settings() and str(paths.settings_file) in caplog.text
    (problem,) = problems
    where = str(paths.settings_file)
    assert problem.text("en") == (
        f"The settings file {where} is not valid JSON (line 3, column 3); every setting uses its default "
        "until the settings are saved, which rewrites the file"
    )
    assert problem.text("zh") == (
        f"设置文件 {where} 不是有效的 JSON（第 3 行第 3 列），所有设置已改用默认值；在“设置”中保存后会重写这个文件"
    )
    assert paths.settings_file.read_text(encoding="utf-8") == broken


def test_a_file_that_is_not_text_is_named(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path)
    paths.settings_file.write_bytes(b'{"language": "\xd6\xd0\xce\xc4"}')  # GBK, not UTF-8
    settings, (problem,) = read_settings(paths)
    assert settings == Settings()
    assert problem.text("en").startswith(f"The settings file {paths.settings_file} cannot be read (")
    assert "所有设置已改用默认值" in problem.text("zh")


def test_a_file_saved_with_a_bom_is_read(tmp_path: Path) -> None:
    # Notepad's "UTF-8" starts the file with a BOM, which json alone refuses
    paths = resolve_paths(tmp_path)
    paths.settings_file.write_text('\ufeff{"max_workers": 3}', encoding="utf-8")
    settings, problems = read_settings(paths)
    assert problems == [] and settings.max_workers == 3


def test_a_default_whose_value_says_nothing_is_told_in_words(tmp_path: Path) -> None:
    from desktop_app.config import SettingProblem

    workers = SettingProblem("max_workers", "x", 0)
    assert workers.text("en").endswith("using the default 0 (twice the number of processor cores)")
    assert workers.text("zh").endswith("已改用默认值 0（处理器核数的两倍）")
    assert SettingProblem("batch_size", "x", 500).text("en").endswith("using the default 500")
