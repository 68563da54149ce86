/* opts.h — one table of options per command, as trainer/config.c has one
 * table of variables: parsing, `--help`, the man page (roff) and the bash
 * completion all come from it, so they cannot drift apart.
 *
 * A command is a struct opt_cmd: its name, positional arguments, prose and
 * up to OPTS_MAX_GROUPS groups of options (its own, and shared ones such as
 * ledger's filters or report's --out/--limit). Parsing is a loop:
 *
 *   struct opt_parser p;
 *   opts_begin(&p, &query_cmd, argc, argv);
 *   while ((r = opts_next(&p)) != OPTS_END) {
 *       if (r == OPTS_ERROR) return EXIT_USAGE;
 *       if (r == OPTS_ARG) { ... p.val is a positional argument ... }
 *       else switch (r) { case OPT_ID_LIMIT: limit = p.num; ... }
 *   }
 *
 * `--opt VALUE` and `--opt=VALUE` are the same; a flag given a value, a
 * missing value, a bad int/double/date and an unknown option are usage
 * errors with a message naming the command (and a "did you mean" from
 * common/suggest.h); everything after "--" is positional. Must not know
 * about SQLite or any one program: programs pass their tables in. */
#ifndef RL_OPTS_H
#define RL_OPTS_H
#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG,    /* no value */
	OPT_STRING,  /* any text */
	OPT_INT,     /* whole number in [lo, hi] (both 0: any long) -> p.num */
	OPT_DOUBLE,  /* finite number in [lo, hi] (both 0: any) -> p.num */
	OPT_DATE,    /* a time -> p.num (epoch seconds): prog->parse_date, else ISO-8601 UTC */
	OPT_LIST     /* S[,S…] text, split by its owner */
};

enum {
	OPT_REPEAT = 1,    /* may be given more than once (said in help) */
	OPT_OWN = 2,       /* the value is checked by its owner, not here */
	OPT_FILE = 4,      /* the value is a file name (completion) */
	OPT_DIR = 8,       /* the value is a directory (completion) */
	OPT_ABOVE_LO = 16, /* OPT_DOUBLE: strictly above lo */
	OPT_REQUIRED = 32  /* shown without [] in the synopsis; checked by the command */
};

struct opt {
	const char *name;     /* "--limit" */
	int id;               /* > 0, what opts_next returns for it */
	enum opt_type type;
	const char *value;    /* placeholder in help: "N", "FILE"; NULL for a flag */
	const char *help;     /* '\n' starts a new line */
	int flags;
	const char *choices;  /* "class|tier": completed and checked, unless OPT_OWN */
	double lo, hi;        /* OPT_INT, OPT_DOUBLE range */
	const char *bad;      /* "is not a row count": tail of a bad-value message */
	const char *hint;     /* hint after a bad value, or NULL */
};

/* Options listed under one heading; synopsis: how the synopsis names the
 * whole group ("FILTERS"), or NULL to list each option there. */
struct opt_group {
	const char *title;    /* "Options", "Filters (all that are given must hold)" */
	const char *synopsis;
	const struct opt *opts;
	size_t n;
};

#define OPTS_MAX_GROUPS 4

struct opt_cmd {
	const char *name;     /* "query"; NULL for the program itself */
	const char *args;     /* positional part of the synopsis: "RUN_A RUN_B"; NULL none */
	const char *summary;  /* one line, for the command list */
	const char *about;    /* prose between the synopsis and the options */
	const char *notes;    /* prose after the options (exit status …) */
	const char *usage;    /* a hand-written synopsis instead of the generated one
	                       * (verbs: "add FILE\nlist"); lines after "PROG NAME " */
	const struct opt_group *groups[OPTS_MAX_GROUPS]; /* NULL-terminated */
};

/* The program: its name in messages, the name a user types ("ledger", or
 * "runledger" when started by the front command, from $RUNLEDGER_AS), its
 * global options (taken out of argv by the program before a command runs,
 * but listed in every command's help and suggested for typos) and commands. */
struct opt_prog {
	const char *name;         /* "ledger" */
	const char *man_name;     /* "runledger": the installed name, for the man page */
	const char *summary;      /* one line for NAME in the man page */
	const struct opt_cmd *top;   /* the program's own usage and global options */
	const struct opt_cmd *const *cmds;
	size_t ncmds;
	const char *arg_words;    /* completed as arguments ("model.depth= …"), or NULL */
	/* How OPT_DATE values are read: 0 with *t set, or nonzero for no
	 * date; NULL: ISO-8601 UTC times only (parse_iso_utc). */
	int (*parse_date)(const char *s, double *t);
};

/* What the user types to run prog: $RUNLEDGER_AS (set by the front
 * command) or prog->name. */
const char *opts_prog_name(const struct opt_prog *prog);

enum { OPTS_END = 0, OPTS_ERROR = -1, OPTS_ARG = -2 };

struct opt_parser {
	const struct opt_prog *prog;
	const struct opt_cmd *cmd;
	int argc;
	char **argv;
	int i;                /* the next argv index to read */
	int literal;          /* after "--" */
	const struct opt *opt; /* the option just read */
	const char *val;      /* its value, or the positional argument */
	double num;           /* OPT_INT, OPT_DOUBLE, OPT_DATE value */
};

/* argv[0] is the command's name (or the program's); reading starts at 1. */
void opts_begin(struct opt_parser *p, const struct opt_prog *prog, const struct opt_cmd *cmd,
		int argc, char **argv);
/* The next option's id (> 0), OPTS_ARG, OPTS_END, or OPTS_ERROR with the
 * message printed. */
int opts_next(struct opt_parser *p);

/* Read argv as opts_next would, acting on nothing: 0, or OPTS_ERROR with
 * the message of the first bad option printed. A program calls it before
 * opening files, so that a typo is answered before "cannot open". */
int opts_check(const struct opt_prog *prog, const struct opt_cmd *cmd, int argc, char **argv);

/* Take prog->top's options out of argv wherever they stand (before "--")
 * and hand each to take(); argv is compacted, *argc updated. take returns
 * 0, or nonzero (message printed) to stop with OPTS_ERROR. Returns 0 or
 * OPTS_ERROR. */
int opts_take_global(const struct opt_prog *prog, int *argc, char **argv,
		     int (*take)(const struct opt_parser *p, void *ctx), void *ctx);

/* The command named word, or NULL; for an unknown one, prints
 * "'WORD' is not a PROG command" and a did-you-mean or hint. */
const struct opt_cmd *opts_command(const struct opt_prog *prog, const char *word, int complain);

/* `PROG --help` (cmd NULL) or `PROG CMD --help`. */
void opts_print_help(FILE *out, const struct opt_prog *prog, const struct opt_cmd *cmd);
/* The synopsis lines alone ("usage: …"), as --help starts. */
void opts_print_usage(FILE *out, const struct opt_prog *prog, const struct opt_cmd *cmd);
/* The man page, section 1, in roff (man(7) macros). */
void opts_print_man(FILE *out, const struct opt_prog *prog, const char *date);
/* A bash function _runledger_NAME completing this program's commands and
 * options; the front command's completion calls it (front/main.c). */
void opts_print_completion(FILE *out, const struct opt_prog *prog, const char *fn);

/* "PROG (runledger) VERSION" on stdout. */
void opts_print_version(const struct opt_prog *prog);
extern const char rl_version[];

/* The hidden options every program answers before anything else:
 * --help-man, --help-completion, --version. Returns -1 when argv[1] is
 * none of them, else the exit status. */
int opts_special(const struct opt_prog *prog, int argc, char **argv);

#endif
