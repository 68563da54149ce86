/* test_pyconst.c — ledger/pyconst.c: top-level constants and scopes of a
 * Python file.
 * Test plan: an autoresearch-shaped train.py (docstring holding "X = 1" at
 * column 0, comments, imports, a class with methods, top-level script
 * code) read whole: which names are constants and their value text (numbers
 * evaluated, strings unquoted, tuples normalised, a tuple over four lines,
 * booleans, expressions of names kept as text); what is not a constant (a
 * call, a name bound twice, an augmented assignment, tuple targets,
 * indented assignments, a lambda); which lines are part of a constant; the
 * def/class enclosing a line, a blank line, a continuation line and a
 * decorator; and
 * py_value_text on the edge of each value form. */
#include "pyconst.h"
#include "util.h"
#include "check.h"

static const char train_py[] =
	"\"\"\"Pretraining script.\n"                   /* 1 */
	"DEPTH = 99 inside the docstring is no constant\n" /* 2 */
	"\"\"\"\n"                                       /* 3 */
	"import torch\n"                                 /* 4 */
	"from prepare import MAX_SEQ_LEN, TIME_BUDGET\n" /* 5 */
	"\n"                                             /* 6 */
	"# Model architecture\n"                         /* 7 */
	"ASPECT_RATIO = 64       # model_dim = depth * ASPECT_RATIO\n" /* 8 */
	"WINDOW_PATTERN = \"SSSL\"\n"                    /* 9 */
	"TOTAL_BATCH_SIZE = 2 ** 19\n"                   /* 10 */
	"MATRIX_LR = 0.04\n"                             /* 11 */
	"WEIGHT_DECAY = 2e-1\n"                          /* 12 */
	"ADAM_BETAS = (\n"                               /* 13 */
	"    0.8,   # beta1\n"                           /* 14 */
	"    0.95,\n"                                    /* 15 */
	")\n"                                            /* 16 */
	"DEPTH: int = 8\n"                               /* 17 */
	"USE_QK_NORM = True\n"                           /* 18 */
	"MODEL_DIM = DEPTH * ASPECT_RATIO\n"             /* 19 */
	"SEED = int(\"42\")\n"                           /* 20 */
	"LR = 0.1\n"                                     /* 21 */
	"LR = 0.2\n"                                     /* 22 */
	"STEPS = 10\n"                                   /* 23 */
	"STEPS += 1\n"                                   /* 24 */
	"A, B = 1, 2\n"                                  /* 25 */
	"ACT = lambda x: x\n"                            /* 26 */
	"\n"                                             /* 27 */
	"class GPT:\n"                                   /* 28 */
	"    @torch.compile\n"                          /* 29 */
	"    def forward(self, x,\n"                     /* 30 */
	"                y):\n"                          /* 31 */
	"        z = x + y\n"                            /* 32 */
	"\n"                                             /* 33 */
	"        return z\n"                             /* 34 */
	"\n"                                             /* 35 */
	"def main():\n"                                  /* 36 */
	"    LOCAL = 1\n"                                /* 37 */
	"model = GPT()\n"                                /* 38 */
	"step = 0\n";                                    /* 39 */

static void expect_const(const struct py_source *s, const char *id, const char *name,
			 const char *value)
{
	const struct py_const *c = py_source_const(s, name);
	if (!check_report(id, name, value ? c && !strcmp(c->value, value) : !c, __FILE__, __LINE__))
		printf("#   want %s, got %s\n", value ? value : "(no constant)", c ? c->value : "(no constant)");
}

static void expect_scope(const struct py_source *s, const char *id, int line, const char *want)
{
	sb got = SB_INIT;
	py_scope(s, line, &got);
	if (!check_report(id, want, !strcmp(got.buf, want), __FILE__, __LINE__))
		printf("#   line %d: got '%s'\n", line, got.buf);
	sb_release(&got);
}

static void expect_value(const char *id, const char *expr, const char *want)
{
	sb got = SB_INIT;
	int rc = py_value_text(expr, strlen(expr), &got);
	int ok = want ? rc == 0 && !strcmp(got.buf, want) : rc == -1;
	if (!check_report(id, expr, ok, __FILE__, __LINE__))
		printf("#   want %s, got rc %d '%s'\n", want ? want : "(no constant)", rc, got.buf);
	sb_release(&got);
}

