/* rkey.c — repeat keys and rerun phrases; see rkey.h for the rules. */
#include "rkey.h"
#include "infer.h"
#include "runrec.h"
#include "sha256.h"
#include "utf8.h"
#include "util.h"

int rkey_is_seed(const char *var)
{
	return var && (str_ends_with(var, ".seed") || !strcmp(var, "seed"));
}

/* ---- configs by value ---------------------------------------------------- */

/* 2^53: every integer up to it is a double exactly, so a number in that
 * range that is whole reads as the same integer however it was written. */
#define WHOLE_LIMIT 9007199254740992.0

/* A number as one spelling of its value: whole and within 2^53 an integer,
 * else a real. json_same compares numbers as doubles, so two numbers it
 * calls equal come out as the same JSON (8 and 8.0 both as 8). */
static json_t *number_by_value(const json_t *v)
{
	double d = json_number_value(v);
	if (d == floor(d) && fabs(d) <= WHOLE_LIMIT)
		return json_integer((json_int_t)d);
	return json_real(d);
}

/* 1 when the number is not written as number_by_value writes it. */
static int number_respelled(const json_t *v)
{
	if (json_is_integer(v))
		return fabs((double)json_integer_value(v)) > WHOLE_LIMIT;
	double d = json_real_value(v);
	return d == floor(d) && fabs(d) <= WHOLE_LIMIT;
}

json_t *rkey_config_by_value(const json_t *cfg)
{
	const char *k;
	json_t *v, *out;
	int copy = 0;
	/* config values are scalars (runrec/1) */
	json_object_foreach((json_t *)cfg, k, v)
		copy |= rkey_is_seed(k) || (json_is_number(v) && number_respelled(v));
	if (!copy)
		return NULL;
	out = json_object();
	json_object_foreach((json_t *)cfg, k, v)
		if (!rkey_is_seed(k))
			json_object_set_new(out, k, json_is_number(v) ? number_by_value(v) : json_incref(v));
	return out;
}

/* ---- rerun phrases ------------------------------------------------------ */

/* Words that may stand in a rerun's description ('-' and '_' removed). */
static const char *const rerun_filler[] = {
	"a", "again", "an", "and", "another", "as", "base", "baseline", "before", "best", "change",
	"changes", "check", "code", "config", "configuration", "confirm", "confirmation", "control",
	"current", "default", "defaults", "different", "discard", "exact", "exactly", "for", "hparams",
	"hyperparameters", "identical", "just", "keep", "kept", "last", "measure", "measurement",
	"measuring", "more", "new", "no", "noise", "of", "on", "once", "only", "original", "other",
	"params", "parent", "prev", "previous", "run", "runs", "same", "sanity", "seed", "seeds",
	"settings", "setup", "the", "to", "twice", "unchanged", "variance", "verify", "with",
};

/* Words that say "this again" by themselves. */
static const char *const rerun_trigger[] = {
	"again", "duplicate", "identical", "replicate", "replicated", "replication", "reproduce",
	"reproduced", "reproduction", "reran", "rerun", "rerunning", "reruns", "repeat", "repeated",
	"repeating", "repeats", "unchanged",
};

static int in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

#define MAX_WORDS 24

struct words {
	char w[MAX_WORDS][32];
	int n, hash_ref; /* hash_ref: '#' before a number after the first word */
	int too_long;
};

/* Lowercase words of letters and digits ('-', '_' and '.' inside a word
 * kept together and then '-' and '_' dropped: "re-run" = "rerun"). */
static void split_words(const char *d, struct words *out)
{
	memset(out, 0, sizeof(*out));
	while (*d) {
		if (!isalnum((unsigned char)*d)) {
			if (*d == '#' && isdigit((unsigned char)d[1]) && out->n > 0)
				out->hash_ref = 1;
			d++;
			continue;
		}
		if (out->n == MAX_WORDS) {
			out->too_long = 1;
			return;
		}
		char *w = out->w[out->n++];
		size_t k = 0;
		for (; isalnum((unsigned char)*d) || ((*d == '-' || *d == '_' || *d == '.') &&
						       isalnum((unsigned char)d[1])); d++) {
			if (*d == '-' || *d == '_')
				continue;
			if (k + 1 < 32)
				w[k++] = (char)tolower((unsigned char)*d);
		}
		w[k] = '\0';
	}
}

