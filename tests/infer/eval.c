/* eval.c — `make infer-eval`: how well infer_changes reads real run
 * descriptions. Reads every *.tsv of a directory (tests/fixtures/infer,
 * README.md there gives the format: "# split: train|heldout" header, then
 * DESCRIPTION<TAB>EXPECTED lines, or STATUS<TAB>DESCRIPTION<TAB>EXPECTED with
 * "# skipped: N STATUS" lines), infers each description's changes and
 * scores them against the expectation written by hand. A file with
 * statuses is replayed in order with ingest's parent chain, so that a
 * value the parent already had is measured as ingest records it (no
 * change; see "replaying" below).
 *
 *   build/infer-eval [--show-heldout | --heldout-total] [--given] [--by-kind | --list-coined] [--keep-coined] [--loso] [DIR]
 *
 * Per case, expected and inferred changes are compared as sets, by variable
 * (desc.* names after the vocabulary's normalisation) and by each side's
 * value (numbers within 0.5% relative, strings case-insensitively, tuples
 * element by element ignoring spaces; an expected '?' matches only a side
 * the grammar left unstated):
 *   correct  the same set ('-' and nothing inferred is correct)
 *   wrong    some inferred change has a variable not expected, or a stated
 *            side that differs from the expected one (a value the text does
 *            not state counts as differing: it was made up)
 *   missed   nothing inferred, something expected
 *   partly   the rest (right so far, but not all of it)
 * Failures are listed for train files only: a heldout file's lines are
 * never printed, not even in an error message, unless --show-heldout is
 * given (whoever writes rules must not see them). --given scores a third
 * column (the "inferred" changes, same syntax as EXPECTED) instead of
 * running the grammar: tests/t-infer-eval.sh checks the scorer that way.
 * --heldout-total prints the heldout split's total row only, not a row per
 * heldout file, for whoever tunes rules and may see the aggregate alone.
 * Exit 0 after a report, 2 for a malformed file. */
#include <dirent.h>
#include "describe.h"
#include "varreg.h"
#include "infer.h"
#include "ingest.h"
#include "util.h"

enum verdict { V_CORRECT, V_PARTLY, V_WRONG, V_MISSED, V_N };
static const char *const verdict_names[V_N] = { "correct", "partly", "wrong", "missed" };

struct tally {
	char name[128];
	int heldout;
	int n[V_N];
};

struct opts {
	int show_heldout, heldout_total, given, by_kind, loso, quiet;
	const char *dir;
};

/* ---- comparing values ------------------------------------------------ */

/* A desc.* name as the vocabulary normalises it: lower case, runs of
 * ' ', '-', '_', '.' as one '_', none at either end. Other names lower case. */
static void var_canon(const char *var, char *buf, size_t n)
{
	size_t o = 0;
	int is_desc = str_starts_with(var, "desc."), sep = 1;
	const char *p = var;
	if (is_desc) {
		memcpy(buf, "desc.", 5);
		o = 5;
		p += 5;
	}
	for (; *p && o + 1 < n; p++) {
		char c = (char)tolower((unsigned char)*p);
		if (is_desc && strchr(" -_.", c)) {
			sep = 1;
			continue;
		}
		if (sep && o > 5 && is_desc)
			buf[o++] = '_';
		sep = 0;
		if (o + 1 < n)
			buf[o++] = c;
	}
	buf[o] = '\0';
}

static int var_same(const char *a, const char *b)
{
	char ca[160], cb[160];
	var_canon(a, ca, sizeof(ca));
	var_canon(b, cb, sizeof(cb));
	return !strcmp(ca, cb);
}

/* s without white space, for tuples; caller frees. */
static char *squeeze(const char *s)
{
	sb b = SB_INIT;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			sb_addc(&b, *s);
	return sb_detach(&b);
}

static int scalar_equal(const char *a, const char *b)
{
	double x, y;
	if (!parse_double(a, &x) && !parse_double(b, &y))
		return x == y || fabs(x - y) <= 0.005 * fmax(fabs(x), fabs(y));
	return str_ieq(a, b);
}

