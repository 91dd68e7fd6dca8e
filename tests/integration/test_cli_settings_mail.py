"""`settings mail`: the mail server written to the desk's settings file (never its password), shown, and a
test mail sent through it (a local aiosmtpd server); a bad address or port is one plain line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from desktop_app.cli.main import main
from tests.support.smtp import mail_server


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_mail_server_is_set_shown_and_tried(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    data = ["--data-dir", str(tmp_path / "data")]
    with mail_server() as inbox:
        code, out, err = _run(capsys, "settings", "mail", "--host", "127.0.0.1", "--port", str(inbox.port),
                              "--security", "none", "--from", "batchdesk@desk.example", "--attach-mb", "2",
                              "--json", *data)  # fmt: skip
        assert code == 0, err
        shown = json.loads(out)
        assert (shown["host"], shown["port"], shown["security"], shown["from"], shown["attach_mb"], shown["ready"]) == (
            "127.0.0.1", inbox.port, "none", "batchdesk@desk.example", 2.0, True)  # fmt: skip
        saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
        assert (saved["smtp_host"], saved["smtp_port"], saved["mail_attach_mb"]) == ("127.0.0.1", inbox.port, 2.0)

        code, out, err = _run(capsys, "settings", "mail", "--test", "clerk@bank.example", *data)
        assert code == 0, err
        assert f"a test mail was sent to clerk@bank.example through 127.0.0.1:{inbox.port}" in out
        (mail,) = inbox.mails
        assert mail["To"] == "clerk@bank.example" and "BatchDesk" in mail["Subject"]

    # a password goes to the keyring (none here: said so), never into the settings file
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pw\n"))
    code, out, err = _run(capsys, "settings", "mail", "--user", "batch", "--password-stdin", *data)
    assert code == 0 and "s3cret-pw" not in (tmp_path / "data" / "settings.json").read_text(encoding="utf-8")
    assert "s3cret-pw" not in out + err
    assert "user: batch" in out


@pytest.mark.parametrize("args, says", [
    (("--from", "desk(at)example"), '"desk(at)example" is not a valid mail address'),
    (("--port", "70000"), "--port is a number from 0 to 65535"),
    (("--test", "clerk@bank.example"), "No mail server and sender address are set up yet"),
])  # fmt: skip
def test_a_bad_mail_setting_is_one_plain_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              args: tuple[str, ...], says: str) -> None:  # fmt: skip
    code, _, err = _run(capsys, "settings", "mail", *args, "--data-dir", str(tmp_path / "data"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and says in err, err
