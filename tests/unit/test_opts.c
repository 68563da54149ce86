/* test_opts.c — common/opts.c, the option tables: parsing and the text
 * generated from them. Test plan: every valued type read the same from
 * "--opt V" and "--opt=V"; "--" ends the options; missing values, a flag
 * given a value, out-of-range and unparsable numbers, bad choices and
 * unknown options are errors whose exact message is checked (with a did-
 * you-mean from suggest.h, global options included); OPT_OWN values pass
 * unchecked; the synopsis wraps at 80 columns; --help lists every option
 * and the man page escapes what roff would misread. */
#include "opts.h"
#include "sb.h"
#include "util.h"
#include "check.h"

enum { O_LIMIT = 1, O_ALL, O_RATE, O_WHEN, O_ORDER, O_RAW, G_DB = 900 };
static const struct opt test_opts[] = {
	{ .name = "--limit", .id = O_LIMIT, .type = OPT_INT, .value = "N", .lo = 1, .hi = 100,
	  .help = "keep N", .bad = "is not a count" },
	{ .name = "--all", .id = O_ALL, .help = "every row" },
	{ .name = "--rate", .id = O_RATE, .type = OPT_DOUBLE, .value = "X", .lo = 0, .hi = 1,
	  .flags = OPT_ABOVE_LO, .help = "a rate" },
	{ .name = "--when", .id = O_WHEN, .type = OPT_DATE, .value = "TIME", .help = "a time" },
	{ .name = "--order", .id = O_ORDER, .type = OPT_STRING, .value = "O", .choices = "time|metric",
	  .help = "the order\nsecond line" },
	{ .name = "--raw", .id = O_RAW, .type = OPT_INT, .value = "V", .flags = OPT_OWN, .help = "raw" },
};
static const struct opt_group test_group = { NULL, NULL, test_opts, ARRAY_SIZE(test_opts) };
static const struct opt glob_opts[] = {
	{ .name = "--db", .id = G_DB, .type = OPT_STRING, .value = "FILE", .help = "the ledger" },
};
static const struct opt_group glob_group = { "Global", NULL, glob_opts, ARRAY_SIZE(glob_opts) };
static const struct opt_cmd top = { .args = "COMMAND", .groups = { &glob_group } };
static const struct opt_cmd cmd = { .name = "try", .args = "FILE...", .summary = "try it",
				    .about = ".starts with a dot\n", .groups = { &test_group } };
static const struct opt_cmd *const cmds[] = { &cmd };
static const struct opt_prog prog = { .name = "prog", .man_name = "prog", .summary = "a test",
				      .top = &top, .cmds = cmds, .ncmds = 1 };

/* stderr while f runs, into *msg (caller frees). */
static char *errbuf;
static size_t errlen;
static FILE *saved;
static void capture(void)
{
	saved = stderr;
	stderr = open_memstream(&errbuf, &errlen);
}
static char *release(void)
{
	fclose(stderr);
	stderr = saved;
	return errbuf;
}

/* Parse words (NULL-terminated, after argv[0] "try"): the last result, the
 * parser as it was then, and what was said on stderr. */
static int parse(struct opt_parser *p, char **words, char **msg)
{
	static char *argv[16];
	int argc = 1, r, last = OPTS_END;
	argv[0] = "try";
	while (words[argc - 1])
		argv[argc] = words[argc - 1], argc++;
	struct opt_parser q;
	capture();
	opts_begin(&q, &prog, &cmd, argc, argv);
	while ((r = opts_next(&q)) != OPTS_END) {
		last = r;
		*p = q; /* as it was after the last result */
		if (r == OPTS_ERROR)
			break;
	}
	*msg = release();
	return last;
}

#define PARSE(...) parse(&p, (char *[]){ __VA_ARGS__, NULL }, &msg)

static void test_forms(void)
{
	struct opt_parser p;
	char *msg;
	CHECK("opts-1.1", PARSE("--limit", "7") == O_LIMIT && p.num == 7 && !*msg);
	free(msg);
	CHECK("opts-1.2", PARSE("--limit=7") == O_LIMIT && p.num == 7 && !*msg);
	free(msg);
	CHECK("opts-1.3", PARSE("--rate=0.5") == O_RATE && p.num == 0.5);
	free(msg);
	CHECK("opts-1.4", PARSE("--when", "2026-03-16T04:00:00Z") == O_WHEN && p.num == 1773633600.0);
	free(msg);
	CHECK("opts-1.5", PARSE("--order=metric") == O_ORDER && !strcmp(p.val, "metric"));
	free(msg);
	CHECK("opts-1.6", PARSE("--all") == O_ALL && !p.val);
	free(msg);
	CHECK("opts-1.7", PARSE("--", "--all") == OPTS_ARG && !strcmp(p.val, "--all"));
	free(msg);
	CHECK("opts-1.8", PARSE("-") == OPTS_ARG && !strcmp(p.val, "-"));
	free(msg);
	CHECK("opts-1.9", PARSE("--raw=abc") == O_RAW && !strcmp(p.val, "abc") && !*msg);
	free(msg);
	CHECK("opts-1.10", PARSE("--db=x.db") == G_DB && !strcmp(p.val, "x.db"));
	free(msg);
	CHECK("opts-1.11", PARSE("--order=") == OPTS_ERROR); /* an empty value is a value */
	free(msg);
}

