/* codediff.c — changed variables between two commits (libgit2); see
 * codediff.h. Constants come from parsing the training script of both
 * commits (cached per commit: a session has hundreds of runs and each
 * commit is a parent or child several times); hunks come from a tree diff
 * with no context lines, so each run of changed lines is a hunk of its own
 * and gets the scope it is really in. A hunk whose changed lines are all
 * constants (already recorded), blank or comments adds nothing. */
#include <git2.h>
#include "codediff.h"
#include "pyconst.h"
#include "sha256.h"
#include "strmap.h"
#include "varreg.h"
#include "util.h"

/* A commit as far as it has been read: its training script, parsed. */
struct commit_info {
	git_oid oid;
	int has_script;
	struct py_source script;
};

/* What a commit text ("a1b2c3d") resolved to. */
struct resolved {
	int ok;
	git_oid oid;
	char *why;
};

struct codediff {
	git_repository *repo;
	char *script;
	struct strmap by_text;       /* commit text as given -> index in res */
	struct resolved *res;
	int nres, capres;
	struct strmap by_oid;        /* 40 hex -> index in info */
	struct commit_info **info;
	int ninfo, capinfo;
	long misses;
	sb example;
};

static const char *git_message(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

struct codediff *codediff_open(const char *dir, const char *script, sb *err)
{
	git_repository *repo = NULL;
	git_libgit2_init();
	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		sb_addf(err, "'%s' is not a git repository (%s)", dir, git_message());
		git_libgit2_shutdown();
		return NULL;
	}
	struct codediff *cd = xcalloc(1, sizeof(*cd));
	cd->repo = repo;
	while (!strncmp(script, "./", 2)) /* a path in the tree, not on disk */
		script += 2;
	cd->script = xstrdup(script);
	sb_init(&cd->example);
	return cd;
}

void codediff_free(struct codediff *cd)
{
	if (!cd)
		return;
	for (int i = 0; i < cd->nres; i++)
		free(cd->res[i].why);
	free(cd->res);
	for (int i = 0; i < cd->ninfo; i++) {
		py_source_release(&cd->info[i]->script);
		free(cd->info[i]);
	}
	free(cd->info);
	strmap_release(&cd->by_text);
	strmap_release(&cd->by_oid);
	sb_release(&cd->example);
	free(cd->script);
	git_repository_free(cd->repo);
	free(cd);
	git_libgit2_shutdown();
}

long codediff_misses(struct codediff *cd, sb *example)
{
	long n = cd->misses;
	sb_adds(example, cd->example.buf);
	cd->misses = 0;
	sb_reset(&cd->example);
	return n;
}

/* ---- commits --------------------------------------------------------- */

/* Look a commit text up in the object database by hash or prefix, never
 * through refs: discarded experiments are reset away from every branch
 * but their objects stay until git gc prunes them. */
static void resolve_text(struct codediff *cd, const char *text, struct resolved *r)
{
	size_t n = strlen(text);
	git_oid prefix;
	git_object *obj = NULL;
	sb why = SB_INIT;
	if (n < GIT_OID_MINPREFIXLEN || n > GIT_OID_HEXSZ ||
	    strspn(text, "0123456789abcdefABCDEF") != n || git_oid_fromstrp(&prefix, text)) {
		sb_addf(&why, "commit '%s' is not a hash or a prefix of at least %d hex digits", text,
			GIT_OID_MINPREFIXLEN);
	} else {
		int rc = git_object_lookup_prefix(&obj, cd->repo, &prefix, n, GIT_OBJECT_COMMIT);
		if (rc == GIT_EAMBIGUOUS)
			sb_addf(&why, "commit '%s' is an ambiguous prefix in the repository", text);
		else if (rc == GIT_ENOTFOUND)
			sb_addf(&why, "commit '%s' is not in the repository", text);
		else if (rc)
			sb_addf(&why, "commit '%s': %s", text, git_message());
	}
	r->ok = obj != NULL;
	if (obj) {
		git_oid_cpy(&r->oid, git_object_id(obj));
		git_object_free(obj);
	}
	r->why = r->ok ? NULL : sb_detach(&why);
	sb_release(&why);
}

