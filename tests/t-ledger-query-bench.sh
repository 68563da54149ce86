# t-ledger-query-bench.sh — smoke test of bench/ledger_bench.sh at N=2000:
# the generator builds, its checks pass (counts, frontier against a window
# query, filtered query against SQL) and the table has its four rows.
# The real runs (10^5, 10^6) are in docs/bench.md; they take minutes.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
expect_code ledger-bench-1.1 "bench at N=2000 passes its checks" 0 \
	env LEDGER="$LEDGER" REPEATS=1 BENCH_DIR="$PWD/work" sh "$ROOT/bench/ledger_bench.sh" 2000
expect_eq ledger-bench-1.2 "table rows" "sqlite3 .import (reference)|ledger ingest|ledger frontier|ledger query (filtered)|ledger query (metric filter)" \
	"$(printf '%s\n' "$out" | awk -F'\t' '$2 == 2000 { print $3 }' | paste -sd'|')"
expect_match ledger-bench-1.3 "header names the machine" "$out" "^# ledger benchmark: [0-9]+x "
expect_match ledger-bench-1.4 "reference ratio is 1" "$out" "	2000	sqlite3 .import \\(reference\\)	[0-9.]+	[0-9]+	1\\.00$"
