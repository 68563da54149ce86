# t-cli.sh — the command line every program shares (common/opts.c, issue
# 14): `--opt V` and `--opt=V` alike, `help COMMAND`, "did you mean" for
# commands, verbs, options and keys, --version everywhere, one hint per
# error, and usage errors answered before the ledger is opened.
. "$ROOT/tests/lib.sh"
"$LEDGER" --db l.db ingest "$FIXTURES/report/runs.jsonl" >/dev/null 2>&1

# -- one table: both spellings of a valued option mean the same
expect_code cli-1.1 "report daily --chart-days=3 (was refused)" 0 \
	"$REPORT" --db l.db daily --date=2026-03-16 --chart-days=3 --out=a --no-charts
expect_code cli-1.2 "report daily --chart-days 3" 0 \
	"$REPORT" --db l.db daily --date 2026-03-16 --chart-days 3 --out b --no-charts
expect_eq cli-1.3 "... the same digest" "$(cat b/2026-03-16.md)" "$(cat a/2026-03-16.md)"
expect_code cli-1.4 "report campaign --campaign=NAME (was refused with --campaign= only)" 2 \
	"$REPORT" --db l.db campaign --campaign=nope --out=c
expect_match cli-1.4m "... read as the campaign" "$err" "no campaign 'nope' is declared"
q1=$("$LEDGER" --db l.db query --limit 3 --order metric --format tsv)
q2=$("$LEDGER" --db l.db query --limit=3 --order=metric --format=tsv)
expect_eq cli-1.5 "ledger query --limit=3 --order=metric = --limit 3 --order metric" "$q1" "$q2"
expect_eq cli-1.6 "... three runs" 4 "$(printf '%s\n' "$q2" | wc -l)"
f1=$("$LEDGER" --db l.db frontier --by tier --status ok)
f2=$("$LEDGER" --db l.db frontier --by=tier --status=ok)
expect_eq cli-1.7 "ledger frontier --by=tier --status=ok (a filter)" "$f1" "$f2"
expect_code cli-1.8 "a flag given a value" 2 "$LEDGER" --db l.db frontier --all=yes
expect_eq cli-1.8m "... said" "ledger: frontier: option '--all' takes no value" "$err"
expect_code cli-1.9 "an int out of range, either spelling" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out o --decimals=13
expect_eq cli-1.9m "... the option's own message and hint" "report: daily: --decimals '13' is not a number of decimals
report: hint: give 0 to 12, e.g. --decimals 6" "$err"

# -- help
expect_code cli-2.1 "ledger help query" 0 "$LEDGER" help query
h1=$out
"$LEDGER" query --help >h2.txt
expect_eq cli-2.2 "... is query's --help" "$(cat h2.txt)" "$h1"
expect_eq cli-2.3 "... starting with its usage" "usage: ledger query" "$(printf '%s\n' "$h1" | head -n 1 | cut -c1-19)"
expect_no_match cli-2.4 "... not the global help" "$h1" '^Commands:'
expect_code cli-2.5 "ledger help (no command): the global help" 0 "$LEDGER" help
expect_match cli-2.5m "... lists the commands" "$out" '^Commands:'
expect_code cli-2.6 "report help daily" 0 "$REPORT" help daily
expect_eq cli-2.6m "... daily's usage" "usage: report daily" "$(printf '%s\n' "$out" | head -n 1 | cut -c1-19)"
expect_code cli-2.7 "ledger help qeury" 2 "$LEDGER" help qeury
expect_eq cli-2.7m "... did you mean" "ledger: 'qeury' is not a ledger command
ledger: hint: did you mean 'query'? ('ledger --help' lists the commands)" "$err"
expect_match cli-2.8 "query's help lists its filters" "$h1" "^  --since DATE +finished at or after the start of DATE"
expect_match cli-2.9 "... and names the global options" "$h1" "^Global options: --db FILE, --format FMT"
RUNLEDGER_AS=runledger expect_code cli-2.10 "started by runledger" 0 "$LEDGER" help diff
expect_eq cli-2.10m "... the usage says runledger" "usage: runledger diff [--all] RUN_A RUN_B" "$(printf '%s\n' "$out" | head -n 1)"

