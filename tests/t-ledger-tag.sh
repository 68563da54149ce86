# t-ledger-tag.sh — `ledger tag RUN KEY=VALUE…`: tags beside the record; a
# later value of a key replaces it, KEY= removes it; a bad pair stores none
# of the command's tags.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-tag-0 "fixture ingests"; exit 1; }
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
record_before=$(sql ledger.db "SELECT record FROM runs WHERE run_id = 'h100-lr'")

expect_code ledger-tag-1.1 "two tags at once" 0 "$LEDGER" --format csv tag h100-lr reviewed=yes lr.scan=wide
expect_eq ledger-tag-1.2 "one row each" "run_id,kind,key,value,who,at
h100-lr,tag,reviewed,yes,alice,2026-04-01T10:00:00Z
h100-lr,tag,lr.scan,wide,alice,2026-04-01T10:00:00Z" "$(printf '%s' "$out" | tr -d '\r')"
# show's field column is as wide as the longest name: spaces squeezed here
tags() { "$LEDGER" show h100-lr | grep '^ledger\.tag\.' | tr -s ' '; }
expect_eq ledger-tag-1.3 "show: both" "ledger.tag.reviewed yes (by alice at 2026-04-01T10:00:00Z)
ledger.tag.lr.scan wide (by alice at 2026-04-01T10:00:00Z)" "$(tags)"

# a later value replaces; an empty one removes; = inside the value is kept
RUNLEDGER_NOW=2026-04-02T00:00:00Z LEDGER_WHO=bob "$LEDGER" tag h100-lr reviewed=no 'lr.scan=' 'why=a=b' >/dev/null
expect_eq ledger-tag-2.1 "show: the latest value of each key, removed ones gone" \
	"ledger.tag.reviewed no (by bob at 2026-04-02T00:00:00Z)
ledger.tag.why a=b (by bob at 2026-04-02T00:00:00Z)" "$(tags)"
expect_eq ledger-tag-2.2 "every tag is kept (append-only)" "5" \
	"$(sql ledger.db "SELECT count(*) FROM annotations WHERE kind = 'tag'")"
expect_eq ledger-tag-2.3 "the record is unchanged" "$record_before" \
	"$(sql ledger.db "SELECT record FROM runs WHERE run_id = 'h100-lr'")"

# a bad pair: exit 2, none of the command's tags stored
expect_code ledger-tag-3.1 "a key with a space" 2 "$LEDGER" tag h100-lr ok=1 'bad key=2'
expect_match ledger-tag-3.2 "(names it)" "$err" "'bad key=2' is not KEY=VALUE"
expect_code ledger-tag-3.3 "no =" 2 "$LEDGER" tag h100-lr reviewed
expect_code ledger-tag-3.4 "no key" 2 "$LEDGER" tag h100-lr =x
expect_code ledger-tag-3.5 "no pair" 2 "$LEDGER" tag h100-lr
expect_code ledger-tag-3.6 "unknown run" 2 "$LEDGER" tag nosuch a=1
expect_eq ledger-tag-3.7 "nothing more stored" "5" "$(sql ledger.db "SELECT count(*) FROM annotations WHERE kind = 'tag'")"
