# t-report-daily.sh — `report daily` on the multi-day fixture
# (tests/fixtures/report/runs.jsonl: 4 days, 9 agents, B200/H100/H200/A10G/
# RTX 3090). Test plan: ingest with `ledger ingest`, render 2026-03-16, and
# check every section's numbers against values computed here independently
# (jq over the fixture, sqlite3 over the ledger), not against the report's
# own code; then the day boundary, an empty day, determinism and HTML
# escaping of a description holding <script>.
. "$ROOT/tests/lib.sh"
need jq jq
need sqlite3 sqlite3
F="$FIXTURES/report/runs.jsonl"
DAY=2026-03-16
T0=$(date -u -d "$DAY" +%s); T1=$((T0 + 86400))
"$LEDGER" --db l.db ingest "$F" >/dev/null 2>&1
expect_code report-daily-1 "daily digest renders (gnuplot off)" 0 "$REPORT" --db l.db daily --date $DAY --out out --no-charts
# The tables below are read as text: a link to a run's page ([02:00](runs/x.md))
# is read as its label here, and the links are checked in 20.x.
md=$(sed 's/\[\([^]]*\)\](runs\/[^)]*\.md)/\1/g' out/$DAY.md)
expect_eq report-daily-1.1 "stdout names the files" "out/$DAY.md
out/$DAY.html" "$out"
section() { printf '%s\n' "$md" | awk -v h="## $1" '$0 == h {f = 1; next} /^## /{f = 0} f'; }
day_jq() { jq -r "select(.finished_at | startswith(\"$DAY\")) | $1" "$F"; }

# -- summary: counts from the fixture itself
runs=$(day_jq .run_id | wc -l)
agents=$(day_jq .agent | sort -u | wc -l)
hw=$(day_jq .hardware.gpu_name | sort -u | wc -l)
# keep rate as autoresearch's analysis.ipynb: keeps (the baseline counted)
# over keeps and discards of valid runs; failed runs apart
keeps=$(day_jq 'select((.decision == "keep" or .decision == "baseline") and .status == "ok" and .metrics.val_bpb != null) | .run_id' | wc -l)
discards=$(day_jq 'select(.decision == "discard" and .status == "ok" and .metrics.val_bpb != null) | .run_id' | wc -l)
rate=$(awk -v k="$keeps" -v d="$discards" 'BEGIN { printf "%.0f%%", 100 * k / (k + d) }')
failed=$(day_jq 'select(.status != "ok") | .run_id' | wc -l)
expect_eq report-daily-2 "summary counts" \
	"$runs runs by $agents agents on $hw hardware classes: $keeps kept, $discards discarded (keep rate $rate, the baseline counted as a keep), $failed without a valid measurement." \
	"$(section Summary | sed -n 2p)"
expect_eq report-daily-2.1 "fixture sanity: 16 runs, 8 agents, 5 classes" "16 8 5" "$runs $agents $hw"

# -- global frontier before/after, first value, share of earlier progress
before=$(sql l.db "SELECT printf('%.4f', min(val_bpb)) FROM runs WHERE status = 'ok' AND t_finished < $T0")
after=$(sql l.db "SELECT printf('%.4f', min(val_bpb)) FROM runs WHERE status = 'ok' AND t_finished < $T1")
first=$(jq -rs 'map(select(.status == "ok" and .metrics.val_bpb != null)) | sort_by(.finished_at) | .[0].metrics.val_bpb' "$F")
first=$(printf '%.4f' "$first")
change=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.4f", a - b }')
share=$(awk -v a="$after" -v b="$before" -v f="$first" 'BEGIN { printf "%.0f%%", 100 * (b - a) / (f - b) }')
expect_match report-daily-3 "global frontier before -> after" "$md" \
	"^The best val_bpb on any hardware moved from \*\*$before\*\* to \*\*$after\*\* \\($change\\)\.$"
