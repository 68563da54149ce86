# t-ledger-quarantine.sh — `ledger quarantine` lists what ingest refused.
# Test plan: an empty ledger lists nothing (exit 0); after ingesting the
# runrec fixture (4 bad lines) and a bad results.tsv row, the listing shows
# file, line, reason and content in id order, in json and tsv; --file and
# --limit narrow it; a bad argument is a usage error.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cp "$FIXTURES/ingest/runs.jsonl" .
DB=l.db

"$LEDGER" --db $DB init >/dev/null
expect_code ledger-quarantine-1.1 "empty quarantine exits 0" 0 "$LEDGER" --db $DB quarantine --format tsv
expect_eq ledger-quarantine-1.2 "empty quarantine prints the header only" "id	file	line	reason	content" "$out"

"$LEDGER" --db $DB ingest runs.jsonl >/dev/null 2>&1
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\nabc1234\tx.y\t44.0\tkeep\tbaseline\n' >bad.tsv
"$LEDGER" --db $DB ingest bad.tsv >/dev/null 2>&1

expect_code ledger-quarantine-2.1 "listing exits 0" 0 "$LEDGER" --db $DB quarantine --format tsv
expect_eq ledger-quarantine-2.2 "file, line and reason in id order" \
"1	runs.jsonl	8	invalid JSON at column 63: string or '}' expected near end of file
2	runs.jsonl	9	field 'metrics.val_bpb': expected a number or null, got string
3	runs.jsonl	10	field 'status': 'exploded' is not one of ok|crash|oom|nan|timeout|killed|invalid|running
4	runs.jsonl	11	run_id 'h100-a1b2c3-0003' is already stored with different content (run #3)
5	bad.tsv	2	val_bpb 'x.y' is not a number" "$(printf '%s\n' "$out" | sed 1d | cut -f1-4)"
expect_eq ledger-quarantine-2.3 "content as read (tabs flattened in tsv)" "abc1234 x.y 44.0 keep baseline" \
	"$(printf '%s\n' "$out" | tail -n 1 | cut -f5)"

expect_code ledger-quarantine-3.1 "--file and --format json" 0 "$LEDGER" --db $DB quarantine --file bad.tsv --format json
expect_eq ledger-quarantine-3.2 "json keeps the raw content" \
	'[{"id":5,"file":"bad.tsv","line":2,"reason":"val_bpb '"'"'x.y'"'"' is not a number","content":"abc1234\tx.y\t44.0\tkeep\tbaseline"}]' \
	"$(printf '%s' "$out" >q.json; sql :memory: "SELECT json(readfile('q.json'))")"
expect_code ledger-quarantine-3.3 "--limit 2" 0 "$LEDGER" --db $DB quarantine --limit=2 --format csv
expect_eq ledger-quarantine-3.4 "--limit keeps the last entries, oldest first" "4,5" \
	"$(printf '%s\n' "$out" | sed 1d | cut -d, -f1 | paste -sd, -)"

"$LEDGER" --db $DB ingest runs.jsonl >/dev/null 2>&1
expect_eq ledger-quarantine-4.1 "re-ingesting reports the bad lines but stores them once" "5" \
	"$(sql $DB "SELECT count(*) FROM quarantine")"

expect_code ledger-quarantine-5.1 "unknown argument exits 2" 2 "$LEDGER" --db $DB quarantine --frob
# an option-shaped word is an unknown option (common/opts.c says so for every command)
expect_eq ledger-quarantine-5.2 "unknown option message" "ledger: quarantine: unknown option '--frob'
ledger: hint: run 'ledger quarantine --help'" "$err"
expect_code ledger-quarantine-5.2a "a word is an unexpected argument" 2 "$LEDGER" --db $DB quarantine frob
expect_eq ledger-quarantine-5.2b "... said so" "ledger: quarantine: unexpected argument 'frob'
ledger: hint: run 'ledger quarantine --help'" "$err"
expect_code ledger-quarantine-5.3 "bad --limit exits 2" 2 "$LEDGER" --db $DB quarantine --limit many
