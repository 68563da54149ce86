# t-ledger-json.sh — what a program reading `ledger` sees (issue 14, item 4;
# docs/exit-codes.md "Errors as JSON", docs/ledger.md "Machine-readable
# output"). Test plan: with --format json every error is one JSON object on
# stderr whose "exit" is the real exit status, for a usage error (2), a
# missing ledger (3), an unknown run (2) and ambiguous prefixes (2, with the
# candidates, and how many more as detail); warnings are objects too, stdout
# stays the answer; escaping keeps odd input valid JSON; text mode prints
# each hint once. Then the field types, checked with jq over every command's
# json: runs an array of run ids wherever it appears, changed an array of
# {var, old, new, how, span}, search_space an array, one object for init,
# reinfer and variables --alias; campaign show --format csv one table;
# compare, summary, note/tag/decide/archive and export under the same rules.
. "$ROOT/tests/lib.sh"
need jq jq
need sqlite3 sqlite3
export LEDGER_DB="$PWD/ledger.db"
"$LEDGER" ingest "$FIXTURES/audit/seed.jsonl" "$FIXTURES/query/runs.jsonl" >/dev/null 2>&1
"$LEDGER" campaign add "$FIXTURES/audit/campaign.json" >/dev/null

# jl ID DESC CODE CMD... : CMD exits CODE, every stderr line is a JSON
# object, and each error's "exit" is CODE
jl() {
	id=$1 desc=$2 want=$3; shift 3
	expect_code "$id" "$desc: exit $want" "$want" "$@"
	bad=$(jq -R -r 'fromjson? // "not json" | if type == "object" then
		(if has("error") and .exit != '"$want"' then "exit \(.exit)" else empty end)
		else "not an object" end' stderr.txt)
	lines=$(grep -c . stderr.txt)
	expect_eq "$id.json" "$desc: $lines stderr line(s), each a JSON object, exit $want in each error" "" "$bad"
}

# -- 1: errors as JSON, the emitted exit equal to the process's
jl ledger-json-1.1 "usage error" 2 "$LEDGER" --format json query --limit x
expect_eq ledger-json-1.2 "usage error object" \
	'{"error": "query: --limit '"'x'"' is not a positive count", "hint": null, "exit": 2, "program": "ledger"}' "$err"
expect_eq ledger-json-1.3 "stdout empty" "" "$out"
jl ledger-json-1.4 "missing ledger" 3 "$LEDGER" --db missing.db query --format json
expect_eq ledger-json-1.5 "missing ledger object, hint included" \
	"{\"error\": \"cannot open ledger 'missing.db': No such file or directory\", \"hint\": \"pass --db FILE or set LEDGER_DB; 'ledger ingest FILE' or 'ledger init' creates one\", \"exit\": 3, \"program\": \"ledger\"}" "$err"
jl ledger-json-1.6 "unknown run" 2 "$LEDGER" show nope --format json
expect_eq ledger-json-1.7 "unknown run object" \
	"{\"error\": \"no run 'nope' in the ledger\", \"hint\": \"give a run id, a prefix of one, #N, or a commit prefix of 4 or more characters; list runs with 'ledger query'\", \"exit\": 2, \"program\": \"ledger\"}" "$err"
jl ledger-json-1.8 "unknown command" 2 "$LEDGER" --format json qeury
expect_eq ledger-json-1.9 "unknown command: error and hint" "'qeury' is not a ledger command|did you mean 'query'? ('ledger --help' lists the commands)" \
	"$(jq -r '"\(.error)|\(.hint)"' stderr.txt)"
jl ledger-json-1.10 "no command" 2 "$LEDGER" --format json
expect_eq ledger-json-1.11 "no command: an error, not the usage text" "no command given" "$(jq -r .error stderr.txt)"
jl ledger-json-1.12 "campaign without a verb" 2 "$LEDGER" --format json campaign
expect_eq ledger-json-1.13 "... one hint, not the usage" "run 'ledger campaign --help'|null" \
	"$(jq -r '"\(.hint)|\(.detail)"' stderr.txt)"

# -- 2: ambiguous references list their candidates
jl ledger-json-2.1 "ambiguous run-id prefix" 2 "$LEDGER" --format json show h100
expect_eq ledger-json-2.2 "candidates: every run id with the prefix, in order" \
	"$(sql ledger.db "SELECT run_id FROM runs WHERE run_id LIKE 'h100%' ORDER BY run_id")" \
	"$(jq -r '.candidates[]' stderr.txt)"
expect_eq ledger-json-2.3 "error and hint" \
	"run 'h100' is ambiguous: several run ids start with it:|give more characters of the run id, or name one by #N" \
	"$(jq -r '"\(.error)|\(.hint)"' stderr.txt)"
expect_code ledger-json-2.4 "text mode: the same candidates, one line each" 2 "$LEDGER" show h100
expect_eq ledger-json-2.5 "text mode: exact stderr, the hint once" "ledger: run 'h100' is ambiguous: several run ids start with it:
$(sql ledger.db "SELECT '  #' || id || '  ' || run_id || '  ' || code_commit || '  ' || status || '  ' || description FROM runs WHERE run_id LIKE 'h100%' ORDER BY run_id")
ledger: hint: give more characters of the run id, or name one by #N" "$err"
jl ledger-json-2.6 "ambiguous commit prefix" 2 "$LEDGER" --format json show 4f2c
expect_eq ledger-json-2.7 "candidates: the runs of that commit" \
	"$(sql ledger.db "SELECT run_id FROM runs WHERE code_commit LIKE '4f2c%' ORDER BY id")" "$(jq -r '.candidates[]' stderr.txt)"
"$LEDGER" ingest "$FIXTURES/ingest/results.tsv" >/dev/null 2>&1 # 124 runs named r-…
n=$(sql ledger.db "SELECT count(*) FROM runs WHERE run_id LIKE 'r-%'")
jl ledger-json-2.8 "a prefix of $n runs" 2 "$LEDGER" --format json show r-
expect_eq ledger-json-2.9 "10 candidates, the rest counted in detail" "10|  … and $((n - 10)) more" \
	"$(jq -r '"\(.candidates | length)|\(.detail[0])"' stderr.txt)"

# -- 3: warnings and notes are objects too; stdout is still the answer
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\nabc1234\t1.5\t10\tkeep\tbase\n' >notime.tsv
jl ledger-json-3.1 "ingest with a warning" 0 "$LEDGER" --db w.db --format json ingest notime.tsv
expect_eq ledger-json-3.2 "one warning object: warning, hint, program; no exit" "warning,hint,program" \
	"$(jq -r 'keys_unsorted | join(",")' stderr.txt)"
expect_eq ledger-json-3.3 "stdout: the summary as json" "1" "$(printf '%s' "$out" | jq '.[0].new')"
jl ledger-json-3.4 "a warning and an error: exit 2 in the error" 2 "$LEDGER" --db w.db --format json ingest notime.tsv nope.tsv
expect_eq ledger-json-3.5 "... the error says exit 2" "cannot open 'nope.tsv': No such file or directory|2" \
	"$(jq -r 'select(has("error")) | "\(.error)|\(.exit)"' stderr.txt)"

# -- 4: escaping: quotes, control characters and invalid UTF-8 stay valid JSON
jl ledger-json-4.1 "a quote and a tab in the reference" 2 "$LEDGER" --format json show "$(printf 'a"b\tc')"
expect_eq ledger-json-4.2 "... read back as given" "$(printf "no run 'a\"b\tc' in the ledger")" "$(jq -r .error stderr.txt)"
jl ledger-json-4.3 "an invalid UTF-8 byte" 2 "$LEDGER" --format json show "$(printf 'x\377y')"
expect_eq ledger-json-4.4 "... written as \\ufffd" "1" "$(grep -c -F "no run 'x\\ufffdy'" stderr.txt)"

# -- 5: text mode is unchanged: each hint once
expect_code ledger-json-5.1 "text: unknown run" 2 "$LEDGER" show nope
expect_eq ledger-json-5.2 "text: message and hint, once each" "ledger: no run 'nope' in the ledger
ledger: hint: give a run id, a prefix of one, #N, or a commit prefix of 4 or more characters; list runs with 'ledger query'" "$err"

# -- 6: field types, with jq over every command's json
"$LEDGER" reinfer --dry-run --format json >reinfer.json
for c in "query" "query --order metric --limit 3" "show h100-lr" "show r3090-b" "diff h100-base h100-lr" \
	"frontier --all" "repeats" "audit" "audit --coverage" "campaign list" "campaign show qwen-compile" \
	"init" "quarantine" "variables" "variables --alias depth" "check" \
	"compare r4090-a r4090-wd h100-lr" "compare --campaign qwen-compile" "summary" "summary --campaign qwen-compile"; do
	name=$(printf '%s' "$c" | tr ' ' '_')
	"$LEDGER" $c --format json >"$name.json" 2>/dev/null
	printf '%s\n' "$name.json" >>outputs.txt
done
printf '%s\n' reinfer.json >>outputs.txt
bad=
for f in $(cat outputs.txt); do
	jq -e . "$f" >/dev/null 2>&1 || { bad="$bad $f:not-json"; continue; }
	# runs: an array of strings, wherever it appears
	r=$(jq '[.. | objects | select(has("runs")) | .runs | type == "array" and all(.[]; type == "string")] | all' "$f")
	[ "$r" = true ] || bad="$bad $f:runs"
	# changed: an array of objects with var, old, new, how, span
	c=$(jq '[.. | objects | select(has("changed")) | .changed | type == "array" and
		all(.[]; type == "object" and (keys == ["how","new","old","span","var"]) and (.var | type == "string")
		and (.how | type == "string") and all(.old, .new, .span; type == "string" or type == "null"))] | all' "$f")
	[ "$c" = true ] || bad="$bad $f:changed"
	s=$(jq '[.. | objects | select(has("search_space")) | .search_space | type == "array" and all(.[]; type == "string")] | all' "$f")
	[ "$s" = true ] || bad="$bad $f:search_space"
done
expect_eq ledger-json-6.1 "runs, changed, search_space typed alike in $(wc -l <outputs.txt) outputs" "" "$bad"
# has KEY FILE... : how many of the files hold KEY somewhere
has() { k=$1; shift; for f in "$@"; do jq "[.. | objects | select(has(\"$k\"))] | length > 0" "$f"; done | grep -c true; }
expect_eq ledger-json-6.2 "the contract was exercised: runs, changed, search_space present" "2|3|2" \
	"$(has runs repeats.json audit.json)|$(has changed query.json show_h100-lr.json campaign_show_qwen-compile.json)|$(has search_space campaign_list.json campaign_show_qwen-compile.json)"
expect_eq ledger-json-6.3 "query: an inferred change with its span, a run without changes []" \
	'[{"var":"optim.weight_decay","old":"0","new":"0.1","how":"inferred","span":"weight decay 0 to 0.1"}]|[]' \
	"$(jq -c '.[] | select(.run_id == "r4090-wd") | .changed' query.json)|$(jq -c '.[] | select(.run_id == "r4090-a") | .changed' query.json)"
expect_eq ledger-json-6.4 "query, show and campaign show give one run the same changed" \
	"$(jq -c '.[] | select(.run_id == "q20-07") | .changed' query.json)" \
	"$("$LEDGER" show q20-07 --format json | jq -c '.ledger.changed')"
expect_eq ledger-json-6.5 "... campaign show too" "$(jq -c '.[] | select(.run_id == "q20-07") | .changed' query.json)" \
	"$(jq -c '.members[] | select(.run_id == "q20-07") | .changed' campaign_show_qwen-compile.json)"
expect_eq ledger-json-6.6 "repeats: runs are ids of the ledger" "$(jq -r '.[].runs[]' repeats.json | sort)" \
	"$(for r in $(jq -r '.[].runs[]' repeats.json); do sql ledger.db "SELECT run_id FROM runs WHERE run_id = '$r'"; done | sort)"
expect_eq ledger-json-6.7 "counts are n_*, numbers" "number number number number" \
	"$(jq -r '.[0] | "\(.n_runs | type) \(.n_valid | type)"' campaign_list.json) $(jq -r '.n_runs | type' init.json) $(jq -r '.n_runs | type' reinfer.json)"
expect_eq ledger-json-6.8 "audit values hold no 'runs'" "0" "$(jq '[.[] | .values | select(has("runs"))] | length' audit.json)"
expect_eq ledger-json-6.9 "one object: init, reinfer, variables --alias" "object object object" \
	"$(jq -r type init.json) $(jq -r type reinfer.json) $(jq -r type variables_--alias_depth.json)"
expect_eq ledger-json-6.10 "reinfer: written a boolean (dry run: false)" "false" "$(jq .written reinfer.json)"
expect_eq ledger-json-6.11 "campaign show: the declaration, then members" \
	"name metric direction hardware baseline search_space bundles record_budget noise_default description members" \
	"$(jq -r 'keys_unsorted | join(" ")' campaign_show_qwen-compile.json)"
expect_eq ledger-json-6.12 "variables: aliases always an array, choices an array or null" "true" \
	"$(jq '[.[] | (.aliases | type == "array") and (.choices | type == "array" or type == "null")] | all' variables.json)"
expect_eq ledger-json-6.13 "a choice's values as an array" '["adamw","muon"]' \
	"$(jq -c '.[] | select(.key == "optim.matrix_optimizer") | .choices' variables.json)"
expect_eq ledger-json-6.14 "listings are arrays of objects" "" \
	"$(for f in query.json frontier_--all.json repeats.json audit.json audit_--coverage.json campaign_list.json quarantine.json variables.json check.json diff_h100-base_h100-lr.json; do
		[ "$(jq 'type == "array" and all(.[]; type == "object")' "$f")" = true ] || printf ' %s' "$f"; done)"