static const struct resolved *resolve(struct codediff *cd, const char *text)
{
	int created;
	struct strmap_slot *slot = strmap_get(&cd->by_text, text, &created);
	if (!created)
		return &cd->res[slot->v.n];
	slot->v.n = cd->nres;
	if (cd->nres == cd->capres) {
		cd->capres = cd->capres ? 2 * cd->capres : 64;
		cd->res = xrealloc(cd->res, (size_t)cd->capres * sizeof(*cd->res));
	}
	struct resolved *r = &cd->res[cd->nres++];
	resolve_text(cd, text, r);
	return r;
}

/* The training script of tree, parsed into out; 0 when the tree has it. */
static int read_script(struct codediff *cd, git_tree *tree, struct py_source *out)
{
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	int rc = -1;
	if (git_tree_entry_bypath(&te, tree, cd->script) == 0 &&
	    git_tree_entry_type(te) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&blob, cd->repo, git_tree_entry_id(te)) == 0) {
		py_source_parse(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		rc = 0;
	}
	git_blob_free(blob);
	git_tree_entry_free(te);
	return rc;
}

/* The commit's info, its script parsed the first time it is asked for. */
static struct commit_info *commit_info(struct codediff *cd, const git_oid *oid, git_tree *tree)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hex, sizeof(hex), oid);
	int created;
	struct strmap_slot *slot = strmap_get(&cd->by_oid, hex, &created);
	if (!created)
		return cd->info[slot->v.n];
	slot->v.n = cd->ninfo;
	if (cd->ninfo == cd->capinfo) {
		cd->capinfo = cd->capinfo ? 2 * cd->capinfo : 64;
		cd->info = xrealloc(cd->info, (size_t)cd->capinfo * sizeof(*cd->info));
	}
	struct commit_info *ci = xcalloc(1, sizeof(*ci));
	cd->info[cd->ninfo++] = ci;
	git_oid_cpy(&ci->oid, oid);
	ci->has_script = read_script(cd, tree, &ci->script) == 0;
	return ci;
}

static git_tree *commit_tree(struct codediff *cd, const git_oid *oid, sb *why)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	if (git_commit_lookup(&c, cd->repo, oid) || git_commit_tree(&tree, c))
		sb_addf(why, "commit '%s': %s", git_oid_tostr(hex, sizeof(hex), oid), git_message());
	git_commit_free(c);
	return tree;
}

/* ---- constants ------------------------------------------------------- */

static int has_var(const struct change_list *cl, const char *var)
{
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(cl->v[i].var, var))
			return 1;
	return 0;
}

/* UPPER_CASE names are Python's constants: those go through the registry
 * (DEPTH -> model.depth). A lowercase name is a script's own variable and
 * the registry's prose aliases would misname it ("warmup = 100" is steps,
 * not sched.warmup_ratio), so it keeps its name: code.name. So does an
 * alias that implies a value ("FLASH_ATTENTION" names impl.attention =
 * flash, not a boolean), and a second constant for a key already given. */
static void constant_var(const char *name, const struct change_list *cl, sb *out)
{
	int upper = 0, lower = 0;
	for (const char *p = name; *p; p++) {
		upper |= isupper((unsigned char)*p);
		lower |= islower((unsigned char)*p);
	}
	const struct var_alias *a = upper && !lower ? varreg_alias(name) : NULL;
	sb_reset(out);
	if (a && !a->implied && !has_var(cl, a->key))
		sb_adds(out, a->key);
	else
		sb_addf(out, "code.%s", name);
}

static void add_constant(struct codediff *cd, const struct py_const *oldc,
			 const struct py_const *newc, struct change_list *out)
{
	sb var = SB_INIT, span = SB_INIT;
	const struct py_const *at = newc ? newc : oldc;
	constant_var(at->name, out, &var);
	if (newc)
		sb_addf(&span, "%s:%d: %s", cd->script, newc->first, newc->text);
	else
		sb_addf(&span, "%s:%d (parent, removed): %s", cd->script, oldc->first, oldc->text);
	change_list_add_span(out, var.buf, oldc ? oldc->value : NULL, newc ? newc->value : NULL,
			     span.buf);
	sb_release(&var);
	sb_release(&span);
}

