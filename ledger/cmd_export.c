/* cmd_export.c — `ledger export`: every run as runrec/1 JSONL, the record
 * as stored plus a "ledger" object with its changes (and how each was
 * found), its annotations, repeat key and source (carried.h). Ingesting
 * the export into any ledger gives the same runs, changes and annotations,
 * so a ledger can be moved or merged. Reads only. */
#include "carried.h"
#include "db.h"
#include "ledger.h"
#include "runrec.h"
#include "util.h"

const struct opt_cmd cmd_export_spec = {
	.name = "export",
	.summary = "every run as runrec/1 JSONL with its changes and annotations",
	.about = "Write every run, archived ones too, in ingest order, as runrec/1 JSONL on\n"
		 "stdout: the record as stored, plus a top-level \"ledger\" object with its\n"
		 "changes (with how each was found), annotations (notes, tags, decisions,\n"
		 "archiving, with who and when), repeat key and where it was first ingested\n"
		 "from. 'ledger ingest' of the export gives the same runs, changes and\n"
		 "annotations (into a fresh ledger, or merged into another); see\n"
		 "docs/run-record.md, \"Exported records\". Always JSONL: --format other\n"
		 "than json is a usage error.\n",
	.groups = { NULL },
};

/* The canonical record with ",\"ledger\":{…}" before its closing
 * brace: the record's own bytes are not re-encoded. */
static int write_line(const char *record, const json_t *carried, FILE *out)
{
	size_t n = strlen(record);
	while (n && record[n - 1] != '}')
		n--;
	if (n < 2) {
		rl_error("export: a stored record is not a JSON object: %.40s", record);
		return -1;
	}
	char *l = json_dumps(carried, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	if (!l)
		return -1;
	int empty = n == 2; /* "{}" */
	fwrite(record, 1, n - 1, out);
	fprintf(out, "%s\"ledger\":%s}\n", empty ? "" : ",", l);
	free(l);
	return 0;
}

/* A record that came without a run_id was stored with the one derived
 * from its identity ("r-" + 16 hex digits of content_hash, store.c): that
 * run_id is the ledger's, so the export leaves it out again, and ingest
 * derives the same one from the same identity. Otherwise the stored text.
 * Returns the text to write (malloc'd, or NULL for "record as it is"). */
static char *as_received(const char *record, const char *run_id, const char *hash)
{
	if (!run_id || !hash || strlen(run_id) != 18 || strncmp(run_id, "r-", 2) ||
	    strncmp(run_id + 2, hash, 16))
		return NULL;
	json_t *rec = json_loads(record, 0, NULL);
	if (!rec)
		return NULL;
	json_object_del(rec, "run_id");
	char *text = runrec_canonical(rec);
	json_decref(rec);
	return text;
}

int cmd_export(int argc, char **argv, struct ledger_ctx *ctx)
{
	if (argc > 1) {
		rl_error("export: unexpected argument '%s'", argv[1]);
		rl_hint("usage: ledger export > ledger.jsonl (every run; no filters)");
		return EXIT_USAGE;
	}
	if (ctx->fmt_given && ctx->fmt != FMT_JSON) {
		rl_error("export: it writes runrec/1 JSONL; --format does not apply");
		return EXIT_USAGE;
	}
	/* main.runs: every run, archived ones too (annot.h's view may hide them) */
	sqlite3_stmt *st = db_prepare(ctx->db, "SELECT id, record, run_id, content_hash FROM main.runs ORDER BY id");
	struct carried_exporter *x = carried_exporter_new(ctx->db);
	int rc;
	while ((rc = db_step(st, "read the runs")) == SQLITE_ROW) {
		const char *record = (const char *)sqlite3_column_text(st, 1);
		char *received = as_received(record, (const char *)sqlite3_column_text(st, 2),
					     (const char *)sqlite3_column_text(st, 3));
		json_t *carried = carried_export(x, sqlite3_column_int64(st, 0));
		int bad = !carried || write_line(received ? received : record, carried, stdout);
		json_decref(carried);
		free(received);
		if (bad) {
			rc = DB_ERROR;
			break;
		}
	}
	sqlite3_finalize(st);
	carried_exporter_free(x);
	return rc == SQLITE_DONE ? EXIT_OK : EXIT_FAILURE_RT;
}
