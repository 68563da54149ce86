# t-report-runpage.sh — a page per run (docs/report.md, "Run pages").
# Test plan: the digest of the fixture day links every run id and every
# run-table time to runs/FILE.md, lists every run of the day, and each
# link has its page (.md, .html; .html links .html); a page's sections
# (summary, curve with its point count and eval, metrics, config with the
# changed keys first and their parent values, failure, parent, children in
# time order, repeat group, campaign link) agree with the ledger; the curve
# SVG has one vertex a point and marks a nan run's null loss; inferred
# changes show the text they came from; run ids that are paths, markup
# or 300 characters long get safe, distinct file names; pages of two
# reports into two directories are byte-identical and do not depend on
# which report wrote them.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
F="$FIXTURES/report/runs.jsonl"
DAY=2026-03-16
"$LEDGER" --db l.db ingest "$F" >/dev/null 2>&1
printf '%s\n' '{"name":"compile-kernel-efficiency","metric":"val_bpb","direction":"min",' \
	'"hardware":"RTX 3090","baseline":"rtx-base","search_space":["impl.*"],"record_budget":10}' >camp.json
"$LEDGER" --db l.db campaign add camp.json >/dev/null 2>&1
expect_code runpage-1 "daily with run pages exits 0" 0 "$REPORT" --db l.db daily --date $DAY --out out --no-charts
md=$(cat out/$DAY.md)
T0=$(date -u -d "$DAY" +%s); T1=$((T0 + 86400))

# -- links from the digest
day_runs=$(sql l.db "SELECT run_id FROM runs WHERE t_finished >= $T0 AND t_finished < $T1 ORDER BY t_finished, id")
listed=$(printf '%s\n' "$md" | awk '/^## All runs of the day/ {f = 1; next} /^## / {f = 0} f' |
	sed -n 's/^| [0-9:]* | \[\([^]]*\)\](runs\/\([^)]*\)\.md) |.*/\1 \2/p')
expect_eq runpage-2.1 "every run of the day is listed with a link to its page" \
	"$(printf '%s\n' "$day_runs" | awk '{ print $1, $1 }')" "$listed"
bare=$(sed 's/\[[^]]*\](runs\/[^)]*)//g' out/$DAY.md | grep -oE "\| ($(printf '%s\n' $(sql l.db "SELECT run_id FROM runs") | paste -sd'|')) \|" | sort -u)
expect_eq runpage-2.2 "no run id is left as plain text in a table cell" "" "$bare"
missing=$(grep -o '](runs/[^)]*\.md)' out/$DAY.md | sed 's/^](//; s/)$//' | sort -u |
	while read -r f; do [ -s "out/$f" ] && [ -s "out/${f%.md}.html" ] || echo "$f"; done)
expect_eq runpage-2.3 "every link target has its .md and .html page" "" "$missing"
expect_match runpage-2.4 "times in the timeline link too" "$md" '^\| \[02:00\]\(runs/b200-fa4\.md\) \| 0\.9300 \|'
html=$(cat out/$DAY.html)
expect_match runpage-2.5 "the HTML links the HTML pages" "$html" '<a href="runs/b200-fa4\.html">b200-fa4</a>'
expect_no_match runpage-2.6 "and no .md page" "$html" 'href="runs/[^"]*\.md"'

# -- one page, section by section
p=$(cat out/runs/b200-fa4.md)
expect_match runpage-3.1 "title and the way back" "$p" '^\[All reports\]\(\.\./index\.html\) · \[digest of 2026-03-16\]\(\.\./2026-03-16\.md\)$'
expect_match runpage-3.2 "summary: status, decision, value, hardware" "$(printf '%s\n' "$p" | sed '/^## /q' | grep -E '^\| (status|decision|val\\_bpb|hardware) ' | tr '\n' ' ')" \
	'^\| status \| ok \| \| decision \| keep \| \| val\\_bpb \| 0\.9300 \| \| hardware \| B200 \(NVIDIA B200, VRAM tier xl\) \| $'
n=$(jq -r 'select(.run_id == "b200-fa4") | .curve.step | length' "$F")
expect_match runpage-3.3 "curve: the image and its points, from the record" "$p" \
	"^$n points, steps 1–953; val_bpb at step 953: 0\\.9300\\.\$"