/* The whole constant sets of both versions, not only hunk lines: a name
 * whose value is the same is no change wherever the hunks fall. */
static void diff_constants(struct codediff *cd, const struct commit_info *a,
			   const struct commit_info *b, struct change_list *out)
{
	const struct py_source *sa = a->has_script ? &a->script : NULL;
	const struct py_source *sb_ = b->has_script ? &b->script : NULL;
	for (int i = 0; sb_ && i < sb_->nc; i++) {
		const struct py_const *o = sa ? py_source_const(sa, sb_->c[i].name) : NULL;
		if (!o || strcmp(o->value, sb_->c[i].value))
			add_constant(cd, o, &sb_->c[i], out);
	}
	for (int i = 0; sa && i < sa->nc; i++)
		if (!sb_ || !py_source_const(sb_, sa->c[i].name))
			add_constant(cd, &sa->c[i], NULL, out);
}

/* ---- hunks ----------------------------------------------------------- */

/* Changes by file and scope, merged: several hunks in one function are
 * one change of it. */
struct pending {
	char *var;
	int adds, dels;
	sha256_ctx hash;   /* of the changed lines that count, with their sign */
	sb span;           /* the hunk headers, "; "-separated */
};

struct pendings {
	struct pending *v;
	int n, cap;
};

static struct pending *pending_for(struct pendings *ps, const char *var)
{
	for (int i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i].var, var))
			return &ps->v[i];
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 8;
		ps->v = xrealloc(ps->v, (size_t)ps->cap * sizeof(*ps->v));
	}
	struct pending *p = &ps->v[ps->n++];
	memset(p, 0, sizeof(*p));
	p->var = xstrdup(var);
	sha256_init(&p->hash);
	sb_init(&p->span);
	return p;
}

/* Value "+3 -1 lines #a1b2c3d4": the count of lines added and removed,
 * and the first 8 hex digits of a SHA-256 over them, so the same edit
 * made twice (a repeat from another commit) has the same value and two
 * different edits of one function do not. */
static void pendings_flush(struct pendings *ps, struct change_list *out)
{
	for (int i = 0; i < ps->n; i++) {
		struct pending *p = &ps->v[i];
		uint8_t digest[32];
		char hex[65];
		sha256_final(&p->hash, digest);
		sha256_to_hex(digest, hex);
		sb v = SB_INIT;
		sb_addf(&v, "+%d -%d lines #%.8s", p->adds, p->dels, hex);
		change_list_add_span(out, p->var, NULL, v.buf, p->span.buf);
		sb_release(&v);
		free(p->var);
		sb_release(&p->span);
	}
	free(ps->v);
}

/* Both versions of one file as far as a hunk needs them. */
struct file_sides {
	const char *path;
	const struct py_source *old, *new; /* Python files only */
	int constants;                     /* the training script: constants are recorded */
};

static int only_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A changed line that is no change of its own: blank, a comment, or part
 * of a constant (recorded as the constant's change). */
static int line_covered(const struct py_source *src, int constants, const git_diff_line *l)
{
	if (only_space(l->content, l->content_len))
		return 1;
	int n = l->origin == GIT_DIFF_LINE_ADDITION ? l->new_lineno : l->old_lineno;
	if (!src || n < 1 || n > src->nlines)
		return 0;
	const struct py_line *pl = &src->line[n];
	return (constants && pl->in_const) || (!pl->cont && pl->blank);
}

/* The scope a non-Python hunk header names: "@@ -1 +1 @@ int main(void)"
 * -> "main"; other context text as it is, cut at 60 bytes. */
static void header_scope(const git_diff_hunk *h, sb *out)
{
	const char *ctx = strstr(h->header + 2, "@@");
	if (!ctx)
		return;
	ctx += 2;
	while (*ctx == ' ' || *ctx == '\t')
		ctx++;
	size_t n = strcspn(ctx, "\r\n");
	const char *paren = memchr(ctx, '(', n);
	if (paren) { /* the identifier before the first '(' */
		const char *e = paren;
		while (e > ctx && e[-1] == ' ')
			e--;
		const char *s = e;
		while (s > ctx && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == ':'))
			s--;
		if (s < e) {
			sb_add(out, s, (size_t)(e - s));
			return;
		}
	}
	while (n && strchr(" \t{:", ctx[n - 1]))
		n--;
	if (n > 60) {
		n = 60;
		while (n && ((unsigned char)ctx[n] & 0xc0) == 0x80)
			n--; /* not inside a UTF-8 sequence */
	}
	for (size_t i = 0; i < n; i++)
		sb_addc(out, (unsigned char)ctx[i] < 0x20 ? '?' : ctx[i]);
}