# -- did you mean
expect_code cli-3.1 "ledger qeury" 2 "$LEDGER" --db l.db qeury
expect_eq cli-3.1m "... suggests query" "ledger: 'qeury' is not a ledger command
ledger: hint: did you mean 'query'? ('ledger --help' lists the commands)" "$err"
expect_code cli-3.2 "ledger query --fromat json" 2 "$LEDGER" --db l.db query --fromat json
expect_eq cli-3.2m "... suggests the global --format" "ledger: query: unknown option '--fromat'
ledger: hint: did you mean '--format'?" "$err"
expect_code cli-3.3 "an option typo with no ledger: the typo is said, not the ledger" 2 \
	"$LEDGER" --db missing.db query --agnet x
expect_eq cli-3.3m "... did you mean --agent" "ledger: query: unknown option '--agnet'
ledger: hint: did you mean '--agent'?" "$err"
[ ! -e missing.db ] && ok cli-3.3n "no ledger was created" || not_ok cli-3.3n "no ledger was created"
expect_code cli-3.4 "report daily --chart-dyas" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out o --chart-dyas 3
expect_eq cli-3.4m "... suggests --chart-days" "report: daily: unknown option '--chart-dyas'
report: hint: did you mean '--chart-days'?" "$err"
expect_code cli-3.5 "report dialy" 2 "$REPORT" --db l.db dialy
expect_eq cli-3.5m "... suggests daily" "report: 'dialy' is not a report command
report: hint: did you mean 'daily'? ('report --help' lists the commands)" "$err"
expect_code cli-3.6 "ledger campaign lsit" 2 "$LEDGER" --db l.db campaign lsit
expect_eq cli-3.6m "... suggests the verb" "ledger: campaign: 'lsit' is not a verb (add, list, show, assign)
ledger: hint: did you mean 'campaign list'?" "$err"
expect_code cli-3.7 "trainer model.dpeth=3" 2 "$TRAINER" model.dpeth=3 --no-record
expect_eq cli-3.7m "... suggests model.depth, one hint" "trainer: command line: 'model.dpeth' is not a trainer variable
trainer: hint: did you mean 'model.depth'?" "$err"
expect_code cli-3.8 "trainer --recrod" 2 "$TRAINER" --recrod r.jsonl
expect_eq cli-3.8m "... suggests --record" "trainer: unknown option '--recrod'
trainer: hint: did you mean '--record'?" "$err"
expect_code cli-3.9 "ledger variables --alias model.dpeth" 1 "$LEDGER" variables --alias model.dpeth
expect_eq cli-3.9m "... suggests the key" "ledger: variables: 'model.dpeth' names no variable
ledger: hint: did you mean 'model.depth'? ('ledger variables' lists the names)" "$err"
expect_code cli-3.10 "an option before the command" 2 "$LEDGER" --dbb l.db query
expect_eq cli-3.10m "... is no global option: did you mean" "ledger: unknown option '--dbb'
ledger: hint: did you mean '--db'?" "$err"

# -- one hint per error
n=$("$TRAINER" model.depth=x --no-record 2>&1 >/dev/null | grep -c ': hint: ')
expect_eq cli-4.1 "trainer: a bad value gets one hint (was two)" 1 "$n"
n=$("$REPORT" --db l.db index --out o extra 2>&1 >/dev/null | grep -c '')
expect_eq cli-4.2 "report index with an extra argument: message and one hint, no usage dump" 2 "$n"
n=$("$LEDGER" --db l.db campaign 2>&1 >/dev/null | grep -c '')
expect_eq cli-4.3 "ledger campaign without a verb: message and one hint" 2 "$n"

# -- --version everywhere
for p in "$LEDGER" "$REPORT" "$TRAINER"; do
	b=$(basename "$p")
	expect_code "cli-5.$b" "$b --version" 0 "$p" --version
	expect_match "cli-5.$b.out" "... '$b (runledger) VERSION'" "$out" "^$b \\(runledger\\) [0-9]+\\.[0-9]+"
done
expect_code cli-5.front "runledger --version (the build tree's)" 0 "$BUILD/runledger" --version
expect_code cli-5.after "ledger --db F --version" 0 "$LEDGER" --db l.db --version
