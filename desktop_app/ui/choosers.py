"""Where the file choosers open: a folder the clerk chose or typed, else home; never the working folder."""

from __future__ import annotations

from pathlib import Path


def start_folder(*paths: Path | None) -> Path:
    """The first of `paths` (a file typed in a field, the file chosen last, a folder) whose folder exists,
    else the clerk's Documents, else home. A relative path is skipped: it would be read against the
    working folder, the frozen app's install folder (a chooser there showed `_internal`)."""
    for path in paths:
        if path is None or not path.is_absolute():
            continue
        folder = path if path.is_dir() else path.parent
        if folder.is_dir():
            return folder
    documents = Path.home() / "Documents"
    return documents if documents.is_dir() else Path.home()


def browse_start(path: Path) -> Path:
    """Where a save dialog opens: the path in a folder that exists (a folder that does not made the
    dialog open in the program's own working folder, seen under Xvfb), else under its nearest folder
    that does, else the home folder; a bare name, in the home folder."""
    if not path.is_absolute():  # a bare name typed: not the program's working folder either
        path = Path.home() / path
    # a drive's root the clerk typed is a place (E:\ on a USB stick); reached by walking up, it is no help
    found = (f for f in (path.parent, *path.parent.parents) if f.is_dir() and (f == path.parent or f != Path(f.anchor)))
    folder = next(found, Path.home())
    return folder / path.name
