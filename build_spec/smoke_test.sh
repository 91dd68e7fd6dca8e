#!/usr/bin/env bash
# Smoke test of the frozen BatchDesk (Linux, macOS, Windows under Git Bash), as a clerk's machine runs it:
#   build_spec/smoke_test.sh [EXECUTABLE]
# Default EXECUTABLE: dist/BatchDesk/batchdesk (Linux), dist/BatchDesk.app/Contents/MacOS/BatchDesk (macOS),
# dist/BatchDesk/batchdesk-cli.exe (Windows; BatchDesk.exe beside it is also self-tested, by exit code).
# Checks: the unpacked size (Linux: under 150 MB, BATCHDESK_BUNDLE_MAX_MB to change); --version; --help lists --open (the installers' file verb runs it); `import --json` of each bundled sample (counts, error CSV inside the data dir);
# PostgreSQL and MariaDB (a schema of their own, when the servers answer; with CI=true they must);
# every feature a clerk reaches, `resume` and `references [--add]` included;
# `--self-test` offscreen (the window imports a sample through the real pipeline); nothing on stderr but
# known Qt noise; nothing written inside the bundle. All writes go to one temp dir, removed at the end
# (BATCHDESK_SMOKE_KEEP=1 keeps it). Exit 0 when every check passes.
set -uo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)" in
  Darwin) default_exe="dist/BatchDesk.app/Contents/MacOS/BatchDesk" ;;
  MINGW* | MSYS* | CYGWIN*) default_exe="dist/BatchDesk/batchdesk-cli.exe" ;;
  *) default_exe="dist/BatchDesk/batchdesk" ;;
