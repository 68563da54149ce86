/* pg_log.h — the change log of a PostgreSQL ledger (ledger_log, which the
 * local replicas follow: replica.h) kept bounded: `ledger trim-log`
 * (docs/postgres.md, "Trimming the change log").
 *
 * The log only pays while replaying it is cheaper than copying the tables:
 * a replica further behind than the tables' size is better made again. So
 * trimming keeps the newest entries whose changesets add up to no more
 * than the ledger's tables on the server (pg_total_relation_size, indexes
 * and TOAST included) and removes the older ones. The last entry removed
 * is recorded as ledger_meta's PG_LOG_TRIMMED_KEY; a replica that has not
 * applied it can no longer catch up from the log and copies the tables on
 * its next command (replica.c). Removing and recording are one
 * transaction under the ledger's write lock, so no write lands between. */
#ifndef RL_PG_LOG_H
#define RL_PG_LOG_H
#include "pg.h"

/* ledger_meta's key: the seq of the last log entry removed ("0" or absent:
 * none ever was) */
#define PG_LOG_TRIMMED_KEY "log_trimmed_through"

/* The ledger's write lock, inside an open transaction: one per schema
 * ("runw"); every write (replica.c) and the trim take it. */
#define PG_WRITE_LOCK_SQL "SELECT pg_advisory_xact_lock(1920298615, hashtext(current_schema()))"

struct pg_log_trim {
	long long tables_bytes;			/* the ledger's tables on the server */
	long long keep_bytes;			/* the bound applied */
	long long removed, removed_bytes;	/* entries removed (or that would be) */
	long long kept, kept_bytes;		/* entries left */
	long long through;			/* the last entry removed; 0 none */
};

/* Trim the change log as above (dry_run: only say what would go, write
 * nothing); keep_bytes >= 0 bounds the entries kept instead of the tables'
 * size. Needs DELETE on ledger_log and UPDATE on ledger_meta: the
 * tables' owner (an ingest role is told so). 0 and *out, or -1 (reported). */
int pg_log_trim(struct pg *pg, int dry_run, long long keep_bytes, struct pg_log_trim *out);

#endif
