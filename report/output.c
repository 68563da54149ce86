/* output.c — output directory, atomic writes, template lookup, publishing;
 * see output.h. */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "html.h"
#include "output.h"
#include "utf8.h"
#include "util.h"

int out_mkdirs(const char *dir)
{
	sb where = SB_INIT;
	int rc = mkdir_parents(dir, 0777, &where);
	if (rc)
		rl_error("cannot create directory '%s': %s", where.buf, strerror(errno));
	sb_release(&where);
	return rc;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

int out_write(const char *dir, const char *name, const char *data, size_t len)
{
	sb path = SB_INIT, tmp = SB_INIT;
	sb_addf(&path, "%s/%s", dir, name);
	sb_addf(&tmp, "%s/.%s.tmp.%ld", dir, name, (long)getpid());
	int rc = -1;
	int fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_all(fd, data, len)) {
		rl_error("cannot write '%s': %s", tmp.buf, strerror(errno));
		goto done;
	}
	if (close(fd)) {
		fd = -1;
		rl_error("cannot write '%s': %s", tmp.buf, strerror(errno));
		goto done;
	}
	fd = -1;
	if (rename(tmp.buf, path.buf)) {
		rl_error("cannot rename '%s' to '%s': %s", tmp.buf, path.buf, strerror(errno));
		goto done;
	}
	rc = 0;
done:
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp.buf);
	sb_release(&path);
	sb_release(&tmp);
	return rc;
}

void out_slug(sb *out, const char *name)
{
	for (const char *p = name; *p; p++)
		sb_addc(out, isalnum((unsigned char)*p) || strchr("._-", *p) ? *p : '-');
}

/* Directory of the running program, for templates installed beside it. */
static void program_dir(sb *out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	sb_adds(out, buf);
}

char *template_read(const char *name, const char *override, sb *origin)
{
	sb_reset(origin);
	if (override) {
		sb_adds(origin, override);
		return read_file(override, NULL);
	}
	sb dir = SB_INIT;
	program_dir(&dir);
	const char *env = getenv("RUNLEDGER_TEMPLATES");
	const char *cand[4] = { env && *env ? env : NULL, NULL, NULL, NULL };
	sb c1 = SB_INIT, c2 = SB_INIT, c3 = SB_INIT;
	sb_addf(&c1, "%s/../templates", dir.buf);
	sb_addf(&c2, "%s/../share/runledger/templates", dir.buf);
	/* installed as PREFIX/libexec/runledger/report (make install) */
	sb_addf(&c3, "%s/../../share/runledger/templates", dir.buf);
	cand[1] = c1.buf;
	cand[2] = c2.buf;
	cand[3] = c3.buf;
	char *text = NULL;
	for (int i = 0; i < 4 && !text; i++) {
		if (!cand[i] || (i && !dir.len)) /* no program dir: env only */
			continue;
		sb_reset(origin);
		sb_addf(origin, "%s/%s", cand[i], name);
		if (access(origin->buf, R_OK) == 0)
			text = read_file(origin->buf, NULL);
	}
	if (!text) {
		rl_error("cannot find template '%s'", name);
		rl_hint("set RUNLEDGER_TEMPLATES to the templates/ directory, or pass --template FILE");
	}
	sb_release(&dir);
	sb_release(&c1);
	sb_release(&c2);
	sb_release(&c3);
	return text;
}

int report_publish(const char *dir, const char *base, const char *title, const char *md)
{
	sb origin = SB_INIT, name = SB_INIT, page = SB_INIT;
	int rc = -1;
	char *css = template_read("style.css", NULL, &origin);
	if (!css)
		goto done;
	sb_addf(&name, "%s.md", base);
	if (out_write(dir, name.buf, md, strlen(md)))
		goto done;
	html_page(&page, md, title, css);
	sb_reset(&name);
	sb_addf(&name, "%s.html", base);
	if (out_write(dir, name.buf, page.buf, page.len))
		goto done;
	rc = html_write_index(dir, css);
done:
	free(css);
	sb_release(&origin);
	sb_release(&name);
	sb_release(&page);
	return rc;
}

static int written_json;

void report_written_as_json(int on)
{
	written_json = on;
}

/* dir/base.ext as a JSON string: a path need not be UTF-8, a JSON string
 * must (invalid bytes become U+FFFD, as in every JSON the programs write) */
static json_t *path_json(const char *dir, const char *base, const char *ext)
{
	sb path = SB_INIT;
	sb_addf(&path, "%s/%s%s", dir, base, ext);
	json_t *v = json_string_lossy(path.buf, NULL);
	sb_release(&path);
	return v;
}

void report_list_written(const char *dir, const char *base)
{
	if (!written_json) {
		printf("%s/%s.md\n%s/%s.html\n", dir, base, dir, base);
		return;
	}
	json_t *o = json_object();
	json_object_set_new(o, "markdown", path_json(dir, base, ".md"));
	json_object_set_new(o, "html", path_json(dir, base, ".html"));
	json_object_set_new(o, "index", path_json(dir, "index", ".html"));
	char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_INDENT(2));
	if (!text)
		die("out of memory writing the list of files");
	printf("%s\n", text);
	free(text);
	json_decref(o);
}