/* "(0.8,0.95)" against "(0.80, 0.95)": element by element. */
static int tuple_equal(const char *a, const char *b)
{
	char *sa = squeeze(a), *sb_ = squeeze(b);
	int eq = 1;
	char *save_a = NULL, *save_b = NULL;
	char *ta = strtok_r(sa, "(),", &save_a), *tb = strtok_r(sb_, "(),", &save_b);
	for (; eq && (ta || tb); ta = strtok_r(NULL, "(),", &save_a), tb = strtok_r(NULL, "(),", &save_b))
		eq = ta && tb && scalar_equal(ta, tb);
	free(sa);
	free(sb_);
	return eq;
}

static int value_equal(const char *want, const char *got)
{
	if (*want == '(' && *got == '(')
		return tuple_equal(want, got);
	return scalar_equal(want, got);
}

/* One side: NULL is unstated ('?'); it matches only another NULL. */
static int side_match(const char *want, const char *got)
{
	if (!want || !got)
		return !want && !got;
	return value_equal(want, got);
}

/* ---- scoring --------------------------------------------------------- */

static const struct change *find_var(const struct change_list *cl, const char *var)
{
	for (int i = 0; i < cl->n; i++)
		if (var_same(cl->v[i].var, var))
			return &cl->v[i];
	return NULL;
}

/* A claim the expectation does not support: another variable, or a
 * stated side that differs (an unstated side claims nothing). */
static int is_wrong(const struct change *g, const struct change_list *want)
{
	const struct change *w = find_var(want, g->var);
	if (!w)
		return 1;
	return (g->old_val && !side_match(w->old_val, g->old_val)) ||
	       (g->new_val && !side_match(w->new_val, g->new_val));
}

static int matches(const struct change *w, const struct change_list *got)
{
	const struct change *g = find_var(got, w->var);
	return g && side_match(w->old_val, g->old_val) && side_match(w->new_val, g->new_val);
}

static enum verdict score(const struct change_list *want, const struct change_list *got)
{
	int all = 1;
	for (int i = 0; i < got->n; i++)
		if (is_wrong(&got->v[i], want))
			return V_WRONG;
	if (got->n == 0)
		return want->n ? V_MISSED : V_CORRECT;
	for (int i = 0; i < want->n && all; i++)
		all = matches(&want->v[i], got);
	return all && want->n == got->n ? V_CORRECT : V_PARTLY;
}

/* ---- how each inferred change was named (--by-kind) -------------------
 * Train files only: for each kind of name, how many inferred changes were
 * right (an expected item, both sides) and how many wrong (is_wrong). It
 * says which kinds of evidence a wrong change comes from. */
enum name_kind { NK_REGISTRY, NK_LEXICON, NK_IDENT, NK_PROSE, NK_N };
static const char *const kind_names[NK_N] = { "registry key", "desc lexicon",
					      "desc coined (identifier)", "desc coined (prose)" };
static int kind_n[NK_N][3]; /* inferred, right, wrong */
static int list_coined;      /* --list-coined: each coined name of a train line */

static enum name_kind name_kind(const struct change *c)
{
	if (!str_starts_with(c->var, "desc."))
		return NK_REGISTRY;
	if (describe_name_known(c->var))
		return NK_LEXICON;
	return infer_name_written(c) ? NK_IDENT : NK_PROSE;
}

static void tally_kinds(const struct change_list *want, const struct change_list *got)
{
	for (int i = 0; i < got->n; i++) {
		enum name_kind k = name_kind(&got->v[i]);
		const struct change *w = find_var(want, got->v[i].var);
		kind_n[k][0]++;
		kind_n[k][1] += w && side_match(w->old_val, got->v[i].old_val) &&
				side_match(w->new_val, got->v[i].new_val);
		kind_n[k][2] += is_wrong(&got->v[i], want);
		if (list_coined && k >= NK_IDENT) /* train lines only */
			printf("coined %-5s %s  [%s]\n", is_wrong(&got->v[i], want) ? "WRONG" : "ok",
			       got->v[i].var, got->v[i].span ? got->v[i].span : "");
	}
}

static void print_kinds(void)
{
	printf("\n%-28s %8s %6s %6s\n", "name kind (train)", "inferred", "right", "wrong");
	for (int k = 0; k < NK_N; k++)
		printf("%-28s %8d %6d %6d\n", kind_names[k], kind_n[k][0], kind_n[k][1], kind_n[k][2]);
}