expect_match runpage-3.4 "the curve image" "$p" '^!\[Training curve: [^]]*\]\(b200-fa4-curve\.svg\)$'
cfg=$(printf '%s\n' "$p" | awk '/^## Config/ {f = 1; next} /^## / {f = 0} f' | grep '^| [a-z]' | grep -v '^| key ')
expect_eq runpage-3.5 "config: the changed keys first, with the parent's value and how" \
"| impl.attention | fa4 | flash | exact |  |
| model.depth | 12 | 10 | exact |  |" "$(printf '%s\n' "$cfg" | head -n 2 | sed 's/\\_/_/g')"
expect_eq runpage-3.6 "then every other key of the config, once" \
	"$(jq -r 'select(.run_id == "b200-fa4") | .config | keys[]' "$F" | sort | tr '\n' ' ')" \
	"$(printf '%s\n' "$cfg" | awk -F' \\| ' '{ sub(/^\| /, "", $1); print $1 }' | sed 's/\\_/_/g' | sort | tr '\n' ' ')"
expect_eq runpage-3.7 "metrics: every metric of the record" \
	"$(jq -r 'select(.run_id == "b200-fa4") | .metrics | keys[]' "$F" | tr '\n' ' ')" \
	"$(printf '%s\n' "$p" | awk '/^## Metrics/ {f = 1; next} /^## / {f = 0} f' | sed -n 's/^| \([a-z_\\]*\) | [0-9.]* |$/\1/p' | sed 's/\\_/_/g' | tr '\n' ' ')"
expect_match runpage-3.8 "parent linked beside its value" "$p" '^Parent: \[b200-qk\]\(b200-qk\.md\) \(val_bpb 0\.9590: QK scale 1\.15\)\.$'
f=$(cat out/runs/b200-final.md)
kids=$(sql l.db "SELECT run_id FROM runs WHERE parent = 'b200-final' ORDER BY t_finished, id")
expect_eq runpage-3.9 "children: the runs whose parent it is, in time order" "$kids" \
	"$(printf '%s\n' "$f" | sed -n 's/^| \[\([^]]*\)\]([^)]*) | .*/\1/p')"
r=$(cat out/runs/h100-mlr.md)
expect_match runpage-3.10 "repeat group with its mean ± sd" "$r" '^Runs of the same configuration on the same hardware class: 2 valid, mean 0\.9732 ± 0\.0001\.$'
expect_match runpage-3.11 "the other run of the group links" "$r" '^\| \[h100-mlr-r\]\(h100-mlr-r\.md\) \| ok \| 0\.9733 \|'
nan=$(cat out/runs/b200-nan.md)
expect_match runpage-3.12 "failure: phase and message" "$nan" '^Phase: optimizer\.$'
expect_match runpage-3.13 "the message in a code block" "$nan" '^loss is NaN at step 212$'
rtx=$(cat out/runs/rtx-fused.md)
expect_match runpage-3.14 "a declared campaign links its report" "$rtx" '· \[campaign compile-kernel-efficiency\]\(\.\./campaign-compile-kernel-efficiency\.md\)$'
expect_match runpage-3.15 "a run without a curve says so" "$rtx" '^No curve recorded'
par=$(cat out/runs/b200-par.md)
expect_match runpage-3.16 "a description's markup is escaped" "$par" '^PaLM-style parallel block &lt;script&gt;alert\(1\)&lt;/script&gt;$'
expect_no_match runpage-3.17 "and not in the HTML" "$(cat out/runs/b200-par.html)" '<script'
expect_match runpage-3.18 "the page's HTML links the parent's HTML" "$(cat out/runs/b200-fa4.html)" '<a href="b200-qk\.html">b200-qk</a>'
expect_eq runpage-3.19 "pages for the runs the pages link to: b200-qk's parent from the 15th" "yes" \
	"$([ -s out/runs/b200-elr.md ] && echo yes)"

