# t-typed-dates.sh — the two values that took ISO-8601 only now take dates
# as people type them (filter.h parse_user_moment; RUNLEDGER_NOW fixes the
# clock): `report daily --date` names a day (today, yesterday, -1d,
# 2026-03-16, or the day a time falls in), `ledger ingest --started-at` a
# moment (a time, or a day's midnight). Test plan: the digest of each
# spelling is the same file as the ISO day's, byte for byte; the stored
# started_at of each spelling is checked against a time computed here with
# date(1); a month and a non-date are usage errors with the exact message,
# and a bad --started-at creates no ledger.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
"$LEDGER" --db l.db ingest "$FIXTURES/report/runs.jsonl" >/dev/null 2>&1 || { not_ok dates-0 "fixture ingests"; exit 1; }
export RUNLEDGER_NOW=2026-03-17T09:30:00Z # today is 2026-03-17, yesterday 2026-03-16

# -- 1: report daily --date
"$REPORT" --db l.db daily --date 2026-03-16 --out iso --no-charts >/dev/null 2>&1
for d in yesterday -1d -24h 2026-03-16T23:59:59Z; do
	expect_code "dates-1.$d" "daily --date $d: exit 0" 0 "$REPORT" --db l.db daily --date "$d" --out "o$d" --no-charts
	expect_eq "dates-1.$d.out" "... names 2026-03-16: the files, and the digest of --date 2026-03-16" \
		"o$d/2026-03-16.md|o$d/2026-03-16.html|same" \
		"$(printf '%s' "$out" | tr '\n' '|')|$(cmp -s "o$d/2026-03-16.md" iso/2026-03-16.md && echo same)"
done
expect_code dates-1.today "daily --date today: exit 0" 0 "$REPORT" --db l.db daily --date today --out today --no-charts
expect_eq dates-1.today.out "... names 2026-03-17" "today/2026-03-17.md" "$(printf '%s\n' "$out" | head -n 1)"
expect_code dates-1.now "daily --date now: the day it falls in" 0 "$REPORT" --db l.db daily --date now --out now --no-charts
expect_eq dates-1.now.out "... 2026-03-17" "now/2026-03-17.md" "$(printf '%s\n' "$out" | head -n 1)"
expect_code dates-1.month "daily --date 2026-03: a month is no day" 2 "$REPORT" --db l.db daily --date 2026-03 --out m --no-charts
expect_eq dates-1.month.err "... saying so, exactly" "report: daily: --date '2026-03' names more than one day
report: hint: give one UTC day: 2026-03-16, today, yesterday or -1d (days before today)" "$err"
expect_code dates-1.bad "daily --date soon" 2 "$REPORT" --db l.db daily --date soon --out m --no-charts
expect_eq dates-1.bad.err "... exactly" "report: daily: --date 'soon' is not a day
report: hint: give one UTC day: 2026-03-16, today, yesterday or -1d (days before today)" "$err"
expect_code dates-1.feb30 "daily --date 2026-02-30" 2 "$REPORT" --db l.db daily --date 2026-02-30 --out m --no-charts
[ ! -e m ] && ok dates-1.none "no output directory for a bad date" || not_ok dates-1.none "no output directory for a bad date"

# -- 2: ledger ingest --started-at (results.tsv rows, --every 60 apart)
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\na1b2c3d\t1.2\t10\tkeep\tbaseline\nb2c3d4e\t1.1\t10\tkeep\tdepth 8 to 9\n' >r.tsv
now=$(date -u -d 2026-03-17T09:30:00Z +%s)
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
n=0
for spec in "2026-03-16T04:00:00Z|$(date -u -d 2026-03-16T04:00:00Z +%s)" "2026-03-16|$(date -u -d 2026-03-16 +%s)" \
	"today|$(date -u -d 2026-03-17 +%s)" "yesterday|$(date -u -d 2026-03-16 +%s)" "now|$now" \
	"-2h|$((now - 7200))" "-1d|$((now - 86400))"; do
	v=${spec%%|*} t=${spec#*|} n=$((n + 1))
	expect_code "dates-2.$n" "ingest --started-at $v: exit 0" 0 "$LEDGER" --db "s$n.db" ingest --started-at "$v" --every 60 r.tsv
	expect_eq "dates-2.$n.t" "... the rows start at $(iso "$t"), 60 s apart" "$(iso "$t") $(iso $((t + 60)))" \
		"$(sql "s$n.db" "SELECT json_extract(record, '\$.started_at') FROM runs ORDER BY id" | tr '\n' ' ' | sed 's/ $//')"
done
expect_code dates-2.month "ingest --started-at 2026-03: a month is no moment" 2 "$LEDGER" --db bad.db ingest --started-at 2026-03 r.tsv
expect_eq dates-2.month.err "... saying so, exactly" "ledger: ingest: --started-at '2026-03' is not a time
ledger: hint: write 2026-03-16T04:00:00Z, 2026-03-16 (its midnight), today, yesterday, now or -2h / -1d (before now); times are UTC" "$err"
expect_code dates-2.bad "ingest --started-at=soon" 2 "$LEDGER" --db bad.db ingest --started-at=soon r.tsv
expect_eq dates-2.bad.err "... exactly" "ledger: ingest: --started-at 'soon' is not a time
ledger: hint: write 2026-03-16T04:00:00Z, 2026-03-16 (its midnight), today, yesterday, now or -2h / -1d (before now); times are UTC" "$err"
[ ! -e bad.db ] && ok dates-2.none "a bad --started-at creates no ledger (said before it is opened)" ||
	not_ok dates-2.none "a bad --started-at creates no ledger (said before it is opened)"

# -- 3: a typed day must be a day of the calendar (ISO parsing alone took
# 2026-02-30 as March 2nd); a leap day is one
expect_code dates-3.1 "query --since 2026-02-30" 2 "$LEDGER" --db l.db query --since 2026-02-30
expect_eq dates-3.2 "... exactly" "ledger: query: --since '2026-02-30' is not a date
ledger: hint: write 2026-03-16, 2026-03-16T04:00:00Z, 2026-03 (a month), today, yesterday, now or -3d / -12h / -2w / -30m (before now); times are UTC" "$err"
expect_code dates-3.3 "query --until 2026-04-31T10:00:00Z" 2 "$LEDGER" --db l.db query --until 2026-04-31T10:00:00Z
expect_code dates-3.4 "ingest --started-at 2024-02-29 (a leap day)" 0 "$LEDGER" --db leap.db ingest --started-at 2024-02-29 r.tsv
expect_eq dates-3.5 "... stored as that day" "2024-02-29T00:00:00Z" "$(sql leap.db "SELECT json_extract(record, '\$.started_at') FROM runs ORDER BY id LIMIT 1")"
expect_code dates-3.6 "ingest --started-at 2025-02-29 (no leap year)" 2 "$LEDGER" --db leap2.db ingest --started-at 2025-02-29 r.tsv
