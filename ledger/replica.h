/* replica.h — every command on a PostgreSQL ledger, through a local SQLite
 * replica (issue 12; docs/postgres.md, "replicas").
 *
 * The server keeps the ledger's tables (real rows, for psql and the roles)
 * and a change log, ledger_log: one row per committed write, holding the
 * SQLite session changeset of that write. A command on a URL runs on a
 * local SQLite copy of the ledger, brought up to date from the log before
 * it runs, so every command's SQL and output are those of an SQLite
 * ledger. A write transaction (db.h db_set_write_hooks) holds the ledger's
 * advisory lock on the server, catches the replica up, records the
 * command's changes with an sqlite3session, writes them to the server's
 * tables as INSERT/UPDATE/DELETE (generic over tables and columns) and
 * appends the changeset to the log, in one server transaction committed
 * before the replica's: a failure leaves neither written.
 *
 * The replica lives in $RUNLEDGER_CACHE_DIR, else $XDG_CACHE_HOME/runledger,
 * else ~/.cache/runledger, named by a hash of the URL without its password
 * and of the server it reached; its table replica_meta records the server's
 * ledger_id and the last log entry applied. */
#ifndef RL_REPLICA_H
#define RL_REPLICA_H
#include <sqlite3.h>
#include "pg.h"

struct replica;

/* Connect to the PostgreSQL ledger at url, open its local replica and
 * bring it up to date. create: make the schema on an empty database
 * (pg_schema_ensure), as `ledger ingest` makes a new SQLite file.
 * command names the command in the change log. *db is the replica's
 * connection: run the command on it; its write transactions go through
 * the server. 0, or -1 (reported, with the URL without its password). */
int replica_open(const char *url, const char *command, int create, struct replica **out, sqlite3 **db);
/* Close the replica and the server connection; an open write is rolled
 * back on both. */
void replica_close(struct replica *r);
/* The server connection, for what only the server answers. */
struct pg *replica_pg(struct replica *r);
/* The URL without its password (for messages). */
const char *replica_name(const struct replica *r);
/* The local file (for tests and `ledger check`'s note). */
const char *replica_path(const struct replica *r);

#endif
