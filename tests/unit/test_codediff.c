/* test_codediff.c — ledger/codediff.c: changed variables between two
 * commits of a repository the test builds with libgit2 in a temporary
 * directory. No commit is on a branch: each is found in the object
 * database alone, by full hash and by 7-digit prefix, as a `git reset`
 * experiment would be.
 * Test plan: a baseline and an experiment changing constants (an int, a
 * float, a tuple re-wrapped over lines, a string, an unknown UPPER_CASE
 * name, a lowercase name), a method body, a comment and a blank line
 * alone, another .py
 * file's function and a C file; the exact change list (the comment in the
 * same hunk as the body line is not counted). Then: the same edit
 * from another commit gives the same values (a repeat); constants moved
 * without a new value and white space inside a value are no change; a
 * constant turned into a call is a removed constant plus a hunk; the same
 * commit twice is no change; a missing commit, a parent missing, a word
 * that is no hash: -1, the reason, and the miss count with its first
 * reason, reset once read; a prefix that a blob shares with the commit
 * (ambiguous); a --script other than train.py in a subdirectory. */
#include <git2.h>
#include <unistd.h>
#include "codediff.h"
#include "util.h"
#include "check.h"

static git_repository *repo;
static char dir[] = "/tmp/rl-codediff-XXXXXX";

struct file {
	const char *path, *text;
};

/* The tree of the files, each "name" or "dir/name" (one level: enough
 * here, and all in one directory when there is one). */
static void write_tree(const struct file *files, int n, git_oid *tree_id)
{
	git_treebuilder *tb, *sub = NULL;
	git_oid blob, sub_id;
	char subdir[64] = "";
	git_treebuilder_new(&tb, repo, NULL);
	for (int i = 0; i < n; i++) {
		const char *slash = strchr(files[i].path, '/');
		git_blob_create_from_buffer(&blob, repo, files[i].text, strlen(files[i].text));
		if (slash) {
			snprintf(subdir, sizeof(subdir), "%.*s", (int)(slash - files[i].path), files[i].path);
			if (!sub)
				git_treebuilder_new(&sub, repo, NULL);
			git_treebuilder_insert(NULL, sub, slash + 1, &blob, GIT_FILEMODE_BLOB);
		} else {
			git_treebuilder_insert(NULL, tb, files[i].path, &blob, GIT_FILEMODE_BLOB);
		}
	}
	if (sub) {
		git_treebuilder_write(&sub_id, sub);
		git_treebuilder_insert(NULL, tb, subdir, &sub_id, GIT_FILEMODE_TREE);
		git_treebuilder_free(sub);
	}
	git_treebuilder_write(tree_id, tb);
	git_treebuilder_free(tb);
}

/* A commit of exactly these files, on no branch; its hash into hex. */
static void commit(const struct file *files, int n, const git_oid *parent, git_oid *oid,
		   char hex[41])
{
	git_oid tree_id;
	git_tree *tree;
	git_signature *sig;
	git_commit *pc = NULL;
	static int tick;
	write_tree(files, n, &tree_id);
	git_tree_lookup(&tree, repo, &tree_id);
	git_signature_new(&sig, "t", "t@example.com", 1773640000 + tick++, 0);
	if (parent)
		git_commit_lookup(&pc, repo, parent);
	const git_commit *parents[1] = { pc };
	if (git_commit_create(oid, repo, NULL, sig, sig, NULL, "experiment", tree, parent ? 1 : 0,
			      parents))
		die("test: cannot commit: %s", git_error_last()->message);
	git_oid_tostr(hex, 41, oid);
	git_commit_free(pc);
	git_tree_free(tree);
	git_signature_free(sig);
}

static const char base_py[] =
	"import torch\n"
	"ASPECT_RATIO = 64\n"
	"WINDOW_PATTERN = \"SSSL\"\n"
	"MATRIX_LR = 0.04\n"
	"ADAM_BETAS = (0.8, 0.95)\n"
	"DEPTH = 8\n"
	"EVAL_EVERY = 100\n"
	"warmup = 1\n"
	"\n"
	"class GPT:\n"
	"    def forward(self, x):\n"
	"        # double it\n"
	"        y = x * 2\n"
	"        return y\n"
	"\n"
	"model = GPT()\n";

