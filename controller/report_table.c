/*
 * report_table: the text report's tables, every column as wide as its
 * widest cell, so that no value ("+1857.4 %", a long knobs key) pushes the
 * columns after it out of line.  See report_int.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"
#include "util.h"

void
report_table_init(struct report_table *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols < REPORT_TABLE_COLS ? ncols : REPORT_TABLE_COLS;
	snprintf(t->align, sizeof t->align, "%s", align);
}

void
report_table_row(struct report_table *t, ...)
{
	va_list		 ap;
	const char	*c;
	size_t		 i;

	t->cells = xreallocarray(t->cells, (t->nrows + 1) * t->ncols,
	    sizeof *t->cells);
	va_start(ap, t);
	for (i = 0; i < t->ncols; i++) {
		c = va_arg(ap, const char *);
		t->cells[t->nrows * t->ncols + i] = xstrdup(c != NULL ? c : "");
	}
	va_end(ap);
	t->nrows++;
}

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static size_t
text_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void
report_table_print(const struct report_table *t, const char *indent,
    FILE *fp)
{
	size_t		 w[REPORT_TABLE_COLS] = { 0 }, r, i, last, cw, k;
	const char	*c;

	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->ncols; i++) {
			cw = text_width(t->cells[r * t->ncols + i]);
			if (cw > w[i])
				w[i] = cw;
		}
	for (r = 0; r < t->nrows; r++) {
		/* No trailing blanks: stop after the last non-empty cell. */
		for (last = t->ncols; last > 0; last--)
			if (t->cells[r * t->ncols + last - 1][0] != '\0')
				break;
		fputs(indent, fp);
		for (i = 0; i < last; i++) {
			c = t->cells[r * t->ncols + i];
			cw = text_width(c);
			if (i > 0)
				fputs("  ", fp);
			if (t->align[i] == 'r')
				for (k = cw; k < w[i]; k++)
					fputc(' ', fp);
			fputs(c, fp);
			if (t->align[i] != 'r' && i + 1 < last)
				for (k = cw; k < w[i]; k++)
					fputc(' ', fp);
		}
		fputc('\n', fp);
	}
}

void
report_table_free(struct report_table *t)
{
	size_t	i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
}
