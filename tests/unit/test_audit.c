/* test_audit.c — ledger/campaign.c and ledger/audit.c as libraries, on an
 * in-memory ledger filled with SQL (no ingest involved, so these checks pin
 * the audit's rules even while the ingest changes).
 * Test plan: campaign JSON validation (each error names its field); the
 * seed campaign (RTX 3090, 10 records, compile-only search space) gives
 * exactly the expected findings, in order, with their runs, variables and
 * numbers; then one small ledger per rule that is not in the seed: keeps
 * inside the noise floor, an impl-only change that moved the metric,
 * bundles, a failed change resolved later, the stated noise default,
 * direction max, undeclared campaigns and coverage. */
#include <sqlite3.h>
#include "audit.h"
#include "campaign.h"
#include "db.h"
#include "metrics.h"
#include "util.h"
#include "check.h"

static sqlite3 *db;

/* A check that later checks index through: on failure, stop the test
 * function instead of reading past the findings. */
#define REQUIRE(id, cond)                   \
	do {                                \
		if (!CHECK(id, cond))       \
			return;             \
	} while (0)

static void fresh_db(void)
{
	if (db)
		db_close(db);
	if (db_open(":memory:", &db))
		die("cannot open an in-memory ledger");
}

/* One run: id, run_id, parent, status, decision, hardware, metric (NAN =
 * none), repeat key, failure phase, campaign. */
static void run(int id, const char *run_id, const char *parent, const char *status, const char *decision,
		const char *hw, double val, const char *rkey, const char *phase, const char *campaign)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO runs(id, run_id, content_hash, parent, status, decision, hw_class, val_bpb,"
		" repeat_key, campaign, t_finished, record, description)"
		" VALUES(?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1000 + ?1,"
		" json_object('failure', json_object('phase', ?10)), 'run ' || ?2)");
	sqlite3_bind_int(st, 1, id);
	db_bind_text(st, 2, run_id);
	db_bind_text(st, 3, parent);
	db_bind_text(st, 4, status);
	db_bind_text(st, 5, decision);
	db_bind_text(st, 6, hw);
	db_bind_double(st, 7, val);
	db_bind_text(st, 8, rkey);
	db_bind_text(st, 9, campaign);
	db_bind_text(st, 10, phase);
	if (db_step(st, "write the test ledger") == DB_ERROR)
		abort(); /* reported */
	sqlite3_finalize(st);
}

static void change(int run_id, const char *var, const char *old, const char *new_)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO changes(run, var, old, new, how) VALUES(?, ?, ?, ?, 'exact')");
	sqlite3_bind_int(st, 1, run_id);
	db_bind_text(st, 2, var);
	db_bind_text(st, 3, old);
	db_bind_text(st, 4, new_);
	if (db_step(st, "write the test ledger") == DB_ERROR)
		abort(); /* reported */
	sqlite3_finalize(st);
}

static void describe(int id, const char *text)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE runs SET description = ? WHERE id = ?");
	db_bind_text(st, 1, text);
	sqlite3_bind_int(st, 2, id);
	if (db_step(st, "write the test ledger") == DB_ERROR)
		abort(); /* reported */
	sqlite3_finalize(st);
}

static int declare(const char *json)
{
	struct campaign c;
	sb err = SB_INIT;
	int rc = campaign_parse(json, strlen(json), &c, &err);
	if (rc)
		printf("# %s\n", err.buf);
	else
		rc = campaign_store(db, &c);
	campaign_release(&c);
	sb_release(&err);
	return rc;
}

/* Parse errors for json, or "" when it parses. */
static char *parse_errors(const char *json)
{
	static char buf[1024];
	struct campaign c;
	sb err = SB_INIT;
	campaign_parse(json, strlen(json), &c, &err);
	snprintf(buf, sizeof(buf), "%s", err.buf);
	campaign_release(&c);
	sb_release(&err);
	return buf;
}