# -- 7: campaign show --format csv is one table, read by sqlite3's csv import
expect_code ledger-json-7.1 "campaign show csv" 0 "$LEDGER" campaign show qwen-compile --format csv
printf '%s\n' "$out" >show.csv
expect_eq ledger-json-7.2 "one header line" "1" "$(grep -c '^section,' show.csv)"
imp=$(sqlite3 :memory: ".import --csv show.csv t" "SELECT count(*) || '|' || sum(section = 'campaign') || '|' || sum(section = 'run') FROM t" 2>&1)
expect_eq ledger-json-7.3 "every row has the header's columns (no import complaint): fields, then runs" \
	"$(($(jq 'keys | length' campaign_show_qwen-compile.json) - 1 + $(jq '.members | length' campaign_show_qwen-compile.json)))|$(($(jq 'keys | length' campaign_show_qwen-compile.json) - 1))|$(jq '.members | length' campaign_show_qwen-compile.json)" "$imp"
expect_eq ledger-json-7.4 "a run row as the json has it" "q20-07|ok|impl.recompute,train.device_batch_size" \
	"$(sqlite3 :memory: ".import --csv show.csv t" "SELECT run_id || '|' || status || '|' || changed FROM t WHERE run_id = 'q20-07'")"
expect_code ledger-json-7.5 "campaign show tsv: one table too" 0 "$LEDGER" campaign show qwen-compile --format tsv
expect_eq ledger-json-7.6 "tsv: one column count on every line" "10" \
	"$(printf '%s\n' "$out" | awk -F'\t' '{print NF}' | sort -u | tr '\n' ' ' | sed 's/ $//')"


