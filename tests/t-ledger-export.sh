# t-ledger-export.sh — `ledger export`: every run as runrec/1 JSONL with its
# changes, annotations, repeat key and source; ingesting it into a fresh
# ledger gives the same runs, changes and annotations (export -> ingest ->
# export byte-identical, show equal for every run); carried changes are
# never inferred again; ingesting an export merges its annotations.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
cp "$FIXTURES/query/runs.jsonl" "$FIXTURES/audit/seed-results.tsv" . || exit 1
# exact changes (configs) and inferred ones (descriptions, with spans)
"$LEDGER" --db a.db ingest runs.jsonl >/dev/null 2>&1 &&
	"$LEDGER" --db a.db ingest --hardware 'RTX 3090' --started-at 2026-03-18T00:00:00Z seed-results.tsv >/dev/null 2>&1 ||
	{ not_ok ledger-export-0 "fixtures ingest"; exit 1; }
"$LEDGER" --db a.db note h100-d12 'OOM: "batch 64" | try 32' >/dev/null
"$LEDGER" --db a.db tag h100-d12 reviewed=yes >/dev/null
LEDGER_WHO=bob "$LEDGER" --db a.db decide h100-d9 discard >/dev/null
"$LEDGER" --db a.db archive h100-lr >/dev/null
expect_eq ledger-export-0.1 "(inferred changes with their text are in the ledger)" "yes" \
	"$([ "$(sql a.db "SELECT count(*) FROM changes WHERE how = 'inferred' AND span IS NOT NULL")" -gt 0 ] && echo yes || echo no)"

expect_code ledger-export-1.1 "export" 0 "$LEDGER" --db a.db export
printf '%s\n' "$out" >e1.jsonl
expect_eq ledger-export-1.2 "one line per run, archived ones too" "$(sql a.db "SELECT count(*) FROM runs")" "$(wc -l <e1.jsonl | tr -d ' ')"
expect_eq ledger-export-1.3 "each line is runrec/1 with a ledger object" "$(wc -l <e1.jsonl | tr -d ' ')" \
	"$(jq -c 'select(.schema == "runrec/1" and (.ledger | type) == "object")' e1.jsonl | wc -l | tr -d ' ')"
expect_eq ledger-export-1.4 "the record part is the stored record, byte for byte" \
	"$(sql a.db "SELECT record FROM runs WHERE run_id NOT LIKE 'r-%' ORDER BY id")" \
	"$(grep '"run_id":"' e1.jsonl | sed 's/,"ledger":{.*}}$/}/')"
expect_eq ledger-export-1.5 "a derived run_id is left out: the record as received" \
	"$(sql a.db "SELECT count(*) FROM runs WHERE run_id LIKE 'r-%'") 0" \
	"$(jq -c 'select(.run_id == null)' e1.jsonl | wc -l | tr -d ' ') $(grep -c '"run_id":"r-' e1.jsonl)"
expect_eq ledger-export-1.6 "changes carry how (and span where text gave them)" \
	'{"how":"exact","new":"12","old":"9","var":"model.depth"}' \
	"$(jq -c 'select(.run_id == "h100-d12") | .ledger.changes[0]' e1.jsonl)"
expect_eq ledger-export-1.7 "annotations carry who and when" \
	'{"at":"2026-04-01T10:00:00Z","kind":"decision","value":"discard","who":"bob"}' \
	"$(jq -c 'select(.run_id == "h100-d9") | .ledger.annotations[0]' e1.jsonl)"

# into a fresh ledger, and out again
expect_code ledger-export-2.1 "ingest the export" 0 "$LEDGER" --db b.db ingest e1.jsonl
"$LEDGER" --db b.db export >e2.jsonl
cmp -s e1.jsonl e2.jsonl && ok ledger-export-2.2 "export -> ingest -> export: byte-identical" ||
	not_ok ledger-export-2.2 "export -> ingest -> export: byte-identical" "$(diff e1.jsonl e2.jsonl | head -c 800)"
same=0 differ=""
for r in $(sql a.db "SELECT run_id FROM runs ORDER BY id"); do
	for f in table json; do
		if [ "$("$LEDGER" --db a.db --format $f show "$r")" = "$("$LEDGER" --db b.db --format $f show "$r")" ]; then
			same=$((same + 1))
		else
			differ="$differ $r/$f"
		fi
	done
