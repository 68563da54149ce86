/* changed.c — a run's changes as JSON and as text; see changed.h. */
#include "changed.h"
#include "db.h"
#include "utf8.h"
#include "util.h"

static json_t *change_object(sqlite3_stmt *st)
{
	static const char *const names[] = { "var", "old", "new", "how", "span" };
	json_t *c = json_object();
	for (int k = 0; k < 5; k++) {
		const char *s = (const char *)sqlite3_column_text(st, k);
		json_object_set_new(c, names[k], s ? json_string_lossy(s, NULL) : json_null());
	}
	return c;
}

int changed_read(sqlite3_stmt *st, sqlite3_int64 id, json_t **json, sb *text)
{
	*json = json_array();
	if (text)
		sb_reset(text);
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = db_step(st, "read the runs' changes")) == SQLITE_ROW) {
		json_array_append_new(*json, change_object(st));
		if (!text)
			continue;
		const char *how = (const char *)sqlite3_column_text(st, 3);
		if (text->len)
			sb_addc(text, ',');
		if (how && !strcmp(how, "inferred"))
			sb_addc(text, '~');
		sb_adds(text, (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_reset(st);
	if (rc == DB_ERROR) {
		json_decref(*json);
		*json = NULL;
		return -1;
	}
	return 0;
}