static const char exp_py[] =
	"import torch\n"
	"ASPECT_RATIO = 64\n"
	"WINDOW_PATTERN = 'SSLL'\n"
	"MATRIX_LR  =  0.05\n"
	"ADAM_BETAS = (\n"
	"    0.9,\n"
	"    0.95,\n"
	")\n"
	"DEPTH = 10\n"
	"EVAL_EVERY = 200\n"
	"warmup = 2\n"
	"\n"
	"class GPT:\n"
	"    def forward(self, x):\n"
	"        # triple it\n"
	"        y = x * 3\n"
	"        return y\n"
	"\n"
	"\n"
	"# build the model\n"
	"model = GPT()\n";

static const char prep_a[] = "def tokenize(s):\n    return s.split()\n";
static const char prep_b[] = "def tokenize(s):\n    return s.lower().split()\n";
static const char kern_a[] = "int main(void)\n{\n\treturn 0;\n}\n";
static const char kern_b[] = "int main(void)\n{\n\treturn 1;\n}\n";

/* "var:old>new|…" (NULL as ~) */
static char *render(const struct change_list *cl)
{
	sb s = SB_INIT;
	for (int i = 0; i < cl->n; i++)
		sb_addf(&s, "%s%s:%s>%s", i ? "|" : "", cl->v[i].var,
			cl->v[i].old_val ? cl->v[i].old_val : "~",
			cl->v[i].new_val ? cl->v[i].new_val : "~");
	return sb_detach(&s);
}

static const struct change *find(const struct change_list *cl, const char *var)
{
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(cl->v[i].var, var))
			return &cl->v[i];
	return NULL;
}

/* The changes from -> to, rendered without the hunk values' hashes
 * ("+1 -1 lines #…" becomes "+1 -1 lines"). */
static char *changes(struct codediff *cd, const char *from, const char *to, struct change_list *cl)
{
	sb why = SB_INIT;
	int rc = codediff_changes(cd, from, to, cl, &why);
	sb_release(&why);
	if (rc)
		return xstrdup("(failed)");
	char *s = render(cl);
	for (char *h; (h = strstr(s, " #"));) /* drop " #xxxxxxxx" */
		memmove(h, h + 10, strlen(h + 10) + 1);
	return s;
}

static void expect_str(const char *id, const char *what, const char *want, const char *got)
{
	if (!check_report(id, what, !strcmp(want, got), __FILE__, __LINE__))
		printf("#   want '%s'\n#   got  '%s'\n", want, got);
}

static void test_experiment(struct codediff *cd, const char *base, const char *exp,
			    const char *repeat)
{
	struct change_list cl = CHANGE_LIST_INIT, rl = CHANGE_LIST_INIT;
	char *got = changes(cd, base, exp, &cl);
	expect_str("codediff-1.1", "constants through the registry, code.NAME, hunks by scope",
		   "code.EVAL_EVERY:100>200|code.kernel.c:main:~>+1 -1 lines|"
		   "code.prepare.py:tokenize:~>+1 -1 lines|code.train.py:GPT.forward:~>+1 -1 lines|"
		   "code.warmup:1>2|model.depth:8>10|model.window_pattern:SSSL>SSLL|"
		   "optim.adam_betas:(0.8, 0.95)>(0.9, 0.95)|optim.matrix_lr:0.04>0.05", got);
	const struct change *d = find(&cl, "model.depth");
	CHECK("codediff-1.2", d && d->span && !strcmp(d->span, "train.py:9: DEPTH = 10"));
	const struct change *f = find(&cl, "code.train.py:GPT.forward");
	if (!CHECK("codediff-1.3", f && f->span && !strcmp(f->span, "@@ -12,2 +15,2 @@ class GPT:")))
		printf("#   span '%s'\n", f && f->span ? f->span : "(none)");
	CHECK("codediff-1.4", f && f->new_val && strlen(f->new_val) == strlen("+1 -1 lines #12345678"));
	free(got);

	/* the same edit of forward, made again from the baseline in another commit */
	got = changes(cd, base, repeat, &rl);
	expect_str("codediff-2.1", "a repeat's changes", "code.train.py:GPT.forward:~>+1 -1 lines", got);
	const struct change *r = find(&rl, "code.train.py:GPT.forward");
	CHECK("codediff-2.2", f && r && !strcmp(f->new_val, r->new_val));
	free(got);
	change_list_release(&cl);
	change_list_release(&rl);
}