static void test_campaign_parse(void)
{
	CHECK("audit-campaign-1", !*parse_errors("{\"name\":\"x\",\"search_space\":[\"impl.*\"]}"));
	CHECK("audit-campaign-2", strstr(parse_errors("{\"search_space\":[\"impl.*\"]}"), "field 'name': required"));
	CHECK("audit-campaign-3", strstr(parse_errors("{\"name\":\"x\",\"direction\":\"down\",\"search_space\":[\"a\"]}"),
					 "field 'direction': expected \"min\" or \"max\""));
	CHECK("audit-campaign-4", strstr(parse_errors("{\"name\":\"x\",\"search_space\":[]}"), "field 'search_space'"));
	CHECK("audit-campaign-5", strstr(parse_errors("{\"name\":\"x\",\"search_space\":[\"a\"],\"budget\":3}"),
					 "field 'budget': unknown field"));
	CHECK("audit-campaign-6", strstr(parse_errors("{\"name\":\"x\",\"search_space\":[\"a\"],\"record_budget\":0}"),
					 "field 'record_budget'"));
	CHECK("audit-campaign-7", strstr(parse_errors("{\"name\":\"x\",\"search_space\":[\"a b\"]}"),
					 "item 1 is not a variable glob"));
	CHECK("audit-campaign-8", strstr(parse_errors("{\"name\":\"x\",\"search_space\":[\"a\"],\"bundles\":[[\"a\"],[]]}"),
					 "field 'bundles[1]'"));
	CHECK("audit-campaign-9", strstr(parse_errors("{\"name\":"), "invalid JSON"));

	/* the stored form round-trips; the hardware name is normalised to its class */
	fresh_db();
	CHECK("audit-campaign-10", declare("{\"name\":\"c\",\"hardware\":\"NVIDIA GeForce RTX 3090\","
					   "\"baseline\":\"First valid run\",\"search_space\":[\"impl.*\"],"
					   "\"bundles\":[[\"impl.a\",\"train.b\"]],\"noise_default\":0.002}") == 0);
	struct campaign c;
	CHECK("audit-campaign-11", campaign_load(db, "c", &c, 1) == 0);
	CHECK("audit-campaign-12", !strcmp(c.hardware, "RTX 3090") && !c.baseline && c.nbundles == 1 &&
				   c.noise_default == 0.002 && !c.maximize && !strcmp(c.metric, "val_bpb"));
	char *v2[] = { "impl.a", "train.b" }, *v3[] = { "impl.a", "train.c" };
	CHECK("audit-campaign-13", campaign_in_bundle(&c, v2, 2) && !campaign_in_bundle(&c, v3, 2));
	CHECK("audit-campaign-14", campaign_in_scope(&c, "impl.compile_mode") && !campaign_in_scope(&c, "model.depth"));
	campaign_release(&c);
	CHECK("audit-campaign-15", campaign_load(db, "nope", &c, 1) == -1);
}

/* The campaign of the seed report, run ids q20-01 … q20-10. */
static void seed_campaign(void)
{
	const char *B = "q20-01", *H = "RTX 3090", *C = "qwen-compile";
	fresh_db();
	declare("{\"name\":\"qwen-compile\",\"metric\":\"val_bpb\",\"direction\":\"min\",\"hardware\":\"RTX 3090\","
		"\"baseline\":\"q20-01\",\"search_space\":[\"impl.*\"],\"record_budget\":10}");
	run(1, B, NULL, "ok", "baseline", H, 1.245730, "k-base", NULL, C);
	const double d9[] = { 1.313253, 1.313461, 1.312003, 1.313470 };
	for (int i = 0; i < 4; i++) {
		char id[16];
		snprintf(id, sizeof(id), "q20-%02d", i + 2);
		run(i + 2, id, B, "ok", "discard", H, d9[i], "k-d9", NULL, C);
		change(i + 2, "model.depth", "8", "9");
	}
	run(6, "q20-06", B, "ok", "discard", H, 1.342928, "k-d10", NULL, C);
	change(6, "model.depth", "8", "10");
	run(7, "q20-07", B, "ok", "discard", H, 1.355166, "k-cb", NULL, C);
	run(8, "q20-08", B, "killed", NULL, H, NAN, "k-cb", NULL, C);
	for (int r = 7; r <= 8; r++) {
		change(r, "impl.recompute", "false", "true");
		change(r, "train.device_batch_size", "32", "64");
	}
	run(9, "q20-09", B, "invalid", NULL, H, NAN, "k-c1", "eval", C);
	change(9, "impl.compile_mode", "default", "max-autotune-no-cudagraphs");
	run(10, "q20-10", B, "crash", NULL, H, NAN, "k-c2", "backward", C);
	change(10, "impl.compile_mode", "default", "reduce-overhead");
}

static int has_runs(const struct finding *f, const char *const *runs)
{
	int n = 0;
	for (; runs[n]; n++)
		if (n >= f->nruns || strcmp(f->runs[n], runs[n]))
			return 0;
	return n == f->nruns;
}

static int has_vars(const struct finding *f, const char *a, const char *b)
{
	return f->nvars == (b ? 2 : 1) && !strcmp(f->vars[0], a) && (!b || !strcmp(f->vars[1], b));
}

