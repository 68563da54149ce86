# t-report-cli.sh — the `report` command line: --help for every command,
# usage errors (exit 2) and runtime failures (exit 3) with their messages,
# user templates (--template) and their errors with file:line, --limit,
# `report index`, and charts skipped when gnuplot is missing (exit 1, the
# report still written and saying so).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F="$FIXTURES/report/runs.jsonl"
"$LEDGER" --db l.db ingest "$F" >/dev/null 2>&1

for c in $("$REPORT" --help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
	expect_code "report-cli-help-$c" "report $c --help exits 0" 0 "$REPORT" "$c" --help
	expect_eq "report-cli-help-$c.out" "report $c --help starts with its usage" "usage: report $c" \
		"$(printf '%s\n' "$out" | head -1 | cut -d' ' -f1-3)"
done
expect_code report-cli-1 "no command: usage on stderr, exit 2" 2 "$REPORT"
expect_match report-cli-1.1 "usage lists the commands" "$err" '^  daily '
expect_code report-cli-2 "unknown command" 2 "$REPORT" weekly
expect_eq report-cli-2.1 "unknown command message" "report: 'weekly' is not a report command
report: hint: run 'report --help' for the list" "$err"
expect_code report-cli-3 "daily without --out" 2 "$REPORT" --db l.db daily --date 2026-03-16
expect_eq report-cli-3.1 "says what is missing" "report: daily: --out DIR is required
report: hint: for example: report daily --date 2026-03-16 --out reports" "$err"
expect_code report-cli-4 "daily with an impossible date" 2 "$REPORT" --db l.db daily --date 2026-02-30 --out out
expect_eq report-cli-4.1 "bad date message" "report: daily: --date '2026-02-30' is not a day
report: hint: give one UTC day: 2026-03-16, today, yesterday or -1d (days before today)" "$err"
expect_code report-cli-5 "a ledger that does not exist is a runtime failure" 3 "$REPORT" --db missing.db daily --date 2026-03-16 --out out
expect_match report-cli-5.1 "names the ledger" "$err" "^report: cannot open ledger 'missing.db': No such file or directory$"
[ ! -e missing.db ] && ok report-cli-5.2 "no empty ledger was created" || not_ok report-cli-5.2 "no empty ledger was created"
expect_code report-cli-6 "bad --limit" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out out --limit many
expect_match report-cli-6.1 "bad --limit message" "$err" "^report: daily: --limit 'many' is not a row count$"
expect_code report-cli-7 "unknown option" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out out --colour
expect_code report-cli-8 "undeclared campaign" 2 "$REPORT" --db l.db campaign --campaign nope --out out
expect_match report-cli-8.1 "undeclared campaign message" "$err" "no campaign 'nope' is declared"
LEDGER_DB=l.db expect_code report-cli-9 "LEDGER_DB is the default ledger" 0 "$REPORT" daily --date 2026-03-15 --out envout --no-charts

# -- user templates
printf '{{! mine }}\n{{runs}} runs on {{date}}; best {{global_after}}\n{{#crashes}}\nhas crashes\n{{/crashes}}\n' >mine.md
expect_code report-cli-10 "--template renders a user template" 0 "$REPORT" --db l.db daily --date 2026-03-16 --out tout --template mine.md --no-charts
expect_eq report-cli-10.1 "user template output, exactly" "16 runs on 2026-03-16; best 0.9264
has crashes" "$(cat tout/2026-03-16.md)"
printf 'ok\n{{runs}}\n{{nope}}\n' >bad.md
expect_code report-cli-11 "unknown placeholder is a usage error" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out tout --template bad.md --no-charts
expect_eq report-cli-11.1 "message names command, template file and line" "report: daily: bad.md:3: unknown placeholder 'nope'
report: hint: the template syntax and its values are in docs/report.md" "$err"
expect_code report-cli-12 "missing template file" 3 "$REPORT" --db l.db daily --date 2026-03-16 --out tout --template none.md --no-charts
expect_match report-cli-12.1 "missing template message" "$err" "none.md"

# -- --limit cuts long tables and says how many rows are left out
expect_code report-cli-13 "--limit 1" 0 "$REPORT" --db l.db daily --date 2026-03-16 --out lim --limit 1 --no-charts
expect_match report-cli-13.1 "agent profiles cut to 1 row" "$(cat lim/2026-03-16.md)" '^7 more rows not shown \(raise --limit, or 0 for all\)\.$'

# -- --decimals: every metric value at the asked precision
expect_code report-cli-13.2 "--decimals 6" 0 "$REPORT" --db l.db daily --date 2026-03-16 --out dec --decimals 6 --template mine.md --no-charts
expect_eq report-cli-13.3 "best with 6 decimals" "16 runs on 2026-03-16; best 0.926400" "$(head -1 dec/2026-03-16.md)"
expect_code report-cli-13.4 "--decimals out of range" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out dec --decimals 40
expect_match report-cli-13.5 "--decimals message" "$err" "^report: daily: --decimals '40' is not a number of decimals$"

# -- gnuplot missing: report still written, the chart is skipped and says so
RUNLEDGER_GNUPLOT=/nonexistent/gnuplot expect_code report-cli-14 "gnuplot missing: exit 1 (partial)" 1 \
	"$REPORT" --db l.db daily --date 2026-03-16 --out nog
expect_match report-cli-14.1 "the digest says the chart was skipped" "$(cat nog/2026-03-16.md)" \
	'^_Chart skipped: gnuplot not found \(install gnuplot-nox, or set RUNLEDGER\\_GNUPLOT\)\._$'
expect_match report-cli-14.2 "warning on stderr" "$err" "^report: warning: chart '2026-03-16-frontier' skipped: gnuplot not found"
[ -s nog/2026-03-16.html ] && [ ! -e nog/charts/2026-03-16-frontier.svg ] && ok report-cli-14.3 "HTML written, no chart" ||
	not_ok report-cli-14.3 "HTML written, no chart" "$(ls -R nog)"
# -- a gnuplot that hangs is stopped after RUNLEDGER_GNUPLOT_TIMEOUT seconds
printf '#!/bin/sh\necho starting >&2\nexec sleep 30\n' >hang-gnuplot && chmod +x hang-gnuplot
t0=$(date +%s)
RUNLEDGER_GNUPLOT=$PWD/hang-gnuplot RUNLEDGER_GNUPLOT_TIMEOUT=0.5 expect_code report-cli-14.4 \
	"gnuplot hangs: exit 1 (partial)" 1 "$REPORT" --db l.db daily --date 2026-03-16 --out hang
took=$(( $(date +%s) - t0 ))
[ "$took" -lt 20 ] && ok report-cli-14.5 "the report did not wait for it (${took} s)" ||
	not_ok report-cli-14.5 "the report did not wait for it" "took $took s"
expect_match report-cli-14.6 "the digest says why the chart is missing" "$(cat hang/2026-03-16.md)" \
	'^_Chart skipped: gnuplot did not finish in 0\.5 s and was stopped \(RUNLEDGER\\_GNUPLOT\\_TIMEOUT\); its messages are in charts/2026-03-16-frontier\.log\._$'
expect_eq report-cli-14.7 "its log kept what it printed" "starting" "$(cat hang/charts/2026-03-16-frontier.log)"
printf '#!/bin/sh\nexit 1\n' >fail-gnuplot && chmod +x fail-gnuplot
RUNLEDGER_GNUPLOT=$PWD/fail-gnuplot RUNLEDGER_GNUPLOT_TIMEOUT=soon expect_code report-cli-14.8 \
	"a gnuplot that fails, with a bad timeout: exit 1" 1 "$REPORT" --db l.db daily --date 2026-03-16 --out hang2
expect_match report-cli-14.9 "the bad timeout is named" "$err" \
	"^report: warning: RUNLEDGER_GNUPLOT_TIMEOUT 'soon' is not a positive number of seconds; using 60$"
expect_match report-cli-14.10 "the failure has its exit code" "$(cat hang2/2026-03-16.md)" '^_Chart skipped: gnuplot failed \(exit 1\)'
printf '{"name":"ck","search_space":["impl.*"],"baseline":"rtx-base","hardware":"RTX 3090"}\n' >ck.json
"$LEDGER" --db l.db campaign add ck.json >/dev/null 2>&1
"$LEDGER" --db l.db campaign assign ck rtx-base rtx-fused >/dev/null 2>&1
PATH=/nonexistent expect_code report-cli-15 "gnuplot not on PATH: campaign exit 1" 1 "$REPORT" --db l.db campaign --campaign ck --out nog2
expect_match report-cli-15.1 "campaign says its chart was skipped" "$(cat nog2/campaign-ck.md)" '^_Chart skipped: gnuplot not found'

# -- report index rebuilds the index from what is in the directory
mkdir -p idx && cp nog/2026-03-16.html idx/ && cp nog2/campaign-ck.html idx/ && touch idx/notes.html
expect_code report-cli-16 "report index" 0 "$REPORT" index --out idx
expect_match report-cli-16.1 "links the digest" "$(cat idx/index.html)" '<a href="2026-03-16.html">2026-03-16</a>'
expect_match report-cli-16.2 "links the campaign" "$(cat idx/index.html)" '<a href="campaign-ck.html">ck</a>'
expect_no_match report-cli-16.3 "ignores other files" "$(cat idx/index.html)" 'notes'

# -- --chart-days: the chart's window; each class's line starts at its best before it
if command -v "${RUNLEDGER_GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
	"$REPORT" --db l.db daily --date 2026-03-16 --out win --chart-days 1 >/dev/null 2>&1
	T0=$(date -u -d 2026-03-16 +%s)
	n=$(sql l.db "SELECT count(*) FROM runs WHERE val_bpb IS NOT NULL AND t_finished >= $T0 AND t_finished < $T0 + 86400")
	# (a value outside the informative range is in the outliers' file, not its class's)
	expect_eq report-cli-17 "one day of valid runs in the chart data" "$n" \
		"$(cat win/charts/2026-03-16-frontier-runs-*.dat win/charts/2026-03-16-frontier-outliers.dat 2>/dev/null | grep -c '^[0-9]')"
	b=$(sql l.db "SELECT min(val_bpb) FROM runs WHERE hw_class = 'B200' AND status = 'ok' AND t_finished < $T0")
	expect_eq report-cli-17.1 "B200 line starts at midnight at its earlier best" "$T0	$b" \
		"$(grep -l '"B200"' win/charts/2026-03-16-frontier-runs-*.dat | sed 's/runs-/best-/' | xargs head -1)"
else
	ok report-cli-17 "# SKIP gnuplot not installed"
fi
expect_code report-cli-18 "bad --chart-days" 2 "$REPORT" --db l.db daily --date 2026-03-16 --out win --chart-days -1
expect_code report-cli-19 "index of a directory that does not exist" 3 "$REPORT" index --out no/such/dir
expect_match report-cli-19.1 "names the directory" "$err" "^report: cannot read directory 'no/such/dir': No such file or directory$"
# --limit also caps the campaign's findings, counting the rest
"$LEDGER" --db l.db campaign add ck.json >/dev/null 2>&1
expect_code report-cli-20 "campaign with --limit 2" 0 "$REPORT" --db l.db campaign --campaign ck --out lim2 --limit 2 --no-charts
nf=$("$LEDGER" --db l.db audit --campaign ck --format tsv 2>/dev/null | tail -n +2 | wc -l)
expect_match report-cli-20.1 "findings beyond the limit are counted" "$(cat lim2/campaign-ck.md)" \
	"^$((nf - 2)) more findings? not shown \(raise --limit, or see \`ledger audit --campaign\`\)\.$"

# --format json, for agents: stdout one object naming the files written,
# every message a JSON line whose "exit" is the status the process returns
need jq jq
expect_code report-cli-21 "daily --format json" 0 "$REPORT" --db l.db --format json daily --date 2026-03-16 --out js --no-charts
expect_eq report-cli-21.1 "stdout: the markdown, HTML and index written" "js/2026-03-16.md js/2026-03-16.html js/index.html" \
	"$(printf '%s' "$out" | jq -r '[.markdown, .html, .index] | join(" ")')"
expect_eq report-cli-21.2 "... which are there" "3" \
	"$(n=0; for f in $(printf '%s' "$out" | jq -r '.[]'); do [ -s "$f" ] && n=$((n + 1)); done; echo $n)"
expect_eq report-cli-21.3 "... and stderr says nothing" "" "$err"
expect_code report-cli-21.4 "--format=json after the command, campaign" 0 "$REPORT" --db l.db campaign --campaign ck --out js --no-charts --format=json
expect_eq report-cli-21.5 "... names the campaign report" "js/campaign-ck.md" "$(printf '%s' "$out" | jq -r .markdown)"
expect_code report-cli-22 "a missing ledger, --format json" 3 "$REPORT" --db missing.db --format json daily --date 2026-03-16 --out js
expect_eq report-cli-22.1 "the error as one JSON object with its exit status" \
	"cannot open ledger 'missing.db': No such file or directory|3|report" \
	"$(printf '%s' "$err" | jq -r '[.error, (.exit | tostring), .program] | join("|")')"
expect_code report-cli-22.2 "a mistyped command, --format json" 2 "$REPORT" --format json dialy
expect_eq report-cli-22.3 "... its error and hint as JSON" "'dialy' is not a report command|did you mean 'daily'? ('report --help' lists the commands)|2" \
	"$(printf '%s' "$err" | jq -r '[.error, .hint, (.exit | tostring)] | join("|")')"
expect_code report-cli-22.4 "the note of daily without --date, as JSON" 0 "$REPORT" --db l.db --format json daily --out js --no-charts
expect_match report-cli-22.5 "... one note object" "$(printf '%s' "$err" | jq -r .note)" '^daily: no --date: reporting 2026-03-1[0-9] \(UTC\), the latest day with runs$'
expect_code report-cli-23 "--format xml" 2 "$REPORT" --db l.db --format xml daily --out js
expect_eq report-cli-23.1 "names the choices" "report: --format 'xml' is not one of text, json" "$(printf '%s\n' "$err" | head -n 1)"

# an --out directory that cannot be made: names the part that failed
: >afile
expect_code report-cli-24 "--out under a plain file" 3 "$REPORT" --db l.db daily --date 2026-03-16 --out afile/sub/dir --no-charts
expect_eq report-cli-24.1 "says which directory and why" "report: cannot create directory 'afile/sub': Not a directory" "$err"
