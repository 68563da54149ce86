/* opts.c — option tables: parsing, help, man page, completion; see opts.h. */
#include "opts.h"
#include "sb.h"
#include "suggest.h"
#include "util.h"

/* Answered by every program and command, listed in the program's help. */
static const struct opt help_opts[] = {
	{ .name = "--help", .id = 1, .help = "this help; 'PROG help COMMAND' for a command's" },
	{ .name = "--version", .id = 2, .help = "the program's name and version" },
};

/* --help of a program without commands */
static const struct opt help_alone = { .name = "--help", .id = 1, .help = "this help" };

/* Set while the man page is written: its synopsis says the installed name. */
static const char *as_override;

const char *opts_prog_name(const struct opt_prog *prog)
{
	if (as_override)
		return as_override;
	const char *as = getenv("RUNLEDGER_AS");
	return as && *as ? as : prog->name;
}

/* ---- lookup ---------------------------------------------------------- */

typedef int (*opt_visit)(const struct opt *o, void *ctx);

/* Every option of cmd, then the program's global ones; stops when visit
 * returns nonzero. */
static int each_opt(const struct opt_prog *prog, const struct opt_cmd *cmd, opt_visit visit, void *ctx)
{
	const struct opt_cmd *cmds[2] = { cmd, prog ? prog->top : NULL };
	for (int c = 0; c < 2; c++) {
		if (!cmds[c] || (c == 1 && cmds[1] == cmd))
			continue;
		for (int g = 0; g < OPTS_MAX_GROUPS && cmds[c]->groups[g]; g++) {
			const struct opt_group *grp = cmds[c]->groups[g];
			for (size_t k = 0; k < grp->n; k++)
				if (visit(&grp->opts[k], ctx))
					return 1;
		}
	}
	return 0;
}

struct find_ctx {
	const char *name;
	size_t len;
	const struct opt *found;
};

static int find_visit(const struct opt *o, void *ctx)
{
	struct find_ctx *f = ctx;
	if (strlen(o->name) != f->len || strncmp(o->name, f->name, f->len))
		return 0;
	f->found = o;
	return 1;
}

static const struct opt *find_n(const struct opt_prog *prog, const struct opt_cmd *cmd,
				const char *name, size_t len)
{
	struct find_ctx f = { name, len, NULL };
	each_opt(prog, cmd, find_visit, &f);
	return f.found;
}

struct names_ctx {
	const char **v;
	size_t n, cap;
};

static int names_visit(const struct opt *o, void *ctx)
{
	struct names_ctx *c = ctx;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	c->v[c->n++] = o->name;
	return 0;
}

/* The hint after an unknown option: the closest known one, or --help. */
static void hint_unknown_option(const struct opt_parser *p, const char *word, size_t len)
{
	struct names_ctx c = { 0 };
	each_opt(p->prog, p->cmd, names_visit, &c);
	for (size_t k = 0; k < ARRAY_SIZE(help_opts); k++)
		names_visit(&help_opts[k], &c);
	char *w = xstrndup(word, len);
	const char *best = suggest_closest(w, c.v, c.n);
	const char *prog = opts_prog_name(p->prog);
	if (best)
		rl_hint("did you mean '%s'?", best);
	else if (p->cmd && p->cmd->name)
		rl_hint("run '%s %s --help'", prog, p->cmd->name);
	else
		rl_hint("run '%s --help'", prog);
	free(w);
	free(c.v);
}

/* ---- parsing --------------------------------------------------------- */

void opts_begin(struct opt_parser *p, const struct opt_prog *prog, const struct opt_cmd *cmd,
		int argc, char **argv)
{
	memset(p, 0, sizeof(*p));
	p->prog = prog;
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	p->i = 1;
}

/* The command's name for messages, or NULL for the program's own options. */
static const char *who(const struct opt_parser *p)
{
	return p->cmd && p->cmd->name ? p->cmd->name : NULL;
}