static void test_seed(void)
{
	seed_campaign();
	struct finding_list fl = FINDING_LIST_INIT;
	struct audit_summary sum;
	struct audit_opts o = AUDIT_OPTS_INIT;
	CHECK("audit-seed-0", audit_campaign(db, "qwen-compile", &o, &sum, &fl) == 0);
	static const enum audit_kind want[] = {
		AUDIT_NO_IMPROVEMENT, AUDIT_BUDGET, AUDIT_OUT_OF_SCOPE, AUDIT_OUT_OF_SCOPE, AUDIT_CONFOUNDED,
		AUDIT_UNRESOLVED, AUDIT_UNRESOLVED, AUDIT_DUPLICATE_ATTEMPT, AUDIT_DUPLICATE_ATTEMPT,
		AUDIT_REPEAT_NOISE, AUDIT_NOISE_FLOOR,
	};
	int kinds_ok = fl.n == (int)ARRAY_SIZE(want);
	for (int i = 0; kinds_ok && i < fl.n; i++)
		kinds_ok = fl.v[i].kind == want[i];
	if (!CHECK("audit-seed-1", kinds_ok))
		for (int i = 0; i < fl.n; i++)
			printf("#   %s: %s\n", audit_kind_name(fl.v[i].kind), fl.v[i].sentence);
	if (!kinds_ok)
		goto out;
	struct finding *f = fl.v;

	CHECK("audit-seed-2.1", has_runs(&f[0], (const char *[]){ "q20-01", "q20-04", NULL }));
	CHECK("audit-seed-2.2", finding_value(&f[0], "baseline") == 1.245730 && finding_value(&f[0], "best") == 1.312003 &&
				finding_value(&f[0], "compared") == 6);
	CHECK("audit-seed-2.3", !strcmp(f[0].sentence, "No run beat the baseline q20-01 (val_bpb 1.245730) on RTX 3090: "
				"the best of 6 other valid runs, q20-04, reached 1.312003 (+0.066273); keep the baseline configuration."));

	CHECK("audit-seed-3.1", f[1].level == AUDIT_WARN && finding_value(&f[1], "records") == 10 &&
				finding_value(&f[1], "budget") == 10 && finding_value(&f[1], "out_of_scope") == 7 &&
				finding_value(&f[1], "invalid") == 3 && finding_value(&f[1], "both") == 1 &&
				finding_value(&f[1], "in_scope_valid") == 0);
	CHECK("audit-seed-3.2", !strcmp(f[1].sentence, "10 of 10 records used: 7 changed variables outside the search space, "
				"3 produced no valid measurement (1 of them also out of scope), 0 validly measured an in-scope change or "
				"repeat; spend what is left on single in-scope changes. Keep rate 1/7 (14.3%): 1 kept, the "
				"baseline included, 6 discarded; 3 without a valid measurement counted apart."));
	/* analysis.ipynb's arithmetic: keep / (keep + discard), crashes apart */
	CHECK("audit-seed-3.3", finding_value(&f[1], "keeps") == 1 && finding_value(&f[1], "discards") == 6 &&
				finding_value(&f[1], "crashes") == 3 && fabs(finding_value(&f[1], "keep_rate") - 1.0 / 7) < 1e-12);

	CHECK("audit-seed-4.1", has_vars(&f[2], "model.depth", NULL) &&
				has_runs(&f[2], (const char *[]){ "q20-02", "q20-03", "q20-04", "q20-05", "q20-06", NULL }));
	CHECK("audit-seed-4.2", has_vars(&f[3], "train.device_batch_size", NULL) &&
				has_runs(&f[3], (const char *[]){ "q20-07", "q20-08", NULL }));
	CHECK("audit-seed-4.3", str_starts_with(f[2].sentence, "5 runs changed model.depth, which is outside the search space (impl.*)"));

	CHECK("audit-seed-5.1", has_vars(&f[4], "impl.recompute", "train.device_batch_size") &&
				has_runs(&f[4], (const char *[]){ "q20-07", "q20-08", NULL }) && finding_value(&f[4], "valid") == 1);
	CHECK("audit-seed-5.2", strstr(f[4].sentence, "impl.recompute false -> true + train.device_batch_size 32 -> 64 together"));

	CHECK("audit-seed-6.1", has_runs(&f[5], (const char *[]){ "q20-09", NULL }) && has_vars(&f[5], "impl.compile_mode", NULL));
	CHECK("audit-seed-6.2", !strcmp(f[5].sentence, "impl.compile_mode default -> max-autotune-no-cudagraphs was attempted "
				"1 time and never validly measured (q20-09: invalid in eval); its effect is unknown: fix the "
				"failure and rerun it unchanged against its parent."));
	CHECK("audit-seed-6.3", has_runs(&f[6], (const char *[]){ "q20-10", NULL }) &&
				strstr(f[6].sentence, "reduce-overhead was attempted 1 time") &&
				strstr(f[6].sentence, "(q20-10: crash in backward)"));

	CHECK("audit-seed-7.1", has_runs(&f[7], (const char *[]){ "q20-02", "q20-03", "q20-04", "q20-05", NULL }) &&
				finding_value(&f[7], "after_measured") == 3 && finding_value(&f[7], "measured") == 1.313253);
	CHECK("audit-seed-7.2", has_runs(&f[8], (const char *[]){ "q20-07", "q20-08", NULL }) &&
				finding_value(&f[8], "after_measured") == 1);

	/* the four depth-9 repeats: mean 1.31304675, sd 0.000703017 (n - 1) */
	CHECK("audit-seed-8.1", has_runs(&f[9], (const char *[]){ "q20-02", "q20-03", "q20-04", "q20-05", NULL }) &&
				f[9].level == AUDIT_INFO && finding_value(&f[9], "n") == 4);
	CHECK_NEAR("audit-seed-8.2", finding_value(&f[9], "mean"), 1.31304675, 1e-12);
	CHECK_NEAR("audit-seed-8.3", finding_value(&f[9], "sd"), 0.00070301653607860, 1e-12);
	CHECK_NEAR("audit-seed-8.4", finding_value(&f[9], "range"), 0.001467, 1e-12);
	CHECK("audit-seed-8.5", !strcmp(f[9].sentence, "4 repeat measurements of model.depth 8 -> 9: mean 1.313047, "
				"sd 0.000703, range 0.001467 (1.312003 to 1.313470)."));
	CHECK_NEAR("audit-seed-9.1", finding_value(&f[10], "floor"), 2 * 0.00070301653607860, 1e-12);
	CHECK("audit-seed-9.2", f[10].level == AUDIT_INFO && !strcmp(sum.noise_source, "repeats") && sum.repeat_groups == 1);
	CHECK("audit-seed-10", finding_list_warnings(&fl) == 9);
	CHECK("audit-seed-11", !strcmp(sum.baseline_run, "q20-01") && !strcmp(sum.best_run, "q20-01") &&
			       sum.records == 10 && sum.out_of_scope == 7 && sum.invalid == 3 && sum.record_budget == 10);
out:
	audit_summary_release(&sum);
	finding_list_release(&fl);
}

