/* tophits.c — kept runs ranked by gain over the previous keep; see tophits.h. */
#include "fmt.h"
#include "runpage.h"
#include "tophits.h"
#include "util.h"

void top_hits_init(struct top_hits *h, int maximize)
{
	memset(h, 0, sizeof(*h));
	h->maximize = maximize;
}

static int group_of(struct top_hits *h, const char *group)
{
	for (int i = 0; i < h->ngroups; i++)
		if (!strcmp(h->group[i], group))
			return i;
	h->group = xrealloc(h->group, (size_t)(h->ngroups + 1) * sizeof(*h->group));
	h->last_run = xrealloc(h->last_run, (size_t)(h->ngroups + 1) * sizeof(*h->last_run));
	h->last_value = xrealloc(h->last_value, (size_t)(h->ngroups + 1) * sizeof(*h->last_value));
	h->group[h->ngroups] = xstrdup(group);
	h->last_run[h->ngroups] = NULL;
	h->last_value[h->ngroups] = NAN;
	return h->ngroups++;
}

/* Remember a kept run, for the runs built on it. */
static void remember_kept(struct top_hits *h, const char *run_id, const char *hardware, double value)
{
	int created;
	struct strmap_slot *s = strmap_get(&h->kept, run_id, &created);
	if (!created) { /* the same run fed twice: its latest value */
		h->kept_value[s->v.n] = value;
		return;
	}
	if (h->nkept == h->capkept) {
		h->capkept = h->capkept ? 2 * h->capkept : 64;
		h->kept_value = xrealloc(h->kept_value, (size_t)h->capkept * sizeof(*h->kept_value));
		h->kept_hw = xrealloc(h->kept_hw, (size_t)h->capkept * sizeof(*h->kept_hw));
	}
	s->v.n = h->nkept;
	h->kept_value[h->nkept] = value;
	h->kept_hw[h->nkept++] = xstrdup(hardware);
}

static void add_hit(struct top_hits *h, const char *run_id, const char *hardware, const char *description,
		    double value, const char *prev_run, double prev)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->v = xrealloc(h->v, (size_t)h->cap * sizeof(*h->v));
	}
	h->v[h->n] = (struct top_hit){ xstrdup(run_id), description ? xstrdup(description) : NULL, xstrdup(prev_run),
				       xstrdup(hardware), value, prev, h->maximize ? value - prev : prev - value, h->n };
	h->n++;
}

void top_hits_keep(struct top_hits *h, const char *group, const char *hardware, const char *run_id,
		   const char *parent, const char *description, double value, int counted)
{
	if (!hardware)
		hardware = "unknown";
	int g = group_of(h, group ? group : "unknown");
	const struct strmap_slot *p = parent && *parent ? strmap_find(&h->kept, parent) : NULL;
	if (p && strcmp(h->kept_hw[p->v.n], hardware))
		p = NULL; /* built on a keep of other hardware: not comparable */
	if (counted && p)
		add_hit(h, run_id, hardware, description, value, parent, h->kept_value[p->v.n]);
	else if (counted && h->last_run[g])
		add_hit(h, run_id, hardware, description, value, h->last_run[g], h->last_value[g]);
	remember_kept(h, run_id, hardware, value);
	free(h->last_run[g]);
	h->last_run[g] = xstrdup(run_id);
	h->last_value[g] = value;
}

static int by_gain(const void *pa, const void *pb)
{
	const struct top_hit *a = pa, *b = pb;
	if (a->gain != b->gain)
		return a->gain > b->gain ? -1 : 1;
	return a->order - b->order;
}

void top_hits_md(struct top_hits *h, int limit, const char *metric, sb *out)
{
	if (!h->n)
		return;
	double total = 0;
	for (int i = 0; i < h->n; i++)
		total += h->v[i].gain;
	qsort(h->v, (size_t)h->n, sizeof(*h->v), by_gain);
	const char *cols[] = { "rank", "run", "hardware", metric, "previous keep", "gain", "description" };
	table t;
	table_init(&t, 7, cols);
	sb s = SB_INIT;
	for (int i = 0; i < h->n; i++) {
		const struct top_hit *x = &h->v[i];
		int r = table_add_row(&t);
		table_set_int(&t, r, 0, i + 1);
		runpage_cell(&t, r, 1, x->run_id, NULL);
		table_set_text(&t, r, 2, x->hardware);
		sb_reset(&s);
		fmt_val(&s, x->value);
		table_set_text(&t, r, 3, s.buf);
		sb_reset(&s);
		sb_addf(&s, "%s (", x->prev_run);
		fmt_val(&s, x->prev_value);
		sb_addc(&s, ')');
		runpage_cell(&t, r, 4, x->prev_run, s.buf);
		sb_reset(&s);
		fmt_delta(&s, x->gain);
		table_set_text(&t, r, 5, s.buf);
		table_set_text(&t, r, 6, x->description);
	}
	md_table_limited(out, &t, limit);
	sb_reset(&s);
	fmt_delta(&s, total);
	sb_addf(out, "\n\nTotal gain of the %d keep%s over the keep each was built on: %s.", h->n,
		h->n == 1 ? "" : "s", s.buf);
	sb_release(&s);
	table_release(&t);
}

void top_hits_release(struct top_hits *h)
{
	for (int i = 0; i < h->ngroups; i++) {
		free(h->group[i]);
		free(h->last_run[i]);
	}
	for (int i = 0; i < h->n; i++) {
		free(h->v[i].run_id);
		free(h->v[i].description);
		free(h->v[i].prev_run);
		free(h->v[i].hardware);
	}
	for (int i = 0; i < h->nkept; i++)
		free(h->kept_hw[i]);
	free(h->kept_hw);
	free(h->kept_value);
	strmap_release(&h->kept);
	free(h->group);
	free(h->last_run);
	free(h->last_value);
	free(h->v);
	memset(h, 0, sizeof(*h));
}
