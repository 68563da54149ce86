# t-ledger-archive.sh — `ledger archive RUN…`: hidden from query, frontier,
# repeats, audit, summary, compare's filters and report unless --archived;
# never deleted (show, export, a named compare still see it); --undo
# restores.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-archive-0 "fixture ingests"; exit 1; }
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
ids() { "$LEDGER" --format tsv "$@" | sed 1d | cut -f1 | tr '\n' ' '; }
has() { case " $1 " in *" $2 "*) echo yes ;; *) echo no ;; esac; }
q_before=$(ids query)
f_before=$(ids frontier)
r_before=$("$LEDGER" --format tsv repeats | cut -f2,10)
"$REPORT" --db ledger.db daily --date 2026-03-17 --out before --no-charts >/dev/null 2>&1

# r3090-c is a repeat of the 3090 baseline; h100-mlr5 moved the H100 frontier
expect_code ledger-archive-1.1 "archive two runs" 0 "$LEDGER" --format tsv archive r3090-c h100-mlr5
expect_eq ledger-archive-1.2 "one row each" "run_id	kind	key	value	who	at
r3090-c	archive		archived	alice	2026-04-01T10:00:00Z
h100-mlr5	archive		archived	alice	2026-04-01T10:00:00Z" "$out"
expect_eq ledger-archive-1.3 "never deleted: every run is still stored" "15" "$(sql ledger.db "SELECT count(*) FROM runs")"

q=$(ids query)
expect_eq ledger-archive-2.1 "query: both gone" "no no" "$(has "$q" r3090-c) $(has "$q" h100-mlr5)"
expect_eq ledger-archive-2.2 "query: the others stay" "13" "$(echo $q | wc -w)"
expect_eq ledger-archive-2.3 "query --archived: all of them" "$q_before" "$(ids query --archived)"
expect_eq ledger-archive-2.4 "--archived after a filter, too" "$(ids query --archived --hardware H100)" \
	"$(echo "$q_before" | tr ' ' '\n' | grep '^h100' | tr '\n' ' ')"
f=$(ids frontier)
expect_eq ledger-archive-2.5 "frontier: h100-mlr5 no longer moves it" "no" "$(has "$f" h100-mlr5)"
expect_eq ledger-archive-2.6 "frontier --archived: as before" "$f_before" "$(ids frontier --archived)"
expect_eq ledger-archive-2.7 "repeats: the 3090 group has one run fewer" "2" \
	"$("$LEDGER" --format tsv repeats | awk -F'\t' '$1 == "RTX 3090" {print $2}')"
expect_eq ledger-archive-2.8 "repeats --archived: as before" "$r_before" "$("$LEDGER" --format tsv repeats --archived | cut -f2,10)"
expect_eq ledger-archive-2.9 "summary counts 13 runs, --archived 15" "13 15" \
	"$("$LEDGER" --format json summary | jq .n_runs) $("$LEDGER" --format json summary --archived | jq .n_runs)"
expect_eq ledger-archive-2.10 "compare by filter leaves them out" "no" \
	"$(has "$("$LEDGER" --format json compare --hardware H100 | jq -r '.runs[]' | tr '\n' ' ')" h100-mlr5)"
expect_eq ledger-archive-2.11 "compare by name shows one" "h100-mlr5" \
	"$("$LEDGER" --format json compare h100-mlr5 | jq -r '.runs[]')"
expect_code ledger-archive-2.12 "show still shows it" 0 "$LEDGER" show h100-mlr5
expect_match ledger-archive-2.13 "(and says it is archived)" "$out" '^ledger\.archived +archived \(by alice at 2026-04-01T10:00:00Z\)$'
expect_eq ledger-archive-2.14 "export still writes it" "1" "$("$LEDGER" export | grep -c '"run_id":"h100-mlr5"')"

# report: the archived run is left out of the digest
"$REPORT" --db ledger.db daily --date 2026-03-17 --out after --no-charts >/dev/null 2>&1
expect_eq ledger-archive-3.1 "the digest before named h100-mlr5, after it does not" "yes no" \
	"$(grep -q h100-mlr5 before/2026-03-17.md && echo yes || echo no) $(grep -q h100-mlr5 after/2026-03-17.md && echo yes || echo no)"
"$REPORT" --db ledger.db daily --archived --date 2026-03-17 --out witharch --no-charts >/dev/null 2>&1
expect_eq ledger-archive-3.2 "daily --archived: the digest as before the archive" "" \
	"$(diff before/2026-03-17.md witharch/2026-03-17.md)"
expect_eq ledger-archive-3.3 "and its run page as before" "" \
	"$(diff before/runs/h100-mlr5.md witharch/runs/h100-mlr5.md 2>&1)"

# audit: an archived run is not held against its campaign
printf '%s\n' '{"name":"depth-sweep","search_space":["model.depth"],"hardware":"H100"}' >c.json
"$LEDGER" campaign add c.json >/dev/null 2>&1
"$LEDGER" --format tsv audit --campaign depth-sweep >a1.tsv 2>/dev/null
"$LEDGER" --format tsv audit --archived --campaign depth-sweep >a0.tsv 2>/dev/null
"$LEDGER" archive h100-lr >/dev/null
"$LEDGER" --format tsv audit --campaign depth-sweep >a2.tsv 2>/dev/null
expect_eq ledger-archive-4.1 "audit: h100-lr (out of scope) named before, not after" "yes no" \
	"$(grep -q h100-lr a1.tsv && echo yes || echo no) $(grep -q h100-lr a2.tsv && echo yes || echo no)"
