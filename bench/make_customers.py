"""Generate a customers CSV for benchmarks: all 9 columns, about 96 bytes a row, ~0.1 % bad rows."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

HEADER = "客户编号,姓名,手机号,邮箱,等级,开户日期,信用额度,部门,备注\n"
LEVELS = ("普通", "银卡", "金卡")
DEPARTMENTS = ("销售部", "市场部", "财务部", "人事部", "技术部", "客服部", "采购部", "物流部")
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"


def make(path: Path, rows: int, bad_ratio: float = 0.001, seed: int = 42, first: int = 1) -> Path:
    """`rows` customers with codes from `first` on; another seed gives the same codes other values."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(HEADER)
        buffer = []
        for i in range(first, first + rows):
            name = rng.choice(SURNAMES) + rng.choice(SURNAMES)
            phone = f"1{rng.randrange(3, 10)}{rng.randrange(10**9):09d}"
            email = f"u{i}@example.com"
            opened = f"20{rng.randrange(10, 25)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
            credit = f"{rng.randrange(0, 100000)}.{rng.randrange(100):02d}"
            line = [
                f"C{i:06d}",
                name,
                phone,
                email,
                rng.choice(LEVELS),
                opened,
                credit,
                rng.choice(DEPARTMENTS),
                "备注",
            ]
            if rng.random() < bad_ratio:
                line[2] = phone[:7]  # a phone that is too short
            buffer.append(",".join(line))
            if len(buffer) >= 10000:
                out.write("\n".join(buffer) + "\n")
                buffer.clear()
        if buffer:
            out.write("\n".join(buffer) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    make(args.path, args.rows)
    print(f"{args.path}: {args.rows} rows, {args.path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
