#!/bin/sh
# demo.sh — the main job (`make demo`): prepare the sample corpus, train the
# small demo model (trainer/configs/demo-cpu.conf; on the GPU when the
# trainer was built with CUDA and one is usable), append its run record to
# demo/runs.jsonl, ingest it into ./ledger.db, show the frontier and, when
# the report program has `daily`, write today's report to demo/report/.
# About two minutes on a 2-core machine. Runs from the repository root.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
TRAINER="$BUILD/trainer" LEDGER="$BUILD/ledger" REPORT="$BUILD/report"
DB=${DEMO_DB:-ledger.db}
BUDGET=${DEMO_BUDGET_S:-90}
# OpenMP threads sleep at barriers instead of spinning: on a machine whose
# cores are shared with other work, spinning made 2 threads ~4x slower than
# 1 (measured: 1101 vs 4312 tok/s at load 4 on 2 cores). docs/trainer.md.
: "${OMP_WAIT_POLICY:=passive}"
export OMP_WAIT_POLICY
for p in "$TRAINER" "$LEDGER"; do
	[ -x "$p" ] || { echo "demo: $p is missing; run make first" >&2; exit 2; }
done
mkdir -p demo

echo "demo: 1/4 preparing data/sample from /usr/share/common-licenses" >&2
"$TRAINER" prepare-data --out data/sample --name sample /usr/share/common-licenses

echo "demo: 2/4 training for ${BUDGET}s (trainer/configs/demo-cpu.conf)" >&2
status=0
"$TRAINER" --config trainer/configs/demo-cpu.conf train.time_budget_s="$BUDGET" \
	--record demo/runs.jsonl --agent demo --description "make demo: small model on the sample corpus" \
	>demo/run.log || status=$?
cat demo/run.log
[ "$status" -eq 0 ] || echo "demo: the run ended with status $status; its record is still ingested" >&2

echo "demo: 3/4 ingesting demo/runs.jsonl into $DB" >&2
rc=0
"$LEDGER" --db "$DB" ingest demo/runs.jsonl || rc=$?
[ "$rc" -le 1 ] || exit "$rc"
"$LEDGER" --db "$DB" frontier

if [ -x "$REPORT" ] && "$REPORT" daily --help >/dev/null 2>&1; then
	day=$(date -u +%Y-%m-%d)
	echo "demo: 4/4 writing the report for $day to demo/report/" >&2
	"$REPORT" --db "$DB" daily --date "$day" --out demo/report || \
		echo "demo: report daily exited $? (see above)" >&2
else
	echo "demo: 4/4 skipped: $REPORT has no 'daily' command yet" >&2
fi
echo "demo: done — $DB, demo/runs.jsonl, demo/run.log${day:+, demo/report/$day.md}" >&2
