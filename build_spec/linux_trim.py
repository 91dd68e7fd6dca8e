"""Linux-only trims of the bundle's shared libraries, used by batchdesk.spec (binutils: readelf, nm, as, ld;
PyInstaller needs binutils on Linux anyway).

- remove_needed(): drop DT_NEEDED entries a library or module never takes a symbol from (pyarrow's wheel
  links every module to Parquet, Dataset, Acero and Substrait);
- slim_icu_data(): rebuild Qt's libicudata.so.NN with only the ICU data BatchDesk's Qt can reach (31 MB ->
  about 2 MB). What Qt asks ICU for, measured with a breakpoint on udata_openChoice (docs/BENCHMARKS.md,
  "The installer bundle"): collation (QCollator, the file dialog's sorting) and time-zone names, each for
  the locale QLocale.setDefault() holds, zh_CN or en (ui/i18n.py). Qt's text boundaries, normalization,
  IDNA and number/date formats are its own code; case mapping and Unicode properties are compiled into
  libicuuc. Left out: the legacy-charset converters (QStringConverter on GBK etc.; BatchDesk decodes with
  Python's codecs), break-iterator dictionaries, transliteration, spell-out rules, and every other locale's
  names, currencies and units.
"""

from __future__ import annotations

import fnmatch
import struct
import subprocess
from pathlib import Path