static int is_number(const char *w)
{
	return isdigit((unsigned char)w[0]);
}

/* "exp12", "run3", "v2", "r7", "e12", "trial4": a run's own label. */
static int is_label(const char *w)
{
	static const char *const prefixes[] = { "exp", "run", "trial", "v", "r", "e" };
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(w, prefixes[i], n) && isdigit((unsigned char)w[n])) {
			const char *p = w + n;
			while (isdigit((unsigned char)*p))
				p++;
			return !*p;
		}
	}
	return 0;
}

/* Two words that together say "this again". */
static int trigger_pair(const char *a, const char *b)
{
	static const char *const same_what[] = { "config", "configuration", "setup", "settings",
						 "params", "hparams", "hyperparameters", "code" };
	if (!strcmp(a, "same") && in_list(b, same_what, ARRAY_SIZE(same_what)))
		return 1;
	if (!strcmp(a, "no") && (!strcmp(b, "change") || !strcmp(b, "changes")))
		return 1;
	if ((!strcmp(a, "different") || !strcmp(a, "new") || !strcmp(a, "another") || !strcmp(a, "other")) &&
	    (!strcmp(b, "seed") || !strcmp(b, "seeds")))
		return 1;
	if (!strcmp(a, "seed") && is_number(b))
		return 1;
	if ((!strcmp(a, "noise") || !strcmp(a, "sanity") || !strcmp(a, "variance")) && !strcmp(b, "check"))
		return 1;
	return 0;
}

/* "verification run …", "rerun of best …", "confirmation run - …": the
 * description names the run a measurement again first; what follows says
 * how it went (hardware, steps, "baseline confirmed"), and counts when no
 * other run is named and the grammar reads no change in it. */
static int named_a_rerun(const char *description, const struct words *ws, int first)
{
	static const char *const lead[] = {
		"verification", "verify", "reverify", "reverification", "confirmation", "rerun",
		"reran", "repeat", "replication", "reproduction", "control",
	};
	static const char *const noun[] = { "run", "runs", "of" };
	if (ws->n < first + 2 || !in_list(ws->w[first], lead, ARRAY_SIZE(lead)) ||
	    !in_list(ws->w[first + 1], noun, ARRAY_SIZE(noun)) ||
	    (first + 2 < ws->n && is_number(ws->w[first + 2])))
		return 0; /* "verification run 3": the third, of something */
	for (int i = first; i < ws->n; i++)
		if (is_label(ws->w[i]) || (!strcmp(ws->w[i], "exp") && i + 1 < ws->n && is_number(ws->w[i + 1])))
			return 0; /* "rerun of exp7": another run's configuration */
	/* what follows the name, read by the grammar (which reads nothing
	 * after a leading "verification" at all) */
	const char *rest = description;
	for (int w = 0; w < first + 2; w++) {
		while (*rest && !isalnum((unsigned char)*rest))
			rest++;
		while (isalnum((unsigned char)*rest) || ((*rest == '-' || *rest == '_' || *rest == '.') &&
							 isalnum((unsigned char)rest[1])))
			rest++;
	}
	while (*rest == ' ')
		rest++;
	if (!strncasecmp(rest, "with ", 5) || !strncasecmp(rest, "using ", 6))
		rest = strchr(rest, ' '); /* "… run with depth 9": a change, not context */
	struct change_list cl = CHANGE_LIST_INIT;
	int changes = infer_changes(rest, &cl);
	change_list_release(&cl);
	return changes == 0;
}

/* "no logic change", "no code changes", "no functional change": the run's
 * author says what it trains is its parent's ("add checkpoint saving …; no
 * logic change, re-run confirms noise floor"). */
