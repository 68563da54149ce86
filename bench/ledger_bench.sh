#!/bin/sh
# ledger_bench.sh — time `ledger ingest`, `ledger frontier` and a filtered
# `ledger query` on N synthetic runrec/1 records, beside the reference
# measured in the same run on the same rows: `sqlite3 .import` of them as
# TSV into an identical runs table (same columns, same indexes).
#
#   sh bench/ledger_bench.sh [N ...]        default: 100000 1000000
#   env: LEDGER (default build/ledger), REPEATS (default 3), BENCH_DIR for
#        the work files (kept; else a temporary directory, removed unless
#        KEEP=1), CC for the generator.
#
# Checks before it times: every record is ingested/imported (count = N), the
# frontier has as many rows as an independent window-function query finds
# moving runs, and the query returns the rows a plain SQL count predicts.
# Each figure is the best of REPEATS; ingest and .import start from a fresh
# database each repeat; nothing else is flushed (page cache stays warm).
# Not part of `make test` (minutes at 10^6); tests/t-ledger-query-bench.sh runs a
# tiny N as a smoke test. Exit 0 ok, 1 a check failed, 2 usage, 3 setup.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEDGER=${LEDGER:-$ROOT/build/ledger}
REPEATS=${REPEATS:-3}
CC=${CC:-cc}
[ $# -gt 0 ] || set -- 100000 1000000
for n in "$@"; do
	case "$n" in ''|*[!0-9]*) echo "ledger_bench: N '$n' is not a count" >&2; exit 2 ;; esac
done
[ -x "$LEDGER" ] || { echo "ledger_bench: no ledger at '$LEDGER'; run make first" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "ledger_bench: sqlite3 (the reference) is not installed" >&2; exit 3; }
if [ -n "${BENCH_DIR:-}" ]; then # the caller's directory: left in place
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 3
else
	dir=$(mktemp -d) || exit 3
	[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
fi
$CC -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/common" -o "$dir/gen_runrec" "$ROOT/bench/gen_runrec.c" "$ROOT/common/varreg.c" || exit 3

now() { date +%s.%N; }
# best_of CMD... : run REPEATS times, print the smallest wall time in seconds
best_of() {
	best=
	r=0
	while [ "$r" -lt "$REPEATS" ]; do
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		best=$(echo "$t0 $t1 ${best:-}" | awk '{ d = $2 - $1; if ($3 != "" && $3 < d) d = $3; printf "%.4f", d }')
		r=$((r + 1))
	done
	echo "$best"
}
# row N OPERATION SECONDS REFERENCE_SECONDS
row() {
	printf '%s\t%s\t%s\t' "$machine" "$1" "$2"
	awk -v n="$1" -v t="$3" -v ref="$4" 'BEGIN { printf "%.3f\t%.0f\t%.2f\n", t, n / t, t / ref }'
}
fail() { echo "ledger_bench: check failed: $*" >&2; exit 1; }

fresh_import() { # the reference: schema from the ledger itself, then .import
	rm -f "$dir/ref.db" "$dir/ref.db-wal" "$dir/ref.db-shm"
	"$LEDGER" --db "$dir/ref.db" init >/dev/null || exit 3
	sqlite3 "$dir/ref.db" ".mode tabs" ".import '$dir/runs.tsv' runs"
}
fresh_ingest() {
	rm -f "$dir/l.db" "$dir/l.db-wal" "$dir/l.db-shm"
	"$LEDGER" --db "$dir/l.db" ingest "$dir/runs.jsonl"
}
count() { sqlite3 -batch -noheader "$1" "$2"; }

# the query timed: one hardware class, ok runs under a val_bpb bound, a week
QUERY="--hardware H100 --status ok --where val_bpb<0.99 --since 2026-03-20 --until 2026-03-27"
QUERY_SQL="SELECT count(*) FROM runs WHERE hw_class = 'H100' AND status = 'ok' AND val_bpb < 0.99
	AND t_finished >= strftime('%s', '2026-03-20') AND t_finished < strftime('%s', '2026-03-28')"
# a metric other than val_bpb (the metrics table since schema 4; before, a
# json_extract of every run's record), checked against json_extract
MQUERY="--status ok --where metrics.peak_vram_mb<11600"
MQUERY_SQL="SELECT count(*) FROM runs WHERE status = 'ok'
	AND json_extract(record, '\$.metrics.peak_vram_mb') < 11600"
# runs that beat every earlier valid run of their class (all bench runs are timed)
MOVED_SQL="SELECT count(*) FROM (SELECT val_bpb, min(val_bpb) OVER (PARTITION BY hw_class
	ORDER BY t_finished, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev
	FROM runs WHERE val_bpb IS NOT NULL) WHERE prev IS NULL OR val_bpb < prev"

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
machine="$(nproc)x ${model:-unknown cpu}"
echo "# ledger benchmark: $machine, $(free -g 2>/dev/null | awk '/^Mem:/ { print $2 " GiB" }'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
echo "# best of $REPEATS; ingest and .import into a fresh database each repeat; page cache warm, nothing flushed"
echo "# reference: sqlite3 .import of the same rows as TSV into the same runs table and indexes"
echo "# query: ledger query $QUERY"
echo "# metric filter: ledger query $MQUERY"
printf '%s\t%s\t%s\t%s\t%s\t%s\n' machine N operation seconds records/s ratio_vs_import
for n in "$@"; do
	"$dir/gen_runrec" "$n" 42 "$dir/runs.jsonl" "$dir/runs.tsv" || exit 3
	t_imp=$(best_of fresh_import)
	[ "$(count "$dir/ref.db" 'SELECT count(*) FROM runs')" = "$n" ] || fail ".import did not load $n rows"
	t_ing=$(best_of fresh_ingest)
	[ "$(count "$dir/l.db" 'SELECT count(*) FROM runs')" = "$n" ] || fail "ingest did not store $n runs"
	want=$(count "$dir/l.db" "$MOVED_SQL")
	got=$("$LEDGER" --db "$dir/l.db" frontier --format tsv | tail -n +2 | wc -l)
	[ "$got" -eq "$want" ] || fail "frontier has $got rows, the window query $want"
	want=$(count "$dir/l.db" "$QUERY_SQL")
	# shellcheck disable=SC2086 # QUERY is a list of options
	got=$("$LEDGER" --db "$dir/l.db" query $QUERY --format tsv | tail -n +2 | wc -l)
	[ "$got" -eq "$want" ] || fail "query returned $got rows, SQL counts $want"
	want=$(count "$dir/l.db" "$MQUERY_SQL")
	# shellcheck disable=SC2086
	got=$("$LEDGER" --db "$dir/l.db" query $MQUERY --format tsv | tail -n +2 | wc -l)
	[ "$got" -eq "$want" ] || fail "metric filter returned $got rows, json_extract counts $want"
	t_fr=$(best_of "$LEDGER" --db "$dir/l.db" frontier --format tsv)
	# shellcheck disable=SC2086
	t_q=$(best_of "$LEDGER" --db "$dir/l.db" query $QUERY --format tsv)
	# shellcheck disable=SC2086
	t_m=$(best_of "$LEDGER" --db "$dir/l.db" query $MQUERY --format tsv)
	row "$n" "sqlite3 .import (reference)" "$t_imp" "$t_imp"
	row "$n" "ledger ingest" "$t_ing" "$t_imp"
	row "$n" "ledger frontier" "$t_fr" "$t_imp"
	row "$n" "ledger query (filtered)" "$t_q" "$t_imp"
	row "$n" "ledger query (metric filter)" "$t_m" "$t_imp"
done
