/* util.h — error reporting, checked allocation and small helpers shared by
 * trainer, ledger and report. Low-level: no SQLite, jansson or CUDA here.
 *
 * Messages follow one shape:  "<prog>: <what>: <where>: <problem>", then
 * optionally "<prog>: hint: <what to do>". Lower layers return an int rc
 * and leave their message with rl_error(); only main/cmd_* exit. */
#ifndef RL_UTIL_H
#define RL_UTIL_H
/* System headers come first so banned.h (included last) cannot clash with
 * their declarations: include util.h after any other system header. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit codes, the same for every program (docs/exit-codes.md). */
enum {
	EXIT_OK = 0,       /* success, nothing to report */
	EXIT_FINDINGS = 1, /* findings, partial ingest, some input rejected */
	EXIT_USAGE = 2,    /* bad command line or unusable input */
	EXIT_FAILURE_RT = 3 /* runtime failure: database, I/O, out of memory */
};

extern const char *rl_progname; /* set by main(): "ledger", "trainer", … */

void rl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rl_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One status line on a terminal, redrawn in place ("\r", erase line):
 * rl_progress shows it, rl_progress_end clears it. Messages above clear it
 * first, so an error never lands in the middle of it. Callers decide
 * whether stderr is a terminal; nothing here checks. */
void rl_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rl_progress_end(void);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Messages for programs (docs/exit-codes.md, "Errors as JSON"): after
 * rl_messages_json(1) — ledger sets it with --format json — every message
 * is one JSON object on its own line of stderr instead of text. A hint,
 * candidate or detail belongs to the message before it. Errors are held
 * until rl_finish(status), which writes them with the exit status the
 * process is about to return ("exit"); warnings and notes are written as
 * soon as the next message starts (or at rl_finish). main() ends with
 * `return rl_finish(rc);` and die() calls it too. In text mode nothing is
 * held and rl_finish only returns status. */
void rl_messages_json(int on);
int rl_messages_are_json(void);
int rl_finish(int status);
/* A note on stderr that is neither error nor warning ("waiting for the
 * ledger"): "PROG: text" in text mode, {"note": …} as JSON. */
void rl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One of several things an ambiguous reference could mean: in text mode
 * `line` is printed as it is; as JSON `id` joins the message's
 * "candidates" array. */
void rl_candidate(const char *id, const char *line);
/* More lines of the message before (the SQL at fault, a usage text):
 * printed as they are in text mode, strings of its "detail" array as JSON. */
void rl_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Strict number parsing: the whole string must be consumed. 0 = ok. */
int parse_double(const char *s, double *out);
/* parse_double, telling a number that does not fit a double from text that
 * is no number: 0 ok (a subnormal too: small, but not 0), -1 not a number,
 * PARSE_UNDERFLOW for a number other than 0 too small for a double (strtod
 * would give 0: "1e-400"), PARSE_OVERFLOW for one too large (+-inf: "1e400");
 * *out is then 0 or +-inf. */
enum { PARSE_UNDERFLOW = 1, PARSE_OVERFLOW = 2 };
int parse_double_range(const char *s, double *out);
int parse_long(const char *s, long *out);

/* Read a whole file ("-" = stdin). Returns NULL and leaves a message on error. */
char *read_file(const char *path, size_t *len_out);

/* mkdir -p dir with mode for the directories it makes. 0, or -1 with
 * errno set and, when failed_at is given, the prefix that could not be
 * made in it (no message: the caller words it). */
struct sb;
int mkdir_parents(const char *dir, unsigned mode, struct sb *failed_at);

/* Seconds on the monotonic clock: for durations and timeouts, never dates. */
double mono_now(void);
/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into buf (>= 21 bytes). */
void utc_now_iso(char *buf, size_t n);
/* Parse an ISO-8601 UTC time ("YYYY-MM-DD[THH:MM[:SS[.fff]]][Z]") to
 * seconds since the epoch. 0 = ok. */
int parse_iso_utc(const char *s, double *out);
/* Format seconds since the epoch as "YYYY-MM-DDTHH:MM:SSZ"; "" when t is
 * not a time of the years 1 to 9999 (NaN, 1e300), which no record takes. */
void format_iso_utc(double t, char *buf, size_t n);

int str_starts_with(const char *s, const char *prefix);
int str_ends_with(const char *s, const char *suffix);
/* Case-insensitive equality (ASCII). */
int str_ieq(const char *a, const char *b);
/* Shell-style glob match ('*', '?'), used for variable globs like "impl.*". */
int glob_match(const char *pattern, const char *text);

/* True when argv[1..] holds -h or --help before a "--"; every command of
 * every program prints its usage then. */
int wants_help(int argc, char **argv);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "banned.h"
#endif
