/* util.c — errors, allocation, parsing and time helpers; see util.h. */
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include "sb.h"
#include "utf8.h"
#include "util.h"

const char *rl_progname = "runledger";

static int progress_shown; /* a status line is on the terminal */

/* ---- messages as JSON ------------------------------------------------------ */

enum msg_kind { MSG_ERROR, MSG_WARNING, MSG_NOTE, MSG_HINT };
static const char *const msg_key[] = { "error", "warning", "note", "hint" };

struct msg {
	enum msg_kind kind;
	sb text, hint;
	sb candidates; /* JSON strings, comma-separated */
	sb detail;     /* the same */
};

static int json_mode;
static int have_open;         /* open_msg takes hints, candidates, details */
static struct msg open_msg;
static struct msg *held;      /* finished errors, written by rl_finish */
static size_t n_held, cap_held;
static int finishing;         /* rl_finish has run: nothing is left for atexit */

/* s as the inside of a JSON string: quotes, backslashes and control
 * characters escaped, invalid UTF-8 bytes (a Latin-1 file name) as U+FFFD
 * so that the line stays valid JSON. */
static void add_json_chars(sb *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, (char)c);
		} else if (c == '\n') {
			sb_adds(out, "\\n");
		} else if (c == '\t') {
			sb_adds(out, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			sb_addf(out, "\\u%04x", c);
		} else if (c >= 0x80) {
			int len = utf8_sequence_len(p + i, n - i);
			if (len == 0) {
				sb_adds(out, "\\ufffd");
				i++;
				continue;
			}
			sb_add(out, (const char *)p + i, (size_t)len);
			i += (size_t)len;
			continue;
		} else {
			sb_addc(out, (char)c);
		}
		i++;
	}
}

static void add_json_string(sb *out, const char *s)
{
	sb_addc(out, '"');
	add_json_chars(out, s);
	sb_addc(out, '"');
}

static void add_json_list(sb *list, const char *s)
{
	if (list->len)
		sb_addc(list, ',');
	add_json_string(list, s);
}

static void msg_release(struct msg *m)
{
	sb_release(&m->text);
	sb_release(&m->hint);
	sb_release(&m->candidates);
	sb_release(&m->detail);
}

/* One line: {"error": …, "hint": …|null, "exit": N, "program": …,
 * "candidates": […], "detail": […]}; exit only for errors (status < 0:
 * the program ended without rl_finish, so the status is unknown: null). */
static void msg_write(const struct msg *m, int status)
{
	sb line = SB_INIT;
	sb_addf(&line, "{\"%s\": ", msg_key[m->kind]);
	if (m->kind == MSG_HINT) {
		add_json_string(&line, m->hint.buf);
	} else {
		add_json_string(&line, m->text.buf);
		sb_adds(&line, ", \"hint\": ");
		if (m->hint.len)
			add_json_string(&line, m->hint.buf);
		else
			sb_adds(&line, "null");
	}
	if (m->kind == MSG_ERROR) {
		if (status >= 0)
			sb_addf(&line, ", \"exit\": %d", status);
		else
			sb_adds(&line, ", \"exit\": null");
	}
	sb_adds(&line, ", \"program\": ");
	add_json_string(&line, rl_progname);
	if (m->candidates.len)
		sb_addf(&line, ", \"candidates\": [%s]", m->candidates.buf);
	if (m->detail.len)
		sb_addf(&line, ", \"detail\": [%s]", m->detail.buf);
	sb_adds(&line, "}\n");
	fputs(line.buf, stderr);
	fflush(stderr);
	sb_release(&line);
}

/* The open message is complete: an error waits for the exit status, the
 * rest is written now. */
static void close_open(void)
{
	if (!have_open)
		return;
	have_open = 0;
	if (open_msg.kind != MSG_ERROR) {
		msg_write(&open_msg, 0);
		msg_release(&open_msg);
		return;
	}
	if (n_held == cap_held) {
		cap_held = cap_held ? cap_held * 2 : 8;
		held = xrealloc(held, cap_held * sizeof(*held));
	}
	held[n_held++] = open_msg;
}

static void write_held(int status)
{
	close_open();
	for (size_t i = 0; i < n_held; i++) {
		msg_write(&held[i], status);
		msg_release(&held[i]);
	}
	n_held = 0;
}

/* A program that exits past rl_finish (an exit() somewhere) still gets
 * its errors written, with "exit": null. */
static void write_held_at_exit(void)
{
	if (!finishing)
		write_held(-1);
}

static void open_json(enum msg_kind kind, const char *fmt, va_list ap)
{
	close_open();
	struct msg m = { kind, SB_INIT, SB_INIT, SB_INIT, SB_INIT };
	if (kind == MSG_HINT)
		sb_vaddf(&m.hint, fmt, ap);
	else
		sb_vaddf(&m.text, fmt, ap);
	open_msg = m;
	have_open = 1;
}

void rl_messages_json(int on)
{
	static int registered;
	if (on && !registered) {
		atexit(write_held_at_exit);
		registered = 1;
	}
	json_mode = on;
}

int rl_messages_are_json(void)
{
	return json_mode;
}

int rl_finish(int status)
{
	write_held(status); /* nothing is held in text mode */
	finishing = 1;
	return status;
}

/* ---- messages ------------------------------------------------------------ */

/* The name messages start with: what the user typed. Run through the
 * front command, a program sees $RUNLEDGER_AS ("runledger", "runledger
 * report", front/main.c), and "ledger: …" would name a program the user
 * never ran (and, installed, one not on PATH). JSON errors keep the
 * program's own name in "program": a stable field for agents. */
static const char *msg_name(void)
{
	const char *as = getenv("RUNLEDGER_AS");
	return as && *as ? as : rl_progname;
}