static int value_error(const struct opt_parser *p, const char *tail)
{
	const struct opt *o = p->opt;
	if (who(p))
		rl_error("%s: %s '%s' %s", who(p), o->name, p->val, o->bad ? o->bad : tail);
	else
		rl_error("%s '%s' %s", o->name, p->val, o->bad ? o->bad : tail);
	if (o->hint)
		rl_hint("%s", o->hint);
	return OPTS_ERROR;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *c = choices; *c;) {
		size_t len = strcspn(c, "|");
		if (len == n && !strncmp(c, v, n))
			return 1;
		c += len + (c[len] == '|');
	}
	return 0;
}

static int in_range(const struct opt *o, double x)
{
	if (o->lo == 0 && o->hi == 0)
		return 1;
	if (o->flags & OPT_ABOVE_LO)
		return x > o->lo && x <= o->hi;
	return x >= o->lo && x <= o->hi;
}

/* Check p->val against p->opt's type; set p->num. */
static int check_value(struct opt_parser *p)
{
	const struct opt *o = p->opt;
	long l;
	if (o->flags & OPT_OWN)
		return o->id;
	switch (o->type) {
	case OPT_INT:
		if (parse_long(p->val, &l) || !in_range(o, (double)l))
			return value_error(p, "is not a whole number in range");
		p->num = (double)l;
		break;
	case OPT_DOUBLE:
		if (parse_double(p->val, &p->num) || !isfinite(p->num) || !in_range(o, p->num))
			return value_error(p, "is not a number in range");
		break;
	case OPT_DATE:
		if (p->prog && p->prog->parse_date) {
			if (p->prog->parse_date(p->val, &p->num))
				return value_error(p, "is not a date");
		} else if (parse_iso_utc(p->val, &p->num)) {
			return value_error(p, "is not an ISO-8601 time");
		}
		break;
	default:
		break;
	}
	if (o->choices && !choice_ok(o->choices, p->val)) {
		sb list = SB_INIT; /* "time|metric" as "one of time, metric" */
		sb_adds(&list, "is not one of ");
		for (const char *c = o->choices; *c; c++)
			sb_adds(&list, *c == '|' ? ", " : (char[]){ *c, 0 });
		int rc = value_error(p, list.buf);
		sb_release(&list);
		return rc;
	}
	return o->id;
}

int opts_next(struct opt_parser *p)
{
	p->opt = NULL;
	p->val = NULL;
	p->num = 0;
	if (p->i >= p->argc)
		return OPTS_END;
	const char *a = p->argv[p->i++];
	if (!p->literal && !strcmp(a, "--")) {
		p->literal = 1;
		return opts_next(p);
	}
	if (p->literal || a[0] != '-' || !a[1]) {
		p->val = a;
		return OPTS_ARG;
	}
	const char *eq = strchr(a, '=');
	size_t len = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
	const struct opt *o = find_n(p->prog, p->cmd, a, len);
	const char *prefix = who(p) ? who(p) : "";
	const char *sep = who(p) ? ": " : "";
	if (!o) {
		rl_error("%s%sunknown option '%.*s'", prefix, sep, (int)len, a);
		hint_unknown_option(p, a, len);
		return OPTS_ERROR;
	}
	p->opt = o;
	if (o->type == OPT_FLAG) {
		if (eq && a[1] == '-') {
			rl_error("%s%soption '%s' takes no value", prefix, sep, o->name);
			return OPTS_ERROR;
		}
		return o->id;
	}
	if (eq && a[1] == '-') {
		p->val = eq + 1;
	} else if (p->i < p->argc) {
		p->val = p->argv[p->i++];
	} else {
		rl_error("%s%soption '%s' needs a value", prefix, sep, o->name);
		if (o->value)
			rl_hint("write %s %s", o->name, o->choices ? o->choices : o->value);
		return OPTS_ERROR;
	}
	return check_value(p);
}

int opts_check(const struct opt_prog *prog, const struct opt_cmd *cmd, int argc, char **argv)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, prog, cmd, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END)
		if (r == OPTS_ERROR)
			return OPTS_ERROR;
	return 0;
}