# -- the curve's SVG
svg=$(cat out/runs/b200-fa4-curve.svg)
vertices=$(printf '%s\n' "$svg" | sed -n 's/.*<path class="loss" d="\([^"]*\)".*/\1/p' | grep -oE '[ML][0-9.]+ [0-9.]+|^M[0-9.]+ [0-9.]+' | wc -l)
expect_eq runpage-4.1 "one loss vertex a point" "$n" "$vertices"
expect_match runpage-4.2 "the eval point with its value as a tooltip" "$svg" '<title>step 953: val_bpb 0\.930000</title>'
expect_match runpage-4.3 "a title" "$svg" '^<title>Training curve of b200-fa4</title>$'
nsvg=$(cat out/runs/b200-nan-curve.svg)
expect_match runpage-4.4 "a nan run: its null loss is marked" "$nsvg" '<title>step 212: loss not finite</title>'
expect_eq runpage-4.5 "the line stops before it" "$(jq -r 'select(.run_id == "b200-nan") | .curve.step | length - 1' "$F")" \
	"$(printf '%s\n' "$nsvg" | sed -n 's/.*<path class="loss" d="\([^"]*\)".*/\1/p' | grep -oE '[ML][0-9.]+ [0-9.]+' | wc -l)"

# -- inferred changes: the text each came from
"$LEDGER" --db t.db ingest "$FIXTURES/ingest/results.tsv" --hardware "NVIDIA H100 80GB HBM3" \
	--started-at 2026-03-16T00:00:00Z >/dev/null 2>&1
"$REPORT" --db t.db daily --date 2026-03-16 --out tsv --no-charts --limit 0 >/dev/null 2>&1
id=$(sql t.db "SELECT r.run_id FROM changes c JOIN runs r ON r.id = c.run WHERE c.var = 'model.depth' ORDER BY r.id LIMIT 1")
expect_match runpage-5.1 "an inferred change: how, and the words of the description" "$(cat "tsv/runs/$id.md")" \
	'^\| model\.depth \| 9 \| 8 \| inferred \| “depth 8 to 9” \|$'

# -- run ids that are no file names
jq -c 'select(.run_id == "b200-mlp5") | .finished_at = "2026-03-16T23:00:00Z" | .parent = "b200-final"' "$F" >base.jsonl
jq -c '.run_id = "../../escape <b>x</b>"' base.jsonl >odd.jsonl
jq -c '.run_id = ("long-" + ("x" * 300)) | .finished_at = "2026-03-16T23:10:00Z"' base.jsonl >>odd.jsonl
jq -c '.run_id = ("long-" + ("x" * 299) + "y") | .finished_at = "2026-03-16T23:20:00Z"' base.jsonl >>odd.jsonl
jq -c '.run_id = ".hidden" | .finished_at = "2026-03-16T23:30:00Z"' base.jsonl >>odd.jsonl
"$LEDGER" --db l.db ingest odd.jsonl >/dev/null 2>&1
"$REPORT" --db l.db daily --date $DAY --out odd --no-charts >/dev/null 2>&1
expect_eq runpage-6.1 "a path-like id stays inside runs/, encoded" "~2E.~2F..~2Fescape~20~3Cb~3Ex~3C~2Fb~3E.md" \
	"$(cd odd/runs && ls | grep escape | grep '\.md$')"
expect_eq runpage-6.2 "nothing outside the output directory" "" "$(ls -d escape* ../escape* odd/escape* 2>/dev/null)"
longs=$(cd odd/runs && ls | grep '^long-' | grep '\.md$')
expect_eq runpage-6.3 "two 300-character ids: distinct names of 97 characters + .md" "2 2 97 97" \
	"$(printf '%s\n' "$longs" | wc -l) $(printf '%s\n' "$longs" | sort -u | wc -l) $(printf '%s\n' "$longs" | awk '{ printf "%d ", length($0) - 3 }' | sed 's/ $//')"
expect_eq runpage-6.4 "a leading dot is encoded: no hidden file" "~2Ehidden.md" "$(cd odd/runs && ls | grep 'hidden\.md$')"
expect_match runpage-6.5 "the odd id is escaped in its page title" "$(cat odd/runs/*escape*.md)" '^# Run \.\./\.\./escape &lt;b&gt;x&lt;/b&gt;$'

# -- deterministic, whichever report writes a page
"$REPORT" --db l.db daily --date $DAY --out again --no-charts >/dev/null 2>&1
"$REPORT" --db l.db campaign --campaign compile-kernel-efficiency --out again --no-charts >/dev/null 2>&1
"$REPORT" --db l.db campaign --campaign compile-kernel-efficiency --out camp --no-charts >/dev/null 2>&1
expect_eq runpage-7.1 "a second digest into another directory: the same pages" "" "$(diff -r odd/runs again/runs 2>&1 | grep -v '^Only in again' | head -5)"
expect_eq runpage-7.2 "a page the campaign report wrote is the digest's page" "" \
	"$(for f in camp/runs/*; do cmp -s "$f" "again/runs/${f#camp/runs/}" || echo "$f"; done)"

# -- a bound on the pages: a report links only the runs whose pages it writes
RUNLEDGER_RUN_PAGES=3 "$REPORT" --db l.db daily --date $DAY --out three --no-charts >/dev/null 2>&1
linked=$(grep -o '](runs/[^)]*\.md)' three/$DAY.md | sort -u | sed 's/^](runs\///; s/)$//')
# the first table the digest builds is the per-hardware frontiers: their best runs
expect_eq runpage-8.1 "RUNLEDGER_RUN_PAGES=3: three pages, the runs of the first table built" "3 b200-final.md h100-wd65.md a10g-bs.md" \
	"$(ls three/runs | grep -c '\.md$') $(grep -o '](runs/[^)]*\.md)' three/$DAY.md | sed 's/^](runs\///; s/)$//' | awk '!s[$0]++' | tr '\n' ' ' | sed 's/ $//')"
expect_eq runpage-8.2 "and each link has its page" "" \
	"$(for f in $linked; do [ -s "three/runs/$f" ] || echo "$f"; done)"
expect_match runpage-8.3 "a run past the bound shows as text" "$(cat three/$DAY.md)" '^\| 17:00 \| b200-mlp5 \| ok \| discard \|'
RUNLEDGER_RUN_PAGES=0 "$REPORT" --db l.db daily --date $DAY --out none --no-charts >/dev/null 2>&1
expect_eq runpage-8.4 "RUNLEDGER_RUN_PAGES=0: no pages, no links" "0 0" \
	"$(ls none/runs 2>/dev/null | wc -l) $(grep -c '](runs/' none/$DAY.md)"

# -- a popular parent: its children and the children's repeat group are
# counted in full and shown up to 20 rows (the run itself always among them)
jq -c 'select(.run_id == "h100-mlr") | del(.curve) | .parent = null | .run_id = "pop"
	| .started_at = "2026-03-16T10:00:00Z" | .finished_at = "2026-03-16T10:05:00Z"' "$F" >pop.jsonl
i=1
while [ $i -le 25 ]; do
	jq -c --arg id "$(printf 'kid-%02d' $i)" --arg t "$(printf '2026-03-16T11:%02d:00Z' $i)" \
		'select(.run_id == "h100-mlr") | del(.curve) | .parent = "pop" | .run_id = $id | .finished_at = $t
		| .config["optim.matrix_lr"] = 0.031 | .metrics.val_bpb = 0.97' "$F" >>pop.jsonl
	i=$((i + 1))
done
"$LEDGER" --db pop.db ingest pop.jsonl >/dev/null 2>&1
"$REPORT" --db pop.db daily --date $DAY --out pop --no-charts >/dev/null 2>&1
pp=$(cat pop/runs/pop.md)
expect_match runpage-9.1 "25 children counted, 20 shown" "$pp" '^25 children \(runs whose parent is this run\), the first 20 shown:$'
expect_eq runpage-9.2 "the first 20 by finish time" "$(seq -f 'kid-%02g' 1 20 | tr '\n' ' ')" \
	"$(printf '%s\n' "$pp" | sed -n 's/^| \[\(kid-[0-9]*\)\]([^)]*) | .*/\1/p' | tr '\n' ' ')"
k=$(cat pop/runs/kid-25.md)
expect_match runpage-9.3 "the group's statistics are of all 25" "$k" \
	'^Runs of the same configuration on the same hardware class: 25 valid, mean 0\.9700 ± 0\.0000; 25 runs, 21 shown \(the first by finish time and this one\)\.$'
expect_eq runpage-9.4 "the rows: the first 20 linked, then the run itself" "$(seq -f 'kid-%02g' 1 20 | tr '\n' ' ')kid-25 " \
	"$(printf '%s\n' "$k" | awk '/^## Repeat group/ {f = 1; next} /^## / {f = 0} f' | sed -n 's/^| \[\{0,1\}\(kid-[0-9]*\).*/\1/p' | tr '\n' ' ')"

# -- an archived parent: named, not linked (this report writes no page of
# it), and said archived rather than "not in the ledger"; --archived links it
cp l.db arch.db
"$LEDGER" --db arch.db archive b200-qk >/dev/null 2>&1
"$REPORT" --db arch.db daily --date $DAY --out arch --no-charts >/dev/null 2>&1
expect_match runpage-10.1 "the archived parent named, unlinked, said archived" "$(cat arch/runs/b200-fa4.md)" \
	'^Parent: b200-qk \(val_bpb 0\.9590: QK scale 1\.15; archived: `report --archived` writes its page\)\.$'
expect_eq runpage-10.2 "and no page of it" "no" "$([ -e arch/runs/b200-qk.md ] && echo yes || echo no)"
"$REPORT" --db arch.db daily --archived --date $DAY --out witharch --no-charts >/dev/null 2>&1
expect_match runpage-10.3 "--archived: linked, as before" "$(cat witharch/runs/b200-fa4.md)" \
	'^Parent: \[b200-qk\]\(b200-qk\.md\) \(val_bpb 0\.9590: QK scale 1\.15\)\.$'