/* Audit campaign c with the given noise default; returns the findings of kind k. */
static int count_kind(const char *c, double noise, enum audit_kind k, struct finding_list *fl, int *first)
{
	struct audit_opts o = { noise };
	finding_list_release(fl);
	/* the runs are written here by SQL, not by ingest: their metrics rows
	 * (schema 4) are made from the records as the upgrade makes them */
	if (db_exec(db, "DELETE FROM metrics") || db_exec(db, metrics_fill_sql(DIALECT_SQLITE, 0)))
		return -1;
	if (audit_campaign(db, c, &o, NULL, fl))
		return -1;
	int n = 0;
	*first = -1;
	for (int i = 0; i < fl->n; i++)
		if (fl->v[i].kind == k && n++ == 0)
			*first = i;
	return n;
}

static void test_rules(void)
{
	struct finding_list fl = FINDING_LIST_INIT;
	int i;
	fresh_db();
	declare("{\"name\":\"k\",\"search_space\":[\"impl.*\",\"optim.*\"],\"bundles\":[[\"impl.fused_*\"]]}");
	run(1, "b", NULL, "ok", "baseline", "H100", 1.000, "rb", NULL, "k");
	run(2, "keep-small", "b", "ok", "keep", "H100", 0.999, "r1", NULL, "k");   /* gain 0.001 */
	change(2, "optim.matrix_lr", "0.04", "0.05");
	run(3, "impl-moved", "b", "ok", "discard", "H100", 1.010, "r2", NULL, "k"); /* impl-only, +0.010 */
	change(3, "impl.attention", "flash", "naive");
	run(4, "fused", "b", "ok", "discard", "H100", 1.0005, "r3", NULL, "k");     /* two vars in one bundle */
	change(4, "impl.fused_adamw", "false", "true");
	change(4, "impl.fused_norm", "false", "true");
	run(5, "c-fail", "b", "oom", NULL, "H100", NAN, "r4", "forward", "k");
	change(5, "impl.cuda_graphs", "false", "true");
	run(6, "c-ok", "b", "ok", "discard", "H100", 1.0001, "r4", NULL, "k");     /* resolves c-fail */
	change(6, "impl.cuda_graphs", "false", "true");

	CHECK("audit-rules-1", count_kind("k", NAN, AUDIT_NOISE_FLOOR, &fl, &i) == 1 && fl.v[i].level == AUDIT_WARN);
	CHECK("audit-rules-2", count_kind("k", NAN, AUDIT_WITHIN_NOISE, &fl, &i) == 0);
	REQUIRE("audit-rules-3", count_kind("k", 0.002, AUDIT_WITHIN_NOISE, &fl, &i) == 1 &&
			       !strcmp(fl.v[i].runs[0], "keep-small") && !strcmp(fl.v[i].runs[1], "b"));
	CHECK_NEAR("audit-rules-4", finding_value(&fl.v[i], "gain"), 0.001, 1e-12);
	REQUIRE("audit-rules-5", count_kind("k", 0.002, AUDIT_IMPL_CHANGED_METRIC, &fl, &i) == 1 &&
			       !strcmp(fl.v[i].runs[0], "impl-moved") && has_vars(&fl.v[i], "impl.attention", NULL));
	CHECK_NEAR("audit-rules-6", finding_value(&fl.v[i], "delta"), 0.010, 1e-12);
	CHECK("audit-rules-7", count_kind("k", 0.002, AUDIT_CONFOUNDED, &fl, &i) == 0);
	CHECK("audit-rules-8", count_kind("k", 0.002, AUDIT_UNRESOLVED, &fl, &i) == 0);
	CHECK("audit-rules-9", count_kind("k", 0.002, AUDIT_OUT_OF_SCOPE, &fl, &i) == 0);
	CHECK("audit-rules-10", count_kind("k", 0.002, AUDIT_NO_IMPROVEMENT, &fl, &i) == 0);
	/* the stated default shows as the floor; a bigger one swallows the impl move */
	CHECK("audit-rules-11", count_kind("k", 0.02, AUDIT_NOISE_FLOOR, &fl, &i) == 1 &&
				finding_value(&fl.v[i], "floor") == 0.02 && fl.v[i].level == AUDIT_INFO);
	CHECK("audit-rules-12", count_kind("k", 0.02, AUDIT_IMPL_CHANGED_METRIC, &fl, &i) == 0);

	/* direction max: higher is better, so 0.999 is no improvement */
	declare("{\"name\":\"m\",\"direction\":\"max\",\"search_space\":[\"optim.*\"],\"noise_default\":0.5}");
	sqlite3_exec(db, "INSERT INTO campaign_runs VALUES('m', 1), ('m', 2)", NULL, NULL, NULL);
	CHECK("audit-rules-13", count_kind("m", NAN, AUDIT_NO_IMPROVEMENT, &fl, &i) == 1 &&
				!strcmp(fl.v[i].runs[1], "keep-small"));
	CHECK("audit-rules-14", count_kind("m", NAN, AUDIT_WITHIN_NOISE, &fl, &i) == 1); /* kept though worse */
	CHECK("audit-rules-15", count_kind("m", NAN, AUDIT_BUDGET, &fl, &i) == 1 && fl.v[i].level == AUDIT_INFO &&
				finding_value(&fl.v[i], "records") == 2 && isnan(finding_value(&fl.v[i], "budget")));

	/* a metric from the record (metrics.mfu, higher is better); a failed
	 * run's metric does not count even when recorded */
	declare("{\"name\":\"mfu\",\"metric\":\"mfu\",\"direction\":\"max\",\"search_space\":[\"*\"],"
		"\"noise_default\":10}");
	sqlite3_exec(db, "INSERT INTO campaign_runs VALUES('mfu', 1), ('mfu', 2), ('mfu', 5);"
		     "UPDATE runs SET record = json_set(record, '$.metrics.mfu', 40) WHERE id = 1;"
		     "UPDATE runs SET record = json_set(record, '$.metrics.mfu', 45) WHERE id = 2;"
		     "UPDATE runs SET record = json_set(record, '$.metrics.mfu', 99) WHERE id = 5;", NULL, NULL, NULL);
	CHECK("audit-metric-1", count_kind("mfu", NAN, AUDIT_NO_IMPROVEMENT, &fl, &i) == 0);
	CHECK("audit-metric-2", count_kind("mfu", NAN, AUDIT_WITHIN_NOISE, &fl, &i) == 1 &&
				finding_value(&fl.v[i], "gain") == 5 && finding_value(&fl.v[i], "parent") == 40);
	CHECK("audit-metric-3", count_kind("mfu", NAN, AUDIT_UNRESOLVED, &fl, &i) == 1 &&
				!strcmp(fl.v[i].runs[0], "c-fail"));

	/* impl-only changes under a time budget: more tokens and better is
	 * throughput; the same tokens, or more tokens and worse, is suspect */
	declare("{\"name\":\"thr\",\"search_space\":[\"impl.*\"],\"noise_default\":0.002}");
	sqlite3_exec(db, "INSERT INTO campaign_runs VALUES('thr', 1);"
		     "UPDATE runs SET record = json_set(record, '$.metrics.total_tokens_M', 100) WHERE id = 1;",
		     NULL, NULL, NULL);
	const struct { const char *id, *var; double val, tokens; } thr[] = {
		{ "impl-faster", "impl.fused_adamw", 0.990, 110 },
		{ "impl-same", "impl.fused_norm", 1.010, 100.5 },
		{ "impl-wrongway", "impl.attention", 1.020, 120 },
	};
	for (int k = 0; k < 3; k++) {
		char sqlbuf[160];
		run(40 + k, thr[k].id, "b", "ok", NULL, "H100", thr[k].val, NULL, NULL, "thr");
		change(40 + k, thr[k].var, "a", "b");
		snprintf(sqlbuf, sizeof(sqlbuf), "UPDATE runs SET record = json_set(record, '$.metrics.total_tokens_M', %g)"
			 " WHERE id = %d", thr[k].tokens, 40 + k);
		sqlite3_exec(db, sqlbuf, NULL, NULL, NULL);
	}
	if (CHECK("audit-thr-1", count_kind("thr", NAN, AUDIT_IMPL_CHANGED_METRIC, &fl, &i) == 2 &&
		  !strcmp(fl.v[i].runs[0], "impl-same") && !strcmp(fl.v[i + 1].runs[0], "impl-wrongway"))) {
		CHECK_NEAR("audit-thr-2", finding_value(&fl.v[i], "work_change"), 0.005, 1e-12);
		CHECK("audit-thr-3", strstr(fl.v[i].sentence, "with the same amount of training (+0.5%)") &&
				     strstr(fl.v[i + 1].sentence, "more training (+20.0%), the wrong way for throughput"));
	} else {
		for (int k = 0; k < fl.n; k++)
			printf("#   %s: %s\n", audit_kind_name(fl.v[k].kind), fl.v[k].sentence);
	}

	/* runs on other hardware: one finding per class, unknown included */
	declare("{\"name\":\"hw\",\"hardware\":\"NVIDIA H100 80GB HBM3\",\"search_space\":[\"optim.*\"],"
		"\"noise_default\":0.5}");
	run(30, "a100-run", "b", "ok", NULL, "A100", 0.9, NULL, NULL, "hw");
	run(31, "nohw-run", "b", "ok", NULL, NULL, 0.9, NULL, NULL, "hw");
	run(32, "a100-2", "b", "crash", NULL, "A100", NAN, NULL, NULL, "hw");
	sqlite3_exec(db, "INSERT INTO campaign_runs VALUES('hw', 1)", NULL, NULL, NULL);
	REQUIRE("audit-hw-1", count_kind("hw", NAN, AUDIT_OTHER_HARDWARE, &fl, &i) == 2 &&
			    fl.v[i].nruns == 2 && !strcmp(fl.v[i].runs[1], "a100-2") &&
			    !strcmp(fl.v[i + 1].runs[0], "nohw-run"));
	CHECK("audit-hw-2", str_starts_with(fl.v[i].sentence, "2 runs ran on A100, not on the campaign's H100;") &&
			    str_starts_with(fl.v[i + 1].sentence, "1 run ran on unknown hardware"));
	/* repeats on A100 do not set the H100 campaign's noise floor */
	run(33, "a100-3", "b", "ok", NULL, "A100", 0.91, "ra", NULL, "hw");
	run(34, "a100-4", "b", "ok", NULL, "A100", 0.95, "ra", NULL, "hw");
	CHECK("audit-hw-4", count_kind("hw", NAN, AUDIT_REPEAT_NOISE, &fl, &i) == 0 &&
			    count_kind("hw", NAN, AUDIT_NOISE_FLOOR, &fl, &i) == 1 && finding_value(&fl.v[i], "floor") == 0.5);
	/* 0.9 on A100 does not count against the H100 baseline */
	CHECK("audit-hw-3", count_kind("hw", NAN, AUDIT_NO_IMPROVEMENT, &fl, &i) == 1 &&
			    finding_value(&fl.v[i], "compared") == 0);

	/* coverage: optim.* tested alone once; impl.* by attention, cuda_graphs (valid solo runs) */
	struct coverage cov;
	CHECK("audit-cov-1", audit_coverage(db, "k", &cov) == 0 && cov.n == 2);
	CHECK("audit-cov-2", !strcmp(cov.rows[0].glob, "impl.*") && cov.rows[0].valid_alone == 2 &&
			     cov.rows[0].attempts == 4 && !strcmp(cov.rows[0].vars_tested, "impl.attention,impl.cuda_graphs"));
	CHECK("audit-cov-3", !strcmp(cov.rows[1].glob, "optim.*") && cov.rows[1].valid_alone == 1 &&
			     cov.rows[1].attempts == 1 && !strcmp(cov.rows[1].vars_tested, "optim.matrix_lr"));
	coverage_release(&cov);

	/* inferred changes without values: the description tells hypotheses
	 * apart, asides in parentheses aside */
	declare("{\"name\":\"inf\",\"search_space\":[\"*\"],\"noise_default\":0.01}");
	run(20, "i-base", NULL, "ok", "keep", "H100", 1.0, NULL, NULL, "inf");
	run(21, "i-ckpt", "i-base", "ok", "discard", "H100", 1.1, NULL, NULL, "inf");
	run(22, "i-ckpt2", "i-base", "killed", NULL, "H100", NAN, NULL, NULL, "inf");
	run(23, "i-max", "i-base", "invalid", NULL, "H100", NAN, NULL, NULL, "inf");
	run(24, "i-ro", "i-base", "crash", NULL, "H100", NAN, NULL, NULL, "inf");
	describe(21, "Grad checkpointing + device batch 32 -> 64");
	describe(22, "grad checkpointing  + device batch 32 -> 64 (repeat, stopped)");
	describe(23, "compile mode max-autotune");
	describe(24, "compile mode reduce-overhead");
	for (int r = 21; r <= 24; r++)
		change(r, r <= 22 ? "impl.recompute" : "impl.compile_mode", NULL, NULL);
	/* nothing inferred and no config: the description is the hypothesis;
	 * measured twice it is not a duplicate (it may be a repeat) */
	run(25, "i-new", "i-base", "timeout", NULL, "H100", NAN, NULL, NULL, "inf");
	describe(25, "try the new thing");
	run(26, "i-same", "i-base", "ok", NULL, "H100", 1.2, NULL, NULL, "inf");
	run(27, "i-same2", "i-base", "ok", NULL, "H100", 1.2, NULL, NULL, "inf");
	describe(26, "rerun");
	describe(27, "rerun");
	CHECK("audit-infer-1", count_kind("inf", NAN, AUDIT_DUPLICATE_ATTEMPT, &fl, &i) == 1 &&
			       fl.v[i].nruns == 2 && !strcmp(fl.v[i].runs[1], "i-ckpt2"));
	REQUIRE("audit-infer-2", count_kind("inf", NAN, AUDIT_UNRESOLVED, &fl, &i) == 3 &&
			       !strcmp(fl.v[i].runs[0], "i-max") && !strcmp(fl.v[i + 1].runs[0], "i-ro"));
	CHECK("audit-infer-3", strstr(fl.v[i].sentence, "impl.compile_mode was attempted 1 time"));
	CHECK("audit-infer-4", !strcmp(fl.v[i + 2].runs[0], "i-new") && fl.v[i + 2].nvars == 0 &&
			       str_starts_with(fl.v[i + 2].sentence, "'try the new thing' was attempted 1 time"));
	/* "rerun" measures the parent's configuration again: the two reruns
	 * and i-base itself are one repeat group (1.0, 1.2, 1.2) */
	CHECK("audit-infer-5", count_kind("inf", NAN, AUDIT_REPEAT_NOISE, &fl, &i) == 1 && fl.v[i].nruns == 3 &&
			       !strcmp(fl.v[i].runs[0], "i-base") && !strcmp(fl.v[i].runs[2], "i-same2") &&
			       fabs(finding_value(&fl.v[i], "mean") - 3.4 / 3) < 1e-12);

	/* undeclared: runs naming a campaign nobody declared */
	run(7, "stray-1", NULL, "ok", NULL, "H100", 1.1, "x", NULL, "ghost");
	run(8, "stray-2", NULL, "crash", NULL, "H100", NAN, "y", NULL, "ghost");
	struct audit_opts o = { 0.002 };
	finding_list_release(&fl);
	REQUIRE("audit-all-1", audit_all(db, &o, &fl) == 0 && fl.n > 0);
	struct finding *last = &fl.v[fl.n - 1];
	CHECK("audit-all-2", last->kind == AUDIT_UNDECLARED && !strcmp(last->campaign, "ghost") && last->nruns == 2 &&
			     finding_value(last, "n_runs") == 2);
	CHECK("audit-all-3", !strcmp(fl.v[0].campaign, "hw")); /* name order */
	finding_list_release(&fl);
}

