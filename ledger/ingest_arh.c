/* ingest_arh.c — placeholder until the reader is written. */
#include "ingest.h"
#include "util.h"

int ingest_arh(struct ingest_file *f)
{
	rl_error("ingest: %s: this format is not supported yet", f->name);
	return -1;
}
