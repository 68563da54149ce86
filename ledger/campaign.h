/* campaign.h — campaign declarations: parse and validate the campaign JSON,
 * store it in the ledger (campaigns table), load it back, and list the runs
 * that belong to a campaign. Used by `ledger campaign`, `ledger audit` and
 * `report`. Must not judge runs (that is audit.c) and must not print
 * results; errors are left with rl_error() and an int rc.
 *
 * Campaign JSON (docs/audit.md, "Declaring a campaign"):
 *   {"name":"compile-kernel-efficiency", "metric":"val_bpb", "direction":"min",
 *    "hardware":"RTX 3090", "baseline":"<run ref>" | "first valid run",
 *    "search_space":["impl.*"], "bundles":[["impl.recompute","train.device_batch_size"]],
 *    "record_budget":10, "noise_default":0.002}
 * name, search_space required; metric defaults to val_bpb, direction to min;
 * hardware, baseline, bundles, record_budget, noise_default and description
 * are optional.
 */
#ifndef RL_CAMPAIGN_H
#define RL_CAMPAIGN_H
#include <sqlite3.h>
#include "sb.h"

struct campaign {
	char *name;
	char *metric;          /* "val_bpb" or a key of the record's metrics */
	int maximize;          /* direction "max" */
	char *hardware;        /* hardware class (hw_class of the name given); NULL = any */
	char *baseline;        /* run reference; NULL = the first valid run */
	char **search_space;   /* variable globs, e.g. "impl.*" */
	int nsearch;
	char ***bundles;       /* each a NULL-terminated list of globs */
	int nbundles;
	long record_budget;    /* 0 = none declared */
	double noise_default;  /* NAN = none declared */
	char *description;     /* free text for people; NULL when absent */
};

/* Parse and validate campaign JSON. On error returns -1 with one line per
 * problem appended to err, each naming its field ("field 'direction':
 * expected \"min\" or \"max\", got \"down\""). out must be released. */
int campaign_parse(const char *text, size_t len, struct campaign *out, sb *err);
void campaign_release(struct campaign *c);

/* The spec in canonical JSON (what campaign_store writes); caller frees. */
char *campaign_to_json(const struct campaign *c);

/* Insert or replace the declaration. 0 = ok; -1 with a message. */
int campaign_store(sqlite3 *db, const struct campaign *c);
/* Load a declared campaign. 0 = ok; -1 when not declared (quiet: no
 * message), -2 when the stored spec no longer parses (message printed),
 * CAMPAIGN_DB_ERROR when the ledger cannot be read (reported, quiet or not). */
#define CAMPAIGN_DB_ERROR (-3)
int campaign_load(sqlite3 *db, const char *name, struct campaign *out, int quiet);

/* True when var matches one of the search-space globs. */
int campaign_in_scope(const struct campaign *c, const char *var);
/* True when every var in vars[0..n) matches one glob of one bundle. */
int campaign_in_bundle(const struct campaign *c, char *const *vars, int n);

/* SQL fragment selecting the runs.id of the campaign's members, with the
 * campaign name as parameter ?N: a run belongs when runs.campaign = name or
 * an assignment in campaign_runs names it. Example:
 *   "... WHERE r.id IN (" CAMPAIGN_MEMBERS_SQL(1) ")" */
#define CAMPAIGN_MEMBERS_SQL(n) \
	"SELECT id FROM runs WHERE campaign = ?" #n \
	" UNION SELECT run FROM campaign_runs WHERE campaign = ?" #n

#endif
