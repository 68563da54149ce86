#!/bin/sh
# pg_bench.sh — the ledger on SQLite and on PostgreSQL in the same run
# (issue 12 item 8; docs/postgres.md, "figures"): ingest of N_INGEST
# records, frontier over N_FRONTIER runs, a ~10k-run day's digest
# (report daily), each on an SQLite file and on a PostgreSQL ledger through
# its local replica, warm (the replica up to date) and cold (no replica:
# the command first copies the server's tables).
#
#   sh bench/pg_bench.sh [N_INGEST [N_FRONTIER [N_DAY_TOTAL]]]
#        default 100000 1000000 25000 (the generator spaces runs ~8 s apart
#        from 2026-03-16T04:00Z, so 2026-03-17 of 25000 holds ~10,800 runs)
#   env: LEDGER, REPORT (default build/…), REPEATS (default 3: best of),
#        KEEP=1 keeps the work directory, CC for bench/gen_runrec.c.
#
# The server is tests/lib-pg.sh's throwaway PostgreSQL 15 on this machine
# (Unix socket; fsync, synchronous_commit and full_page_writes off, as for
# the tests). The N_FRONTIER runs reach the server as ingests of files of
# 10^5 records (one change log entry each). Checks: every ingest stores all
# its records on the server, the frontier and the digest agree byte for
# byte between SQLite and PostgreSQL. Prints one table (markdown).
# Exit 0 ok, 1 a check failed, 2 usage, 3 setup.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEDGER=${LEDGER:-$ROOT/build/ledger}
REPORT=${REPORT:-$ROOT/build/report}
REPEATS=${REPEATS:-3}
CC=${CC:-cc}
N_INGEST=${1:-100000}
N_FRONTIER=${2:-1000000}
N_DAY=${3:-25000}
DAY=2026-03-17
CHUNK=100000
for n in "$N_INGEST" "$N_FRONTIER" "$N_DAY" "$REPEATS"; do
	case "$n" in ''|*[!0-9]*) echo "pg_bench: '$n' is not a count" >&2; exit 2 ;; esac
done
for p in "$LEDGER" "$REPORT"; do
	[ -x "$p" ] || { echo "pg_bench: no program at '$p'; run make first" >&2; exit 3; }
