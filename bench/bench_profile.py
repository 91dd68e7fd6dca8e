"""What a mapping profile costs an import: the same customers inserted without a profile, then with one of
50 header mappings and 1,000 value mappings, each on a fresh embedded database (issue 25: at most 10 % slower).

Run from the repository root:  .venv/bin/python bench/bench_profile.py [--rows 1000000] [--rounds 2] [--work DIR]

The plain file has the type's own headers. The profiled file is the same rows under a branch's headers
(Customer No, Name, Mobile, ...) with a third of its levels written 钻石 and an eighth of its departments
written 物流; the profile maps its 9 headers and ignores 41 legacy ones (50 header mappings), and maps
钻石 -> 金卡 and 物流 -> 物流部 among 998 other spellings that never occur (1,000 value mappings), so both
imports store the same rows. Both take the bulk path (a CSV inserted into BatchDesk's own table). Prints
each run, the median of each and their ratio, with the machine; a final JSON line holds them all.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_import import as_installed, run_measured  # noqa: E402
from machine import machine_facts, machine_line  # noqa: E402
from make_customers import HEADER, make  # noqa: E402

BRANCH_HEADER = ["Customer No", "Name", "Mobile", "Mail", "Grade", "Opened", "Credit", "Dept", "Remark"]
KEYS = ["code", "name", "phone", "email", "level", "opened_on", "credit_limit", "department", "note"]
LEGACY_HEADERS = 41  # headers the profile ignores (the branch's old exports had them): 9 + 41 = 50 mappings
LEVEL_SPELLINGS = 199  # never in the file: with 钻石, 200 level mappings
DEPARTMENT_SPELLINGS = 799  # never in the file: with 物流, 800 department mappings


def profile_toml() -> str:
    """The profile: 50 header mappings, 1,000 value mappings (two of which occur in the file)."""
    lines = ['type = "customers"', "", "[columns]"]
    lines += [f'"{h}" = "{k}"' for h, k in zip(BRANCH_HEADER, KEYS, strict=True)]
    lines += [f'"Legacy field {n}" = ""' for n in range(1, LEGACY_HEADERS + 1)]
    lines += ["", "[values.level]", '"钻石" = "金卡"']
    lines += [f'"VIP-{n}" = "{("普通", "银卡", "金卡")[n % 3]}"' for n in range(1, LEVEL_SPELLINGS + 1)]
    lines += ["", "[values.department]", '"物流" = "物流部"']
    lines += [f'"旧部门{n:03d}" = "销售部"' for n in range(1, DEPARTMENT_SPELLINGS + 1)]
    return "\n".join(lines) + "\n"


def branch_file(plain: Path, out: Path) -> Path:
    """The plain file's rows under the branch's headers, 金卡 written 钻石 and 物流部 written 物流."""
    with plain.open(encoding="utf-8") as source, out.open("w", encoding="utf-8", newline="") as target:
        assert source.readline() == HEADER
        target.write(",".join(BRANCH_HEADER) + "\n")
        for line in source:
            target.write(line.replace(",金卡,", ",钻石,").replace(",物流部,", ",物流,"))
    return out


def cli(data: Path, *args: str) -> tuple[float, float, float, dict[str, object]]:
    """Wall seconds, CPU seconds (user and system, the command and its children: what a busy shared
    machine disturbs least), peak MB and the JSON of a command."""
    cmd = [sys.executable, "-m", "desktop_app", *args, "--data-dir", str(data)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    measured = run_measured(cmd, exits=(0,), cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return measured.seconds, cpu, measured.peak_mb, json.loads(measured.output)


def imported(data: Path, path: Path, *profile: str) -> tuple[float, float, float, dict[str, object]]:
    shutil.rmtree(data, ignore_errors=True)
    # the database made (and migrated) before the timed import in both runs, the profile saved in one
    if profile:
        cli(data, "profile", "save", "branch", "--type", "customers", "--file", profile[0], "--json")
    else:
        cli(data, "profile", "list", "--json")
    args = ["import", str(path), "--type", "customers", "--max-file-mb", "500", "--wait", "--json"]
    return cli(data, *args, *(("--profile", "branch") if profile else ()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    as_installed()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-profile-"))
    work.mkdir(parents=True, exist_ok=True)
    n = args.rows
    plain = work / f"customers-{n}.csv"
    if not plain.exists():
        make(plain, n)
    branch = branch_file(plain, work / f"branch-{n}.csv")
    toml = work / "branch.toml"
    toml.write_text(profile_toml(), encoding="utf-8")
    print(machine_line())
    print(f"files: {plain.name} / {branch.name}: {n} rows, {plain.stat().st_size / 1e6:.1f} MB; profile: 50 header "
          f"mappings, {1 + LEVEL_SPELLINGS + 1 + DEPARTMENT_SPELLINGS} value mappings")  # fmt: skip
    times: dict[str, list[float]] = {"plain_s": [], "profiled_s": [], "plain_cpu_s": [], "profiled_cpu_s": []}
    counts = set()
    for round_no in range(1, args.rounds + 1):
        for name, path, extra in (("plain", plain, ()), ("profiled", branch, (str(toml),))):
            wall, cpu, rss, task = imported(work / "data", path, *extra)
            assert task["status"] in ("succeeded", "partially_succeeded"), task
            assert task.get("profile") == ("branch" if extra else None)
            counts.add((task["success_count"], task["fail_count"]))
            times[f"{name}_s"].append(round(wall, 2))
            times[f"{name}_cpu_s"].append(round(cpu, 2))
            print(f"round {round_no} {'with the profile' if extra else 'without a profile':<18} {wall:7.2f} s  "
                  f"CPU {cpu:6.2f} s  {rss:5.0f} MB  {task['success_count']} imported, {task['fail_count']} "
                  "failed")  # fmt: skip
    assert len(counts) == 1, counts  # both store the same rows
    median = {k: statistics.median(v) for k, v in times.items()}
    ratio = median["profiled_s"] / median["plain_s"]
    cpu_ratio = median["profiled_cpu_s"] / median["plain_cpu_s"]
    print(f"\nmedian wall: without {median['plain_s']:.2f} s, with the profile {median['profiled_s']:.2f} s, ratio "
          f"{ratio:.3f} ({100 * (ratio - 1):+.1f} %; goal: at most +10 %)")  # fmt: skip
    print(f"median CPU:  without {median['plain_cpu_s']:.2f} s, with the profile {median['profiled_cpu_s']:.2f} s, "
          f"ratio {cpu_ratio:.3f} ({100 * (cpu_ratio - 1):+.1f} %)")  # fmt: skip
    print(json.dumps({"rows": n, **times, "ratio": round(ratio, 3), "cpu_ratio": round(cpu_ratio, 3),
                      **machine_facts()}, ensure_ascii=False))  # fmt: skip


if __name__ == "__main__":
    main()
