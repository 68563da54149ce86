# t-ledger-decide.sh — `ledger decide RUN keep|discard`: the decision the
# ledger uses from then on (query, frontier, report), while the record keeps
# the one it was recorded with; show says both; the latest decision wins.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-decide-0 "fixture ingests"; exit 1; }
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
front() { "$LEDGER" --format tsv frontier --hardware H100 "$@" | cut -f1 | tr '\n' ' '; }
frontier_before=$(front)
expect_eq ledger-decide-1.0 "(before: h100-d9, a keep, moved the H100 frontier)" \
	"run_id h100-base h100-d9 h100-mlr5 " "$frontier_before"

expect_code ledger-decide-1.1 "decide discard" 0 "$LEDGER" --format tsv decide h100-d9 discard
expect_eq ledger-decide-1.2 "prints what it stored" "run_id	kind	key	value	who	at
h100-d9	decision		discard	alice	2026-04-01T10:00:00Z" "$out"
expect_eq ledger-decide-1.3 "the record keeps its decision" "keep|keep" \
	"$(sql ledger.db "SELECT decision, json_extract(record, '$.decision') FROM runs WHERE run_id = 'h100-d9'")"
expect_eq ledger-decide-1.4 "show: recorded and decided" "decision                        keep
ledger.decision.recorded        keep
ledger.decision.decided         discard (by alice at 2026-04-01T10:00:00Z)" \
	"$("$LEDGER" show h100-d9 | grep 'decision')"
expect_eq ledger-decide-1.5 "show json: decided beside the record's decision" "keep discard" \
	"$("$LEDGER" --format json show h100-d9 | jq -r '"\(.decision) \(.ledger.decided)"')"
expect_eq ledger-decide-1.6 "query shows the decided one" "discard" \
	"$("$LEDGER" --format tsv query --hardware H100 | awk -F'\t' '$1 == "h100-d9" {print $7}')"
expect_eq ledger-decide-1.7 "a discarded run no longer moves the frontier" "run_id h100-base h100-mlr5 " "$(front)"
expect_eq ledger-decide-1.8 "frontier --all still counts it" "run_id h100-base h100-d9 h100-mlr5 " "$(front --all)"

# a later decision wins; deciding keep of a recorded discard works the same way
RUNLEDGER_NOW=2026-04-02T00:00:00Z "$LEDGER" decide h100-d9 keep >/dev/null
expect_eq ledger-decide-2.1 "decided back: the frontier as before" "$frontier_before" "$(front)"
expect_eq ledger-decide-2.2 "show: the latest decision" "ledger.decision.decided         keep (by alice at 2026-04-02T00:00:00Z)" \
	"$("$LEDGER" show h100-d9 | grep 'decision.decided')"
"$LEDGER" decide h100-lr keep >/dev/null
expect_eq ledger-decide-2.3 "a recorded discard decided keep" "keep" \
	"$("$LEDGER" --format tsv query --hardware H100 | awk -F'\t' '$1 == "h100-lr" {print $7}')"

# report reads the decided decision too: the day's keeps count it
"$REPORT" --db ledger.db daily --date 2026-03-16 --out r1 --no-charts >/dev/null 2>&1
"$LEDGER" decide h100-lr discard >/dev/null
"$REPORT" --db ledger.db daily --date 2026-03-16 --out r2 --no-charts >/dev/null 2>&1
if [ -s r1/2026-03-16.md ] && ! cmp -s r1/2026-03-16.md r2/2026-03-16.md; then
	ok ledger-decide-3.1 "the daily digest changes with a decision"
else
	not_ok ledger-decide-3.1 "the daily digest changes with a decision" "$(ls r1 r2 2>&1)"
fi

# usage errors: exit 2, nothing stored
n=$(sql ledger.db "SELECT count(*) FROM annotations")
expect_code ledger-decide-4.1 "not a decision" 2 "$LEDGER" decide h100-d9 maybe
expect_match ledger-decide-4.2 "(says so)" "$err" "'maybe' is not a decision"
expect_code ledger-decide-4.3 "baseline is not decided after the fact" 2 "$LEDGER" decide h100-d9 baseline
expect_code ledger-decide-4.4 "no decision" 2 "$LEDGER" decide h100-d9
expect_code ledger-decide-4.5 "unknown run" 2 "$LEDGER" decide nosuch keep
expect_eq ledger-decide-4.6 "nothing stored" "$n" "$(sql ledger.db "SELECT count(*) FROM annotations")"
