# t-ledger-db-pages.sh — opening a ledger (ledger/db.c, db_open): page size, bad files.
# Test plan: a new ledger gets 16 KB pages in WAL mode; a file that is not
# a database is refused with a hint and left alone; a ledger created
# with 4 KB pages keeps them, and ingest and query work on it unchanged.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
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
expect_eq ledger-db-open-2 "what, which file, what to do" "ledger: cannot read ledger 'notes.db': file is not a database
ledger: hint: 'notes.db' is not an SQLite database; pass --db FILE to name the ledger (or a new file, to start one)" "$err"
expect_eq ledger-db-open-3 "the file is left as it was" "notes, not a database" "$(cat notes.db)"

# a ledger that does not exist: read commands refuse it and create nothing
for c in query frontier repeats quarantine audit "show r-1" "diff a b"; do
	# shellcheck disable=SC2086
	expect_code "ledger-db-missing-$c" "$c on a missing ledger: exit 3" 3 "$LEDGER" --db typo.db $c
done
expect_eq ledger-db-missing-msg "says which, and how to make one" "ledger: cannot open ledger 'typo.db': No such file or directory
ledger: hint: pass --db FILE or set LEDGER_DB; 'ledger ingest FILE' or 'ledger init' creates one" "$err"
[ ! -e typo.db ] && ok ledger-db-missing-none "no file was created" || not_ok ledger-db-missing-none "no file was created" "$(ls typo.db*)"

# ledger init: creates an empty ledger, and leaves an existing one alone
expect_code ledger-init-1 "init a new ledger" 0 "$LEDGER" --db fresh.db --format tsv init
expect_eq ledger-init-2 "path, schema, runs and health" "ledger	schema	n_runs	health
fresh.db	4	0	ok" "$out"
expect_code ledger-init-3 "then read commands work on it" 0 "$LEDGER" --db fresh.db frontier --format json
expect_eq ledger-init-4 "an empty frontier" "[]" "$out"
expect_code ledger-init-5 "init an existing ledger" 0 "$LEDGER" --db new.db --format json init
expect_eq ledger-init-6 "its runs are counted, nothing changed" "1" "$(printf '%s' "$out" | jq -r '.n_runs')"
expect_code ledger-init-7 "init with an argument is a usage error" 2 "$LEDGER" --db fresh.db init extra

# schema 1 -> 4: a ledger written before changes had 'code', span and
# infer_version is upgraded on open, in one transaction, its rows kept
"$LEDGER" --db old.db ingest "$FIXTURES/ingest/runs.jsonl" >/dev/null 2>&1
sql old.db "CREATE TABLE c1(run INTEGER NOT NULL REFERENCES runs(id), var TEXT NOT NULL,
	old TEXT, new TEXT, how TEXT NOT NULL CHECK(how IN ('exact','inferred')),
	PRIMARY KEY(run, var)) WITHOUT ROWID;
	INSERT INTO c1 SELECT run, var, old, new, how FROM changes; DROP TABLE changes;
	ALTER TABLE c1 RENAME TO changes; CREATE INDEX changes_var ON changes(var);
	DROP TABLE annotations; DROP TABLE metrics; PRAGMA user_version=1;"
before=$(sql old.db "SELECT run, var, old, new, how FROM changes ORDER BY run, var")
expect_code ledger-upgrade-1 "a version 1 ledger opens" 0 "$LEDGER" --db old.db query --format tsv
expect_eq ledger-upgrade-2 "and says it was upgraded" \
	"ledger: warning: ledger 'old.db': upgrading its schema from version 1 to 4" "$err"
expect_eq ledger-upgrade-3 "to version 4, changes_var made again" "4|1" \
	"$(sql old.db "SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'changes_var')")"
expect_eq ledger-upgrade-4 "every change kept" "$before" \
	"$(sql old.db "SELECT run, var, old, new, how FROM changes ORDER BY run, var")"
[ -n "$before" ] && ok ledger-upgrade-5 "(there were changes to keep)" ||
	not_ok ledger-upgrade-5 "(there were changes to keep)" "none"
expect_eq ledger-upgrade-6 "the new columns and how = 'code' exist" "1" \
	"$(sql old.db "INSERT INTO changes(run, var, how, span, infer_version)
		SELECT min(id), 'x.probe', 'code', 'train.py', NULL FROM runs; SELECT changes()")"
expect_code ledger-upgrade-7 "a second open says nothing" 0 "$LEDGER" --db old.db query --format tsv
expect_eq ledger-upgrade-8 "(no warning)" "" "$err"

# schema 2 -> 4: the annotations table and its index are added on open, in
# the same one transaction; runs and changes are kept, and annotating works
"$LEDGER" --db v2.db ingest "$FIXTURES/ingest/runs.jsonl" >/dev/null 2>&1
sql v2.db "DROP TABLE annotations; DROP TABLE metrics; PRAGMA user_version=2;"
runs_before=$(sql v2.db "SELECT run_id, content_hash FROM runs ORDER BY id")
changes_before=$(sql v2.db "SELECT run, var, old, new, how FROM changes ORDER BY run, var")
expect_code ledger-upgrade-v3.1 "a version 2 ledger opens" 0 "$LEDGER" --db v2.db query --format tsv
expect_eq ledger-upgrade-v3.2 "and says it was upgraded" \
	"ledger: warning: ledger 'v2.db': upgrading its schema from version 2 to 4" "$err"
expect_eq ledger-upgrade-v3.3 "to version 4, with the table and its index" "4|1|1" \
	"$(sql v2.db "SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'annotations'),
		(SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'annotations_run')")"
expect_eq ledger-upgrade-v3.4 "runs kept" "$runs_before" "$(sql v2.db "SELECT run_id, content_hash FROM runs ORDER BY id")"
expect_eq ledger-upgrade-v3.5 "changes kept" "$changes_before" \
	"$(sql v2.db "SELECT run, var, old, new, how FROM changes ORDER BY run, var")"
first=$(sql v2.db "SELECT run_id FROM runs ORDER BY id LIMIT 1")
expect_code ledger-upgrade-v3.6 "a note on the upgraded ledger" 0 "$LEDGER" --db v2.db note "$first" "kept"
expect_eq ledger-upgrade-v3.7 "(stored)" "note|kept" "$(sql v2.db "SELECT kind, value FROM annotations")"
