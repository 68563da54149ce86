/* dialect.h — where the ledger's SQL differs between SQLite and PostgreSQL,
 * in one place (issue 12 item 2; docs/postgres.md, "dialects").
 *
 * SQL is written once, with @word placeholders for what the two dialects
 * spell differently (an auto-numbered key, a 64-bit integer, a double, a
 * table without rowid, a parameter); dialect_expand() replaces each with
 * its dialect's fragment from one table. The ledger schema is the first
 * SQL written this way: dialect_schema() gives it statement by statement.
 * No SQLite or libpq here: this is text only, shared by both backends. */
#ifndef RL_DIALECT_H
#define RL_DIALECT_H
#include <stddef.h>
#include "sb.h"

enum dialect { DIALECT_SQLITE, DIALECT_PG };

/* 1 when the --db / LEDGER_DB value names a PostgreSQL server
 * (postgresql://… or postgres://…, libpq's URI forms); anything else is
 * an SQLite file path. */
int db_is_pg_url(const char *name);

/* The dialect's name for messages: "SQLite", "PostgreSQL". */
const char *dialect_name(enum dialect d);

/* Append sql to out with every @placeholder replaced by d's fragment
 * (dialect.c lists them). "@1".."@99" are parameters: ?1 in SQLite, $1 in
 * PostgreSQL. Returns 0, or -1 for an unknown placeholder (a programming
 * error; nothing is reported, out holds the text up to it). */
int dialect_expand(enum dialect d, const char *sql, sb *out);

/* The ledger schema (the tables of version LEDGER_SCHEMA_VERSION, then the
 * secondary indexes) as separate statements, each with placeholders: statement i
 * for i < dialect_schema_count(), else NULL. */
size_t dialect_schema_count(void);
const char *dialect_schema(size_t i);
/* The name of the table or index statement i creates, into buf. */
void dialect_schema_name(size_t i, char *buf, size_t size);

#endif