static int says_no_logic_change(const struct words *ws)
{
	static const char *const what[] = { "logic", "code", "functional", "behavior", "behaviour",
					    "training", "model", "math" };
	for (int i = 0; i + 2 < ws->n; i++)
		if (!strcmp(ws->w[i], "no") && in_list(ws->w[i + 1], what, ARRAY_SIZE(what)) &&
		    (!strcmp(ws->w[i + 2], "change") || !strcmp(ws->w[i + 2], "changes")))
			return 1;
	return 0;
}

int rkey_unchanged_text(const char *description)
{
	if (!description)
		return 0;
	struct words ws;
	split_words(description, &ws);
	return !ws.hash_ref && says_no_logic_change(&ws);
}

int rkey_rerun_text(const char *description)
{
	if (!description)
		return 0;
	struct words ws;
	split_words(description, &ws);
	if (ws.hash_ref || ws.n == 0)
		return 0;
	int first = 0, trigger = 0;
	if (is_label(ws.w[0]))
		first = 1;
	else if (!strcmp(ws.w[0], "exp") && ws.n > 1 && is_number(ws.w[1]))
		first = 2;
	if (named_a_rerun(description, &ws, first))
		return 1;
	if (ws.too_long)
		return 0;
	for (int i = first; i < ws.n; i++) {
		const char *w = ws.w[i];
		if (is_label(w) || (!strcmp(w, "exp") && i + 1 < ws.n && is_number(ws.w[i + 1])))
			return 0; /* "repeat exp5" repeats exp5, which need not be the parent */
		if (is_number(w)) {
			/* a number is a seed's value or a count ("x2"), nothing more */
			if (i == first || !(!strcmp(ws.w[i - 1], "seed") || !strcmp(ws.w[i - 1], "seeds")))
				return 0;
			continue;
		}
		if (!in_list(w, rerun_filler, ARRAY_SIZE(rerun_filler)) &&
		    !in_list(w, rerun_trigger, ARRAY_SIZE(rerun_trigger)))
			return 0;
		trigger |= in_list(w, rerun_trigger, ARRAY_SIZE(rerun_trigger)) ||
			   (i + 1 < ws.n && trigger_pair(w, ws.w[i + 1]));
	}
	return trigger;
}

/* ---- keys --------------------------------------------------------------- */

void rkey_description(sb *key, const char *d)
{
	int depth = 0, space = 0;
	size_t start = key->len;
	for (; d && *d; d++) {
		if (*d == '(' || *d == ')') {
			depth += *d == '(' ? 1 : depth > 0 ? -1 : 0;
			continue;
		}
		if (depth)
			continue;
		if (isspace((unsigned char)*d)) {
			space = 1;
			continue;
		}
		if (space && key->len > start)
			sb_addc(key, ' ');
		space = 0;
		sb_addc(key, (char)tolower((unsigned char)*d));
	}
}

static int same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int nonseed_changes(const struct change_list *cl)
{
	int n = 0;
	for (int i = 0; cl && i < cl->n; i++)
		n += !rkey_is_seed(cl->v[i].var);
	return n;
}

int rkey_is_rerun(const struct rkey_run *r, const struct rkey_parent *p)
{
	if (!r->parent || !*r->parent)
		return 0;
	int n = r->changes ? r->changes->n : 0, nonseed = nonseed_changes(r->changes);
	if (n > 0 && nonseed == 0)
		return 1; /* only the seed changed */
	if (nonseed == 0 && r->config_key && r->exact && p->found && same_text(r->commit, p->commit) &&
	    same_text(r->diff, p->diff))
		return 1; /* the parent's config on the parent's code */
	/* an exact change outweighs what the description says (so the text,
	 * the costlier test, is read only when it can decide) */
	if ((!r->exact || nonseed == 0) && rkey_rerun_text(r->description))
		return 1;
	/* nothing the grammar could read, and the text says the training is
	 * unchanged: a measurement of the parent again, whatever else was done */
	return !r->exact && n == 0 && rkey_unchanged_text(r->description);
}