esac
EXE="${1:-$default_exe}"
[[ -x "$EXE" ]] || { echo "smoke: no executable at $EXE (build first: build_spec/build_linux.sh)" >&2; exit 2; }
EXE="$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")"
if [[ "$EXE" == */Contents/MacOS/* ]]; then BUNDLE="${EXE%/Contents/MacOS/*}"; else BUNDLE="$(dirname "$EXE")"; fi

PY="${PYTHON:-}"
for candidate in .venv/bin/python python3 python; do
  [[ -n "$PY" ]] && break
  command -v "$candidate" >/dev/null 2>&1 && PY="$candidate"
done
[[ -n "$PY" ]] || { echo "smoke: a Python is needed to read the JSON output" >&2; exit 2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/batchdesk-smoke.XXXXXX")"
mkdir -p "$WORK/home" "$WORK/tmp"
if [[ "${BATCHDESK_SMOKE_KEEP:-}" != 1 ]]; then trap 'rm -rf "$WORK"' EXIT; fi
# The app gets a fresh home and temp dir: anything it writes outside --data-dir shows up there.
export HOME="$WORK/home" TMPDIR="$WORK/tmp" TEMP="$WORK/tmp" TMP="$WORK/tmp" XDG_RUNTIME_DIR="$WORK/tmp"
unset BATCHDESK_HOME XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_STATE_HOME
STAMP="$WORK/stamp"; touch "$STAMP"; sleep 1  # files in the bundle newer than this were written by the app

SAMPLES="$(find "$BUNDLE" -type d -path '*resources/samples' | head -n 1)"
[[ -n "$SAMPLES" ]] || { echo "smoke: no resources/samples inside $BUNDLE" >&2; exit 1; }

failures=0
pass() { echo "  ok    $*"; }
fail() { echo "  FAIL  $*"; failures=$((failures + 1)); }

# Lines Qt prints on a headless run that say nothing about BatchDesk.
QT_NOISE='^(This plugin does not support propagateSizeHints\(\)|QStandardPaths: .*|qt\.qpa\.[a-z.]*: .*(offscreen|xdg|fontconfig).*|Fontconfig (warning|error): .*)$'
check_stderr() {  # $1 label, $2 stderr file
  local extra
  extra="$(tr -d '\r' <"$2" | grep -Ev "$QT_NOISE" | grep -v '^[[:space:]]*$' || true)"
  if [[ -n "$extra" ]]; then fail "$1: unexpected stderr:"; sed 's/^/        /' <<<"$extra"; else pass "$1: stderr clean"; fi
}

echo "smoke: $EXE"
echo "smoke: bundle $(du -sh "$BUNDLE" | cut -f1), work dir $WORK"

# 0. The unpacked bundle's size (du's MiB, as `du -sh` shows it). Issue 28 asked under 150 MB; what is left
# is loaded by the app (pyarrow's Arrow and compute libraries alone are 51 MB: docs/BENCHMARKS.md, "The
# installer bundle"): the check holds it under 150 MB, as issue 28 asks: it fails when something new comes in.
# BATCHDESK_BUNDLE_MAX_MB sets another limit (on any system; without it only Linux is held to one).
bundle_kb="$(du -sk "$BUNDLE" | cut -f1)"
bundle_mb="$(awk -v kb="$bundle_kb" 'BEGIN { printf "%.1f", kb / 1024 }')"
max_mb="${BATCHDESK_BUNDLE_MAX_MB:-}"
[[ -z "$max_mb" && "$(uname -s)" == Linux ]] && max_mb=150
if [[ -z "$max_mb" ]]; then pass "bundle size: $bundle_mb MB unpacked (no limit on this system)"
elif ((bundle_kb < max_mb * 1024)); then pass "bundle size: $bundle_mb MB unpacked (limit: under $max_mb MB)"
else fail "bundle size: $bundle_mb MB unpacked, the limit is under $max_mb MB (largest files: $(cd "$BUNDLE" && find . -type f -exec du -k {} + | sort -rn | head -n 3 | awk '{ printf "%s %.1f MB, ", $2, $1 / 1024 }' | sed 's/, $//'))"; fi

# 1. --version names the package's version.
want_version="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' desktop_app/__init__.py)"
got="$("$EXE" --version 2>"$WORK/version.err" | tr -d '\r')"
[[ "$got" == "BatchDesk $want_version" ]] && pass "--version: $got" || fail "--version printed '$got', want 'BatchDesk $want_version'"
check_stderr "--version" "$WORK/version.err"

# 1b. --help lists --open FILE: the "Import with BatchDesk" verb (Windows) and the .desktop entry (Linux) run it.
"$EXE" --help >"$WORK/help.out" 2>"$WORK/help.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -q -- '--open' "$WORK/help.out"; then pass "--help lists --open"; else fail "--help: exit $rc, no --open listed"; fi
check_stderr "--help" "$WORK/help.err"

# 2. The command line: import each bundled sample into its own data dir, check the task JSON.
# sample | expected status | exact total (or -) | exact fail count (or -)
rows_of() { "$PY" -c 'import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))-1)' "$1"; }
clean_rows="$(rows_of "$SAMPLES/customers_clean.csv")"
while IFS='|' read -r sample status total fails; do
  [[ -f "$SAMPLES/$sample" ]] || { fail "import $sample: not in the bundle"; continue; }
  data="$WORK/data-${sample%%.*}"
  started=$(date +%s)
  "$EXE" import "$SAMPLES/$sample" --type customers --wait --json --data-dir "$data" >"$WORK/$sample.json" 2>"$WORK/$sample.err"
  rc=$?
  took=$(( $(date +%s) - started ))
  verdict="$("$PY" - "$WORK/$sample.json" "$status" "$total" "$fails" "$data" <<'EOF'
import json, os, sys
path, status, total, fails, data = sys.argv[1:]
try:
    task = json.load(open(path, encoding="utf-8"))
except ValueError as exc:
    print(f"no JSON on stdout ({exc})"); sys.exit()
problems = []
if task.get("status") != status:
    problems.append(f"status {task.get('status')} (want {status}; {task.get('error_code')}: {task.get('error_msg')})")
t, s, f = task.get("total_count"), task.get("success_count"), task.get("fail_count")
if total != "-" and t != int(total):
    problems.append(f"total_count {t} (want {total})")
if fails != "-" and f != int(fails):
    problems.append(f"fail_count {f} (want {fails})")
if not t or s is None or f is None or s + f != t:
    problems.append(f"counts do not add up: {s} + {f} != {t}")
csv_path = task.get("error_csv")
if f:
    if not csv_path or not os.path.isfile(csv_path):
        problems.append(f"error_csv missing: {csv_path}")
    elif not os.path.realpath(csv_path).startswith(os.path.realpath(data)):
        problems.append(f"error_csv outside the data dir: {csv_path}")
print("; ".join(problems) or f"ok {task['status']} total={t} success={s} fail={f}")
EOF
)"
  if [[ $rc -eq 0 && "$verdict" == ok* ]]; then pass "import $sample: ${verdict#ok } (${took} s)"; else fail "import $sample: exit $rc, $verdict"; fi
  check_stderr "import $sample" "$WORK/$sample.err"
  [[ -f "$data/batchdesk.sqlite3" ]] && pass "import $sample: database in the data dir" || fail "import $sample: no database in $data"
done <<EOF
customers_clean.csv|succeeded|$clean_rows|0
customers_gbk.csv|succeeded|-|0
customers.xlsx|succeeded|-|0
customers_errors.csv|partially_succeeded|-|-
EOF

# 2a. A clean CSV into customers takes the bulk path (pyarrow and the ADBC SQLite driver in the bundle).
if grep -q "bulk path: [1-9][0-9]* rows loaded by the database's own loader" "$WORK"/data-customers_clean/logs/*.log 2>/dev/null
then pass "import customers_clean.csv: the bulk path loaded its rows"
else fail "import customers_clean.csv: no bulk load in the log ($(grep -h -i -m3 'bulk\|error' "$WORK"/data-customers_clean/logs/*.log 2>/dev/null | head -c 400))"; fi

# 2b. Every feature a clerk reaches, through the frozen app: each type's sample in each mode, an export of
# each type that imports back, an undo, templates, the types listing. A resource the bundle lacks fails here.
feature_data="$WORK/data-features"
run_json() {  # $1 label, then the command's arguments; leaves the JSON in $WORK/last.json
  local label=$1; shift
  "$EXE" "$@" --json --data-dir "$feature_data" >"$WORK/last.json" 2>"$WORK/last.err"
  echo $? >"$WORK/last.rc"
  check_stderr "$label" "$WORK/last.err"
}
field() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(eval(sys.argv[2], {}, {"d": d}))' "$WORK/last.json" "$1"; }
expect() {  # $1 label, $2 python expression over d that must be True
  if [[ "$(cat "$WORK/last.rc")" == 0 && "$(field "$2" 2>/dev/null)" == True ]]; then pass "$1"
  else fail "$1: exit $(cat "$WORK/last.rc"), $(head -c 400 "$WORK/last.json") $(head -c 200 "$WORK/last.err")"; fi
}
for sample in products price_list; do
  rows="$(rows_of "$SAMPLES/$sample.csv")"
  run_json "import $sample insert" import "$SAMPLES/$sample.csv" --type "$sample" --wait
  expect "import $sample (insert): $rows inserted" "d['status'] == 'succeeded' and d['inserted_count'] == $rows"
  first_task="$(field "d['task_no']")"
  for mode in insert_new update upsert; do
    run_json "import $sample $mode" import "$SAMPLES/$sample.csv" --type "$sample" --wait --mode "$mode"
    want="skipped_count"; [[ $mode != insert_new ]] && want="unchanged_count"
    expect "import $sample ($mode): $rows $want" "d['status'] == 'succeeded' and d['$want'] == $rows and d['mode'] == '$mode'"
  done
  run_json "export $sample" export "$sample" --wait
  expect "export $sample: $rows rows" "d['status'] == 'succeeded' and d['total_count'] == $rows"
  exported="$(field "d['result_path']")"
  run_json "export $sample imports back" import "$exported" --type "$sample" --wait --mode insert_new
  expect "export $sample imports back: all skipped" "d['skipped_count'] == $rows and d['fail_count'] == 0"
  run_json "undo $sample" undo "$first_task" --wait
  expect "undo $sample: $rows deleted" "d['status'] == 'succeeded' and d['deleted_count'] == $rows and d['kept_count'] == 0"
  for format in csv xlsx; do
    run_json "template $sample $format" template "$sample" --out "$WORK/template-$sample.$format" --format "$format"
    expect "template $sample ($format)" "d['format'] == '$format'"
  done
done
run_json "export customers" export customers --wait
expect "export customers (its definition file)" "d['status'] == 'succeeded'"
# XLSX with typed cells, written by BatchDesk's own sheet writer; read back by openpyxl where it is at hand
run_json "export customers xlsx" export customers --wait --format xlsx
expect "export customers (xlsx)" "d['status'] == 'succeeded' and d['result_path'].endswith('.xlsx')"
run_json "types" types
expect "types --json: the three built-in types, no problem" \
  "sorted(t['name'] for t in d) == ['customers', 'price_list', 'products'] and not any(t['problem'] for t in d)"
# mapping profiles and value fixes (issue 25): commands the parser loads by name, which the bundle must hold
"$PY" - "$SAMPLES/customers_clean.csv" "$WORK/diamond.csv" <<'EOF_CSV'
import csv, sys
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    header, *rows = list(csv.reader(f))
rows = rows[:10]  # 2 bad of 10: partly succeeded (over 30 % bad fails the import as a whole)
level = header.index("等级")
for i, row in enumerate(rows):
    row[0] = f"C9{i:05d}"
    if i < 2:
        row[level] = "钻石"  # not a level: the value fix maps it
with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
    csv.writer(f).writerows([header, *rows])
EOF_CSV
run_json "profile save" profile save "Smoke east" --type customers --file "$PWD/docs/examples/east-customers.toml"
expect "profile save: version 1 of the documented example" "d['version'] == 1"
run_json "profile list" profile list
expect "profile list: the saved profile" "[p['name'] for p in d] == ['Smoke east']"
run_json "import diamond.csv" import "$WORK/diamond.csv" --type customers --wait
expect "import diamond.csv: 2 rows fail not_in_enum" "d['fail_count'] == 2 and d['success_count'] == 8"
diamond="$(field "d['task_no']")"
run_json "values" values "$diamond"
expect "values --json: 钻石 in 2 rows" "[(v['value'], v['rows']) for v in d] == [('钻石', 2)]"
run_json "values --map" values "$diamond" --map "level:钻石=金卡"
expect "values --map: the 2 rows fixed" "d['fixed_count'] == 2 and d['fail_count'] == 0"
# a daily feed with that profile (issue 25): the east branch's file dropped into a folder is imported
# through the profile and moved to imported/DATE/
inbox="$WORK/feed-inbox"
mkdir -p "$inbox"
printf 'Customer No;姓名;手机号;等级;Remark\nC800001;张三;13800000001;钻石;老客户\nC800002;李四;13800000002;银卡;\n' \
  >"$inbox/east-0501.csv"
run_json "feed add" feed add "Smoke feed" --folder "$inbox" --type customers --profile "Smoke east" --settle 0
expect "feed add: watching its folder with the profile" "d['name'] == 'Smoke feed' and d['profile'] == 'Smoke east'"
run_json "feed run --wait" feed run "Smoke feed" --wait
expect "feed run --wait: the file imported through the profile" \
  "d['imported'] == 1 and d['failed'] == 0 and d['waiting'] == 0"
if compgen -G "$inbox/imported/*/east-0501.csv" >/dev/null; then pass "feed: the file moved to imported/DATE/"
else fail "feed: east-0501.csv not in $inbox/imported/*/: $(ls -R "$inbox" | head -c 300)"; fi

# 2c. Import the remaining rows and missing references (issue 11), through the frozen app's command line, each
# in a data dir of its own. A stopped import is made without racing a running one: queued, then cancelled
# before a worker takes it (a stopped import with no rows in yet); its resume imports the whole file, with
# the counts a plain import of the same file gave in 2 above.
feature_data="$WORK/data-resume"
run_json "submit customers_errors.csv" submit "$SAMPLES/customers_errors.csv" --type customers
stopped="$(field "d['task_no']")"
run_json "cancel $stopped" cancel "$stopped"
expect "cancel (pending): cancelled" "d['status'] == 'cancelled'"
plain="$WORK/customers_errors.csv.json"
want_ok="$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["success_count"])' "$plain")"
want_bad="$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["fail_count"])' "$plain")"
run_json "resume $stopped" resume "$stopped" --wait
expect "resume: the remaining rows, counts as a plain import ($want_ok + $want_bad)" \
  "(d['resumes'] == '$stopped' and d['status'] == 'partially_succeeded' and d['success_count'] == $want_ok
    and d['fail_count'] == $want_bad and d['total_count'] == $want_ok + $want_bad)"
resumed="$(field "d['task_no']")"
run_json "resume $stopped again" resume "$stopped" --wait
expect "resume again: the same task" "d['task_no'] == '$resumed' or d.get('duplicate_of') == '$resumed'"
run_json "status $stopped" status "$stopped"
expect "status of the stopped import: resumed_by $resumed" "d['resumed_by'] == '$resumed'"

feature_data="$WORK/data-references"
"$PY" - "$SAMPLES/customers_clean.csv" "$WORK/new_departments.csv" <<'EOF_CSV'
import csv, sys
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    header, *rows = list(csv.reader(f))
rows = rows[:5]
column = header.index("部门")
for i in range(3):
    rows[i][column] = "华东销售部"  # a department the seeded table does not have
with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
    csv.writer(f).writerows([header, *rows])
EOF_CSV
run_json "import new_departments.csv" import "$WORK/new_departments.csv" --type customers --wait
expect "import new_departments.csv: 5 in, 3 waiting for their department" \
  "d['status'] == 'succeeded' and d['success_count'] == 5 and d['pending_completion_count'] == 3"
named="$(field "d['task_no']")"
"$EXE" references "$named" --data-dir "$feature_data" >"$WORK/references.txt" 2>"$WORK/references.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -Eq '^(Department not found: 华东销售部 \(3 rows\)|找不到部门：华东销售部（3 行）)$' "$WORK/references.txt"; then
  pass "references $named: $(head -n 1 "$WORK/references.txt")"
else fail "references $named: exit $rc, $(head -c 300 "$WORK/references.txt")"; fi
check_stderr "references" "$WORK/references.err"
run_json "references --json" references "$named"
expect "references --json: 华东销售部, 3 rows, may be added" \
  "[(m['value'], m['rows'], m['can_add']) for m in d['missing_references']] == [('华东销售部', 3, True)]"
run_json "references --add" references "$named" --add
expect "references --add: 1 name added, completed" \
  "d['added_count'] == 1 and d['completion'] and d['missing_references'] == [] and d['pending_completion_count'] == 0"

# 2d. A team's database: the clean sample imported into PostgreSQL and into MariaDB and exported back, through
# the frozen app (its libpq links the system's OpenSSL and Kerberos, its MariaDB path a local-infile
# connection: what only a real server exercises). Each in a schema (database) of its own, dropped after.
# A server that does not answer is skipped, or fails with CI=true; BATCHDESK_TEST_PG_URL and
# BATCHDESK_TEST_MYSQL_URL name other servers, as for the tests.
team_db() {  # $1 create|drop, $2 postgresql|mariadb, $3 name: prints the URL (create), "skip: why" when unreachable
  "$PY" - "$@" <<'EOF'
import os, sys
action, backend, name = sys.argv[1:]
try:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
except ImportError as exc:
    print(f"skip: no SQLAlchemy beside the smoke test ({exc})"); sys.exit()
if backend == "postgresql":
    admin = make_url(os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    sql = {"create": f"CREATE SCHEMA {name}", "drop": f"DROP SCHEMA IF EXISTS {name} CASCADE"}[action]
    url = admin.update_query_dict({"options": f"-csearch_path={name}"})
else:
    admin = make_url(os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test"))
    sql = {"create": f"CREATE DATABASE {name} CHARACTER SET utf8mb4", "drop": f"DROP DATABASE IF EXISTS {name}"}[action]
    url = admin.set(database=name).update_query_dict({"charset": "utf8mb4"})
try:
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(sql))
    engine.dispose()
except Exception as exc:
    print(f"skip: {backend} does not answer ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})"); sys.exit()
if action == "create":
    print(url.render_as_string(hide_password=False))
EOF
}
for backend in postgresql mariadb; do
  name="bd_smoke_$(date +%s)_$$"
  url="$(team_db create "$backend" "$name")"
  if [[ "$url" == skip:* || -z "$url" ]]; then
    if [[ "${CI:-}" == true ]]; then fail "$backend: ${url:-no URL}"; else pass "$backend: ${url:-no URL}"; fi
    continue
  fi
  data="$WORK/data-$backend"
  "$EXE" --data-dir "$data" --db "$url" import "$SAMPLES/customers_clean.csv" --type customers --wait --json \
    >"$WORK/$backend-import.json" 2>"$WORK/$backend-import.err"
  rc=$?
  "$EXE" --data-dir "$data" --db "$url" export customers --wait --json >"$WORK/$backend-export.json" 2>"$WORK/$backend-export.err"
  rc2=$?
  verdict="$("$PY" - "$WORK/$backend-import.json" "$WORK/$backend-export.json" "$clean_rows" <<'EOF'
import json, sys
try:
    imported, exported = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
except ValueError as exc:
    print(f"no JSON on stdout ({exc})"); sys.exit()
rows = int(sys.argv[3])
problems = []
if (imported.get("status"), imported.get("success_count")) != ("succeeded", rows):
    problems.append(f"import {imported.get('status')} {imported.get('success_count')} rows ({imported.get('error_msg')})")
if (exported.get("status"), exported.get("total_count")) != ("succeeded", rows):
    problems.append(f"export {exported.get('status')} {exported.get('total_count')} rows ({exported.get('error_msg')})")
else:
    lines = sum(1 for _ in open(exported["result_path"], encoding="utf-8-sig")) - 1
    if lines != rows:
        problems.append(f"the export's file holds {lines} rows")
print("; ".join(problems) or f"ok {rows} rows imported and exported")
EOF
)"
  if [[ $rc -eq 0 && $rc2 -eq 0 && "$verdict" == ok* ]]; then pass "$backend: ${verdict#ok }"; else fail "$backend: exit $rc/$rc2, $verdict"; fi
  check_stderr "$backend import" "$WORK/$backend-import.err"
  check_stderr "$backend export" "$WORK/$backend-export.err"
  team_db drop "$backend" "$name" >/dev/null
done

# 3. The window: --self-test offscreen (temp data dir, a bundled sample through the real pipeline).
QT_QPA_PLATFORM=offscreen "$EXE" --self-test >"$WORK/selftest.out" 2>"$WORK/selftest.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -q '^self-test ok' "$WORK/selftest.out"; then
  pass "--self-test: $(head -n 1 "$WORK/selftest.out")"
else
  fail "--self-test: exit $rc: $(head -n 3 "$WORK/selftest.out")"
fi
check_stderr "--self-test" "$WORK/selftest.err"
windowed="$(dirname "$EXE")/BatchDesk.exe"
if [[ -x "$windowed" && "$windowed" != "$EXE" ]]; then  # Windows: the windowed build has no stdout; exit code only
  QT_QPA_PLATFORM=offscreen "$windowed" --self-test
  rc=$?
  [[ $rc -eq 0 ]] && pass "BatchDesk.exe --self-test: exit 0" || fail "BatchDesk.exe --self-test: exit $rc"
fi

# 4. Nothing written inside the bundle; nothing left in the fresh home or temp dir.
written="$(find "$BUNDLE" -newer "$STAMP" 2>/dev/null | head -n 20)"
[[ -z "$written" ]] && pass "nothing written inside the bundle" || { fail "written inside the bundle:"; sed 's/^/        /' <<<"$written"; }
strays="$(cd "$WORK" && find home tmp -mindepth 1 2>/dev/null | grep -Ev '^home/\.cache(/fontconfig.*)?$|^home/\.cache/fontconfig|^tmp/runtime' | head -n 20)"
[[ -z "$strays" ]] && pass "nothing written outside the data dirs" || { fail "written outside the data dirs:"; sed 's/^/        /' <<<"$strays"; }

if ((failures)); then echo "smoke: $failures check(s) FAILED"; exit 1; fi
echo "smoke: all checks passed"