/* The parent measured four times (1.000, 1.004, 1.008, 1.012: mean 1.006,
 * sd 0.005164, floor 0.010328): a gain counts against the mean. "far" at
 * 0.995 is 0.011 better than the mean (beyond the floor) though only
 * 0.005 better than the parent's own single value; "near" at 0.999 is
 * within the floor of the mean and is reported against it. */
static void test_parent_mean(void)
{
	struct finding_list fl = FINDING_LIST_INIT;
	int i;
	fresh_db();
	declare("{\"name\":\"pm\",\"search_space\":[\"optim.*\"]}");
	run(1, "b", NULL, "ok", "baseline", "H100", 1.000, "rb", NULL, "pm");
	run(2, "b-2", "b", "ok", "discard", "H100", 1.004, "rb", NULL, "pm");
	run(3, "b-3", "b", "ok", "discard", "H100", 1.008, "rb", NULL, "pm");
	run(4, "b-4", "b", "ok", "discard", "H100", 1.012, "rb", NULL, "pm");
	run(5, "far", "b", "ok", "keep", "H100", 0.995, "r1", NULL, "pm");
	change(5, "optim.matrix_lr", "0.04", "0.05");
	run(6, "near", "b", "ok", "keep", "H100", 0.999, "r2", NULL, "pm");
	change(6, "optim.matrix_lr", "0.04", "0.06");
	REQUIRE("audit-parent-mean-1", count_kind("pm", NAN, AUDIT_NOISE_FLOOR, &fl, &i) == 1);
	CHECK_NEAR("audit-parent-mean-2", finding_value(&fl.v[i], "floor"), 0.0103279556, 1e-9);
	REQUIRE("audit-parent-mean-3", count_kind("pm", NAN, AUDIT_WITHIN_NOISE, &fl, &i) == 1 &&
				       !strcmp(fl.v[i].runs[0], "near"));
	CHECK_NEAR("audit-parent-mean-4", finding_value(&fl.v[i], "parent"), 1.006, 1e-12);
	CHECK("audit-parent-mean-5", finding_value(&fl.v[i], "parent_n") == 4);
	CHECK_NEAR("audit-parent-mean-6", finding_value(&fl.v[i], "gain"), 0.007, 1e-12);
	CHECK("audit-parent-mean-7", strstr(fl.v[i].sentence, "against 1.006000, the mean of 4 measurements of its parent b,"));
	/* without the repeats, the single value is the reference (and the
	 * stated default the floor): "far" is then within noise too */
	sqlite3_exec(db, "DELETE FROM runs WHERE id IN (2, 3, 4)", NULL, NULL, NULL);
	declare("{\"name\":\"pm\",\"search_space\":[\"optim.*\"],\"noise_default\":0.010328}");
	REQUIRE("audit-parent-mean-8", count_kind("pm", NAN, AUDIT_WITHIN_NOISE, &fl, &i) == 2);
	CHECK("audit-parent-mean-9", finding_value(&fl.v[i], "parent") == 1.000 &&
				     finding_value(&fl.v[i], "parent_n") == 1 &&
				     strstr(fl.v[i].sentence, " for its parent b,"));
	finding_list_release(&fl);
}

