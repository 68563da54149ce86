/* curvesvg.h — a run's training curve (the record's "curve", see
 * docs/run-record.md) as a small self-contained SVG, written here rather
 * than through gnuplot: one chart per run page means hundreds of charts
 * per report, where a gnuplot process each would cost more than the rest
 * of the report, and these bytes are the same on every machine (the
 * golden test compares them). Must not read the ledger. */
#ifndef RL_CURVESVG_H
#define RL_CURVESVG_H
#include <jansson.h>
#include "sb.h"

/* Append the SVG of curve to out: train loss (left axis) and LR
 * multiplier (right axis) against step, each evaluation a marked line
 * with its val_bpb; title is plain text (escaped here). Returns the
 * number of points drawn, 0 when the curve has no finite loss (out is
 * then left as it was). */
int curve_svg(sb *out, const json_t *curve, const char *title);

#endif
