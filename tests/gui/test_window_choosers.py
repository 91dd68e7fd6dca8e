"""The file choosers open where the clerk's files are, never in the program's own (working) folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog


def test_the_choosers_open_in_the_last_chosen_folder_else_home_never_the_working_folder(
    make_desk: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    install = tmp_path / "install" / "_internal"
    install.mkdir(parents=True)
    monkeypatch.chdir(install.parent)  # the frozen app's working folder
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setattr(Path, "home", staticmethod(lambda: home))
    data = tmp_path / "data-files"
    data.mkdir()
    asked: list[str] = []
    answer = [""]

    def choose(_parent: Any, _caption: str, start: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        asked.append(start)
        return answer[0], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(choose))
    panel = make_desk().window.panel
    panel.path_edit.clear()
    panel.choose_file()
    assert Path(asked[-1]) == home, "an empty field: the clerk's home"
    panel.path_edit.setText("typed.csv")  # relative: not read against the working folder
    panel.workbook()
    assert Path(asked[-1]) == home
    answer[0] = str(data / "book.xlsx")
    panel.workbook()
    answer[0] = ""
    panel.path_edit.clear()
    panel.choose_file()
    assert Path(asked[-1]) == data, "the folder of the file chosen last"
    panel.workbook()
    assert Path(asked[-1]) == data