static void vreport(enum msg_kind kind, const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	rl_progress_end();
	if (json_mode) {
		open_json(kind, fmt, ap);
		return;
	}
	fprintf(stderr, "%s: %s", msg_name(), prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void rl_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(MSG_ERROR, "", fmt, ap);
	va_end(ap);
}

void rl_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(MSG_WARNING, "warning: ", fmt, ap);
	va_end(ap);
}

void rl_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(MSG_NOTE, "", fmt, ap);
	va_end(ap);
}

void rl_hint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (json_mode && have_open && open_msg.kind != MSG_HINT) {
		if (open_msg.hint.len) /* a second hint for the same message */
			sb_adds(&open_msg.hint, "; ");
		sb_vaddf(&open_msg.hint, fmt, ap);
	} else {
		vreport(MSG_HINT, "hint: ", fmt, ap);
	}
	va_end(ap);
}

void rl_candidate(const char *id, const char *line)
{
	if (!json_mode) {
		fprintf(stderr, "%s\n", line);
		return;
	}
	if (have_open)
		add_json_list(&open_msg.candidates, id);
}

void rl_detail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb text = SB_INIT;
	sb_vaddf(&text, fmt, ap);
	va_end(ap);
	if (!json_mode) { /* a text that ends its own last line keeps it */
		fputs(text.buf, stderr);
		if (!text.len || text.buf[text.len - 1] != '\n')
			fputc('\n', stderr);
	} else if (have_open) {
		sb_rtrim(&text);
		add_json_list(&open_msg.detail, text.buf);
	}
	sb_release(&text);
}

void rl_progress(const char *fmt, ...)
{
	if (json_mode) /* stderr holds JSON lines only */
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "\r\033[K%s: ", msg_name());
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
}

void rl_progress_end(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

void die(const char *fmt, ...)
{
	static int dying;
	if (dying) /* out of memory while writing the message: exit as it is */
		exit(EXIT_FAILURE_RT);
	dying = 1;
	va_list ap;
	va_start(ap, fmt);
	vreport(MSG_ERROR, "fatal: ", fmt, ap);
	va_end(ap);
	exit(rl_finish(EXIT_FAILURE_RT));
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die("out of memory allocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int parse_double(const char *s, double *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	while (*end && isspace((unsigned char)*end))
		end++;
	if (*end || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

int parse_double_range(const char *s, double *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	int range = errno == ERANGE;
	while (*end && isspace((unsigned char)*end))
		end++;
	if (*end || end == s)
		return -1;
	*out = v;
	if (range && v == 0)
		return PARSE_UNDERFLOW;
	if (range && isinf(v))
		return PARSE_OVERFLOW;
	return 0; /* ERANGE on a subnormal: small, but the value is kept */
}

int parse_long(const char *s, long *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

int mkdir_parents(const char *dir, unsigned mode, sb *failed_at)
{
	sb path = SB_INIT;
	sb_adds(&path, dir);
	int rc = 0;
	for (size_t i = 1; i <= path.len && !rc; i++) {
		if (path.buf[i] != '/' && path.buf[i] != '\0')
			continue;
		char keep = path.buf[i];
		path.buf[i] = '\0';
		if (mkdir(path.buf, (mode_t)mode) && errno != EEXIST) {
			int saved = errno;
			if (failed_at)
				sb_adds(failed_at, path.buf);
			errno = saved;
			rc = -1;
		}
		path.buf[i] = keep;
	}
	sb_release(&path);
	return rc;
}

char *read_file(const char *path, size_t *len_out)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		rl_error("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	sb s = SB_INIT;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_add(&s, chunk, n);
	int failed = ferror(f);
	if (f != stdin)
		fclose(f);
	if (failed) {
		rl_error("cannot read '%s': %s", path, strerror(errno));
		sb_release(&s);
		return NULL;
	}
	if (len_out)
		*len_out = s.len;
	return sb_detach(&s);
}

double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void utc_now_iso(char *buf, size_t n)
{
	format_iso_utc((double)time(NULL), buf, n);
}

void format_iso_utc(double t, char *buf, size_t n)
{
	/* years 1 to 9999, what "YYYY" holds: beyond them (or NaN) the cast to
	 * time_t is undefined and gmtime_r fails, leaving tm unset */
	if (!(t >= -62135596800.0 && t < 253402300800.0)) {
		if (n)
			buf[0] = '\0';
		return;
	}
	time_t tt = (time_t)floor(t);
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil algorithm). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int parse_iso_utc(const char *s, double *out)
{
	int y, mo, d, h = 0, mi = 0, consumed = 0;
	double sec = 0;
	if (!s || sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &consumed) != 3)
		return -1;
	const char *p = s + consumed;
	if (*p == 'T' || *p == ' ') {
		int c2 = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &h, &mi, &c2) != 2)
			return -1;
		p += 1 + c2;
		if (*p == ':') {
			char *end;
			sec = strtod(p + 1, &end);
			if (end == p + 1)
				return -1;
			p = end;
		}
	}
	double offset = 0;
	if (*p == 'Z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh = 0, om = 0;
		if (sscanf(p + 1, "%2d:%2d", &oh, &om) < 1)
			return -1;
		offset = (oh * 3600.0 + om * 60.0) * (*p == '+' ? 1 : -1);
		p += strlen(p);
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec >= 61)
		return -1;
	*out = days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec - offset;
	return 0;
}

int str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

int str_ieq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

int glob_match(const char *pat, const char *text)
{
	if (!*pat)
		return !*text;
	if (*pat == '*')
		return glob_match(pat + 1, text) || (*text && glob_match(pat, text + 1));
	if (*text && (*pat == '?' || *pat == *text))
		return glob_match(pat + 1, text + 1);
	return 0;
}

int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