def elf_needed(path: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", "-W", str(path)], check=True, capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def dynamic_symbols(path: Path, which: str) -> set[str]:
    """`nm -D` names: which is "--defined-only" or "--undefined-only"."""
    out = subprocess.run(["nm", "-D", which, str(path)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def openssl_versions(path: Path, *, defined: bool = False, needed_from: str = "", prefix: str = "OPENSSL_") -> set[str]:
    """The symbol versions starting with `prefix` (OpenSSL's by default) a library defines (defined=True), or
    those a file needs from the library named needed_from (readelf -V)."""
    out = subprocess.run(["readelf", "-V", "-W", str(path)], check=True, capture_output=True, text=True).stdout
    section, source, found = "", "", set()
    for line in out.splitlines():
        if line.startswith("Version definition section"):
            section = "def"
        elif line.startswith("Version needs section"):
            section = "need"
        elif section == "need" and "File:" in line:
            source = line.split("File:", 1)[1].split()[0]
        for word in line.replace(":", " ").split():
            if word.startswith(prefix) and (
                (defined and section == "def") or (not defined and section == "need" and source == needed_from)
            ):
                found.add(word)
    return found


def _elf64(data: bytes, path: Path) -> list[tuple[int, ...]]:
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit(f"linux_trim: {path} is not a 64-bit little-endian ELF file")
    (phoff,) = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    return [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize) for i in range(phnum)]


def _file_offset(headers: list[tuple[int, ...]], vaddr: int) -> int:
    # p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align
    load = next(h for h in headers if h[0] == 1 and h[3] <= vaddr < h[3] + h[5])
    return vaddr - load[3] + load[2]


def remove_needed(path: Path, drop: set[str]) -> None:
    """Remove the DT_NEEDED entries named in drop, in place, as `patchelf --remove-needed` does: the later
    .dynamic entries move up and DT_NULL fills the end. Checked afterwards with readelf."""
    data = bytearray(path.read_bytes())
    headers = _elf64(data, path)
    dyn = next(h for h in headers if h[0] == 2)  # PT_DYNAMIC
    entries = [struct.unpack_from("<qQ", data, dyn[2] + off) for off in range(0, dyn[5], 16)]
    strtab = _file_offset(headers, next(v for tag, v in entries if tag == 5))  # DT_STRTAB

    def name(offset: int) -> str:
        return bytes(data[strtab + offset : data.index(0, strtab + offset)]).decode()

    kept = [(tag, v) for tag, v in entries if not (tag == 1 and name(v) in drop)]
    kept += [(0, 0)] * (len(entries) - len(kept))
    for i, (tag, v) in enumerate(kept):
        struct.pack_into("<qQ", data, dyn[2] + i * 16, tag, v)
    path.write_bytes(bytes(data))
    left = set(elf_needed(path))
    if left & drop or not left:
        raise SystemExit(f"linux_trim: removing {sorted(drop)} from {path} failed: {sorted(left)}")


# --- ICU data ------------------------------------------------------------------------------------------
# Locale data kept: the ICU names of the two languages BatchDesk ships and their fallbacks to root.
ICU_LOCALES = ("root", "pool", "res_index", "en", "en_US", "en_Latn", "en_Latn_US", "zh", "zh_CN", "zh_Hans",
               "zh_Hans_CN")  # fmt: skip
# Trees kept for those locales: "" is the main locale data (calendar week data); coll: collation (QCollator);
# zone and region: time-zone display names (a zone's location name takes its region's).
ICU_TREES = ("", "coll", "zone", "region")
# Top-level items that are not locale data and are not needed: converters and their alias table, and the
# Unicode character names (u_charName).
ICU_DROP_TOP = ("*.cnv", "cnvalias.icu", "unames.icu")
ICU_KEEP_EXTRA = ("coll/ucadata.icu",)  # the root collation, which every collator builds on


def _keep_icu_item(item: str) -> bool:
    """item: a name inside the package without its "icudt73l/" prefix, e.g. "coll/zh.res"."""
    if item in ICU_KEEP_EXTRA:
        return True
    tree, _, leaf = item.rpartition("/")
    stem, _, suffix = leaf.rpartition(".")
    if not tree:
        if any(fnmatch.fnmatchcase(leaf, p) for p in ICU_DROP_TOP):
            return False
        is_locale = suffix == "res" and (stem in ICU_LOCALES or (stem.split("_")[0].islower()
                                         and len(stem.split("_")[0]) in (2, 3)))  # fmt: skip
        return not is_locale or stem in ICU_LOCALES
    return tree in ICU_TREES and suffix == "res" and stem in ICU_LOCALES


def _read_common_data(blob: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """ICU's common data package ("CmnD"): a header, then the item count and (name offset, data offset)
    pairs, both relative to the count; item i runs to item i+1 (the last to the end)."""
    (header_size,) = struct.unpack_from("<H", blob, 0)
    if blob[2:4] != b"\xda\x27" or blob[8] != 0 or blob[12:16] != b"CmnD":
        raise SystemExit("linux_trim: not a little-endian ICU common data package")
    toc = header_size
    (count,) = struct.unpack_from("<I", blob, toc)
    pairs = [struct.unpack_from("<II", blob, toc + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_off, data_off) in enumerate(pairs):
        end = pairs[i + 1][1] if i + 1 < count else len(blob) - toc
        name = blob[toc + name_off : blob.index(0, toc + name_off)].decode("ascii")
        items.append((name, blob[toc + data_off : toc + end]))
    return blob[:header_size], items


def _write_common_data(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    items = sorted(items, key=lambda item: item[0].encode("ascii"))  # ICU looks names up by binary search
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    table_size = 4 + 8 * len(items)
    name_offsets, at = [], table_size
    for name, _ in items:
        name_offsets.append(at)
        at += len(name) + 1
    at = (at + 15) & ~15
    body, data_offsets = bytearray(), []
    for _, data in items:
        data_offsets.append(at + len(body))
        body += data + b"\0" * (-len(data) % 16)
    table = struct.pack("<I", len(items)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets, strict=True)
    )
    names_block = names + b"\0" * ((at - table_size) - len(names))
    return header + table + names_block + bytes(body)


def slim_icu_data(library: Path, out_dir: Path) -> tuple[Path, int, int]:
    """A copy of libicudata.so.NN (out_dir/<same name>) with only the kept items; returns it, the number
    of items kept and of items in the original."""
    symbols = subprocess.run(["nm", "-D", "-S", "--defined-only", str(library)], check=True,
                             capture_output=True, text=True).stdout.split()  # fmt: skip
    i = next(i for i, s in enumerate(symbols) if s.startswith("icudt") and s.endswith("_dat"))
    symbol, vaddr, size = symbols[i], int(symbols[i - 3], 16), int(symbols[i - 2], 16)
    data = library.read_bytes()
    offset = _file_offset(_elf64(data, library), vaddr)
    header, items = _read_common_data(data[offset : offset + size])
    package = items[0][0].split("/", 1)[0]  # icudt73l
    kept = [(name, blob) for name, blob in items if _keep_icu_item(name.split("/", 1)[1])]
    missing = [f"{package}/{x}" for x in ("root.res", "pool.res", "coll/root.res", "coll/ucadata.icu", "coll/zh.res")
               if f"{package}/{x}" not in {n for n, _ in kept}]  # fmt: skip
    if missing:
        raise SystemExit(f"linux_trim: the slim ICU data would lack {missing}")

    out_dir.mkdir(parents=True, exist_ok=True)
    dat = out_dir / f"{package}.dat"
    dat.write_bytes(_write_common_data(header, kept))
    soname = next(line.split("[", 1)[1].rstrip("]") for line in subprocess.run(
        ["readelf", "-d", "-W", str(library)], check=True, capture_output=True, text=True).stdout.splitlines()
        if "(SONAME)" in line)  # fmt: skip
    asm = out_dir / "icudata.s"
    asm.write_text(
        "\t.section .rodata\n"
        f"\t.globl {symbol}\n\t.type {symbol}, %object\n\t.balign 16\n"
        f'{symbol}:\n\t.incbin "{dat}"\n\t.size {symbol}, .-{symbol}\n'
        '\t.section .note.GNU-stack,"",%progbits\n'
    )
    obj = out_dir / "icudata.o"
    subprocess.run(["as", "-o", str(obj), str(asm)], check=True, cwd=out_dir)
    result = out_dir / library.name
    subprocess.run(["ld", "-shared", "-z", "noexecstack", "-soname", soname, "-o", str(result), str(obj)],
                   check=True)  # fmt: skip
    return result, len(kept), len(items)