static void hunk_change(git_patch *patch, size_t h, const struct file_sides *fs,
			struct pendings *ps)
{
	const git_diff_hunk *hunk;
	size_t nlines;
	if (git_patch_get_hunk(&hunk, &nlines, patch, h))
		return;
	int adds = 0, dels = 0, first = 0, first_new = 0;
	sha256_ctx hash;
	sha256_init(&hash);
	for (size_t k = 0; k < nlines; k++) {
		const git_diff_line *l;
		if (git_patch_get_line_in_hunk(&l, patch, h, k))
			continue;
		int add = l->origin == GIT_DIFF_LINE_ADDITION;
		if (!add && l->origin != GIT_DIFF_LINE_DELETION)
			continue;
		if (line_covered(add ? fs->new : fs->old, fs->constants, l))
			continue;
		adds += add;
		dels += !add;
		if (!first) {
			first = add ? l->new_lineno : l->old_lineno;
			first_new = add;
		}
		sha256_update(&hash, &l->origin, 1);
		sha256_update(&hash, l->content, l->content_len);
	}
	if (!adds && !dels)
		return;
	sb var = SB_INIT, scope = SB_INIT;
	const struct py_source *src = first_new ? fs->new : fs->old;
	if (src)
		py_scope(src, first, &scope);
	else if (!str_ends_with(fs->path, ".py"))
		header_scope(hunk, &scope);
	sb_addf(&var, "code.%s%s%s", fs->path, scope.len ? ":" : "", scope.buf);
	struct pending *p = pending_for(ps, var.buf);
	p->adds += adds;
	p->dels += dels;
	uint8_t digest[32];
	sha256_final(&hash, digest); /* hunks in order: a hash of hashes */
	sha256_update(&p->hash, digest, sizeof(digest));
	size_t hl = strcspn(hunk->header, "\r\n");
	if (p->span.len)
		sb_adds(&p->span, "; ");
	sb_add(&p->span, hunk->header, hl);
	sb_release(&var);
	sb_release(&scope);
}

