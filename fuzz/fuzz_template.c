/* fuzz_template.c — libFuzzer harness: the report's template engine
 * (report/template.c). Input: optional variable lines "name=value" (value
 * may be empty), a line "%%", then the template; without a "%%" line the
 * whole input is the template. A fixed set of variables, empty and not,
 * is always there, and every other name the template uses is set (see
 * set_used), so seeds from templates/ render through. Checks:
 * success leaves err empty; failure says "fuzz.tpl:LINE: …"; text without
 * "{{" renders as itself. */
#include <ctype.h>
#include <string.h>
#include "fuzz_check.h"
#include "template.h"

static void set_fixed(struct tpl_vars *v)
{
	static const char *const fixed[][2] = {
		{ "title", "Daily digest" }, { "date", "2026-03-16" }, { "empty", "" },
		{ "summary", "16 runs" }, { "table", "| a |\n| - |\n| 1 |" }, { "none", "" },
		{ "x", "{{x}}" }, { "best.val_bpb", "0.9264" }, { "n-runs", "16" },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		tpl_set(v, fixed[i][0], fixed[i][1]);
}

/* Every name the template uses is set, so the report's own templates
 * render through instead of stopping at the first unknown name: empty when
 * its length is odd (sections then take both branches), else "<name>";
 * names starting "unknown" stay unset for the error path. */
static void set_used(struct tpl_vars *v, const char *t)
{
	for (const char *p = strstr(t, "{{"); p; p = strstr(p, "{{")) {
		p += 2;
		if (*p && strchr("#^/", *p))
			p++;
		while (*p == ' ')
			p++;
		size_t n = 0;
		while (p[n] && (isalnum((unsigned char)p[n]) || strchr("_.-", p[n])))
			n++;
		if (!n || n >= 64 || !strncmp(p, "unknown", 7))
			continue;
		char name[64];
		memcpy(name, p, n);
		name[n] = '\0';
		if (!tpl_get(v, name))
			tpl_setf(v, name, "%s%s%s", n % 2 ? "" : "<", n % 2 ? "" : name, n % 2 ? "" : ">");
		p += n;
	}
}

/* Variable lines before "%%\n": returns where the template starts. */
static const char *set_from_input(struct tpl_vars *v, char *text)
{
	char *sep = strstr(text, "%%\n");
	if (!sep || (sep != text && sep[-1] != '\n'))
		return text;
	*sep = '\0';
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			tpl_set(v, line, eq + 1);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return sep + 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1); /* tpl_render reads a C string */
	memcpy(text, data, size);
	text[size] = '\0';
	struct tpl_vars vars = TPL_VARS_INIT;
	set_fixed(&vars);
	const char *tpl = set_from_input(&vars, text);
	set_used(&vars, tpl);
	sb out = SB_INIT, err = SB_INIT;
	int rc = tpl_render(tpl, "fuzz.tpl", &vars, &out, &err);
	if (rc == 0) {
		FUZZ_CHECK(err.len == 0, "success with an error message: %s", err.buf);
		if (!strstr(tpl, "{{"))
			FUZZ_CHECK(out.len == strlen(tpl) && !memcmp(out.buf, tpl, out.len),
				   "text without tags did not render as itself");
	} else {
		FUZZ_CHECK(rc == -1, "tpl_render returned %d", rc);
		FUZZ_CHECK(err.len > 9 && !strncmp(err.buf, "fuzz.tpl:", 9),
			   "failure without 'ORIGIN:LINE:': '%s'", err.buf ? err.buf : "");
	}
	sb_release(&out);
	sb_release(&err);
	tpl_vars_release(&vars);
	free(text);
	return 0;
}