# -- 8: the commands added with annotations: compare, summary, note, tag,
# decide, archive, export (their output above joins the checks of 6.1)
c=compare_r4090-a_r4090-wd_h100-lr.json
expect_eq ledger-json-8.1 "compare: one object, runs the ids in order, rows of section/key/differs/values" \
	'object|["r4090-a","r4090-wd","h100-lr"]|true' \
	"$(jq -r type $c)|$(jq -c .runs $c)|$(jq '[.rows[] | (keys == ["differs","key","section","values"]) and (.differs | type == "boolean")
		and (.section | type == "string") and (.values | length == 3)] | all' $c)"
expect_eq ledger-json-8.2 "compare: a changed row's values are change objects or null" \
	'true|[null,{"var":"optim.weight_decay","old":"0","new":"0.1","how":"inferred","span":"weight decay 0 to 0.1"},null]' \
	"$(jq '[.rows[] | select(.section == "changed") | .values[] | type == "null" or (type == "object" and keys == ["how","new","old","span","var"])] | all' $c)|$(jq -c '.rows[] | select(.section == "changed" and .key == "optim.weight_decay") | .values' $c)"
expect_eq ledger-json-8.3 "compare: the text formats still show a change as 'old -> new' ('~' inferred)" "changed	optim.weight_decay		~0 -> 0.1	" \
	"$("$LEDGER" --format tsv compare r4090-a r4090-wd h100-lr | grep '^changed	optim.weight_decay')"