static void test_lookup(struct codediff *cd, const char *base, const char *exp)
{
	struct change_list cl = CHANGE_LIST_INIT;
	sb why = SB_INIT, ex = SB_INIT;
	char shortb[8], shorte[8];
	snprintf(shortb, sizeof(shortb), "%.7s", base);
	snprintf(shorte, sizeof(shorte), "%.7s", exp);
	CHECK("codediff-3.1", codediff_changes(cd, shortb, shorte, &cl, &why) == 0 && cl.n == 9);
	change_list_release(&cl);
	CHECK("codediff-3.2", codediff_changes(cd, base, base, &cl, &why) == 0 && cl.n == 0);
	CHECK("codediff-3.3", codediff_misses(cd, &ex) == 0 && ex.len == 0);

	CHECK("codediff-3.4", codediff_changes(cd, shortb, "deadbee", &cl, &why) == -1 && cl.n == 0);
	expect_str("codediff-3.5", "a missing commit's reason", "commit 'deadbee' is not in the repository",
		   why.buf);
	sb_reset(&why);
	CHECK("codediff-3.6", codediff_changes(cd, "0123abc", shorte, &cl, &why) == -1);
	expect_str("codediff-3.7", "a missing parent's reason",
		   "the parent's commit '0123abc' is not in the repository", why.buf);
	sb_reset(&why);
	CHECK("codediff-3.8", codediff_changes(cd, shortb, "HEAD", &cl, &why) == -1 &&
			      strstr(why.buf, "not a hash"));
	CHECK("codediff-3.9", codediff_misses(cd, &ex) == 3);
	expect_str("codediff-3.10", "the first miss is the example", "commit 'deadbee' is not in the repository",
		   ex.buf);
	sb_reset(&ex);
	CHECK("codediff-3.11", codediff_misses(cd, &ex) == 0 && ex.len == 0);
	sb_release(&why);
	sb_release(&ex);
}

/* Write a blob whose hash starts with the commit's first 4 hex digits
 * (hashes are computed, not written, until one does: ~65,536 tries), so
 * that prefix names two objects. */
static void shadow_prefix(const char *commit_hex)
{
	git_oid oid;
	char hex[41], data[32];
	for (int i = 0;; i++) {
		int n = snprintf(data, sizeof(data), "blob %d\n", i);
		git_odb_hash(&oid, data, (size_t)n, GIT_OBJECT_BLOB);
		git_oid_tostr(hex, sizeof(hex), &oid);
		if (!strncmp(hex, commit_hex, 4)) {
			git_blob_create_from_buffer(&oid, repo, data, (size_t)n);
			return;
		}
	}
}

static void test_ambiguous(const char *base, const char *exp)
{
	struct change_list cl = CHANGE_LIST_INIT;
	sb why = SB_INIT, err = SB_INIT;
	char four[5];
	snprintf(four, sizeof(four), "%.4s", base);
	shadow_prefix(base);
	struct codediff *cd = codediff_open(dir, "train.py", &err);
	CHECK("codediff-5.1", codediff_changes(cd, four, exp, &cl, &why) == -1 && cl.n == 0);
	CHECK("codediff-5.2", strstr(why.buf, "is an ambiguous prefix") != NULL);
	sb_reset(&why);
	CHECK("codediff-5.3", codediff_changes(cd, base, exp, &cl, &why) == 0 && cl.n == 9);
	codediff_free(cd);
	change_list_release(&cl);
	sb_release(&why);
	sb_release(&err);
}

static void expect_changes(struct codediff *cd, const char *id, const char *what, const char *from,
			   const char *to, const char *want)
{
	struct change_list cl = CHANGE_LIST_INIT;
	char *got = changes(cd, from, to, &cl);
	expect_str(id, what, want, got);
	free(got);
	change_list_release(&cl);
}

