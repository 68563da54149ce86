# t-ledger-db-pages.sh — the page size of a ledger (ledger/db.c, db_open).
# Test plan: a new ledger gets 16 KB pages in WAL mode; a ledger created
# with 4 KB pages keeps them, and ingest and query work on it unchanged.
. "$ROOT/tests/lib.sh"
printf '{"schema":"runrec/1","run_id":"a","status":"ok","metrics":{"val_bpb":1.25}}\n' >one.jsonl

expect_code ledger-db-pages-1.1 "ingest into a new ledger" 0 "$LEDGER" --db new.db ingest one.jsonl
expect_eq ledger-db-pages-1.2 "new ledger: 16 KB pages, WAL" "16384|wal" \
	"$(sql new.db "SELECT page_size, journal_mode FROM pragma_page_size, pragma_journal_mode")"

sqlite3 old.db "PRAGMA page_size=4096; CREATE TABLE t(x); DROP TABLE t;"
expect_code ledger-db-pages-2.1 "ingest into a 4 KB-page database" 0 "$LEDGER" --db old.db ingest one.jsonl
expect_eq ledger-db-pages-2.2 "it keeps its page size" "4096" "$(sql old.db "PRAGMA page_size")"
expect_code ledger-db-pages-2.3 "query it" 0 "$LEDGER" --db old.db query --format tsv
expect_match ledger-db-pages-2.4 "the run is there" "$out" "^a	"
