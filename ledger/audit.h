/* audit.h — the campaign audit as a library: hold a campaign's runs against
 * its declaration (campaign.h) and return findings as C structs, so that
 * `ledger audit` prints them and `report` writes them into campaign reports
 * from one definition. Reads the ledger; never writes it and never prints
 * (errors aside, through rl_error()). Every kind and its rule is in
 * docs/audit.md with an example.
 *
 * Typical use:
 *   struct finding_list fl = FINDING_LIST_INIT;
 *   struct audit_summary sum;
 *   struct audit_opts o = AUDIT_OPTS_INIT;
 *   if (audit_campaign(db, "compile-kernel-efficiency", &o, &sum, &fl) == 0) {
 *           for (int i = 0; i < fl.n; i++) puts(fl.v[i].sentence);
 *   }
 *   audit_summary_release(&sum); finding_list_release(&fl);
 */
#ifndef RL_AUDIT_H
#define RL_AUDIT_H
#include <math.h>
#include <sqlite3.h>

/* In the order findings are returned (summaries first, then per-run kinds). */
enum audit_kind {
	AUDIT_NO_IMPROVEMENT,      /* nothing beat the baseline on the campaign's hardware */
	AUDIT_BUDGET,              /* records used vs record_budget; the split */
	AUDIT_OUT_OF_SCOPE,        /* a variable outside search_space was changed (one per variable) */
	AUDIT_CONFOUNDED,          /* >1 variable changed at once, outside a bundle (one per change set) */
	AUDIT_UNRESOLVED,          /* a change never validly measured (one per change) */
	AUDIT_DUPLICATE_ATTEMPT,   /* a change tried again after it was measured */
	AUDIT_WITHIN_NOISE,        /* a keep / claimed gain over the parent below the noise floor */
	AUDIT_IMPL_CHANGED_METRIC, /* an impl.*-only change moved the metric beyond noise, not by throughput */
	AUDIT_OTHER_HARDWARE,      /* runs on another hardware class than the campaign's (one per class) */
	AUDIT_OTHER_BUDGET,        /* runs trained for another time budget than the baseline's (one per budget) */
	AUDIT_DISCARDED_IMPROVEMENT, /* a discarded run that beat the kept frontier */
	AUDIT_REPEAT_NOISE,        /* one repeat group: n, mean, sd, range */
	AUDIT_NOISE_FLOOR,         /* the campaign's noise floor and where it came from */
	AUDIT_UNDECLARED,          /* runs name a campaign that was never declared */
	AUDIT_KIND_COUNT
};

/* "no_improvement", "out_of_scope", …; NULL for an invalid kind. */
const char *audit_kind_name(enum audit_kind k);
/* Parse a kind name; 0 = ok, -1 when unknown. */
int audit_kind_parse(const char *name, enum audit_kind *out);

/* warn findings make `ledger audit` exit 1; info findings (a repeat group,
 * the noise floor, a budget spent entirely in scope) do not. */
enum audit_level { AUDIT_INFO, AUDIT_WARN };

/* A named number carried by a finding ("n", "mean", "sd", "gain", …); the
 * name is a static string. Values are in docs/audit.md per kind. */
struct audit_value {
	const char *name;
	double v;
};
#define AUDIT_MAX_VALUES 12

struct finding {
	enum audit_kind kind;
	enum audit_level level;
	char *campaign;
	char **runs;            /* run_ids, in time order; owned */
	int nruns;
	char **vars;            /* variables involved, sorted; owned */
	int nvars;
	struct audit_value values[AUDIT_MAX_VALUES];
	int nvalues;
	char *sentence;         /* one sentence a person can act on; owned */
};

struct finding_list {
	struct finding *v;
	int n, cap;
};
#define FINDING_LIST_INIT { NULL, 0, 0 }
void finding_list_release(struct finding_list *fl);
/* A value of finding f by name; NAN when it has none. */
double finding_value(const struct finding *f, const char *name);
/* Number of warn findings in fl (what decides the exit status). */
int finding_list_warnings(const struct finding_list *fl);

struct audit_opts {
	double noise_default;   /* NAN: the campaign's noise_default, if any */
};
#define AUDIT_OPTS_INIT { NAN }