int main(void)
{
	if (!mkdtemp(dir))
		die("test: mkdtemp: %s", strerror(errno));
	git_libgit2_init();
	if (git_repository_init(&repo, dir, 1))
		die("test: git init: %s", git_error_last()->message);
	git_oid ob, oe, orp, om, oc, os1, os2;
	char base[41], exp[41], rep[41], moved[41], call[41], s1[41], s2[41];
	const struct file fb[] = { { "train.py", base_py }, { "prepare.py", prep_a }, { "kernel.c", kern_a } };
	const struct file fe[] = { { "train.py", exp_py }, { "prepare.py", prep_b }, { "kernel.c", kern_b } };
	commit(fb, 3, NULL, &ob, base);
	commit(fe, 3, &ob, &oe, exp);
	/* the forward edit alone, from the baseline */
	sb t = SB_INIT;
	sb_adds(&t, base_py);
	char *p = strstr(t.buf, "y = x * 2");
	p[8] = '3';
	const struct file fr[] = { { "train.py", t.buf }, { "prepare.py", prep_a }, { "kernel.c", kern_a } };
	commit(fr, 3, &ob, &orp, rep);
	/* constants in another order, one with other white space: same values */
	const struct file fm[] = { { "train.py",
		"import torch\nDEPTH = 8\nADAM_BETAS = ( 0.8,0.95 )\nASPECT_RATIO = 64\nWINDOW_PATTERN = \"SSSL\"\n"
		"MATRIX_LR = 0.04\nEVAL_EVERY = 100\nwarmup = 1\n\nclass GPT:\n    def forward(self, x):\n"
		"        # double it\n        y = x * 2\n        return y\n\nmodel = GPT()\n" },
		{ "prepare.py", prep_a }, { "kernel.c", kern_a } };
	commit(fm, 3, &ob, &om, moved);
	/* DEPTH from the environment: no constant any more */
	sb_reset(&t);
	sb_adds(&t, base_py);
	p = strstr(t.buf, "DEPTH = 8\n");
	sb c = SB_INIT;
	sb_add(&c, t.buf, (size_t)(p - t.buf));
	sb_adds(&c, "DEPTH = int(env(\"DEPTH\"))\n");
	sb_adds(&c, p + strlen("DEPTH = 8\n"));
	const struct file fc[] = { { "train.py", c.buf }, { "prepare.py", prep_a }, { "kernel.c", kern_a } };
	commit(fc, 3, &ob, &oc, call);
	/* a script under another name */
	const struct file f1[] = { { "src/model.py", "LAYERS = 4\nHEAD_DIM = 64\n" } };
	const struct file f2[] = { { "src/model.py", "LAYERS = 4\nHEAD_DIM = 128\n" } };
	commit(f1, 1, NULL, &os1, s1);
	commit(f2, 1, &os1, &os2, s2);

	sb err = SB_INIT;
	CHECK("codediff-0.1", codediff_open("/nonexistent/dir", "train.py", &err) == NULL &&
			      strstr(err.buf, "is not a git repository"));
	struct codediff *cd = codediff_open(dir, "train.py", &err);
	CHECK("codediff-0.2", cd != NULL);
	test_experiment(cd, base, exp, rep);
	test_lookup(cd, base, exp);
	expect_changes(cd, "codediff-4.1", "constants moved, white space changed: no change", base, moved, "");
	expect_changes(cd, "codediff-4.2", "a constant turned into a call",
		       base, call, "code.train.py:~>+1 -0 lines|model.depth:8>~");
	expect_changes(cd, "codediff-4.3", "the other script is hunks only here", s1, s2,
		       "code.src/model.py:~>+1 -1 lines");
	codediff_free(cd);
	cd = codediff_open(dir, "src/model.py", &err);
	expect_changes(cd, "codediff-4.4", "--script src/model.py", s1, s2, "model.head_dim:64>128");
	codediff_free(cd);
	test_ambiguous(base, exp);

	sb_release(&t);
	sb_release(&c);
	sb_release(&err);
	git_repository_free(repo);
	git_libgit2_shutdown();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return check_status();
}
