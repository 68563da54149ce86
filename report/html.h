/* html.h — markdown to HTML through cmark-gfm with its table extension,
 * wrapped in a small self-contained page (templates/style.css inlined).
 * Raw HTML in the markdown is never passed through (no CMARK_OPT_UNSAFE):
 * run descriptions are escaped by the report and cmark drops what remains.
 * Must not read the ledger. */
#ifndef RL_HTML_H
#define RL_HTML_H
#include "sb.h"

/* Append a complete HTML page for md to out. title is plain text. */
void html_page(sb *out, const char *md, const char *title, const char *css);

/* Rebuild dir/index.html: every daily digest (YYYY-MM-DD.html, newest
 * first) and campaign report (campaign-*.html, by name) in dir.
 * 0 = ok, -1 with a message. */
int html_write_index(const char *dir, const char *css);

#endif