"$LEDGER" --format tsv audit --archived --campaign depth-sweep >a3.tsv 2>/dev/null
expect_eq ledger-archive-4.2 "audit --archived: as before" "$(cat a0.tsv)" "$(cat a3.tsv)"

# --undo restores; the history stays
expect_code ledger-archive-5.1 "archive --undo" 0 "$LEDGER" --format tsv archive --undo h100-mlr5 r3090-c h100-lr
expect_eq ledger-archive-5.2 "query as before" "$q_before" "$(ids query)"
expect_match ledger-archive-5.3 "show: restored, by whom" "$("$LEDGER" show h100-mlr5)" '^ledger\.archived +restored \(by alice'
expect_eq ledger-archive-5.4 "every annotation kept" "6" "$(sql ledger.db "SELECT count(*) FROM annotations WHERE kind = 'archive'")"

# errors: all or nothing
expect_code ledger-archive-6.1 "one unknown run among known ones" 2 "$LEDGER" archive h100-d9 nosuch
expect_eq ledger-archive-6.2 "(none archived)" "6" "$(sql ledger.db "SELECT count(*) FROM annotations WHERE kind = 'archive'")"
expect_code ledger-archive-6.3 "no run" 2 "$LEDGER" archive
expect_code ledger-archive-6.4 "--undo is archive's only" 2 "$LEDGER" note --undo h100-d9 x

# a read-only ledger with annotations: the read commands still see it as
# annotated (the view is a TEMP one: nothing is written to the ledger)
"$LEDGER" archive h100-mlr5 >/dev/null
mkdir ro && cp ledger.db ro/l.db && rm -f ledger.db-wal ledger.db-shm
before=$(sha256sum <ro/l.db)
if [ "$(id -u)" = 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 . && chmod 644 ro/l.db && chmod 555 ro
	expect_code ledger-archive-7.1 "query as nobody on a read-only directory" 0 \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$LEDGER" --db ro/l.db --format tsv query
	expect_eq ledger-archive-7.2 "(the archived run hidden there too)" "no" "$(has "$(printf '%s\n' "$out" | sed 1d | cut -f1 | tr '\n' ' ')" h100-mlr5)"
	expect_eq ledger-archive-7.3 "the file unchanged, nothing made beside it" "$before|l.db" "$(sha256sum <ro/l.db)|$(ls ro)"
	chmod 755 ro
else
	ok ledger-archive-7.1 "skipped: needs root and setpriv to read as another user"
fi

# -- 8: --archived is an option of the commands that read runs as
# annotated (and compare), from their table: in their --help, man page
# and completion; refused by every other command
for c in query frontier repeats audit summary compare; do
	"$LEDGER" "$c" --help >help.txt
	expect_eq "ledger-archive-8.$c" "$c --help lists --archived, in the synopsis and the options" "1 1" \
		"$(grep -c -- '\[--archived\]' help.txt) $(grep -c '^  --archived  ' help.txt)"
done
"$LEDGER" --help-man >ledger.1
expect_eq ledger-archive-8.2 "the man page lists --archived as an option of those six commands, no other" \
	"query frontier repeats audit compare summary" \
	"$(awk '/^\.SS /{c=$3; gsub(/"/, "", c)} $0 == ".B \\-\\-archived" {printf "%s%s", n++ ? " " : "", c}' ledger.1)"
"$LEDGER" --help-completion >ledger.bash
expect_eq ledger-archive-8.3 "the completion offers --archived to the same six, and no other" \
	"query frontier repeats audit compare summary" \
	"$(awk '/^\t[a-z]+\)$/{c=$1; sub(/\)/, "", c)} /opts=.* --archived[ "]/ {printf "%s%s", n++ ? " " : "", c}' ledger.bash)"
expect_code ledger-archive-8.4 "show refuses --archived" 2 "$LEDGER" show --archived h100-lr
expect_eq ledger-archive-8.5 "... saying so" "ledger: show: unknown option '--archived'
ledger: hint: run 'ledger show --help'" "$err"
expect_code ledger-archive-8.6 "export refuses --archived (it exports every run)" 2 "$LEDGER" export --archived
expect_code ledger-archive-8.7 "archive refuses --archived" 2 "$LEDGER" archive --archived h100-lr
expect_code ledger-archive-8.8 "--archived takes no value" 2 "$LEDGER" query --archived=yes
expect_eq ledger-archive-8.9 "... saying so" "ledger: query: option '--archived' takes no value" "$err"
expect_code ledger-archive-8.10 "after '--' it is no option (compare: a run reference)" 2 "$LEDGER" compare -- --archived
expect_eq ledger-archive-8.11 "... looked up as a run" "ledger: no run '--archived' in the ledger" "$(printf '%s\n' "$err" | head -n 1)"
