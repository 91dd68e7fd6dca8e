"""An export saved where the clerk chose ("Save as"): moved into place whole, never over a file not chosen."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, PermanentError


def check_destination(path: Path, *, replace: bool) -> None:
    """Refuse at once what the move would refuse at the end: a missing folder, a file not to be replaced."""
    if path.is_dir():
        raise PermanentError(ErrorCode.OUTPUT_UNUSABLE, path=str(path), reason="is_folder")
    if not path.parent.is_dir():
        raise PermanentError(ErrorCode.OUTPUT_UNUSABLE, path=str(path), reason="no_folder")
    if path.exists() and not replace:
        raise PermanentError(ErrorCode.OUTPUT_EXISTS, path=str(path))


def place(written: Path, destination: Path, *, replace: bool) -> None:
    """Move the complete file `written` (under results/.work) to `destination`: a rename where both are on
    one volume; else a copy to a hidden name beside the destination, renamed once whole, so that the
    destination never holds half a file. `written` is gone afterwards, whatever happens."""
    beside = destination.with_name(f".{destination.name}.batchdesk-part")
    try:
        check_destination(destination, replace=replace)  # again: the clerk's folder may have changed since
        try:
            _move(written, destination, replace=replace)
            return
        except OSError as exc:
            if exc.errno != errno.EXDEV:  # another volume (a USB stick, a share): copy, then rename there
                raise
        shutil.copyfile(written, beside)
        _move(beside, destination, replace=replace)
    except PermissionError as exc:
        raise PermanentError(ErrorCode.OUTPUT_UNUSABLE, path=str(destination), detail=exc.strerror or str(exc)) from exc
    finally:
        beside.unlink(missing_ok=True)
        written.unlink(missing_ok=True)


def _move(source: Path, destination: Path, *, replace: bool) -> None:
    """Rename `source` to `destination` on one volume. Not replacing: a hard link, which fails if a file
    is there, even one that appeared after the check (a rename would replace it without a word); where
    the volume has no hard links (FAT, some shares), the check just made and a rename."""
    if replace:
        os.replace(source, destination)
        return
    try:
        os.link(source, destination)
    except FileExistsError:
        raise PermanentError(ErrorCode.OUTPUT_EXISTS, path=str(destination)) from None
    except OSError as exc:
        if exc.errno == errno.EXDEV:
            raise  # another volume: place() copies beside the destination first
        # no hard links here (FAT says EPERM, some shares ENOTSUP): the check just made, and a rename
        if destination.exists():
            raise PermanentError(ErrorCode.OUTPUT_EXISTS, path=str(destination)) from None
        os.replace(source, destination)
        return
    source.unlink()