expect_match report-daily-3.1 "day's gain against all earlier progress" "$md" \
	"improved it by $(awk -v f="$first" -v b="$before" 'BEGIN { printf "%.4f", f - b }') \\(from $first, the first valid run on 2026-03-14\\): this day's gain is $share of that\.$"
expect_eq report-daily-3.2 "fixture sanity: 0.9598 -> 0.9264, first 0.9949, 95%" "0.9598 0.9264 0.9949 95%" "$before $after $first $share"

# -- frontier timeline: the day's runs that beat every earlier valid run of their class
want=$(sql l.db "SELECT strftime('%H:%M', t_finished, 'unixepoch') || ' ' || printf('%.4f', val_bpb) || ' ' || agent || ' ' || hw_class
	FROM runs r WHERE t_finished >= $T0 AND t_finished < $T1 AND status = 'ok' AND val_bpb IS NOT NULL
	AND r.decision IS NOT 'discard'
	AND val_bpb < coalesce((SELECT min(q.val_bpb) FROM runs q WHERE q.hw_class = r.hw_class AND q.status = 'ok'
	    AND q.decision IS NOT 'discard'
	    AND (q.t_finished < r.t_finished OR (q.t_finished = r.t_finished AND q.id < r.id))), 1e9)
	ORDER BY t_finished, id")
got=$(section "Frontier timeline" | awk -F' \\| ' '/^\| [0-9][0-9]:/ { sub(/^\| /, "", $1); print $1, $2, $4, $5 }')
expect_eq report-daily-4 "timeline rows = runs that moved their class frontier" "$want" "$got"
expect_match report-daily-4.1 "timeline row with change and description" "$md" \
	'^\| 04:48 \| 0\.9264 \| -0\.0006 \| forge \| B200 \| B200 \+ all hardware \| WSD sqrt \+ FINAL\\_LR\\_FRAC 0\.02 \|$'

# -- per-hardware frontiers: before and after per class
for cls in A10G B200 H100 H200 "RTX 3090"; do
	b=$(sql l.db "SELECT printf('%.4f', min(val_bpb)) FROM runs WHERE status = 'ok' AND hw_class = '$cls' AND t_finished < $T0")
	a=$(sql l.db "SELECT printf('%.4f', min(val_bpb)) FROM runs WHERE status = 'ok' AND hw_class = '$cls' AND t_finished < $T1")
	n=$(sql l.db "SELECT count(*) FROM runs WHERE hw_class = '$cls' AND t_finished >= $T0 AND t_finished < $T1")
	id=report-daily-5.$(printf '%s' "$cls" | tr -d ' ')
	expect_match "$id" "$cls frontier row: $n runs, $b -> $a" "$(section 'Per-hardware frontiers')" \
		"^\| $cls \| $n \| [0-9]+ \| $b \| $a \| "
done

# -- agent profiles: forge and georgepickett, recomputed with jq
prof() { # agent -> "runs keeps rate failed best"
	jq -rs --arg a "$1" --arg d "$DAY" 'map(select(.agent == $a and (.finished_at | startswith($d)))) |
		[length, (map(select(.decision == "keep")) | length), (map(select(.status != "ok")) | length),
		 (map(.metrics.val_bpb | select(. != null)) | min)] | @tsv' "$F" |
	awk -F'\t' '{ printf "%d | %d | %.0f%% | %d | %.4f", $1, $2, 100 * $2 / $1, $3, $4 }'
}
expect_match report-daily-6 "forge profile" "$(section 'Agent profiles')" "^\| forge \| $(prof forge) \| B200 \|$"
expect_match report-daily-6.1 "georgepickett profile (a timeout, no keeps)" "$(section 'Agent profiles')" \
	"^\| georgepickett \| $(prof georgepickett) \| H200 \|$"
expect_eq report-daily-6.2 "one profile row per agent" "$agents" \
	"$(section 'Agent profiles' | grep '^| [a-z]' | grep -vc '^| agent |')"

# -- failed approaches: every discarded valid run, against its parent's value
nd=$(sql l.db "SELECT count(*) FROM runs WHERE decision = 'discard' AND val_bpb IS NOT NULL AND t_finished >= $T0 AND t_finished < $T1")
expect_eq report-daily-7 "failed approaches list every discarded run" "$nd" \
	"$(section 'Failed approaches' | grep -c '^| [0-9][0-9]:')"
ref=$(sql l.db "SELECT printf('%.4f vs %.4f', r.val_bpb, p.val_bpb) FROM runs r JOIN runs p ON p.run_id = r.parent WHERE r.run_id = 'b200-mlp5'")
expect_match report-daily-7.1 "MLP 5x width against its parent" "$(section 'Failed approaches')" \
	"^\| 17:00 \| $ref \| 0\.0106 \| model\.mlp\\\\_ratio 4 → 5 \| helios \| B200 \| MLP 5x width \|$"
expect_match report-daily-7.2 "families are headings with counts" "$(section 'Failed approaches')" '^### model \(4 runs\)$'
expect_match report-daily-7.3 "a two-family change is its own group" "$(section 'Failed approaches')" '^### model \+ optim \(1 run\)$'

# -- crashes and invalid runs, with phase and message from the record
crash=$(jq -r 'select(.run_id == "b200-nan") | "\(.status) | \(.failure.phase) | \(.failure.message)"' "$F")
expect_match report-daily-8 "NaN run with phase and message" "$(section 'Crashes and invalid runs')" "^\| 06:00 \| $crash \| forge \| B200 \|"
expect_eq report-daily-8.1 "one row per failed run" "$failed" "$(section 'Crashes and invalid runs' | grep -c '^| [0-9][0-9]:')"

# -- several variables at once
nc=$(sql l.db "SELECT count(*) FROM runs r WHERE t_finished >= $T0 AND t_finished < $T1 AND (SELECT count(*) FROM changes c WHERE c.run = r.id) >= 2")
expect_eq report-daily-9 "confounded runs listed" "$nc" "$(section 'Several variables changed together' | grep -c '^| [0-9][0-9]:')"
expect_match report-daily-9.1 "confounded keep names both variables" "$md" \
	'^\| 02:00 \| impl\.attention flash → fa4; model\.depth 10 → 12 \| 2 \| 0\.9300 \| ok \| keep \| forge \|'

# -- repeat groups: mean ± sample sd recomputed with awk
msd=$(sql l.db "SELECT val_bpb FROM runs WHERE run_id IN ('h100-mlr', 'h100-mlr-r')" |
	awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n; printf "%.4f ± %.4f", m, sqrt((q - n * m * m) / (n - 1)) }')
expect_match report-daily-10 "H100 repeat group mean ± sd" "$(section 'Repeat groups')" "^\| H100 \| 2 \| $msd \| 0\.9731 \| 0\.9733 \| 0\.0002 \| 0 \|"
expect_eq report-daily-10.1 "groups without a run on the day are left out" 1 "$(section 'Repeat groups' | grep -c '^| [A-Z]')"

# -- overview since the first day: runs per day from the fixture
for d in 2026-03-14 2026-03-15 2026-03-16; do
	n=$(jq -r "select(.finished_at | startswith(\"$d\")) | .run_id" "$F" | wc -l)
	expect_match "report-daily-11.$d" "overview row $d has $n runs" "$(section 'Overview since the first day')" "^\| $d \| $n \| "
done
expect_no_match report-daily-11.1 "the next day (starts at 00:00:00) is not in the digest" \
	"$(printf '%s\n' "$md" | grep -v '^\[← ')" '2026-03-17|next day'
# -- the way between days: the neighbours the ledger has, and the index with each day's numbers
expect_eq report-daily-21.1 "the digest links the day before, the index and the day after" \
	'[← 2026-03-15](2026-03-15.md) · [all reports](index.html) · [2026-03-17 →](2026-03-17.md)' "$(sed -n 3p out/$DAY.md)"
"$REPORT" --db l.db daily --date 2026-03-14 --out out --no-charts >/dev/null 2>&1
expect_eq report-daily-21.2 "the first day has no day before" '[all reports](index.html) · [2026-03-15 →](2026-03-15.md)' \
	"$(sed -n 3p out/2026-03-14.md)"
expect_match report-daily-21.3 "the HTML links the neighbours' HTML" "$(cat out/$DAY.html)" '<a href="2026-03-15.html">← 2026-03-15</a>'
idx=$(sed -n '/<tbody>/,/<\/tbody>/p' out/index.html | tr -d '\n' | sed 's/<\/tr>/\n/g; s/<[^>]*>/ /g; s/  */ /g')
want=$(for d in 2026-03-16 2026-03-14; do
	sql l.db "SELECT '$d', count(*), sum(decision IN ('keep', 'baseline') AND val_bpb IS NOT NULL),
		sum(decision = 'discard' AND val_bpb IS NOT NULL), sum(status <> 'ok' OR val_bpb IS NULL)
		FROM runs WHERE date(t_finished, 'unixepoch') = '$d'" | tr '|' ' '
done)
# (the best of 2026-03-14 is the H200's 0.9650; a first day has no move)
expect_eq report-daily-21.4 "the index: each day's runs, keeps, discards, failed (from SQL), best and move" \
	"$(printf '%s\n' "$want" | sed -n 1p) 0.9264 -0.0334
$(printf '%s\n' "$want" | sed -n 2p) 0.9650" \
	"$(printf '%s\n' "$idx" | sed 's/^ //; s/ $//' | grep .)"
total=$(awk -v f="$first" -v a="$after" 'BEGIN { printf "%.4f \\(%.1f%%\\)", f - a, 100 * (f - a) / f }')
expect_match report-daily-11.2 "overview sentence" "$md" "^Since 2026-03-14 the best val_bpb on any hardware went from $first to $after: $total better\.$"

# -- HTML: escaped, tables rendered; index links the day
html=$(cat out/$DAY.html)
expect_no_match report-daily-12 "no raw <script> survives into the page" "$html" '<script'
expect_match report-daily-12.1 "the description shows as text" "$html" 'parallel block &lt;script&gt;alert\(1\)&lt;/script&gt;'
expect_eq report-daily-12.2 "one <table> per table in the markdown" \
	"$(grep -c '^| --- \|^| ---: ' out/$DAY.md)" "$(grep -c '<table>' out/$DAY.html)"
expect_match report-daily-12.3 "index links the digest" "$(cat out/index.html)" "<a href=\"$DAY.html\">$DAY</a>"

# -- determinism: a second render is byte-identical
cp out/$DAY.md first.md; cp out/$DAY.html first.html
"$REPORT" --db l.db daily --date $DAY --out out --no-charts >/dev/null 2>&1
if cmp -s first.md out/$DAY.md && cmp -s first.html out/$DAY.html; then ok report-daily-13 "same ledger, same bytes"
else not_ok report-daily-13 "same ledger, same bytes" "$(diff first.md out/$DAY.md | head -5)"; fi

# -- an empty day: every section says so in one line
expect_code report-daily-14 "a day without runs still renders" 0 "$REPORT" --db l.db daily --date 2026-03-20 --out out --no-charts
e=$(cat out/2026-03-20.md)
for line in "No run moved a frontier on this day." "No runs on this day." "No discarded runs on this day." \
	"No crashes or invalid runs on this day." "No run changed more than one variable on this day." \
	"No repeat measurements on this day."; do
	expect_match "report-daily-14.$(printf '%s' "$line" | cksum | cut -c1-4)" "empty: $line" "$e" "^$line\$"
done
expect_match report-daily-14.1 "empty day: 0 runs" "$e" '^0 runs by 0 agents on 0 hardware classes'
expect_match report-daily-14.2 "empty day after the data: frontier stays" "$e" "^The best val_bpb on any hardware stayed at \*\*0\.9200\*\*\.$"

# A day with one run speaks in the singular.
printf '%s\n' '{"schema":"runrec/1","run_id":"solo","status":"ok","agent":"a","finished_at":"2026-04-01T10:00:00Z","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"metrics":{"val_bpb":1.0}}' >solo.jsonl
"$LEDGER" --db solo.db ingest solo.jsonl >/dev/null 2>&1
"$REPORT" --db solo.db daily --date 2026-04-01 --out solo --no-charts >/dev/null 2>&1
expect_match report-daily-singular "one run, one agent, one class in the singular" "$(cat solo/2026-04-01.md)" \
	'^1 run by 1 agent on 1 hardware class: 0 kept, 0 discarded, 0 without a valid measurement\.$'

# -- top hits: the day's keeps by gain over the keep they were built on:
# their parent when it is an earlier keep (keep or baseline, valid) of their
# class, else the previous keep of their line of research (campaign, else
# agent, else source file) on their class; computed here in SQL
SAME_LINE="coalesce('c' || q.campaign, 'a' || q.agent, 'f' || q.source_file) IS coalesce('c' || r.campaign, 'a' || r.agent, 'f' || r.source_file)"
KEPT_BEFORE="q.hw_class = r.hw_class AND q.decision IN ('keep', 'baseline') AND q.val_bpb IS NOT NULL
	  AND (q.t_finished < r.t_finished OR (q.t_finished = r.t_finished AND q.id < r.id))"
want=$(sql l.db "SELECT run_id || ' ' || printf('%+.4f', prev - val_bpb) FROM (SELECT r.id, r.run_id, r.val_bpb,
	coalesce((SELECT q.val_bpb FROM runs q WHERE q.run_id = r.parent AND $KEPT_BEFORE),
	 (SELECT q.val_bpb FROM runs q WHERE $SAME_LINE AND $KEPT_BEFORE
	  ORDER BY q.t_finished DESC, q.id DESC LIMIT 1)) AS prev
	FROM runs r WHERE r.decision = 'keep' AND r.val_bpb IS NOT NULL AND r.t_finished >= $T0 AND r.t_finished < $T1)
	WHERE prev IS NOT NULL ORDER BY prev - val_bpb DESC, id")
got=$(section "Top hits" | awk -F' \\| ' '/^\| [0-9]+ \|/ { print $2, $6 }')
expect_eq report-daily-15 "top hits: keeps ranked by gain over the previous keep" "$want" "$got"
total=$(sql l.db "SELECT printf('%+.4f', sum(prev - val_bpb)) FROM (SELECT r.val_bpb,
	coalesce((SELECT q.val_bpb FROM runs q WHERE q.run_id = r.parent AND $KEPT_BEFORE),
	 (SELECT q.val_bpb FROM runs q WHERE $SAME_LINE AND $KEPT_BEFORE
	  ORDER BY q.t_finished DESC, q.id DESC LIMIT 1)) AS prev
	FROM runs r WHERE r.decision = 'keep' AND r.val_bpb IS NOT NULL AND r.t_finished >= $T0 AND r.t_finished < $T1)
	WHERE prev IS NOT NULL")
expect_match report-daily-15.1 "top hits total" "$md" "^Total gain of the $(printf '%s\n' "$want" | wc -l) keeps over the keep each was built on: \\$total\\.\$"
expect_eq report-daily-15.2 "agent profile keep rate: keeps / (keeps + discards), failed apart" \
	"| forge | 5 | 3 | 1 | 75% | 1 | 0.9264 | B200 |" "$(printf '%s\n' "$md" | grep '^| forge |')"

# Two agents on one class, their runs interleaved, no parents given: each
# keep is ranked by what it gained over its own agent's previous keep, not
# over whichever keep finished just before it (the other agent's baseline);
# then a run built on the other agent's keep (its parent) against that keep
rec() { # RUN AGENT TIME VAL DECISION [PARENT]
	printf '{"schema":"runrec/1","run_id":"%s","agent":"%s","status":"ok","decision":"%s","finished_at":"2026-04-02T%s:00Z","parent":%s,"hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"metrics":{"val_bpb":%s}}\n' "$1" "$2" "$5" "$3" "${6:-null}" "$4"
}
{ rec a1 ann 10:00 1.00 baseline; rec b1 bob 10:05 0.90 baseline; rec a2 ann 10:10 0.98 keep
  rec b2 bob 10:15 0.89 keep; rec a3 ann 10:20 0.97 keep; rec a4 ann 10:25 0.88 keep '"b2"'; } >two.jsonl
"$LEDGER" --db two.db ingest two.jsonl >/dev/null 2>&1
"$REPORT" --db two.db daily --date 2026-04-02 --out two --no-charts >/dev/null 2>&1
got=$(awk '/^## Top hits/,/^## Failed/' two/2026-04-02.md | awk -F' \\| ' '/^\| [0-9]+ \|/ { print $2, $5, $6 }' |
	sed -E 's/\[([a-z0-9]+)\]\([^)]*\)/\1/g; s/\[([a-z0-9]+) \(([0-9.]+)\)\]\([^)]*\)/\1@\2/g')
expect_eq report-daily-15.3 "top hits: each agent's keeps against its own previous keep, or the parent keep" \
	"a2 a1@1.0000 +0.0200
b2 b1@0.9000 +0.0100
a3 a2@0.9800 +0.0100
a4 b2@0.8900 +0.0100" "$got"

# Runs without a time belong to no day: the digest says how many and how to
# date them, instead of "0 runs"; stderr too when the day has nothing else.
printf 'commit\tval_bpb\tstatus\tdescription\naaaaaaa\t1.0\tkeep\tbaseline\nbbbbbbb\t0.99\tkeep\tdepth 9\n' >untimed.tsv
"$LEDGER" --db ut.db ingest untimed.tsv --hardware "NVIDIA H100 80GB HBM3" >/dev/null 2>&1
expect_code report-daily-16.1 "only untimed runs: still exit 0" 0 "$REPORT" --db ut.db daily --date 2026-03-16 --out ut --no-charts
u=$(cat ut/2026-03-16.md)
expect_match report-daily-16.2 "no '0 runs' line but what there is" "$u" '^No run finished on this day\.$'
expect_no_match report-daily-16.3 "not 0 runs" "$u" '^0 runs by'
expect_match report-daily-16.4 "how many have no time and how to give them one" "$u" \
	'^2 runs have no time \(neither finished_at nor started_at\), so no day counts them\. A results\.tsv without a time column gets times from `ledger ingest --started-at TIME`'
expect_eq report-daily-16.5 "stderr says it too, with a hint" \
"report: warning: daily: no run finished on 2026-03-16, but 2 runs in the ledger have no time and belong to no day
report: hint: give a results.tsv times with 'ledger ingest --started-at TIME' (the first row's start), into a ledger that does not hold it yet" "$err"
"$LEDGER" --db ut.db ingest solo.jsonl >/dev/null 2>&1
expect_code report-daily-16.6 "a day with a run and untimed runs elsewhere" 0 "$REPORT" --db ut.db daily --date 2026-04-01 --out ut --no-charts
expect_eq report-daily-16.7 "the day's count, the untimed note, nothing on stderr" \
"1 run by 1 agent on 1 hardware class: 0 kept, 0 discarded, 0 without a valid measurement.|1|" \
	"$(sed -n 's/^\(1 run by .*\)$/\1/p' ut/2026-04-01.md)|$(grep -c '^2 runs have no time' ut/2026-04-01.md)|$err"
expect_no_match report-daily-16.8 "a ledger without untimed runs has no note" "$(cat solo/2026-04-01.md)" 'have no time'

# -- 17: without --date, the latest UTC day with runs, said on stderr; times
# say UTC. The latest day comes from the fixture (jq), not from the ledger.
latest=$(jq -r '.finished_at // empty' "$F" | sort | tail -n 1 | cut -c1-10)
expect_code report-daily-17.1 "no --date: exit 0" 0 "$REPORT" --db l.db daily --out latest --no-charts
expect_eq report-daily-17.2 "stderr names the day it took" \
	"report: daily: no --date: reporting $latest (UTC), the latest day with runs" "$err"
expect_eq report-daily-17.3 "stdout names that day's files" "latest/$latest.md
latest/$latest.html" "$out"
"$REPORT" --db l.db daily --date "$latest" --out dated --no-charts >/dev/null 2>&1
cmp -s "latest/$latest.md" "dated/$latest.md" && ok report-daily-17.4 "the same digest as --date $latest" ||
	not_ok report-daily-17.4 "the same digest as --date $latest" "$(diff "latest/$latest.md" "dated/$latest.md" | head -5)"
"$LEDGER" --db untimed.db ingest "$FIXTURES/ingest/results.tsv" >/dev/null 2>&1
expect_code report-daily-17.5 "no run with a time: usage error" 2 "$REPORT" --db untimed.db daily --out none --no-charts
expect_eq report-daily-17.6 "... saying why and what to give" \
"report: daily: no run in the ledger has a time, so there is no latest day to report
report: hint: give the day with --date YYYY-MM-DD; 'ledger query' lists the runs" "$err"
[ ! -e none ] && ok report-daily-17.7 "nothing written" || not_ok report-daily-17.7 "nothing written" "$(ls -R none)"
expect_match report-daily-17.8 "the title says the day is UTC's" "$md" "^# Daily digest $DAY \(UTC\)$"
# headers of tables with a time column (a run's time, a day, when a best was reached)
timed=$(printf '%s\n' "$md" | grep -cE '^\| (time|day)[ (]|\| reached[ (]')
utc=$(printf '%s\n' "$md" | grep -cE '^\| (time|day) \(UTC\) |\| reached \(UTC\) \|$')
expect_eq report-daily-17.9 "every time column's header says UTC ($timed tables)" "$timed" "$utc"
expect_match report-daily-17.10 "... and there are such tables" "$timed" '^([5-9]|[1-9][0-9])$'
# -- throughput, MFU and peak memory where recorded: columns of the day's run table
expect_no_match report-daily-22.1 "none recorded: no such columns" "$(section 'All runs of the day')" 'tok/s|MFU|VRAM'
jq -c 'if .run_id == "b200-fa4" then .metrics += {tokens_per_second: 1685250, mfu_percent: 39.75} else . end' "$F" >perf.jsonl
"$LEDGER" --db perf.db ingest perf.jsonl >/dev/null 2>&1
"$REPORT" --db perf.db daily --date $DAY --out perf --no-charts >/dev/null 2>&1
pm=$(sed 's/\[\([^]]*\)\](runs\/[^)]*\.md)/\1/g' perf/$DAY.md | awk '/^## All runs of the day/ {f = 1; next} /^## / {f = 0} f')
expect_match report-daily-22.2 "tok/s and MFU columns when a run of the day has them" "$pm" \
	'^\| time \(UTC\) \| run \| status \| decision \| val\\_bpb \| tok/s \| MFU % \| agent \| hardware \| description \|$'
expect_match report-daily-22.3 "its values; other runs' cells empty" "$pm" '^\| 02:00 \| b200-fa4 \| ok \| keep \| 0\.9300 \| 1685250 \| 39\.8 \| forge \|'
expect_match report-daily-22.4 "a run without them" "$pm" '^\| 03:00 \| b200-wsd \| ok \| keep \| 0\.9270 \|  \|  \| forge \|'