for f in summary.json summary_--campaign_qwen-compile.json; do
	expect_eq "ledger-json-8.4.$f" "summary: one object, counts n_* numbers, no count named runs" "object|true|true|false" \
		"$(jq -r type $f)|$(jq '[.n_runs, .n_valid, .n_keeps, .n_crashes, .n_crash_streak] | all(type == "number")' $f)|$(jq '(.keep_rate | type == "number" or type == "null")
			and (.best | type == "array" and all(.[]; (.hardware | type == "string") and (.run_id | type == "string")))
			and (.trend | type == "string") and (.untested | type == "array" or type == "null")' $f)|$(jq 'has("runs") or has("valid") or has("keeps") or has("crashes")' $f)"
done
expect_eq ledger-json-8.5 "summary: untested an array of globs for a declared campaign, null without one" "true|null" \
	"$(jq '.untested | type == "array" and all(.[]; type == "string")' summary_--campaign_qwen-compile.json)|$(jq -c .untested summary.json)"
cp ledger.db annot.db
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
row_ok='keys == ["at","key","kind","run_id","value","who"] and (.run_id | type == "string") and (.at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"))'
"$LEDGER" --db annot.db --format json note h100-lr "looked at the curve" >note.json
"$LEDGER" --db annot.db --format json decide h100-lr keep >decide.json
expect_eq ledger-json-8.6 "note, decide: one object each (one annotation stored)" "true|true|null|note|decision|keep" \
	"$(jq "type == \"object\" and ($row_ok)" note.json)|$(jq "type == \"object\" and ($row_ok)" decide.json)|$(jq -c .key note.json)|$(jq -r .kind note.json)|$(jq -r .kind decide.json)|$(jq -r .value decide.json)"