done
command -v sqlite3 >/dev/null || { echo "pg_bench: sqlite3 is not installed" >&2; exit 3; }
dir=$(mktemp -d) || exit 3
cd "$dir" || exit 3
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
pg_start >pg.log || { cat pg.log >&2; exit 3; }
if [ "${KEEP:-0}" = 1 ]; then echo "# work directory: $dir" >&2; trap 'pg_stop' EXIT
else trap 'pg_stop; cd /; rm -rf "$dir"' EXIT; fi
$CC -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/common" -o gen_runrec "$ROOT/bench/gen_runrec.c" "$ROOT/common/varreg.c" || exit 3
fail() { echo "pg_bench: check failed: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
timed() { # CMD...: wall seconds of one run (output to /dev/null; a failure fails)
	t0=$(now); "$@" >/dev/null 2>run.err || { cat run.err >&2; fail "$* exited $?"; }; t1=$(now)
	secs "$t0" "$t1"
}
best_of() { # CMD...: the best of REPEATS runs
	best=
	r=0
	while [ "$r" -lt "$REPEATS" ]; do
		t=$(timed "$@") || exit 1
		best=$(echo "$t ${best:-}" | awk '{ d = $1; if ($2 != "" && $2 < d) d = $2; printf "%.2f", d }')
		r=$((r + 1))
	done
	echo "$best"
}
db_url() { printf '%s' "$PG_URL" | sed "s|/ledger?|/$1?|"; }
newdb() { pg_sql "CREATE DATABASE $1" postgres >/dev/null || exit 3; }
pgcount() { pg_sql "SELECT count(*) FROM runs" "$1"; }
cold() { rm -rf "$RUNLEDGER_CACHE_DIR"; }
rows=
row() { rows="$rows| $1 | $2 | $3 | $4 | $5 |
"; }

# ---- ingest of N_INGEST records -------------------------------------------
./gen_runrec "$N_INGEST" 42 ingest.jsonl ingest.tsv || exit 3
t_lite=$(timed "$LEDGER" --db ingest.db ingest ingest.jsonl)
newdb ingest
u=$(db_url ingest)
cold
t_pg=$(timed "$LEDGER" --db "$u" ingest ingest.jsonl)
[ "$(pgcount ingest)" = "$N_INGEST" ] || fail "the server holds $(pgcount ingest) runs of $N_INGEST"
log_mb=$(pg_sql "SELECT round(sum(length(changeset)) / 1e6, 1) FROM ledger_log" ingest)
row "ingest $N_INGEST records (one file)" "$t_lite" "$t_pg" "—" "one change log entry of $log_mb MB"
# another machine's next command: a replica one entry behind (pull) or none (copy)
RUNLEDGER_CACHE_DIR=$dir/other
newdb ingest2
u2=$(db_url ingest2)
"$LEDGER" --db "$u2" init >/dev/null 2>&1 && "$LEDGER" --db "$u2" frontier >/dev/null 2>&1 || fail "frontier on an empty ledger"
export RUNLEDGER_CACHE_DIR=$dir/writer
"$LEDGER" --db "$u2" ingest ingest.jsonl >/dev/null 2>&1 || fail "second ingest"
export RUNLEDGER_CACHE_DIR=$dir/other
t_pull=$(timed "$LEDGER" --db "$u2" frontier --format tsv)
t_q_lite=$(best_of "$LEDGER" --db ingest.db frontier --format tsv)
cold
t_copy=$(timed "$LEDGER" --db "$u2" frontier --format tsv)
row "then frontier on another machine ($N_INGEST runs)" "$t_q_lite" "—" "$t_pull (pulls the entry); $t_copy (copies the tables)" ""
export RUNLEDGER_CACHE_DIR=$dir/replicas

# ---- frontier over N_FRONTIER runs ----------------------------------------
./gen_runrec "$N_FRONTIER" 7 big.jsonl big.tsv || exit 3
split -l "$CHUNK" -d -a 3 big.jsonl part- || exit 3
t0=$(now)
"$LEDGER" --db big.db ingest part-* >/dev/null 2>&1 || fail "SQLite ingest of $N_FRONTIER"
t_big_lite=$(secs "$t0" "$(now)")
newdb big
ub=$(db_url big)
cold
t0=$(now)
"$LEDGER" --db "$ub" ingest part-* >/dev/null 2>&1 || fail "PostgreSQL ingest of $N_FRONTIER"
t_big_pg=$(secs "$t0" "$(now)")
[ "$(pgcount big)" = "$N_FRONTIER" ] || fail "the server holds $(pgcount big) runs of $N_FRONTIER"
"$LEDGER" --db big.db frontier --format tsv >f.lite
"$LEDGER" --db "$ub" frontier --format tsv >f.pg
cmp -s f.lite f.pg || fail "the frontiers differ"
t_fr_lite=$(best_of "$LEDGER" --db big.db frontier --format tsv)
t_fr_warm=$(best_of "$LEDGER" --db "$ub" frontier --format tsv)
cold
t_fr_cold=$(timed "$LEDGER" --db "$ub" frontier --format tsv)
row "ingest $N_FRONTIER records ($CHUNK a file)" "$t_big_lite" "$t_big_pg" "—" ""
row "frontier over $N_FRONTIER runs" "$t_fr_lite" "$t_fr_warm" "$t_fr_cold" "$(($(wc -l <f.lite) - 1)) rows, the same on both"

# ---- a ~10k-run day's digest ------------------------------------------------
./gen_runrec "$N_DAY" 42 day.jsonl day.tsv || exit 3
"$LEDGER" --db day.db ingest day.jsonl >/dev/null 2>&1 || fail "SQLite ingest of the day"
newdb day
ud=$(db_url day)
"$LEDGER" --db "$ud" ingest day.jsonl >/dev/null 2>&1 || fail "PostgreSQL ingest of the day"
"$REPORT" --db day.db daily --date $DAY --no-charts --out out-l >/dev/null 2>&1
"$REPORT" --db "$ud" daily --date $DAY --no-charts --out out-p >/dev/null 2>&1
diff -r out-l out-p >/dev/null || fail "the digests differ"
n_day=$(sqlite3 -batch -noheader day.db "SELECT count(*) FROM runs WHERE t_finished >= strftime('%s', '$DAY')
	AND t_finished < strftime('%s', '$DAY') + 86400")
t_d_lite=$(best_of "$REPORT" --db day.db daily --date $DAY --no-charts --out out-l)
t_d_warm=$(best_of "$REPORT" --db "$ud" daily --date $DAY --no-charts --out out-p)
cold
t_d_cold=$(timed "$REPORT" --db "$ud" daily --date $DAY --no-charts --out out-p)
row "report daily, $n_day runs that day ($N_DAY in the ledger)" "$t_d_lite" "$t_d_warm" "$t_d_cold" "digests identical"

echo "| case | SQLite (s) | PostgreSQL, warm replica (s) | PostgreSQL, cold replica (s) | note |"
echo "|---|---:|---:|---:|---|"
printf '%s' "$rows"
echo "# best of $REPEATS where two runs fit (warm, SQLite); ingests and cold runs once; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
