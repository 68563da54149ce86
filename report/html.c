/* html.c — markdown to a self-contained HTML page, and the index page;
 * see html.h. */
#include <dirent.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <jansson.h>
#include "fmt.h"
#include "html.h"
#include "output.h"
#include "table.h"
#include "util.h"

/* Plain text into HTML text or attribute context. */
static void html_escape(sb *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': sb_adds(out, "&lt;"); break;
		case '>': sb_adds(out, "&gt;"); break;
		case '&': sb_adds(out, "&amp;"); break;
		case '"': sb_adds(out, "&quot;"); break;
		default: sb_addc(out, *s);
		}
	}
}

/* A relative link to a markdown file ("runs/x.md", "../2026-03-16.md#top")
 * points at the page made from it: the .md reports link each other so
 * they read on their own (as on GitHub), their HTML links the HTML. */
static void link_html_pages(cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_LINK)
			continue;
		const char *url = cmark_node_get_url(n);
		size_t path = url ? strcspn(url, "#?") : 0;
		if (!url || strchr(url, ':') || url[0] == '/' || path < 3 || memcmp(url + path - 3, ".md", 3))
			continue;
		sb to = SB_INIT;
		sb_add(&to, url, path - 3);
		sb_addf(&to, ".html%s", url + path);
		cmark_node_set_url(n, to.buf);
		sb_release(&to);
	}
	cmark_iter_free(it);
}

/* cmark-gfm with the table extension only; CMARK_OPT_UNSAFE is left off on
 * purpose so raw HTML and javascript: links are dropped. */
static char *md_to_html(const char *md)
{
	cmark_gfm_core_extensions_ensure_registered();
	int opts = CMARK_OPT_DEFAULT;
	cmark_parser *parser = cmark_parser_new(opts);
	cmark_syntax_extension *tables = cmark_find_syntax_extension("table");
	if (!tables)
		die("cmark-gfm has no table extension");
	cmark_parser_attach_syntax_extension(parser, tables);
	cmark_parser_feed(parser, md, strlen(md));
	cmark_node *doc = cmark_parser_finish(parser);
	link_html_pages(doc);
	char *html = cmark_render_html(doc, opts, cmark_parser_get_syntax_extensions(parser));
	cmark_node_free(doc);
	cmark_parser_free(parser);
	return html;
}

void html_page(sb *out, const char *md, const char *title, const char *css)
{
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(out, title);
	sb_adds(out, "</title>\n<style>\n");
	sb_adds(out, css); /* our own template file, not run data */
	sb_adds(out, "</style>\n</head>\n<body>\n<main>\n");
	char *body = md_to_html(md);
	sb_adds(out, body);
	free(body);
	sb_adds(out, "</main>\n</body>\n</html>\n");
}

static int is_daily(const char *name)
{
	static const char shape[] = "dddd-dd-dd.html";
	if (strlen(name) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)name[i]) : name[i] != shape[i])
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_section(sb *md, const char *heading, char **names, int n, int newest_first,
			 const char *strip_prefix)
{
	sb_addf(md, "## %s\n\n", heading);
	if (!n)
		sb_adds(md, "None yet.\n\n");
	for (int k = 0; k < n; k++) {
		const char *f = names[newest_first ? n - 1 - k : k];
		size_t len = strlen(f) - strlen(".html") - strlen(strip_prefix);
		sb label = SB_INIT;
		sb_add(&label, f + strlen(strip_prefix), len);
		sb_adds(md, "- [");
		md_escape(md, label.buf);
		sb_addf(md, "](%s)\n", f); /* our own slugged file names */
		sb_release(&label);
	}
	if (n)
		sb_addc(md, '\n');
}

/* A number of the day's numbers file as text ("" when absent). */
static void day_number(sb *out, const json_t *o, const char *key, int delta)
{
	json_t *v = json_object_get(o, key);
	if (json_is_integer(v))
		sb_addf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_number(v) && delta)
		fmt_delta(out, json_number_value(v));
	else if (json_is_number(v))
		fmt_val(out, json_number_value(v));
}

/* The digests, newest first, with the numbers each daily report left in
 * DAY.numbers.json (a digest without one, made by an older report, is
 * listed with its link only). */
static void days_section(sb *md, const char *dir, char **names, int n)
{
	sb_adds(md, "## Daily digests\n\n");
	if (!n) {
		sb_adds(md, "None yet.\n\n");
		return;
	}
	static const char *const cols[] = { "day", "runs", "keeps", "discards", "failed",
					    "best (any hardware)", "frontier move" };
	table t;
	table_init(&t, 7, cols);
	sb path = SB_INIT, txt = SB_INIT, day = SB_INIT;
	for (int k = 0; k < n; k++) {
		const char *f = names[n - 1 - k];
		sb_reset(&day);
		sb_add(&day, f, strlen(f) - strlen(".html"));
		sb_reset(&path);
		sb_addf(&path, "%s/%s.numbers.json", dir, day.buf);
		json_t *o = json_load_file(path.buf, 0, NULL);
		int r = table_add_row(&t);
		table_set_link(&t, r, 0, day.buf, f); /* our own file names */
		static const char *const keys[] = { "runs", "keeps", "discards", "failed", "global_after",
						    "global_change" };
		for (int c = 0; c < 6; c++) {
			json_t *v = json_object_get(o, keys[c]);
			sb_reset(&txt);
			day_number(&txt, o, keys[c], c == 5);
			if (json_is_integer(v)) /* a count: right-aligned like the digests' counts */
				table_set_int(&t, r, c + 1, json_integer_value(v));
			else
				table_set_text(&t, r, c + 1, txt.len ? txt.buf : NULL);
		}
		json_decref(o);
	}
	md_table(md, &t);
	sb_adds(md, "\n\nThe frontier move is the change of the best val_bpb on any hardware over the day "
		    "(negative: it improved); each digest links the days before and after it.\n\n");
	table_release(&t);
	sb_release(&path);
	sb_release(&txt);
	sb_release(&day);
}

int html_write_index(const char *dir, const char *css)
{
	DIR *d = opendir(dir);
	if (!d) {
		rl_error("cannot read directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	char **days = NULL, **camps = NULL;
	int nd = 0, nc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (is_daily(e->d_name)) {
			days = xrealloc(days, (size_t)(nd + 1) * sizeof(*days));
			days[nd++] = xstrdup(e->d_name);
		} else if (str_starts_with(e->d_name, "campaign-") && str_ends_with(e->d_name, ".html")) {
			camps = xrealloc(camps, (size_t)(nc + 1) * sizeof(*camps));
			camps[nc++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (nd > 1) /* qsort(NULL, 0, …) is undefined */
		qsort(days, (size_t)nd, sizeof(*days), cmp_str);
	if (nc > 1)
		qsort(camps, (size_t)nc, sizeof(*camps), cmp_str);
	sb md = SB_INIT, page = SB_INIT;
	sb_adds(&md, "# runledger reports\n\n");
	days_section(&md, dir, days, nd);
	list_section(&md, "Campaign reports", camps, nc, 0, "campaign-");
	html_page(&page, md.buf, "runledger reports", css);
	int rc = out_write(dir, "index.html", page.buf, page.len);
	for (int i = 0; i < nd; i++)
		free(days[i]);
	for (int i = 0; i < nc; i++)
		free(camps[i]);
	free(days);
	free(camps);
	sb_release(&md);
	sb_release(&page);
	return rc;
}
