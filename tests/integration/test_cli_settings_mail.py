"""`settings mail`: the mail server written to the desk's settings file (never its password), shown, and a
test mail sent through it (a local aiosmtpd server); a bad address or port is one plain line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from desktop_app.cli.main import main
from desktop_app.feeds import mail_secret
from tests.support.smtp import mail_server


class FakeKeyring:
    """The system keyring as this test has it: what was kept, by service and entry (never the desk's own)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, name: str, password: str) -> None:
        self.kept[(service, name)] = password

    def get_password(self, service: str, name: str) -> str | None:
        return self.kept.get((service, name))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_mail_server_is_set_shown_and_tried(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setattr(mail_secret, "_keyring", lambda: None)  # this desk has none (never the real one)
    monkeypatch.delenv(mail_secret.PASSWORD_ENV, raising=False)
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
    assert "user: batch" in out and "password_known: False" in out
    assert err == (f"batchdesk: there is no system keyring on this desk: the password is not kept; give it to the "
                   f"worker in the environment variable {mail_secret.PASSWORD_ENV}\n")  # fmt: skip

    # with a keyring: kept there, under the user at the server, and known from then on
    ring = FakeKeyring()
    monkeypatch.setattr(mail_secret, "_keyring", lambda: ring)
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pw\n"))
    code, out, err = _run(capsys, "settings", "mail", "--password-stdin", "--json", *data)
    assert code == 0 and err == "" and json.loads(out)["password_stored"] is True
    assert ring.kept == {("BatchDesk", "smtp:batch@127.0.0.1"): "s3cret-pw"} and json.loads(out)["password_known"]
    assert "s3cret-pw" not in out + (tmp_path / "data" / "settings.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, says", [
    (("--from", "desk(at)example"), '"desk(at)example" is not a valid mail address'),
    (("--port", "70000"), "--port is a number from 0 to 65535"),
    (("--attach-mb", "26"), "--attach-mb is a number from 0 to 25"),
    (("--attach-mb", "-1"), "--attach-mb is a number from 0 to 25"),
    (("--test", "clerk@bank.example"), "No mail server and sender address are set up yet"),
])  # fmt: skip
def test_a_bad_mail_setting_is_one_plain_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              args: tuple[str, ...], says: str) -> None:  # fmt: skip
    code, _, err = _run(capsys, "settings", "mail", *args, "--data-dir", str(tmp_path / "data"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and says in err, err