/* audit_derived_var: which of a run's changes follow from another. */
static void test_derived(void)
{
	const struct knob_change deep[] = {
		{ "model.depth", "4", "8" }, { "model.dim", "256", "512" } };
	CHECK("audit-derived-1", !audit_derived_var(deep, 2, 0) && audit_derived_var(deep, 2, 1));
	const struct knob_change wide[] = { /* ratio 64 -> 96 */
		{ "model.depth", "4", "8" }, { "model.dim", "256", "768" } };
	CHECK("audit-derived-2", !audit_derived_var(wide, 2, 1));
	const struct knob_change blind[] = { /* the parent's width unknown */
		{ "model.depth", "4", "8" }, { "model.dim", NULL, "512" } };
	CHECK("audit-derived-3", !audit_derived_var(blind, 2, 1));
	const struct knob_change ratio_too[] = { /* the ratio moved as well */
		{ "model.aspect_ratio", "64", "64.5" }, { "model.depth", "4", "8" },
		{ "model.dim", "256", "512" } };
	CHECK("audit-derived-4", !audit_derived_var(ratio_too, 3, 2));
	const struct knob_change by_ratio[] = { /* the depth fixed: the old rule */
		{ "model.aspect_ratio", "64", "80" }, { "model.dim", NULL, "384" } };
	CHECK("audit-derived-5", audit_derived_var(by_ratio, 2, 1) && !audit_derived_var(by_ratio, 2, 0));
	const struct knob_change heads[] = {
		{ "model.head_dim", "128", "64" }, { "model.heads", NULL, "8" } };
	CHECK("audit-derived-6", audit_derived_var(heads, 2, 1));
}

int main(void)
{
	rl_progname = "test_audit";
	test_campaign_parse();
	test_seed();
	test_rules();
	test_parent_mean();
	test_derived();
	db_close(db);
	return check_status();
}