static void test_errors(void)
{
	struct opt_parser p;
	char *msg;
	CHECK("opts-2.1", PARSE("--limit") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: option '--limit' needs a value\nrunledger: hint: write --limit N\n"));
	free(msg);
	CHECK("opts-2.2", PARSE("--limit=0") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: --limit '0' is not a count\n"));
	free(msg);
	CHECK("opts-2.3", PARSE("--limit", "7x") == OPTS_ERROR && strstr(msg, "'7x' is not a count"));
	free(msg);
	CHECK("opts-2.4", PARSE("--rate=0") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: --rate '0' is not a number in range\n"));
	free(msg);
	CHECK("opts-2.5", PARSE("--rate=nan") == OPTS_ERROR);
	free(msg);
	CHECK("opts-2.6", PARSE("--when", "yesterday") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: --when 'yesterday' is not an ISO-8601 time\n"));
	free(msg);
	CHECK("opts-2.7", PARSE("--order", "size") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: --order 'size' is not one of time, metric\n"));
	free(msg);
	CHECK("opts-2.8", PARSE("--all=yes") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: option '--all' takes no value\n"));
	free(msg);
	CHECK("opts-2.9", PARSE("--lmit", "3") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: unknown option '--lmit'\nrunledger: hint: did you mean '--limit'?\n"));
	free(msg);
	CHECK("opts-2.10", PARSE("--bd=x") == OPTS_ERROR && strstr(msg, "did you mean '--db'?"));
	free(msg);
	CHECK("opts-2.11", PARSE("--frobnicate") == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: unknown option '--frobnicate'\nrunledger: hint: run 'prog try --help'\n"));
	free(msg);
	CHECK("opts-2.12", PARSE("-x") == OPTS_ERROR && strstr(msg, "unknown option '-x'"));
	free(msg);
	/* opts_check: the same verdict, nothing acted on */
	char *bad[] = { "try", "--all", "--lmit", "3", NULL };
	capture();
	int rc = opts_check(&prog, &cmd, 4, bad);
	msg = release();
	CHECK("opts-2.13", rc == OPTS_ERROR && strstr(msg, "did you mean '--limit'?"));
	free(msg);
}

static char *text_of(void (*f)(FILE *, const struct opt_prog *, const struct opt_cmd *),
		     const struct opt_cmd *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	f(m, &prog, c);
	fclose(m);
	return buf;
}

static void test_text(void)
{
	char *help = text_of(opts_print_help, &cmd);
	CHECK("opts-3.1", str_starts_with(help, "usage: prog try [--limit N] [--all] [--rate X] [--when TIME]\n"
						"                [--order time|metric] [--raw V] FILE...\n"));
	CHECK("opts-3.2", strstr(help, "\n  --order time|metric\n") == NULL); /* fits its column */
	CHECK("opts-3.3", strstr(help, "  --order time|metric  the order\n"
				       "                       second line\n") != NULL);
	CHECK("opts-3.4", strstr(help, "Global options: --db FILE ('prog --help')") != NULL);
	free(help);
	char *top_help = text_of(opts_print_help, NULL);
	CHECK("opts-3.5", strstr(top_help, "Commands:\n  try  try it\n") != NULL);
	free(top_help);
	char *man = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&man, &len);
	opts_print_man(m, &prog, NULL);
	fclose(m);
	CHECK("opts-3.6", strstr(man, "\n\\&.starts with a dot\n") != NULL); /* not a roff request */
	CHECK("opts-3.7", strstr(man, ".BI \"\\-\\-limit \" \"N\"\n") != NULL);
	CHECK("opts-3.8", strstr(man, ".SS \"prog try\"\n") != NULL);
	free(man);
}

/* A program that reads OPT_DATE values itself (opt_prog.parse_date):
 * its reader decides, and a value it refuses is the option's error. */
static int parse_noon(const char *s, double *t)
{
	if (strcmp(s, "noon"))
		return -1;
	*t = 43200;
	return 0;
}

static void test_own_dates(void)
{
	struct opt_prog own = prog;
	own.parse_date = parse_noon;
	char *argv[] = { "try", "--when", "noon", "--when", "2026-03-16T04:00:00Z", NULL };
	struct opt_parser q;
	capture();
	opts_begin(&q, &own, &cmd, 5, argv);
	int r1 = opts_next(&q);
	double t1 = q.num;
	int r2 = opts_next(&q);
	char *msg = release();
	CHECK("opts-4.1", r1 == O_WHEN && t1 == 43200);
	CHECK("opts-4.2", r2 == OPTS_ERROR &&
	      !strcmp(msg, "runledger: try: --when '2026-03-16T04:00:00Z' is not a date\n"));
	free(msg);
}

int main(void)
{
	test_forms();
	test_errors();
	test_own_dates();
	test_text();
	return check_status();
}
