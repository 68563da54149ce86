#!/bin/sh
# ingest_bench.sh — `ledger ingest` of a large import and of a day's runs,
# each speed path of the ingest against the plain path, in the same run.
#
#   sh bench/ingest_bench.sh [N_IMPORT [N_DAY]]      default: 1000000 10000
#   env: LEDGER (default build/ledger), ROUNDS (default 3), BASE (runs in
#        the ledger a day is ingested into, default 100000), VARIANTS (see
#        below), BENCH_DIR for the work files (kept; else a temporary
#        directory, removed unless KEEP=1), CC for the generator.
#
# Two cases, on records from bench/gen_runrec.c:
#   import  N_IMPORT records (seed 42) into a new ledger;
#   day     N_DAY records (seed 43) into a ledger already holding BASE runs
#           of the same generator run (copied fresh for every ingest).
# Each VARIANT is NAME or NAME:VAR=VALUE,VAR=VALUE: `ledger ingest` run with
# those variables set; LEDGER=PATH among them runs another build (an older
# commit's, for before and after). The default variants: the build as it is
# ("default") and on its plain path ("plain": RL_INGEST_PLAIN=1, one thread
# instead of the worker, ledger/ingest.h); "plain" must be among them for
# the ratios. The rounds alternate the variants (A B C A B C …) so
# that the load of a shared machine falls on all of them alike; each figure
# is the best of ROUNDS (wall seconds, and the CPU seconds of that run).
# ratio = the plain variant's seconds ÷ this one's, from the same run: the
# speed-up the variant's paths buy. Every ingest is checked to store all of
# its records. Exit 0 ok, 1 a check failed, 2 usage, 3 setup.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEDGER=${LEDGER:-$ROOT/build/ledger}
ROUNDS=${ROUNDS:-3}
BASE=${BASE:-100000}
CC=${CC:-cc}
N_IMPORT=${1:-1000000}
N_DAY=${2:-10000}
VARIANTS=${VARIANTS:-"default plain:RL_INGEST_PLAIN=1"}
for n in "$N_IMPORT" "$N_DAY" "$BASE" "$ROUNDS"; do
	case "$n" in ''|*[!0-9]*) echo "ingest_bench: '$n' is not a count" >&2; exit 2 ;; esac
done
[ -x "$LEDGER" ] || { echo "ingest_bench: no ledger at '$LEDGER'; run make first" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "ingest_bench: sqlite3 (to count the runs) is not installed" >&2; exit 3; }
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 3
else
	dir=$(mktemp -d) || exit 3
	[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
fi
$CC -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/common" -o "$dir/gen_runrec" "$ROOT/bench/gen_runrec.c" \
	"$ROOT/common/varreg.c" || exit 3
fail() { echo "ingest_bench: check failed: $*" >&2; exit 1; }
count() { sqlite3 -batch -noheader "$1" 'SELECT count(*) FROM runs'; }
fresh() { rm -f "$dir/l.db" "$dir/l.db-wal" "$dir/l.db-shm"; }

# ingest_timed VARIANT FILE: wall and CPU seconds of one ingest into l.db
ingest_timed() {
	settings=${1#*:}
	[ "$settings" = "$1" ] && settings=
	bin=$LEDGER vars=
	for s in $(echo "$settings" | tr ',' ' '); do
		case "$s" in LEDGER=*) bin=${s#LEDGER=} ;; *) vars="$vars $s" ;; esac
	done
	# shellcheck disable=SC2086 # vars are VAR=VALUE words
	env $vars /usr/bin/time -f '%e %U %S' -o "$dir/time" \
		"$bin" --db "$dir/l.db" ingest "$2" >/dev/null 2>"$dir/err" ||
		{ cat "$dir/err" >&2; fail "ingest $2 ($1) failed"; }
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/time"
}

"$dir/gen_runrec" "$N_IMPORT" 42 "$dir/import.jsonl" "$dir/import.tsv" || exit 3
"$dir/gen_runrec" $((BASE + N_DAY)) 43 "$dir/both.jsonl" "$dir/both.tsv" || exit 3
head -n "$BASE" "$dir/both.jsonl" >"$dir/base.jsonl"
tail -n +$((BASE + 1)) "$dir/both.jsonl" >"$dir/day.jsonl"
fresh
"$LEDGER" --db "$dir/l.db" ingest "$dir/base.jsonl" >/dev/null || exit 3
sqlite3 "$dir/l.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$dir/l.db" "$dir/base.db"

: >"$dir/results"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	for v in $VARIANTS; do
		fresh
		t=$(ingest_timed "$v" "$dir/import.jsonl")
		[ "$(count "$dir/l.db")" = "$N_IMPORT" ] || fail "import ($v) did not store $N_IMPORT runs"
		echo "import $N_IMPORT ${v%%:*} $t" >>"$dir/results"
		fresh
		cp "$dir/base.db" "$dir/l.db"
		t=$(ingest_timed "$v" "$dir/day.jsonl")
		[ "$(count "$dir/l.db")" = $((BASE + N_DAY)) ] || fail "day ($v) did not store $N_DAY runs"
		echo "day $N_DAY ${v%%:*} $t" >>"$dir/results"
	done
	r=$((r + 1))
done

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "# ingest benchmark: $(nproc)x ${model:-unknown cpu}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# best of $ROUNDS alternating rounds; day = $N_DAY records into a ledger of $BASE runs"
echo "# ratio = plain variant's seconds / this variant's, same run"
printf 'case\tN\tvariant\twall_s\tcpu_s\trecords/s\tratio_wall\tratio_cpu\n'
awk -v order="$(for v in $VARIANTS; do printf '%s ' "${v%%:*}"; done)" '
	{ k = $1 SUBSEP $3; n[$1] = $2
	  if (!(k in wall) || $4 < wall[k]) { wall[k] = $4; cpu[k] = $5 } }
	END {
		nv = split(order, vs, " ")
		split("import day", cs, " ")
		for (c = 1; c <= 2; c++) {
			p = cs[c] SUBSEP "plain"
			for (i = 1; i <= nv; i++) {
				k = cs[c] SUBSEP vs[i]
				printf "%s\t%d\t%s\t%.3f\t%.2f\t%.0f\t%s\t%s\n", cs[c], n[cs[c]], vs[i],
					wall[k], cpu[k], n[cs[c]] / wall[k],
					(p in wall) ? sprintf("%.2f", wall[p] / wall[k]) : "-",
					(p in wall && cpu[k] > 0) ? sprintf("%.2f", cpu[p] / cpu[k]) : "-"
			}
		}
	}' "$dir/results"