/* ---- leave one source out, for the lexicon (--loso) -------------------
 * The spellings of the lexicon (describe.c's desc.* table and the
 * registry's prose aliases; train.py's constant names are not learned from
 * any source) were added as train sources showed them. --loso scores each
 * train source as if the spellings that only it attests (it holds the
 * spelling in a description whose expected changes name the spelling's
 * variable) had never been added: an inferred change whose span holds such
 * a spelling of its variable and no spelling another source attests is
 * taken away before the row is replayed. The grammar's rules stay: they
 * were written with every train source in view, which only a source the
 * rules have not met (or the heldout split) can measure. */
struct spelling {
	char text[100];  /* normalised: lower case, runs of non-alphanumerics one space */
	char var[96];
	int constant;    /* a train.py name: never learned from a source */
	int sources, src; /* how many train sources attest it, and the first */
};

static struct spelling *lexicon;
static int lexicon_n;
static int loso_src = -1; /* the source being scored, or -1 */

static void norm_text(const char *s, char *buf, size_t n)
{
	size_t o = 0;
	int space = 1;
	for (; *s && o + 2 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 128 && !isalnum(c)) {
			if (!space)
				buf[o++] = ' ';
			space = 1;
			continue;
		}
		buf[o++] = (char)tolower(c);
		space = 0;
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
}

static void lexicon_add(const char *spelling, const char *var, int constant)
{
	lexicon = xrealloc(lexicon, (size_t)(lexicon_n + 1) * sizeof(*lexicon));
	struct spelling *sp = &lexicon[lexicon_n++];
	memset(sp, 0, sizeof(*sp));
	norm_text(spelling, sp->text, sizeof(sp->text));
	snprintf(sp->var, sizeof(sp->var), "%s", var);
	sp->constant = constant;
	sp->src = -1;
}

static void lexicon_load(void)
{
	const char *spelling;
	char key[96];
	for (size_t i = 0; !describe_lexicon_at(i, &spelling, key, sizeof(key)); i++)
		lexicon_add(spelling, key, 0);
	for (size_t i = 0; i < varreg_alias_count(); i++) {
		const struct var_alias *a = varreg_alias_at(i);
		const struct var_def *d = varreg_find(a->key);
		char constant[100] = "", name[100];
		if (d && d->constant)
			norm_text(d->constant, constant, sizeof(constant));
		norm_text(a->name, name, sizeof(name));
		lexicon_add(a->name, a->key, *constant && !strcmp(constant, name));
	}
}