/* A key's parts are the canonical text of a JSON array of strings and
 * nulls, printed here directly: building an array of new jansson strings
 * to print and free it cost the storing thread ~4,000 instructions a run
 * of 150,000 (docs/ingest.md, sixth pass). The text is what json_array and
 * runrec_canonical gave, byte for byte, down to its one oddity: a string
 * that is not UTF-8 (a class cut inside a character, hw_tags in store.c)
 * was refused by json_string, so json_array_append_new left it out. */
static void parts_open(sb *ps, const char *what)
{
	sb_init(ps);
	sb_addc(ps, '[');
	runrec_canonical_string(what, strlen(what), ps);
}

/* A string part, or null for NULL; left out when not UTF-8 (above). */
static void parts_add_n(sb *ps, const char *s, size_t n)
{
	if (!s) {
		sb_adds(ps, ",null");
		return;
	}
	if (!utf8_valid(s, n))
		return;
	sb_addc(ps, ',');
	runrec_canonical_string(s, n, ps);
}

static void parts_add(sb *ps, const char *s)
{
	parts_add_n(ps, s, s ? strlen(s) : 0);
}

/* SHA-256 hex of the parts' text; releases it. */
static void parts_hash(sb *ps, char key[65])
{
	sb_addc(ps, ']');
	sha256_hex(ps->buf, ps->len, key);
	sb_release(ps);
}

/* The key of a run nothing else is known to repeat: its own id. A stored
 * parent without a config has this key, so a child ingested before its
 * parent still names the same configuration. */
static void own_key(const char *run_id, char key[65])
{
	sb ps;
	parts_open(&ps, "run");
	parts_add(&ps, run_id);
	parts_hash(&ps, key);
}

static void copy_key(const char *from, char key[65])
{
	snprintf(key, 65, "%s", from);
}

/* The parent's configuration and the run's hardware class open every key
 * that builds on the parent. */
static void on_parent(sb *ps, const char *what, const char *parent_key, const char *hw)
{
	parts_open(ps, what);
	parts_add(ps, parent_key);
	parts_add(ps, hw ? hw : "");
}

/* The description as rkey_description reads it; "" when that is not
 * UTF-8 (json_stringn refused it, and "" stood in). */
static void description_part(sb *ps, const char *d)
{
	sb s = SB_INIT;
	rkey_description(&s, d);
	int valid = s.buf && utf8_valid(s.buf, s.len);
	parts_add_n(ps, valid ? s.buf : "", valid ? s.len : 0);
	sb_release(&s);
}

void rkey_derive(const struct rkey_run *r, const struct rkey_parent *p, char key[65])
{
	if (!r->parent || !*r->parent || (r->config_key && !p->found)) {
		if (r->config_key)
			copy_key(r->config_key, key);
		else
			own_key(r->run_id, key);
		return;
	}
	char pk[65];
	if (p->found && p->key)
		copy_key(p->key, pk);
	else
		own_key(r->parent, pk);
	if (rkey_is_rerun(r, p)) {
		if (!p->found || same_text(r->hw_class, p->hw_class))
			copy_key(pk, key);
		else {
			sb ps;
			on_parent(&ps, "rerun", pk, r->hw_class);
			parts_hash(&ps, key);
		}
		return;
	}
	if (nonseed_changes(r->changes) > 0) {
		sb ps;
		int unknown = 0;
		on_parent(&ps, "changes", pk, r->hw_class);
		for (int i = 0; i < r->changes->n; i++) {
			const struct change *c = &r->changes->v[i];
			if (rkey_is_seed(c->var))
				continue;
			parts_add(&ps, c->var);
			parts_add(&ps, c->new_val);
			unknown |= !c->new_val && !r->exact;
		}
		/* two inferred changes of unknown value are told apart by their text */
		if (unknown && r->description)
			description_part(&ps, r->description);
		parts_hash(&ps, key);
		return;
	}
	if (r->config_key) {
		copy_key(r->config_key, key); /* code changed, no change recorded: the commit decides */
		return;
	}
	if (r->description && *r->description) {
		sb ps;
		on_parent(&ps, "description", pk, r->hw_class);
		description_part(&ps, r->description);
		parts_hash(&ps, key);
		return;
	}
	own_key(r->run_id, key);
}