static void test_constants(void)
{
	struct py_source s;
	py_source_parse(&s, train_py, strlen(train_py));
	CHECK("pyconst-1.1", s.nlines == 39);
	expect_const(&s, "pyconst-1.2", "ASPECT_RATIO", "64");
	expect_const(&s, "pyconst-1.3", "WINDOW_PATTERN", "SSSL");
	expect_const(&s, "pyconst-1.4", "TOTAL_BATCH_SIZE", "524288");
	expect_const(&s, "pyconst-1.5", "MATRIX_LR", "0.04");
	expect_const(&s, "pyconst-1.6", "WEIGHT_DECAY", "0.2");
	expect_const(&s, "pyconst-1.7", "ADAM_BETAS", "(0.8, 0.95)");
	expect_const(&s, "pyconst-1.8", "DEPTH", "8"); /* annotated; not the docstring's 99 */
	expect_const(&s, "pyconst-1.9", "USE_QK_NORM", "true");
	expect_const(&s, "pyconst-1.10", "MODEL_DIM", "DEPTH * ASPECT_RATIO");
	expect_const(&s, "pyconst-1.11", "SEED", NULL);  /* a call */
	expect_const(&s, "pyconst-1.12", "LR", NULL);    /* bound twice */
	expect_const(&s, "pyconst-1.13", "STEPS", NULL); /* augmented */
	expect_const(&s, "pyconst-1.14", "A", NULL);     /* tuple target */
	expect_const(&s, "pyconst-1.15", "ACT", NULL);   /* lambda */
	expect_const(&s, "pyconst-1.16", "LOCAL", NULL); /* indented */
	expect_const(&s, "pyconst-1.17", "model", NULL); /* a call */
	expect_const(&s, "pyconst-1.18", "step", "0");
	expect_const(&s, "pyconst-1.19", "MAX_SEQ_LEN", NULL); /* imported, not assigned */
	CHECK("pyconst-1.20", s.nc == 10); /* the nine above with values, and step */
	const struct py_const *b = py_source_const(&s, "ADAM_BETAS");
	CHECK("pyconst-1.21", b && b->first == 13 && b->last == 16);
	CHECK("pyconst-1.22", b && !strcmp(b->text, "ADAM_BETAS = (0.8, 0.95,)"));
	CHECK("pyconst-1.23", s.line[14].in_const && s.line[16].in_const && s.line[14].cont);
	CHECK("pyconst-1.24", !s.line[2].in_const && s.line[2].cont); /* inside the docstring */
	CHECK("pyconst-1.25", !s.line[20].in_const && !s.line[22].in_const && s.line[11].in_const);
	CHECK("pyconst-1.26", s.line[7].blank && !s.line[8].blank && s.line[32].indent == 8);
	const struct py_const *d = py_source_const(&s, "DEPTH");
	CHECK("pyconst-1.27", d && !strcmp(d->text, "DEPTH: int = 8") && d->first == 17);

	expect_scope(&s, "pyconst-2.1", 32, "GPT.forward");
	expect_scope(&s, "pyconst-2.2", 31, "GPT.forward"); /* a continuation of the def line */
	expect_scope(&s, "pyconst-2.3", 30, "GPT.forward"); /* the def line itself */
	expect_scope(&s, "pyconst-2.4", 33, "GPT.forward"); /* blank, before more of the body */
	expect_scope(&s, "pyconst-2.5", 29, "GPT.forward"); /* its decorator */
	expect_scope(&s, "pyconst-2.10", 28, "GPT");
	expect_scope(&s, "pyconst-2.6", 37, "main");
	expect_scope(&s, "pyconst-2.7", 38, "");
	expect_scope(&s, "pyconst-2.8", 11, "");
	expect_scope(&s, "pyconst-2.9", 99, "");
	py_source_release(&s);
}

static void test_values(void)
{
	expect_value("pyconst-3.1", "2**19", "524288");
	expect_value("pyconst-3.2", "1e-3", "0.001");
	expect_value("pyconst-3.3", "3 * 2 ** 10 // 4", "768");
	expect_value("pyconst-3.4", "-2**2", "-4");
	expect_value("pyconst-3.5", "7 / 2", "3.5");
	expect_value("pyconst-3.6", "1_000_000", "1000000");
	expect_value("pyconst-3.7", "0x10", "16");
	expect_value("pyconst-3.8", "0.5 * 2", "1");
	expect_value("pyconst-3.9", "( 0.8 ,0.95 )", "(0.8, 0.95)");
	expect_value("pyconst-3.10", "0.8, 0.95", "(0.8, 0.95)");
	expect_value("pyconst-3.11", "(1,)", "(1,)");
	expect_value("pyconst-3.12", "(8)", "8");
	expect_value("pyconst-3.13", "[2**3, 1e-1, True]", "[8, 0.1, true]");
	expect_value("pyconst-3.14", "'SSSL'", "SSSL");
	expect_value("pyconst-3.15", "f\"{x}\"", "f\"{x}\"");
	expect_value("pyconst-3.16", "None", "null");
	expect_value("pyconst-3.29", "rb'\\x00'", "rb'\\x00'");
	expect_value("pyconst-3.30", "r'a\\b'", "r'a\\b'");
	expect_value("pyconst-3.17", "torch.bfloat16", "torch.bfloat16");
	expect_value("pyconst-3.18", "{'a':1,  'b' : 2}", "{'a': 1, 'b': 2}");
	expect_value("pyconst-3.19", "8 if  FAST else 4", "8 if FAST else 4");
	expect_value("pyconst-3.20", "PATTERNS [ 'S' ]", "PATTERNS['S']");
	expect_value("pyconst-3.21", "1 / 0", "1 / 0"); /* not evaluated, kept */
	expect_value("pyconst-3.22", "2 ** 99", "2 ** 99"); /* beyond 64 bits: kept */
	expect_value("pyconst-3.23", "max(1, 2)", NULL);
	expect_value("pyconst-3.24", "[i for i in X]", NULL);
	expect_value("pyconst-3.25", "", NULL);
	expect_value("pyconst-3.26", "(x := 3)", NULL);
	expect_value("pyconst-3.27", "1; B = 2", NULL);
	expect_value("pyconst-3.28", "-(DEPTH - 1)", "-(DEPTH - 1)");
}

int main(void)
{
	test_constants();
	test_values();
	return check_status();
}
