#!/bin/sh
# report_bench.sh — time `report daily` on a day with about 10,000 runs
# (issue 4: under 2 s on the 2-core machine, gnuplot excluded), beside the
# reference measured in the same run on the same ledger: sqlite3 reading
# every column of that day's runs (the records included) to /dev/null,
# which is the least any digest of the day must do.
#
#   sh bench/report_bench.sh [N]     N records in all (default 25000: the
#                                    generator spaces runs ~8 s apart from
#                                    2026-03-16T04:00Z, so 2026-03-17 is a
#                                    full day of ~10,800 runs)
#   env: LEDGER, REPORT (default build/…), REPEATS (default 3), KEEP=1 keeps
#        the work directory, CC for the generator (bench/gen_runrec.c).
#
# Checks before it times: the digest's run count and its frontier-timeline
# rows equal what plain SQL finds for the day. Each figure is the best of
# REPEATS into a fresh output directory; the page cache stays warm.
# Exit 0 ok, 1 a check failed or the 2 s budget was missed, 2 usage, 3 setup.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEDGER=${LEDGER:-$ROOT/build/ledger}
REPORT=${REPORT:-$ROOT/build/report}
REPEATS=${REPEATS:-3}
CC=${CC:-cc}
N=${1:-25000}
DAY=2026-03-17
BUDGET=2
case "$N" in ''|*[!0-9]*) echo "report_bench: N '$N' is not a count" >&2; exit 2 ;; esac
for p in "$LEDGER" "$REPORT"; do
	[ -x "$p" ] || { echo "report_bench: no program at '$p'; run make first" >&2; exit 3; }
done
command -v sqlite3 >/dev/null || { echo "report_bench: sqlite3 (the reference) is not installed" >&2; exit 3; }
dir=$(mktemp -d) || exit 3
[ "${KEEP:-0}" = 1 ] && echo "# work directory: $dir" || trap 'rm -rf "$dir"' EXIT
$CC -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/common" -o "$dir/gen_runrec" "$ROOT/bench/gen_runrec.c" "$ROOT/common/varreg.c" || exit 3
"$dir/gen_runrec" "$N" 42 "$dir/runs.jsonl" "$dir/runs.tsv" || exit 3
"$LEDGER" --db "$dir/l.db" ingest "$dir/runs.jsonl" >/dev/null 2>&1 || exit 3

T0=$(date -u -d "$DAY" +%s); T1=$((T0 + 86400))
count() { sqlite3 -batch -noheader "$dir/l.db" "$1"; }
fail() { echo "report_bench: check failed: $*" >&2; exit 1; }
now() { date +%s.%N; }
best_of() { # CMD...: smallest wall time of REPEATS runs, each into a fresh out/
	best=
	r=0
	while [ "$r" -lt "$REPEATS" ]; do
		rm -rf "$dir/out"
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		best=$(echo "$t0 $t1 ${best:-}" | awk '{ d = $2 - $1; if ($3 != "" && $3 < d) d = $3; printf "%.4f", d }')
		r=$((r + 1))
	done
	echo "$best"
}
reference() { sqlite3 "$dir/l.db" "SELECT * FROM runs WHERE t_finished >= $T0 AND t_finished < $T1" >/dev/null; }
daily() { "$REPORT" --db "$dir/l.db" daily --date $DAY --out "$dir/out" "$@"; }

# -- correctness first
day_runs=$(count "SELECT count(*) FROM runs WHERE t_finished >= $T0 AND t_finished < $T1")
moved=$(count "SELECT count(*) FROM (SELECT t_finished t, val_bpb v, min(val_bpb) OVER (PARTITION BY hw_class
	ORDER BY t_finished, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev
	FROM runs WHERE val_bpb IS NOT NULL AND t_finished < $T1) WHERE t >= $T0 AND (prev IS NULL OR v < prev)")
rm -rf "$dir/out"
daily --no-charts --limit 0 >/dev/null 2>&1 || fail "report daily exited $?"
md="$dir/out/$DAY.md"
grep -q "^$day_runs runs by " "$md" || fail "digest does not say $day_runs runs: $(grep ' runs by ' "$md")"
got=$(awk '/^## Frontier timeline/ { f = 1; next } /^## / { f = 0 } f && /^\| \[?[0-9][0-9]:/' "$md" | wc -l)
[ "$got" -eq "$moved" ] || fail "timeline has $got rows, SQL finds $moved frontier moves"

# -- then time
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
machine="$(nproc)x ${model:-unknown cpu}"
t_ref=$(best_of reference)
t_daily=$(best_of daily --no-charts)
t_nopages=$(export RUNLEDGER_RUN_PAGES=0; best_of daily --no-charts)
t_all=$(best_of daily --no-charts --limit 0)
gp=$(command -v gnuplot >/dev/null 2>&1 && best_of daily || echo)
echo "# report benchmark: $machine, $(free -g 2>/dev/null | awk '/^Mem:/ { print $2 " GiB" }'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
echo "# ledger of $N synthetic runs (bench/gen_runrec.c, seed 42); day $DAY has $day_runs runs, $moved frontier moves"
echo "# best of $REPEATS, fresh output directory each time; page cache warm, nothing flushed"
echo "# reference: sqlite3 selecting every column of the day's runs to /dev/null"
printf '%s\t%s\t%s\t%s\n' machine operation seconds ratio_vs_reference
row() { printf '%s\t%s\t%s\t' "$machine" "$1" "$2"; awk -v t="$2" -v r="$t_ref" 'BEGIN { printf "%.1f\n", t / r }'; }
row "sqlite3 SELECT day (reference)" "$t_ref"
row "report daily --no-charts" "$t_daily"
row "report daily --no-charts, no run pages" "$t_nopages"
row "report daily --no-charts --limit 0" "$t_all"
[ -n "$gp" ] && row "report daily (gnuplot svg+png)" "$gp"
awk -v t="$t_daily" -v b=$BUDGET 'BEGIN { exit !(t < b) }' || fail "report daily took $t_daily s, budget $BUDGET s"
awk -v t="$t_all" -v b=$BUDGET 'BEGIN { exit !(t < b) }' || fail "report daily --limit 0 took $t_all s, budget $BUDGET s"
exit 0
