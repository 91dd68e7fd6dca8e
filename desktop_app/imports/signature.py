"""The signature of the values an import inserts, made fast: one generated function per import type.

It gives exactly :func:`desktop_app.domain.values.signature` of the values' canonical texts (a unit
test holds the two together); it only has to take the values the validator produces (str, Decimal,
date, naive datetime without microseconds, int, bool, None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal

import xxhash

from desktop_app.domain.table_spec import Storage
from desktop_app.domain.values import NULL_TEXT, SEPARATOR

SignedColumn = tuple[str, Storage, int | None]  # (name, storage, decimal scale)


def signature_function(columns: Sequence[SignedColumn]) -> Callable[[Sequence[object]], str]:
    """sig(values) for value tuples whose first len(columns) items are these columns' values."""
    ns: dict[str, object] = {"_xxh": xxhash.xxh3_64_hexdigest, "_N": NULL_TEXT, "_sep": SEPARATOR, "_str": str}
    parts = []
    for n, (_name, storage, scale) in enumerate(columns):
        v = f"v[{n:d}]"
        if storage is Storage.DECIMAL:
            ns[f"_q{n}"] = Decimal(1).scaleb(-(scale or 0))
            text = f"_str({v}.quantize(_q{n}))"
        elif storage is Storage.DATE:
            text = f"{v}.isoformat()"
        elif storage is Storage.DATETIME:
            text = f'{v}.isoformat(" ")'
        elif storage is Storage.BOOLEAN:
            text = f'("1" if {v} else "0")'
        elif storage in (Storage.INTEGER, Storage.ID):
            text = f"_str({v})"
        else:
            text = v
        parts.append(f"_N if {v} is None else {text}")
    src = f"def sig(v):\n    return _xxh(_sep.join(({', '.join(parts)},)).encode('utf-8', 'surrogatepass'))\n"
    exec(compile(src, "<row signature>", "exec"), ns)
    return ns["sig"]  # type: ignore[return-value]