int opts_take_global(const struct opt_prog *prog, int *argc, char **argv,
		     int (*take)(const struct opt_parser *p, void *ctx), void *ctx)
{
	struct opt_parser p;
	int out = 1;
	opts_begin(&p, prog, prog->top, *argc, argv);
	while (p.i < *argc) {
		const char *a = argv[p.i];
		if (!strcmp(a, "--")) {
			while (p.i < *argc)
				argv[out++] = argv[p.i++];
			break;
		}
		const char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		int global = a[0] == '-' && a[1] == '-' && find_n(NULL, prog->top, a, len);
		if (!global) {
			argv[out++] = argv[p.i++];
			continue;
		}
		int r = opts_next(&p);
		if (r == OPTS_ERROR || take(&p, ctx))
			return OPTS_ERROR;
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

const struct opt_cmd *opts_command(const struct opt_prog *prog, const char *word, int complain)
{
	const char **names = xcalloc(prog->ncmds, sizeof(*names));
	const struct opt_cmd *found = NULL;
	for (size_t i = 0; i < prog->ncmds; i++) {
		names[i] = prog->cmds[i]->name;
		if (!strcmp(word, names[i]))
			found = prog->cmds[i];
	}
	if (!found && complain) {
		const char *best = suggest_closest(word, names, prog->ncmds);
		const char *name = opts_prog_name(prog);
		rl_error("'%s' is not a %s command", word, name);
		if (best)
			rl_hint("did you mean '%s'? ('%s --help' lists the commands)", best, name);
		else
			rl_hint("run '%s --help' for the list", name);
	}
	free(names);
	return found;
}

/* ---- help ------------------------------------------------------------ */

/* "--name VALUE" as help shows it; the choices stand for VALUE in the
 * synopsis, and in the option list when they are short. */
static void label(sb *s, const struct opt *o, int in_synopsis)
{
	sb_adds(s, o->name);
	if (o->type == OPT_FLAG)
		return;
	const char *v = o->value ? o->value : "VALUE";
	if (o->choices && strlen(o->choices) <= (in_synopsis ? 24 : 12))
		v = o->choices;
	sb_addf(s, " %s", v);
}

static void opt_label(sb *s, const struct opt *o)
{
	label(s, o, 0);
}

/* Characters, not bytes, of UTF-8 text: what a terminal column counts. */
static int text_width(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Synopsis words of cmd (options, group names, args), each one string. */
static void synopsis_words(const struct opt_cmd *cmd, sb *words)
{
	for (int g = 0; g < OPTS_MAX_GROUPS && cmd->groups[g]; g++) {
		const struct opt_group *grp = cmd->groups[g];
		if (grp->synopsis) {
			sb_addf(words, "[%s]", grp->synopsis);
			sb_addc(words, '\0');
			continue;
		}
		for (size_t k = 0; k < grp->n; k++) {
			const struct opt *o = &grp->opts[k];
			int req = o->flags & OPT_REQUIRED;
			if (!req)
				sb_addc(words, '[');
			label(words, o, 1);
			if (!req)
				sb_addc(words, ']');
			sb_addc(words, '\0');
		}
	}
	if (cmd->args) {
		sb_adds(words, cmd->args);
		sb_addc(words, '\0');
	}
}

/* The command line a user types for cmd: "ledger query" or "ledger". */
static void command_line(sb *s, const char *prog, const struct opt_cmd *cmd)
{
	sb_adds(s, prog);
	if (cmd && cmd->name)
		sb_addf(s, " %s", cmd->name);
}

/* The synopsis, wrapped at width columns. */
static void print_usage_width(FILE *out, const struct opt_prog *prog, const struct opt_cmd *cmd,
			      size_t width)
{
	const struct opt_cmd *c = cmd ? cmd : prog->top;
	sb head = SB_INIT;
	command_line(&head, opts_prog_name(prog), cmd);
	if (c->usage) { /* hand-written alternatives, one a line */
		const char *lead = "usage: ";
		for (const char *l = c->usage; *l;) {
			size_t len = strcspn(l, "\n");
			fprintf(out, "%s%s %.*s\n", lead, head.buf, (int)len, l);
			lead = "   or: ";
			l += len + (l[len] == '\n');
		}
		sb_release(&head);
		return;
	}
	sb words = SB_INIT;
	synopsis_words(c, &words);
	size_t indent = strlen("usage: ") + head.len + 1, col = indent;
	fprintf(out, "usage: %s", head.buf);
	for (size_t at = 0; at < words.len; at += strlen(words.buf + at) + 1) {
		const char *w = words.buf + at;
		size_t n = (size_t)text_width(w);
		if (col > indent && col + 1 + n > width) {
			fprintf(out, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		fprintf(out, " %s", w);
		col += 1 + n;
	}
	fputc('\n', out);
	sb_release(&words);
	sb_release(&head);
}

void opts_print_usage(FILE *out, const struct opt_prog *prog, const struct opt_cmd *cmd)
{
	print_usage_width(out, prog, cmd, 80);
}

/* Lines of text, each prefixed by indent spaces but the first. */
static void print_lines(FILE *out, const char *text, int indent)
{
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		fprintf(out, "%.*s\n", (int)len, l);
		l += len + (l[len] == '\n');
		if (*l)
			fprintf(out, "%*s", indent, "");
	}
}

static int label_width(const struct opt_cmd *c)
{
	int w = 0;
	for (int g = 0; g < OPTS_MAX_GROUPS && c->groups[g]; g++)
		for (size_t k = 0; k < c->groups[g]->n; k++) {
			sb s = SB_INIT;
			opt_label(&s, &c->groups[g]->opts[k]);
			if (text_width(s.buf) > w && text_width(s.buf) <= 20)
				w = text_width(s.buf);
			sb_release(&s);
		}
	return w;
}

static void print_opt(FILE *out, const struct opt *o, int width, const char *prog)
{
	sb s = SB_INIT;
	opt_label(&s, o);
	int pad = width - text_width(s.buf);
	if (pad >= 0) /* a longer label has its help on the next line */
		fprintf(out, "  %s%*s  ", s.buf, pad, "");
	else
		fprintf(out, "  %s\n%*s", s.buf, width + 4, "");
	/* PROG in a help text is the program's name as typed */
	const char *h = o->help;
	sb text = SB_INIT;
	for (const char *m; (m = strstr(h, "PROG")); h = m + 4) {
		sb_add(&text, h, (size_t)(m - h));
		sb_adds(&text, prog);
	}
	sb_adds(&text, h);
	print_lines(out, text.buf, width + 4);
	sb_release(&text);
	sb_release(&s);
}

static void print_groups(FILE *out, const struct opt_cmd *c, const char *prog, int width)
{
	const char *last = NULL;
	for (int g = 0; g < OPTS_MAX_GROUPS && c->groups[g]; g++) {
		const struct opt_group *grp = c->groups[g];
		const char *title = grp->title ? grp->title : "Options";
		if (!last || strcmp(title, last)) /* untitled groups share one heading */
			fprintf(out, "\n%s:\n", title);
		last = title;
		for (size_t k = 0; k < grp->n; k++)
			print_opt(out, &grp->opts[k], width, prog);
	}
}

void opts_print_help(FILE *out, const struct opt_prog *prog, const struct opt_cmd *cmd)
{
	const char *name = opts_prog_name(prog);
	const struct opt_cmd *c = cmd ? cmd : prog->top;
	opts_print_usage(out, prog, cmd);
	if (c->about) {
		fputc('\n', out);
		fputs(c->about, out);
	}
	int width = label_width(c);
	if (width < 14)
		width = 14;
	print_groups(out, c, name, width);
	if (!cmd) {
		for (size_t k = 0; k < ARRAY_SIZE(help_opts); k++)
			print_opt(out, k || prog->ncmds ? &help_opts[k] : &help_alone, width, name);
	} else if (prog->top && prog->top->groups[0]) {
		/* the global options, by name: the program's help explains them */
		sb s = SB_INIT;
		for (int g = 0; g < OPTS_MAX_GROUPS && prog->top->groups[g]; g++)
			for (size_t k = 0; k < prog->top->groups[g]->n; k++) {
				sb_adds(&s, s.len ? ", " : "");
				opt_label(&s, &prog->top->groups[g]->opts[k]);
			}
		fprintf(out, "\nGlobal options: %s ('%s --help')\n", s.buf, name);
		sb_release(&s);
	}
	if (c->notes) {
		fputc('\n', out);
		fputs(c->notes, out);
	}
	if (!cmd && prog->ncmds) {
		int w = 0;
		for (size_t i = 0; i < prog->ncmds; i++)
			if ((int)strlen(prog->cmds[i]->name) > w)
				w = (int)strlen(prog->cmds[i]->name);
		fputs("\nCommands:\n", out);
		for (size_t i = 0; i < prog->ncmds; i++)
			fprintf(out, "  %-*s %s\n", w + 1, prog->cmds[i]->name, prog->cmds[i]->summary);
	}
}

/* ---- man page -------------------------------------------------------- */

/* Text for roff: backslashes and hyphens escaped, a line that would start
 * with '.' or '\'' made literal, "PROG" the installed name. */
static void roff_text(FILE *out, const char *s, const char *prog, int in_opt)
{
	int bol = 1;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		bol = *s == '\n';
		if (str_starts_with(s, "PROG")) {
			roff_text(out, prog, "", in_opt);
			s += 3;
		} else if ((unsigned char)*s >= 0xC0) { /* UTF-8: groff's \[uXXXX] */
			unsigned cp = 0, more = (unsigned char)*s >= 0xF0 ? 3 : (unsigned char)*s >= 0xE0 ? 2 : 1;
			cp = (unsigned char)*s & (0x3F >> more);
			for (; more && (s[1] & 0xC0) == 0x80; more--)
				cp = cp << 6 | (*++s & 0x3F);
			fprintf(out, "\\[u%04X]", cp);
		} else if (*s == '\\') {
			fputs("\\e", out);
		} else if (*s == '-') {
			fputs("\\-", out);
		} else {
			fputc(*s, out);
		}
	}
}

/* Prose as paragraphs: a blank line starts a new one; lines starting with
 * a space keep their layout (lists, examples). */
static void roff_prose(FILE *out, const char *text, const char *prog)
{
	int in_nf = 0;
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		char *line = xstrndup(l, len);
		if (!len) {
			if (in_nf)
				fputs(".fi\n", out);
			in_nf = 0;
			fputs(".PP\n", out);
		} else {
			if (line[0] == ' ' && !in_nf) {
				fputs(".nf\n", out);
				in_nf = 1;
			} else if (line[0] != ' ' && in_nf) {
				fputs(".fi\n", out);
				in_nf = 0;
			}
			roff_text(out, line, prog, 0);
			fputc('\n', out);
		}
		free(line);
		l += len + (l[len] == '\n');
	}
	if (in_nf)
		fputs(".fi\n", out);
}

static void roff_opt(FILE *out, const struct opt *o, const char *prog)
{
	fputs(o->type == OPT_FLAG ? ".TP\n.B " : ".TP\n.BI \"", out);
	roff_text(out, o->name, prog, 1);
	if (o->type != OPT_FLAG) { /* the value as the help's option list shows it */
		sb l = SB_INIT;
		opt_label(&l, o);
		fputs(" \" \"", out);
		roff_text(out, l.buf + strlen(o->name) + 1, prog, 1);
		fputc('"', out);
		sb_release(&l);
	}
	fputc('\n', out);
	sb h = SB_INIT;
	for (const char *c = o->help; *c; c++)
		sb_addc(&h, *c == '\n' ? ' ' : *c);
	roff_text(out, h.buf, prog, 0);
	fputc('\n', out);
	sb_release(&h);
}

static void roff_cmd(FILE *out, const struct opt_prog *prog, const struct opt_cmd *c, const char *man)
{
	if (c->about)
		roff_prose(out, c->about, man);
	for (int g = 0; g < OPTS_MAX_GROUPS && c->groups[g]; g++) {
		const struct opt_group *grp = c->groups[g];
		if (grp->title) {
			fputs(".PP\n", out);
			roff_text(out, grp->title, man, 0);
			fputs(":\n", out);
		}
		for (size_t k = 0; k < grp->n; k++)
			roff_opt(out, &grp->opts[k], man);
	}
	if (c->notes) {
		fputs(".PP\n", out);
		roff_prose(out, c->notes, man);
	}
}

void opts_print_man(FILE *out, const struct opt_prog *prog, const char *date)
{
	const char *man = prog->man_name;
	sb title = SB_INIT;
	for (const char *c = man; *c; c++)
		sb_addc(&title, *c == ' ' ? '-' : (char)toupper((unsigned char)*c));
	fprintf(out, ".\\\" generated by '%s --help-man' from its option tables; do not edit\n", prog->name);
	fprintf(out, ".TH %s 1 \"%s\" \"runledger %s\" \"runledger manual\"\n", title.buf,
		date ? date : "", rl_version);
	fputs(".SH NAME\n", out);
	for (const char *c = man; *c; c++)
		fputc(*c == ' ' ? '-' : *c, out);
	fputs(" \\- ", out);
	roff_text(out, prog->summary, man, 0);
	fputs("\n.SH SYNOPSIS\n", out);
	as_override = man; /* the synopsis says what a user types */
	char *syn = NULL;
	size_t synlen = 0;
	FILE *mem = open_memstream(&syn, &synlen);
	print_usage_width(mem, prog, NULL, SIZE_MAX); /* man wraps them itself */
	for (size_t i = 0; i < prog->ncmds; i++)
		print_usage_width(mem, prog, prog->cmds[i], SIZE_MAX);
	fclose(mem);
	as_override = NULL;
	for (const char *l = syn; l && *l;) {
		size_t len = strcspn(l, "\n");
		char *line = xstrndup(l, len);
		const char *t = str_starts_with(line, "usage: ") ? line + 7
			: str_starts_with(line, "   or: ") ? line + 7 : line;
		fputs(".HP 4\n", out); /* one synopsis a paragraph, filled, hanging */
		roff_text(out, t, man, 1);
		fputc('\n', out);
		free(line);
		l += len + (l[len] == '\n');
	}
	fputs(".SH DESCRIPTION\n", out);
	const struct opt_cmd *top = prog->top;
	if (top->about)
		roff_prose(out, top->about, man);
	fputs(".SH OPTIONS\n", out);
	for (int g = 0; g < OPTS_MAX_GROUPS && top->groups[g]; g++)
		for (size_t k = 0; k < top->groups[g]->n; k++)
			roff_opt(out, &top->groups[g]->opts[k], man);
	for (size_t k = 0; k < ARRAY_SIZE(help_opts); k++)
		roff_opt(out, &help_opts[k], man);
	if (prog->ncmds)
		fputs(".SH COMMANDS\n", out);
	for (size_t i = 0; i < prog->ncmds; i++) {
		const struct opt_cmd *c = prog->cmds[i];
		fputs(".SS \"", out);
		roff_text(out, man, man, 1);
		fprintf(out, " %s\"\n", c->name);
		roff_text(out, c->summary, man, 0);
		fputs(".\n.PP\n", out);
		roff_cmd(out, prog, c, man);
	}
	if (top->notes) {
		fputs(".SH \"EXIT STATUS AND ENVIRONMENT\"\n", out);
		roff_prose(out, top->notes, man);
	}
	fputs(".SH SEE ALSO\n.BR runledger (1),\n.BR runledger-report (1),\n.BR runledger-train (1)\n", out);
	free(syn);
	sb_release(&title);
}

/* ---- bash completion ------------------------------------------------- */

/* Space-separated names of c's options; with_values: only those taking one. */
static void opt_names(sb *s, const struct opt_cmd *c, int valued_only)
{
	for (int g = 0; c && g < OPTS_MAX_GROUPS && c->groups[g]; g++)
		for (size_t k = 0; k < c->groups[g]->n; k++) {
			const struct opt *o = &c->groups[g]->opts[k];
			if (valued_only && o->type == OPT_FLAG)
				continue;
			sb_addf(s, "%s%s", s->len ? (valued_only ? "|" : " ") : "", o->name);
		}
}

/* case arms completing the values of c's options after "$prev". */
static void completion_values(FILE *out, const struct opt_cmd *c, const char *indent)
{
	for (int g = 0; c && g < OPTS_MAX_GROUPS && c->groups[g]; g++)
		for (size_t k = 0; k < c->groups[g]->n; k++) {
			const struct opt *o = &c->groups[g]->opts[k];
			if (o->type == OPT_FLAG)
				continue;
			if (o->choices) {
				fprintf(out, "%s%s) COMPREPLY=($(compgen -W \"", indent, o->name);
				for (const char *ch = o->choices; *ch; ch++)
					fputc(*ch == '|' ? ' ' : *ch, out);
				fputs("\" -- \"$cur\")); return;;\n", out);
			} else if (o->flags & (OPT_FILE | OPT_DIR)) {
				fprintf(out, "%s%s) COMPREPLY=($(compgen -%c -- \"$cur\")); return;;\n", indent,
					o->name, o->flags & OPT_DIR ? 'd' : 'f');
			}
		}
	/* any other option's value: nothing to offer, not option names */
	sb v = SB_INIT;
	opt_names(&v, c, 1);
	if (v.len)
		fprintf(out, "%s%s) return;;\n", indent, v.buf);
	sb_release(&v);
}

void opts_print_completion(FILE *out, const struct opt_prog *prog, const char *fn)
{
	sb globals = SB_INIT, gvalued = SB_INIT, cmds = SB_INIT;
	opt_names(&globals, prog->top, 0);
	opt_names(&gvalued, prog->top, 1);
	for (size_t i = 0; i < prog->ncmds; i++)
		sb_addf(&cmds, "%s%s", i ? " " : "", prog->cmds[i]->name);
	fprintf(out, "# %s: generated by '%s --help-completion' from its option tables\n", fn, prog->name);
	fprintf(out, "# %s FIRST [WORDS]: complete COMP_WORDS from index FIRST on as %s's\n"
		"# arguments; WORDS are offered with the commands.\n", fn, prog->name);
	fprintf(out, "%s() {\n", fn);
	fputs("\tlocal first=$1 cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" cmd=\"\" i\n"
	      "\t((COMP_CWORD > first)) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tfor ((i = first; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n", out);
	if (gvalued.len)
		fprintf(out, "\t\t%s) ((i++));;\n", gvalued.buf);
	fputs("\t\t-*) ;;\n"
	      "\t\t*) cmd=${COMP_WORDS[i]}; break;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tcase $prev in\n", out);
	completion_values(out, prog->top, "\t");
	fputs("\tesac\n", out);
	fprintf(out, "\tlocal opts=\"%s --help\"\n", globals.buf);
	if (prog->ncmds) {
		fputs("\tif [[ -z $cmd ]]; then\n"
		      "\t\t[[ $cur == -* ]] && opts=\"$opts --version\" || opts=\"\"\n", out);
		fprintf(out, "\t\tCOMPREPLY=($(compgen -W \"$opts ${2:-} help %s\" -- \"$cur\"))\n", cmds.buf);
		fputs("\t\treturn\n\tfi\n\tcase $cmd in\n", out);
		fprintf(out, "\thelp) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return;;\n", cmds.buf);
		for (size_t i = 0; i < prog->ncmds; i++) {
			const struct opt_cmd *c = prog->cmds[i];
			sb names = SB_INIT;
			opt_names(&names, c, 0);
			fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
			completion_values(out, c, "\t\t");
			fprintf(out, "\t\tesac\n\t\topts=\"$opts %s\";;\n", names.buf);
			sb_release(&names);
		}
		fputs("\tesac\n", out);
	} else {
		fputs("\topts=\"$opts --version\"\n", out);
	}
	fputs("\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n", out);
	if (prog->arg_words) /* words to complete as arguments: "model.depth=" … */
		fprintf(out, "\telif [[ $cur != */* ]]; then\n"
			"\t\tcompopt -o nospace 2>/dev/null\n"
			"\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", prog->arg_words);
	fputs("\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n", out);
	sb_release(&globals);
	sb_release(&gvalued);
	sb_release(&cmds);
}

/* ---- version and the hidden options ---------------------------------- */

void opts_print_version(const struct opt_prog *prog)
{
	printf("%s (runledger) %s\n", prog->name, rl_version);
}

int opts_special(const struct opt_prog *prog, int argc, char **argv)
{
	if (argc < 2)
		return -1;
	const char *a = argv[1];
	if (!strcmp(a, "--version")) {
		opts_print_version(prog);
		return EXIT_OK;
	}
	if (!strcmp(a, "--help-man")) {
		opts_print_man(stdout, prog, argc > 2 ? argv[2] : NULL);
		return EXIT_OK;
	}
	if (!strcmp(a, "--help-completion")) {
		sb fn = SB_INIT;
		sb_adds(&fn, "_runledger_");
		sb_adds(&fn, prog->name);
		opts_print_completion(stdout, prog, fn.buf);
		sb_release(&fn);
		return EXIT_OK;
	}
	return -1;
}