done
expect_eq ledger-export-2.3 "show (table and json) equal for every run" "" "$differ"
expect_eq ledger-export-2.4 "(all $same of them compared)" "$((2 * $(sql a.db "SELECT count(*) FROM runs")))" "$same"
dump() { sql "$1" "SELECT r.run_id, c.var, c.old, c.new, c.how, c.span, c.infer_version FROM changes c JOIN runs r ON r.id = c.run ORDER BY r.id, c.var;
	SELECT r.run_id, a.kind, a.key, a.value, a.who, a.at FROM annotations a JOIN runs r ON r.id = a.run ORDER BY a.run, a.id;
	SELECT id, run_id, content_hash, repeat_key, hw_class, val_bpb, source_format, source_file, source_line, ingested_at FROM runs ORDER BY id"; }
# (annotations keep their order within a run, which is what "the latest
# wins" reads; across runs they are ingested in run order)
expect_eq ledger-export-2.5 "changes, annotations and runs rows equal" "$(dump a.db)" "$(dump b.db)"
expect_eq ledger-export-2.6 "the archived run stays archived, the decision decided" "$(cd . && "$LEDGER" --db a.db --format tsv query)" \
	"$("$LEDGER" --db b.db --format tsv query)"

# ingested again, into either ledger: nothing new, nothing doubled
expect_code ledger-export-3.1 "the export into its own ledger" 0 "$LEDGER" --db a.db ingest e1.jsonl
expect_match ledger-export-3.2 "(all present)" "$out" "0 new, $(wc -l <e1.jsonl | tr -d ' ') already present, 0 quarantined"
expect_eq ledger-export-3.3 "no annotation doubled" "$(dump b.db)" "$(dump a.db)"

# merge: a note added in b reaches a through b's export
"$LEDGER" --db b.db note r3090-a "noisy card" >/dev/null
"$LEDGER" --db b.db export >b.jsonl
"$LEDGER" --db a.db ingest b.jsonl >/dev/null 2>&1
expect_eq ledger-export-4.1 "merged: a has b's note, once" "1" \
	"$(sql a.db "SELECT count(*) FROM annotations WHERE value = 'noisy card'")"
expect_eq ledger-export-4.2 "and the two ledgers export the same" "$(cat b.jsonl)" "$("$LEDGER" --db a.db export)"

# carried changes are stored as carried: never inferred again
# (sed, not jq: jq prints 1.0 as 1, another record)
sed '/"run_id":"h100-d12"/s/"new":"12","old":"9"/"new":"13","old":"9"/' e1.jsonl >edited.jsonl
# a record with a parent and a description that states a change, carrying none
printf '%s\n' '{"schema":"runrec/1","run_id":"x-child","parent":"h100-base","description":"depth 8 to 9","status":"ok","ledger":{"changes":[]}}' >>edited.jsonl
"$LEDGER" --db c.db ingest edited.jsonl >/dev/null 2>&1
expect_eq ledger-export-5.1 "the carried change, not the config diff" "9|13|exact" \
	"$(sql c.db "SELECT old, new, how FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'h100-d12'")"
expect_eq ledger-export-5.2 "an empty carried list: no change inferred from the description" "0" \
	"$(sql c.db "SELECT count(*) FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'x-child'")"
printf '%s\n' '{"schema":"runrec/1","run_id":"x-child2","parent":"h100-base","description":"depth 8 to 9","status":"ok"}' >plain.jsonl
"$LEDGER" --db c.db ingest plain.jsonl >/dev/null 2>&1
expect_eq ledger-export-5.3 "(the same record without it: inferred)" "model.depth|inferred" \
	"$(sql c.db "SELECT var, how FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'x-child2'")"
expect_eq ledger-export-5.4 "the identity is the record's, without the ledger object" \
	"$(sql a.db "SELECT content_hash FROM runs WHERE run_id = 'h100-d12'")" \
	"$(sql c.db "SELECT content_hash FROM runs WHERE run_id = 'h100-d12'")"

# a ledger object ingest cannot read is refused, with the record
printf '%s\n' '{"schema":"runrec/1","run_id":"bad-1","status":"ok","ledger":5}' \
	'{"schema":"runrec/1","run_id":"bad-2","status":"ok","ledger":{"changes":[{"var":"model.depth","how":"guessed"}]}}' \
	'{"schema":"runrec/1","run_id":"bad-3","status":"ok","ledger":{"annotations":[{"kind":"decision","value":"maybe","at":"2026-04-01T00:00:00Z"}]}}' \
	'{"schema":"runrec/1","run_id":"bad-4","status":"ok","ledger":{"annotations":[{"kind":"tag","value":"x","at":"2026-04-01T00:00:00Z"}]}}' >bad.jsonl
expect_code ledger-export-6.1 "bad ledger objects: partial ingest" 1 "$LEDGER" --db c.db ingest bad.jsonl
expect_eq ledger-export-6.2 "each quarantined, saying why" \
	"bad.jsonl:1: top-level 'ledger' is reserved for what 'ledger export' carries, and must be an object
bad.jsonl:2: change 'model.depth' in ledger.changes: 'how' must be exact, code or inferred
bad.jsonl:3: 'maybe' is not a value of a decision annotation
bad.jsonl:4: a tag annotation needs a 'key'" \
	"$(sql c.db "SELECT source_file || ':' || line || ': ' || reason FROM quarantine ORDER BY id")"
expect_eq ledger-export-6.3 "(none stored)" "0" "$(sql c.db "SELECT count(*) FROM runs WHERE run_id LIKE 'bad-%'")"

# usage
expect_code ledger-export-7.1 "no arguments" 2 "$LEDGER" --db a.db export --campaign x
expect_code ledger-export-7.2 "it writes JSONL only" 2 "$LEDGER" --db a.db --format csv export
"$LEDGER" --db empty.db init >/dev/null
expect_code ledger-export-7.3 "an empty ledger" 0 "$LEDGER" --db empty.db export
expect_eq ledger-export-7.4 "(exports nothing)" "" "$out"