/* 1 when normalised text holds spelling sp as whole words. */
static int holds(const char *text, const struct spelling *sp)
{
	size_t n = strlen(sp->text);
	if (!n)
		return 0;
	for (const char *p = strstr(text, sp->text); p; p = strstr(p + 1, sp->text))
		if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/* A train case of source src: the spellings it attests. */
static void lexicon_attest(const char *desc, const struct change_list *want, int src)
{
	char text[4096];
	norm_text(desc, text, sizeof(text));
	for (int i = 0; i < lexicon_n; i++) {
		struct spelling *sp = &lexicon[i];
		if (sp->src == src || !find_var(want, sp->var) || !holds(text, sp))
			continue;
		sp->sources++; /* a source's cases after its first are skipped above only
		                * while it is the first; counting past 1 is all that matters */
		if (sp->src < 0)
			sp->src = src;
	}
}

/* Take away what only the left-out source's spellings gave. */
static void loso_filter(struct change_list *got)
{
	int kept = 0;
	for (int i = 0; i < got->n; i++) {
		struct change *c = &got->v[i];
		char span[4096];
		int mine = 0, other = 0;
		norm_text(c->span ? c->span : "", span, sizeof(span));
		for (int j = 0; j < lexicon_n; j++) {
			const struct spelling *sp = &lexicon[j];
			if (!var_same(sp->var, c->var) || !holds(span, sp))
				continue;
			if (!sp->constant && sp->sources == 1 && sp->src == loso_src)
				mine = 1;
			else
				other = 1;
		}
		if (mine && !other) {
			free(c->var);
			free(c->old_val);
			free(c->new_val);
			free(c->span);
			continue;
		}
		got->v[kept++] = *c;
	}
	got->n = kept;
}

/* ---- reading the files ----------------------------------------------- */

static char *side_or_null(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len == 1 && *s == '?' ? NULL : xstrndup(s, len);
}

/* "VAR OLD -> NEW" into out; -1 when it is not that shape. */
static int parse_item(const char *item, struct change_list *out)
{
	const char *sp = strchr(item, ' '), *arrow = strstr(item, " -> ");
	if (!sp || !arrow || arrow < sp || sp == item)
		return -1;
	char *var = xstrndup(item, (size_t)(sp - item));
	char *old_val = side_or_null(sp + 1, (size_t)(arrow - sp - 1));
	char *new_val = side_or_null(arrow + 4, strlen(arrow + 4));
	int bad = (old_val && !*old_val) || (new_val && !*new_val);
	if (!bad)
		change_list_add(out, var, old_val, new_val);
	free(var);
	free(old_val);
	free(new_val);
	return bad ? -1 : 0;
}

/* EXPECTED: "-", or items joined by "; ". */
static int parse_changes(const char *text, struct change_list *out)
{
	if (!strcmp(text, "-"))
		return 0;
	char *copy = xstrdup(text), *p = copy;
	int rc = 0;
	while (p && !rc) {
		char *semi = strstr(p, "; ");
		if (semi)
			*semi = '\0';
		rc = parse_item(p, out);
		p = semi ? semi + 2 : NULL;
	}
	free(copy);
	return rc;
}

static void render(const struct change_list *cl, sb *out)
{
	if (!cl->n)
		sb_adds(out, "-");
	for (int i = 0; i < cl->n; i++)
		sb_addf(out, "%s%s %s -> %s", i ? "; " : "", cl->v[i].var,
			cl->v[i].old_val ? cl->v[i].old_val : "?",
			cl->v[i].new_val ? cl->v[i].new_val : "?");
}

static void print_failure(const char *where, enum verdict v, const char *status,
			  const char *desc, const struct change_list *want, const struct change_list *got)
{
	sb w = SB_INIT, g = SB_INIT;
	render(want, &w);
	render(got, &g);
	printf("%-7s %s%s%s\n    %s\n    expected: %s\n    inferred: %s\n", verdict_names[v], where,
	       status ? " " : "", status ? status : "", desc, w.buf, g.buf);
	sb_release(&w);
	sb_release(&g);
}

/* ---- replaying a file's parent chain ----------------------------------
 * A file with statuses (STATUS<TAB>DESCRIPTION<TAB>EXPECTED) is read as
 * ledger/ingest_tsv.c reads a results.tsv: the first stored row is the
 * root (the baseline when its status is ok), each row's parent is the last
 * kept row (keep or baseline) before it, or the root; the root records
 * nothing, what its description states is its state (a kept row that
 * records nothing moves the state as infer_state_kept says: a mid-file
 * "Default … baseline" resets it). Each
 * description's changes are inferred and then measured against the
 * parent's inferred state (infer.h: infer_drop_restated), as ledger/store.c
 * does at ingest. "# skipped: N STATUS" lines are source rows the corpus
 * left out: they move the chain like any row, stating nothing. A row whose
 * status is "?" (the source has none) would be refused by ingest: it is
 * read against the current parent (none: nothing known) and moves nothing. */
struct replay {
	int statuses;   /* -1 not known yet, 0 DESCRIPTION<TAB>EXPECTED, 1 with STATUS */
	long rows;      /* rows ingest would have stored so far */
	int has_parent;
	struct change_list parent_state;
};

static void replay_release(struct replay *rp)
{
	change_list_release(&rp->parent_state);
}

/* One source row (desc NULL: skipped by the corpus); got: what ingest
 * records for it. */
static void replay_row(struct replay *rp, const char *status_word, const char *desc,
		       struct change_list *got)
{
	const char *status = NULL, *decision = NULL;
	int stored = strcmp(status_word, "?") && !ingest_ar_status(status_word, &status, &decision);
	if (!stored) /* a kept column's True/False, as ingest_tsv.c reads one */
		stored = !ingest_kept_word(status_word, &status, &decision);
	if (desc && (rp->has_parent || !stored)) {
		infer_changes_in(desc, &rp->parent_state, got);
		if (loso_src >= 0)
			loso_filter(got);
		infer_drop_restated(&rp->parent_state, got);
	}
	if (!stored)
		return;
	int first = rp->rows++ == 0;
	if (first && !strcmp(status, "ok"))
		decision = "baseline";
	if (!first && (!decision || (strcmp(decision, "keep") && strcmp(decision, "baseline"))))
		return; /* a failed first row is still the root of what follows */
	if (rp->has_parent) {
		/* the state keeps old values as ingest stores them, filled from
		 * the parent's state (infer_fill_old), so that a later row that
		 * restates this transition is judged as ingest judges it; the
		 * row itself is scored on what its text says */
		struct change_list filled = CHANGE_LIST_INIT;
		for (int i = 0; i < got->n; i++)
			change_list_add(&filled, got->v[i].var, got->v[i].old_val, got->v[i].new_val);
		infer_fill_old(&rp->parent_state, &filled);
		infer_state_kept(&rp->parent_state, desc, &filled);
		change_list_release(&filled);
	} else { /* a root: what its description states is its configuration */
		change_list_release(&rp->parent_state);
		infer_stated(desc, &rp->parent_state);
		rp->has_parent = 1;
	}
}

/* "# skipped: N STATUS": 0 and the status, or -1 when line is not one. */
static int skipped_status(const char *line, char *status, size_t n)
{
	long row;
	char word[64];
	if (sscanf(line, "# skipped: %ld %63s", &row, word) != 2 || row < 1)
		return -1;
	snprintf(status, n, "%s", word);
	return 0;
}

static int count_tabs(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\t';
	return n;
}

/* One [STATUS<TAB>]DESCRIPTION<TAB>EXPECTED[<TAB>GIVEN] line; -1 when malformed. */
static int score_line(char *line, const char *where, struct tally *t, const struct opts *o,
		      struct replay *rp)
{
	int tabs = count_tabs(line);
	if (rp->statuses < 0)
		rp->statuses = tabs == 2 + o->given;
	if (tabs != 1 + o->given + rp->statuses)
		return -1;
	char *status = NULL;
	if (rp->statuses) {
		status = line;
		line = strchr(line, '\t');
		*line++ = '\0';
	}
	char *tab = strchr(line, '\t'), *given = NULL;
	*tab = '\0';
	char *expected = tab + 1;
	if (o->given && (given = strchr(expected, '\t')))
		*given++ = '\0';
	struct change_list want = CHANGE_LIST_INIT, got = CHANGE_LIST_INIT;
	int rc = parse_changes(expected, &want);
	if (!rc && o->given)
		rc = given ? parse_changes(given, &got) : -1;
	else if (!rc && rp->statuses)
		replay_row(rp, status, line, &got);
	else if (!rc) {
		infer_changes(line, &got);
		if (loso_src >= 0)
			loso_filter(&got);
	}
	if (!rc) {
		enum verdict v = score(&want, &got);
		t->n[v]++;
		if (o->by_kind && !t->heldout)
			tally_kinds(&want, &got);
		if (v != V_CORRECT && !o->quiet && (!t->heldout || o->show_heldout))
			print_failure(where, v, status, line, &want, &got);
	}
	change_list_release(&want);
	change_list_release(&got);
	return rc;
}

/* A comment line: the split header, or a skipped source row. */
static void read_comment(const char *line, struct tally *t, int *have_split, struct replay *rp,
			 const struct opts *o)
{
	char status[64];
	if (!strcmp(line, "# split: train") || !strcmp(line, "# split: heldout")) {
		t->heldout = line[9] == 'h';
		*have_split = 1;
	} else if (!skipped_status(line, status, sizeof(status)) && !o->given) {
		struct change_list none = CHANGE_LIST_INIT;
		rp->statuses = 1;
		replay_row(rp, status, NULL, &none);
		change_list_release(&none);
	}
}

static int split_error(const char *path)
{
	rl_error("%s: no '# split: train' or '# split: heldout' line before the first case", path);
	rl_hint("every file of the corpus starts with its # source: and # split: headers (README.md there)");
	return -1;
}

static int score_file(const char *path, struct tally *t, const struct opts *o)
{
	size_t len;
	char *text = read_file(path, &len), *save = NULL;
	int have_split = 0, lineno = 0, rc = 0;
	struct replay rp = { .statuses = -1 };
	if (!text) {
		rl_error("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	for (char *p = text; p && !rc; p = save) {
		save = strchr(p, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (*p == '#') {
			read_comment(p, t, &have_split, &rp, o);
			continue;
		}
		if (!*p)
			continue;
		if (!have_split) {
			rc = split_error(path);
			break;
		}
		char where[4200];
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (score_line(p, where, t, o, &rp)) {
			/* the line itself is not quoted: it may be heldout */
			rl_error("%s: not [STATUS<TAB>]DESCRIPTION<TAB>EXPECTED with EXPECTED '-' or "
				 "'VAR OLD -> NEW; …' (and one layout in the whole file)", where);
			rc = -1;
		}
	}
	replay_release(&rp);
	free(text);
	return rc;
}

/* ---- the report ------------------------------------------------------ */

static int cases(const struct tally *t)
{
	int n = 0;
	for (int v = 0; v < V_N; v++)
		n += t->n[v];
	return n;
}

static void print_row(const char *split, const struct tally *t)
{
	printf("%-8s %-26s %5d %7d %6d %5d %6d", split, t->name, cases(t), t->n[V_CORRECT],
	       t->n[V_PARTLY], t->n[V_WRONG], t->n[V_MISSED]);
}

static void print_split(const struct tally *files, int n, int heldout, int total_only)
{
	const char *split = heldout ? "heldout" : "train";
	struct tally all = { .name = "all" };
	for (int i = 0; i < n; i++) {
		if (files[i].heldout != heldout)
			continue;
		if (!total_only) {
			print_row(split, &files[i]);
			printf("\n");
		}
		for (int v = 0; v < V_N; v++)
			all.n[v] += files[i].n[v];
	}
	int c = cases(&all);
	print_row(split, &all);
	printf("  %5.1f%% correct %5.1f%% wrong\n", c ? 100.0 * all.n[V_CORRECT] / c : 0.0,
	       c ? 100.0 * all.n[V_WRONG] / c : 0.0);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.tsv names of dir, sorted; returns how many (-1 on error). */
static int list_tsv(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	int n = 0, cap = 0;
	if (!d) {
		rl_error("cannot open corpus directory %s: %s", dir, strerror(errno));
		rl_hint("pass a directory of DESCRIPTION<TAB>EXPECTED files, or set INFER_DIR for make infer-eval");
		return -1;
	}
	*names = NULL;
	for (struct dirent *e; (e = readdir(d));) {
		if (!str_ends_with(e->d_name, ".tsv") || e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			*names = xrealloc(*names, (size_t)cap * sizeof(**names));
		}
		(*names)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(*names, (size_t)n, sizeof(**names), by_name);
	return n;
}

/* The spellings a train file attests (lexicon_attest for each case). */
static void attest_file(const char *path, int src)
{
	size_t len;
	char *text = read_file(path, &len), *save = NULL;
	for (char *p = text; p; p = save) {
		save = strchr(p, '\n');
		if (save)
			*save++ = '\0';
		if (*p == '#' || !*p)
			continue;
		char *tab1 = strchr(p, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
		char *desc = tab2 ? tab1 + 1 : p, *exp = tab2 ? tab2 + 1 : tab1 ? tab1 + 1 : NULL;
		if (!exp)
			continue;
		*(tab2 ? tab2 : tab1) = '\0';
		struct change_list want = CHANGE_LIST_INIT;
		if (!parse_changes(exp, &want))
			lexicon_attest(desc, &want, src);
		change_list_release(&want);
	}
	free(text);
}

/* --loso: each train source scored without the spellings only it attests. */
static void print_loso(char **names, int n, const struct tally *files, const char *dir)
{
	struct opts quiet = { .quiet = 1, .dir = dir };
	struct tally all = { .name = "all" };
	lexicon_load();
	for (int i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!files[i].heldout)
			attest_file(path, i);
	}
	int only = 0;
	for (int i = 0; i < lexicon_n; i++)
		only += !lexicon[i].constant && lexicon[i].sources == 1;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct tally t = { .heldout = files[i].heldout };
		if (files[i].heldout)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		loso_src = i;
		score_file(path, &t, &quiet);
		for (int v = 0; v < V_N; v++)
			all.n[v] += t.n[v];
	}
	loso_src = -1;
	int c = cases(&all);
	printf("\nleave one source out (lexicon: %d of %d spellings attested by one train source alone)\n",
	       only, lexicon_n);
	print_row("loso", &all);
	printf("  %5.1f%% correct %5.1f%% wrong\n", c ? 100.0 * all.n[V_CORRECT] / c : 0.0,
	       c ? 100.0 * all.n[V_WRONG] / c : 0.0);
	free(lexicon);
	lexicon = NULL;
	lexicon_n = 0;
}

static const char usage_text[] =
	"usage: infer-eval [--show-heldout | --heldout-total] [--given] [--by-kind | --list-coined]\n"
	"                  [--keep-coined] [--loso] [DIR]\n"
	"\n"
	"Scores the description grammar against the hand-written expectations in DIR\n"
	"(default tests/fixtures/infer): correct / partly / wrong / missed per source.\n"
	"\n"
	"  --heldout-total  the held-out split as one total row, not a row per file\n"
	"                   (whoever writes rules may see the aggregate alone)\n"
	"  --show-heldout   also list the held-out files' failures (spoils the split)\n"
	"  --given          score each line's third column (changes written as EXPECTED)\n"
	"                   instead of running the grammar: checks the scorer itself\n"
	"  --by-kind        tally inferred names by the evidence they came from\n"
	"                   (registry key, lexicon, coined identifier, coined prose)\n"
	"  --list-coined    as --by-kind, and list every coined desc.* name of a train line\n"
	"  --keep-coined    keep the coined names the grammar's filter drops\n"
	"  --loso           also score each train source with the spellings only it attests\n"
	"                   left out of the lexicon (leave one source out)\n"
	"\n"
	"Exit status: 0 after a report, 2 for a usage error or a malformed file.\n";

static int parse_args(int argc, char **argv, struct opts *o)
{
	o->dir = "tests/fixtures/infer";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--show-heldout"))
			o->show_heldout = 1;
		else if (!strcmp(argv[i], "--heldout-total"))
			o->heldout_total = 1;
		else if (!strcmp(argv[i], "--given"))
			o->given = 1;
		else if (!strcmp(argv[i], "--by-kind"))
			o->by_kind = 1;
		else if (!strcmp(argv[i], "--list-coined"))
			o->by_kind = list_coined = 1;
		else if (!strcmp(argv[i], "--keep-coined"))
			infer_keep_coined = 1;
		else if (!strcmp(argv[i], "--loso"))
			o->loso = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (argv[i][0] != '-')
			o->dir = argv[i];
		else {
			rl_error("unknown option '%s'", argv[i]);
			rl_hint("infer-eval --help lists the options");
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	char **names = NULL;
	rl_progname = "infer-eval";
	if (parse_args(argc, argv, &o))
		return EXIT_USAGE;
	int n = list_tsv(o.dir, &names), rc = n < 0;
	struct tally *files = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*files));
	printf("failures (train files%s):\n", o.show_heldout ? " and heldout files" : " only");
	for (int i = 0; i < n && !rc; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", o.dir, names[i]);
		snprintf(files[i].name, sizeof(files[i].name), "%.*s", (int)(strlen(names[i]) - 4),
			 names[i]);
		rc = score_file(path, &files[i], &o);
	}
	if (!rc) {
		printf("\n%-8s %-26s %5s %7s %6s %5s %6s\n", "split", "source", "cases", "correct",
		       "partly", "wrong", "missed");
		print_split(files, n, 0, 0);
		print_split(files, n, 1, o.heldout_total && !o.show_heldout);
		if (o.by_kind)
			print_kinds();
		if (o.loso && !o.given)
			print_loso(names, n, files, o.dir);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(files);
	return rc ? EXIT_USAGE : EXIT_OK;
}