/* The campaign's headline numbers, for reports. Strings owned; NULL and
 * NAN when unknown. */
struct audit_summary {
	char *campaign, *metric, *hardware;
	int maximize;
	char *baseline_run;     /* the resolved baseline */
	double baseline_value;
	char *best_run;         /* best valid run on the campaign's hardware */
	double best_value;
	double noise_floor;     /* see docs/audit.md, "noise floor" */
	double pooled_sd;       /* NAN without repeat groups */
	const char *noise_source; /* "repeats", "default" or "none" (static) */
	int repeat_groups;
	long records, record_budget; /* budget 0 = none declared */
	long out_of_scope, invalid, in_scope_valid;
	long inadmissible;      /* measured but not admitted (size_violation): not in invalid */
	/* autoresearch's arithmetic: keep rate = keeps / (keeps + discards),
	 * the baseline counted as a keep, crashes (no valid measurement) apart */
	long keeps, discards, crashes;
	double keep_rate;       /* NAN when nothing was kept or discarded */
	double budget_seconds;  /* the baseline's time budget; NAN when unknown */
	long other_budget;      /* runs left out of comparisons for another budget */
	char **other_budget_runs; /* their run_ids, time order; owned */
};
void audit_summary_release(struct audit_summary *s);

/* Audit one declared campaign, appending its findings to out; sum may be
 * NULL, and is zeroed first, so audit_summary_release() is always safe. 0 = ok; -1 when the campaign is not declared or its baseline
 * cannot be resolved (message printed); -2 on a database error. */
int audit_campaign(sqlite3 *db, const char *campaign, const struct audit_opts *o,
		   struct audit_summary *sum, struct finding_list *out);

/* Audit every declared campaign in name order, then add one `undeclared`
 * finding per campaign name that runs carry but nobody declared. Runs
 * with no campaign at all are not audited (there is nothing to hold them
 * against). A campaign that cannot be audited (-1) is reported and the
 * others still are; returns 0, -1 when some campaign was skipped, -2 on a
 * database error. */
int audit_all(sqlite3 *db, const struct audit_opts *o, struct finding_list *out);

/* SQL: the run (columns prefixed p) was measured but its result not
 * admitted: status invalid and a failure message "inadmissible: …"
 * (results.tsv size_violation; docs/audit.md). The keep rate counts it as
 * a discard, not a crash, wherever it is computed (the audit, ledger
 * summary, the daily digest). */
#define AUDIT_INADMISSIBLE_SQL(p) \
	"(" p "status = 'invalid' AND json_extract(" p "record, '$.failure.message') LIKE 'inadmissible: %')"

/* One change of a run as the knob rule reads it (old/new_: NULL unknown). */
struct knob_change {
	const char *var, *old, *new_;
};

/* 1 when change ch[i] follows from another of the run's changes ch[n] and
 * so is no knob of its own: the head count when head_dim changed and the
 * width did not (heads = width / head_dim); the width when the aspect
 * ratio changed and the depth did not, or when the depth changed, the
 * aspect ratio did not, and the known old and new values keep width /
 * depth (autoresearch: width = depth x aspect ratio); the aspect ratio
 * when the depth changed at a fixed width (the width and head_dim not
 * changed, depth x ratio rounded up to the same multiple of 128 before and
 * after: "DEPTH 12→14 at same 768 dim, ASPECT_RATIO 64→54"). The audit's
 * confounded rule, coverage and report campaign count knobs by it. */
int audit_derived_var(const struct knob_change *ch, int n, int i);

/* Search-space coverage: for each glob of the campaign, the valid runs
 * that changed only variables matching it (and exactly one variable),
 * the attempts that touched it at all, and the variables tested. */
struct coverage_row {
	char *glob;
	int valid_alone;        /* valid runs that changed one variable, matching glob */
	int attempts;           /* runs that changed any variable matching glob */
	char *vars_tested;      /* comma-separated variables with a valid solo run; owned */
};
struct coverage {
	struct coverage_row *rows;
	int n;
};
/* 0; -1 when the campaign is not declared (message printed); -2 on a
 * database error (reported). */
int audit_coverage(sqlite3 *db, const char *campaign, struct coverage *out);
void coverage_release(struct coverage *c);

#endif