"$LEDGER" --db annot.db --format json tag h100-lr reviewed=yes >tag1.json
"$LEDGER" --db annot.db --format json tag h100-lr a=1 b=2 >tag2.json
"$LEDGER" --db annot.db --format json archive r3090-c >archive.json
expect_eq ledger-json-8.7 "tag, archive: an array of objects, one per annotation, however many" "1|2|1|true" \
	"$(jq length tag1.json)|$(jq length tag2.json)|$(jq length archive.json)|$(jq -s "map(type == \"array\" and all(.[]; $row_ok)) | all" tag1.json tag2.json archive.json)"
"$LEDGER" --db annot.db export >export.jsonl
expect_eq ledger-json-8.8 "export: every line one object with ledger.changes and ledger.annotations arrays" \
	"$(sql annot.db "SELECT count(*) FROM runs")|true" \
	"$(jq -c . export.jsonl | wc -l | tr -d ' ')|$(jq -s 'all(.[]; type == "object" and (.ledger.changes | type == "array"
		and all(.[]; (.var | type == "string") and (.how | type == "string")))
		and (.ledger.annotations // [] | type == "array"))' export.jsonl)"
expect_eq ledger-json-8.9 "export: the annotations just made, with ISO times" "note,decision,tag,tag,tag|true" \
	"$(jq -r 'select(.run_id == "h100-lr") | [.ledger.annotations[].kind] | join(",")' export.jsonl)|$(jq -s '[.[] | .ledger.annotations // [] | .[] | .at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")] | all' export.jsonl)"
