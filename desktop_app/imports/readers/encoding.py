"""Detecting a CSV file's text encoding from a bounded sample, and checking a forced one."""

from __future__ import annotations

import codecs
import io
import re
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, PermanentError

from .files import file_error, open_binary

SAMPLE_BYTES = 1 << 20
"""How much of the file the detection looks at."""

# Simplified-Chinese codecs; GB18030 is a superset of all of them, so a file in any of them
# is read as GB18030 (GBK text with one character beyond GBK then still reads).
_GB_FAMILY = frozenset({"gb18030", "gbk", "gb2312", "cp936", "ms936", "euc_cn", "euc-cn"})

# Other double-byte codecs: their text also decodes as GB18030 (Shift-JIS into plausible
# ideographs), so there charset-normalizer's ranking decides.
_OTHER_CJK = frozenset(
    {
        "big5", "big5hkscs", "cp950", "cp932", "shift_jis", "shift_jis_2004", "shift_jisx0213",
        "euc_jp", "euc_jis_2004", "euc_jisx0213", "iso2022_jp", "iso2022_jp_1", "iso2022_jp_2",
        "iso2022_jp_2004", "iso2022_jp_3", "iso2022_jp_ext", "euc_kr", "cp949", "johab",
        "iso2022_kr",
    }
)  # fmt: skip

_IDEOGRAPH_CLASS = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]"
_IDEOGRAPH = re.compile(_IDEOGRAPH_CLASS)
# An ideograph between two Latin letters: "Müller" in cp1252 read as GB18030 is "M黮ler".
_SANDWICHED = re.compile(f"(?<=[A-Za-z]){_IDEOGRAPH_CLASS}(?=[A-Za-z])")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_PRIVATE_USE = re.compile(r"[\ue000-\uf8ff]")


def _undetectable(**params: object) -> PermanentError:
    return PermanentError(ErrorCode.ENCODING_UNDETECTABLE, **params)


def normalize_encoding(name: str) -> str:
    """A forced encoding as Python's codec name; GBK/GB2312 become their superset "gb18030".

    An unknown name, or a codec that does not turn bytes into text (rot13, base64), raises
    ENCODING_UNDETECTABLE.
    """
    try:
        info = codecs.lookup(name.strip())
    except (LookupError, TypeError) as exc:
        raise _undetectable(encoding=name) from exc
    if not getattr(info, "_is_text_encoding", True):
        raise _undetectable(encoding=name)
    if info.name in _GB_FAMILY:
        return "gb18030"
    return info.name


def _is_utf8(sample: bytes, complete: bool) -> bool:
    """Strict UTF-8 over the sample; a character cut at the end of a partial sample is allowed."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        decoder.decode(sample, final=complete)
    except UnicodeDecodeError:
        return False
    return True


def _strict(sample: bytes, encoding: str) -> str | None:
    try:
        return sample.decode(encoding)
    except UnicodeDecodeError:
        return None


def looks_chinese(text: str) -> bool:
    """Ideographs make up most of the non-ASCII text, none in the private-use area and most not
    wedged between Latin letters.

    Big5 read as GB18030 lands in the private-use area and among kana; Latin-1 text that
    happens to decode gives lone ideographs inside Latin words.
    """
    ideographs = len(_IDEOGRAPH.findall(text))
    if ideographs == 0 or _PRIVATE_USE.search(text):
        return False
    if len(_SANDWICHED.findall(text)) * 2 > ideographs:
        return False
    return ideographs >= 0.6 * len(_NON_ASCII.findall(text))


def detect_encoding(sample: bytes, *, complete: bool) -> str:
    """The codec name for a file whose first bytes are sample (complete: sample is the whole file).

    BOM first ("utf-8-sig", "utf-32", "utf-16"); then strict UTF-8 ("utf-8", also for pure
    ASCII); then charset-normalizer, preferring "gb18030" for Chinese text. ENCODING_UNDETECTABLE
    when nothing fits.
    """
    if sample.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if sample.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if _is_utf8(sample, complete):
        return "utf-8"
    if not complete and b"\x00" not in sample:
        # Cut at the last line break so no multi-byte character is split at the sample's end.
        cut = sample.rfind(b"\n")
        if cut > 0:
            sample = sample[: cut + 1]
    # here, past the UTF-8 test most files pass: 20-25 ms of every command's start otherwise
    from charset_normalizer import from_bytes

    matches = from_bytes(sample)
    best = matches.best()
    gb_text = _strict(sample, "gb18030")
    if gb_text is not None and looks_chinese(gb_text):
        if best is None or best.encoding in _GB_FAMILY or best.encoding not in _OTHER_CJK:
            return "gb18030"
        # Short Chinese samples are often ranked Big5 first with GB18030 as good a fit.
        gb_match = next((m for m in matches if m.encoding in _GB_FAMILY), None)
        if gb_match is not None and gb_match.chaos <= best.chaos:
            return "gb18030"
    if best is None:
        raise _undetectable()
    if best.encoding in _GB_FAMILY:
        return "gb18030"
    return codecs.lookup(best.encoding).name


def read_sample(path: Path, size: int = SAMPLE_BYTES) -> tuple[bytes, bool]:
    """The first size bytes of the file and whether that is all of it."""
    raw = open_binary(path)
    try:
        with io.BufferedReader(raw) as buffered:  # read(n) returns n bytes unless at end of file
            sample = buffered.read(size)
            complete = len(sample) < size or not buffered.read(1)
    except OSError as exc:
        raise file_error(path, exc) from exc
    finally:
        raw.close()
    return sample, complete


def decode_sample_encoding(path: Path | str) -> str:
    """The encoding detected for a CSV file, from its first SAMPLE_BYTES bytes."""
    sample, complete = read_sample(Path(path))
    return detect_encoding(sample, complete=complete)
