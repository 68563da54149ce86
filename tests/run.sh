#!/bin/sh
# run.sh — the test runner. Runs every unit-test binary in $BUILD/tests/ and
# every tests/t-*.sh script, counts their "ok ID - …" / "not ok ID - …" lines
# and prints "N passed, N failed" last; exits 1 if anything failed.
#   BUILD=build sh tests/run.sh [PATTERN]   (PATTERN: substring of test names)
# A test that exits non-zero without printing "not ok" counts as one failure.
BUILD=${BUILD:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
export BUILD ROOT
export LEDGER="$BUILD/ledger" REPORT="$BUILD/report" TRAINER="$BUILD/trainer"
export FIXTURES="$ROOT/tests/fixtures"
# the build may live outside the tree (BUILD=/tmp/x): templates come from here
export RUNLEDGER_TEMPLATES="$ROOT/templates"
export LC_ALL=C TZ=UTC
unset LEDGER_DB
pattern=${1:-}
pass=0 fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() { # name, command...
	name=$1; shift
	case "$name" in *"$pattern"*) ;; *) return ;; esac
	work=$(mktemp -d)
	( cd "$work" && "$@" ) >"$log" 2>&1
	rc=$?
	rm -rf "$work"
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	grep -E '^(not ok |# )' "$log"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok $name - exited with status $rc; last output:"
		tail -n 15 "$log" | sed 's/^/#   /'
		f=1
	fi
	[ "$p" -eq 0 ] && [ "$f" -eq 0 ] && { echo "not ok $name - ran no checks"; f=1; }
	echo "$name: $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
}

for t in "$BUILD"/tests/*; do
	[ -x "$t" ] && [ -f "$t" ] && run_one "$(basename "$t")" "$t"
done
for t in "$ROOT"/tests/t-*.sh; do
	[ -f "$t" ] && run_one "$(basename "$t" .sh)" sh "$t"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
