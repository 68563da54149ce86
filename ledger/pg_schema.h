/* pg_schema.h — the ledger schema on a PostgreSQL server: create it (the
 * tables and indexes of dialect.c, PostgreSQL's types, one transaction,
 * its version in the table ledger_meta), read its version, check it.
 * docs/postgres.md says what each check means. */
#ifndef RL_PG_SCHEMA_H
#define RL_PG_SCHEMA_H
#include "check.h"
#include "pg.h"

/* The schema version recorded on the server into *version: 0 when the
 * database holds no ledger (no ledger_meta table). 0, or -1 (reported). */
int pg_schema_version(struct pg *pg, int *version);

/* Make the database a ledger of the current schema version if it is not
 * one yet: every table and index in one transaction, under an advisory
 * lock so that two agents starting together make it once. A ledger of
 * the current version is left alone (nothing written: a read-only role
 * may run it); an older one is upgraded the same way, in one transaction
 * under the lock (which needs the tables' owner: another role is told
 * so); a newer one is refused, saying what to do.
 * *created says whether this call made it. 0, or -1 (reported). */
int pg_schema_ensure(struct pg *pg, int *created);

/* Make sure the ledger has its change log (ledger_log) and identity
 * (ledger_meta 'ledger_id'), which the replicas follow (replica.h): a
 * ledger made by an older runledger gets them when the role may create a
 * table, else a message naming 'ledger init'. 0, or -1 (reported). */
int pg_log_ensure(struct pg *pg);

/* What can be checked on the server: "schema" (the version, every table
 * and index present, no index left invalid) and "foreign_key_check"
 * (rows whose run is gone: possible only with triggers disabled, as a
 * restore with --disable-triggers does). Fills out as ledger_check does
 * (release with ledger_check_release). 0, or -1 (reported). */
int pg_check(struct pg *pg, struct ledger_check *out);

#endif
