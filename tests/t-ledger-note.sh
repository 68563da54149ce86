# t-ledger-note.sh — `ledger note RUN TEXT`: a note beside the unchanged
# record, with who and when; shown by show (escaped), in order; usage errors
# and unknown runs store nothing.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-note-0 "fixture ingests"; exit 1; }
export RUNLEDGER_NOW=2026-04-01T10:00:00Z
unset LEDGER_WHO
record_before=$(sql ledger.db "SELECT content_hash, record FROM runs WHERE run_id = 'h100-d12'")

expect_code ledger-note-1.1 "a note" 0 env USER=alice "$LEDGER" --format tsv note h100-d12 "OOM at batch 64: try 32"
expect_eq ledger-note-1.2 "prints what it stored: who from \$USER, when from the clock" \
	"run_id	kind	key	value	who	at
h100-d12	note		OOM at batch 64: try 32	alice	2026-04-01T10:00:00Z" "$out"
expect_code ledger-note-1.3 "\$LEDGER_WHO over \$USER" 0 env USER=alice LEDGER_WHO=agent-7 "$LEDGER" --format tsv note h100-d1 "second"
expect_match ledger-note-1.4 "(agent-7, and a unique prefix names the run)" "$out" '^h100-d12	note		second	agent-7	'
expect_code ledger-note-1.5 "--who over both" 0 env LEDGER_WHO=agent-7 "$LEDGER" --format json note --who bob '#7' "third"
expect_match ledger-note-1.6 "(bob; #N names the run; json)" "$out" '"who": "bob"'
expect_eq ledger-note-1.7 "three rows, in order" "note|OOM at batch 64: try 32|alice
note|second|agent-7
note|third|bob" "$(sql ledger.db "SELECT kind, value, who FROM annotations a JOIN runs r ON r.id = a.run WHERE r.run_id = 'h100-d12' ORDER BY a.id")"
expect_eq ledger-note-1.8 "the record is unchanged" "$record_before" \
	"$(sql ledger.db "SELECT content_hash, record FROM runs WHERE run_id = 'h100-d12'")"

# show: the notes in order, with who and when
"$LEDGER" show h100-d12 >show.txt 2>&1
expect_eq ledger-note-2.1 "show lists the notes" \
"ledger.note.1                   OOM at batch 64: try 32 (by alice at 2026-04-01T10:00:00Z)
ledger.note.2                   second (by agent-7 at 2026-04-01T10:00:00Z)
ledger.note.3                   third (by bob at 2026-04-01T10:00:00Z)" "$(grep '^ledger\.note' show.txt)"
"$LEDGER" --format json show h100-d12 >show.json
expect_eq ledger-note-2.2 "show json: the annotations array" \
	'{"at": "2026-04-01T10:00:00Z", "kind": "note", "value": "OOM at batch 64: try 32", "who": "alice"}' \
	"$(jq -c -S '.ledger.annotations[0]' show.json | sed 's/,"/, "/g; s/":/": /g')"
expect_eq ledger-note-2.3 "a run without annotations has no annotations member" "null" \
	"$("$LEDGER" --format json show h100-base | jq -c '.ledger.annotations')"

# text from a note is escaped where it lands: the terminal, markdown
"$LEDGER" note h100-base "$(printf 'red \033[31malert\033[0m | <b>')" >/dev/null
expect_match ledger-note-3.1 "control characters shown as \\xNN in show" "$("$LEDGER" show h100-base)" \
	'^ledger\.note\.1 +red \\x1b\[31malert\\x1b\[0m \| <b> \(by '
expect_match ledger-note-3.2 "md escapes | and <" "$("$LEDGER" --format md show h100-base)" \
	'ledger\.note\.1 \| red .*\\\| &lt;b&gt;'

# usage errors and unknown runs: exit 2, nothing stored
n_before=$(sql ledger.db "SELECT count(*) FROM annotations")
expect_code ledger-note-4.1 "no text" 2 "$LEDGER" note h100-d12
expect_code ledger-note-4.2 "empty text" 2 "$LEDGER" note h100-d12 ""
expect_code ledger-note-4.3 "two texts" 2 "$LEDGER" note h100-d12 one two
expect_code ledger-note-4.4 "unknown run" 2 "$LEDGER" note nosuch "text"
expect_match ledger-note-4.5 "(says which run, and that nothing was stored)" "$err" "nothing was stored"
expect_code ledger-note-4.6 "unknown option" 2 "$LEDGER" note --whom x h100-d12 "text"
expect_code ledger-note-4.7 "--who without a name" 2 "$LEDGER" note --who "" h100-d12 "text"
expect_eq ledger-note-4.8 "nothing stored by any of them" "$n_before" "$(sql ledger.db "SELECT count(*) FROM annotations")"
expect_code ledger-note-4.9 "a missing ledger is not created" 3 "$LEDGER" --db none.db note h100-d12 "x"
[ ! -e none.db ] && ok ledger-note-4.10 "(none.db not made)" || not_ok ledger-note-4.10 "(none.db not made)" "it exists"
expect_code ledger-note-4.11 "-- lets a note start with a dash" 0 "$LEDGER" note h100-d12 -- "-5% slower"
expect_eq ledger-note-4.12 "(stored as written)" "-5% slower" "$(sql ledger.db "SELECT value FROM annotations ORDER BY id DESC LIMIT 1")"
