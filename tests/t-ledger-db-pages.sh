# t-ledger-db-pages.sh — opening a ledger (ledger/db.c, db_open): page size, bad files.
# Test plan: a new ledger gets 16 KB pages in WAL mode; a file that is not
# a database is refused with a hint and left alone; a ledger created
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

# a file that is not a ledger: exit 3, and the hint names it
echo "notes, not a database" >notes.db
expect_code ledger-db-open-1 "not a database: exit 3" 3 "$LEDGER" --db notes.db query
expect_eq ledger-db-open-2 "what, which file, what to do" "ledger: database: file is not a database
ledger: hint: 'notes.db' is not an SQLite database; pass --db FILE to name the ledger (or a new file, to start one)" "$err"
expect_eq ledger-db-open-3 "the file is left as it was" "notes, not a database" "$(cat notes.db)"