/* A blob parsed as Python, for the scope of another .py file's hunks. */
static int parse_blob(git_repository *repo, const git_diff_file *f, struct py_source *out)
{
	git_blob *blob = NULL;
	if (git_oid_is_zero(&f->id) || git_blob_lookup(&blob, repo, &f->id))
		return -1;
	py_source_parse(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

/* A file with no hunks: binary, or only its mode changed. */
static void whole_file_change(const git_diff_delta *d, const char *path, struct change_list *out)
{
	sb var = SB_INIT, v = SB_INIT;
	sb_addf(&var, "code.%s", path);
	if (d->flags & GIT_DIFF_FLAG_BINARY)
		sb_adds(&v, d->status == GIT_DELTA_ADDED ? "binary, added" :
			    d->status == GIT_DELTA_DELETED ? "binary, deleted" : "binary, changed");
	else if (d->old_file.mode != d->new_file.mode)
		sb_addf(&v, "mode %o -> %o", d->old_file.mode, d->new_file.mode);
	if (v.len)
		change_list_add_span(out, var.buf, NULL, v.buf, NULL);
	sb_release(&var);
	sb_release(&v);
}

static void file_changes(struct codediff *cd, git_patch *patch, const struct commit_info *a,
			 const struct commit_info *b, struct pendings *ps, struct change_list *out)
{
	const git_diff_delta *d = git_patch_get_delta(patch);
	const char *path = d->new_file.path ? d->new_file.path : d->old_file.path;
	size_t nh = git_patch_num_hunks(patch);
	if (!nh) {
		whole_file_change(d, path, out);
		return;
	}
	struct file_sides fs = { path, NULL, NULL, !strcmp(path, cd->script) };
	struct py_source po, pn;
	int own_old = 0, own_new = 0;
	if (fs.constants) {
		fs.old = a->has_script ? &a->script : NULL;
		fs.new = b->has_script ? &b->script : NULL;
	} else if (str_ends_with(path, ".py")) {
		own_old = d->status != GIT_DELTA_ADDED && !parse_blob(cd->repo, &d->old_file, &po);
		own_new = d->status != GIT_DELTA_DELETED && !parse_blob(cd->repo, &d->new_file, &pn);
		fs.old = own_old ? &po : NULL;
		fs.new = own_new ? &pn : NULL;
	}
	for (size_t h = 0; h < nh; h++)
		hunk_change(patch, h, &fs, ps);
	if (own_old)
		py_source_release(&po);
	if (own_new)
		py_source_release(&pn);
}

/* Files that cannot change what a run computes: notes, the results an
 * agent commits beside the code, pictures. A change recorded for one would
 * be a variable that changed nothing, and the audit would call a one-knob
 * run confounded. Requirements and configs (.txt, .toml, .json…) count. */
static int is_note_or_result(const char *path)
{
	static const char *const exts[] = { ".md", ".rst", ".tsv", ".csv", ".log", ".png", ".jpg",
					    ".jpeg", ".gif", ".svg", ".pdf", ".ipynb" };
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!strcmp(base, ".gitignore") || !strncmp(base, "LICENSE", 7))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		if (str_ends_with(base, exts[i]))
			return 1;
	return 0;
}

static int diff_hunks(struct codediff *cd, git_tree *ta, git_tree *tb,
		      const struct commit_info *a, const struct commit_info *b,
		      struct change_list *out, sb *why)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	if (git_diff_tree_to_tree(&diff, cd->repo, ta, tb, &opts)) {
		sb_addf(why, "cannot diff the commits: %s", git_message());
		return -1;
	}
	struct pendings ps = { NULL, 0, 0 };
	int rc = 0;
	for (size_t i = 0, nd = git_diff_num_deltas(diff); i < nd && !rc; i++) {
		git_patch *patch = NULL;
		if (git_patch_from_diff(&patch, diff, i)) {
			sb_addf(why, "cannot diff the commits: %s", git_message());
			rc = -1;
		} else if (patch && !is_note_or_result(git_patch_get_delta(patch)->new_file.path)) {
			file_changes(cd, patch, a, b, &ps, out);
		}
		git_patch_free(patch);
	}
	pendings_flush(&ps, out);
	git_diff_free(diff);
	return rc;
}

/* ---- the diff -------------------------------------------------------- */

static int diff_commits(struct codediff *cd, const git_oid *from, const git_oid *to,
			struct change_list *out, sb *why)
{
	if (git_oid_equal(from, to))
		return 0;
	git_tree *ta = commit_tree(cd, from, why), *tb = ta ? commit_tree(cd, to, why) : NULL;
	int rc = -1;
	if (ta && tb) {
		const struct commit_info *a = commit_info(cd, from, ta);
		const struct commit_info *b = commit_info(cd, to, tb);
		diff_constants(cd, a, b, out);
		rc = diff_hunks(cd, ta, tb, a, b, out, why);
	}
	git_tree_free(ta);
	git_tree_free(tb);
	return rc;
}

int codediff_changes(struct codediff *cd, const char *from, const char *to,
		     struct change_list *out, sb *why)
{
	struct resolved rf = *resolve(cd, from); /* a copy: resolving to may move the array */
	const struct resolved *rt = resolve(cd, to);
	struct change_list cl = CHANGE_LIST_INIT;
	size_t mark = why->len;
	int rc = -1;
	if (!rt->ok)
		sb_adds(why, rt->why);
	else if (!rf.ok)
		sb_addf(why, "the parent's %s", rf.why);
	else
		rc = diff_commits(cd, &rf.oid, &rt->oid, &cl, why);
	if (rc) {
		if (!cd->misses++)
			sb_adds(&cd->example, why->buf + mark);
	} else {
		change_list_sort(&cl);
		for (int i = 0; i < cl.n; i++)
			change_list_add_span(out, cl.v[i].var, cl.v[i].old_val, cl.v[i].new_val,
					     cl.v[i].span);
	}
	change_list_release(&cl);
	return rc;
}
