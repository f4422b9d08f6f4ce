/*
 * stats_ministat: ministat's text output for two samples, the summary table
 * with the Student's t verdict and the ASCII distribution plot (see
 * stats.h).  Pure: writes into the caller's buffer only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

/* snprintf at the end of out, tracking the length needed. */
static void
outf(char *out, size_t outlen, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
outf(char *out, size_t outlen, size_t *len, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	if (*len < outlen)
		n = vsnprintf(out + *len, outlen - *len, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

int
stats_ministat_format(const double *a, size_t na, const char *name_a,
    const double *b, size_t nb, const char *name_b, double confidence,
    char *out, size_t outlen, char *err, size_t errlen)
{
	struct stats_summary	sa, sb;
	struct stats_ttest	t;
	size_t			len = 0;

	if (stats_summarize(a, na, &sa, err, errlen) == -1 ||
	    stats_summarize(b, nb, &sb, err, errlen) == -1 ||
	    stats_ttest(a, na, b, nb, confidence, &t, err, errlen) == -1)
		return -1;
	if (outlen > 0)
		out[0] = '\0';
	if (name_a != NULL)
		outf(out, outlen, &len, "x %s\n", name_a);
	if (name_b != NULL)
		outf(out, outlen, &len, "+ %s\n", name_b);
	outf(out, outlen, &len, "    N           Min           Max        Median"
	    "           Avg        Stddev\n");
	outf(out, outlen, &len, "x %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
	    sa.n, sa.min, sa.max, sa.median, sa.mean, sa.stddev);
	outf(out, outlen, &len, "+ %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
	    sb.n, sb.min, sb.max, sb.median, sb.mean, sb.stddev);
	if (!t.significant) {
		outf(out, outlen, &len, "No difference proven at %.1f%% "
		    "confidence\n", confidence);
	} else {
		outf(out, outlen, &len, "Difference at %.1f%% confidence\n",
		    confidence);
		outf(out, outlen, &len, "\t%g +/- %g\n", t.diff, t.err);
		outf(out, outlen, &len, "\t%g%% +/- %g%%\n", t.rel_diff,
		    t.rel_err);
		outf(out, outlen, &len, "\t(Student's t, pooled s = %g)\n",
		    t.pooled_s);
	}
	return len > (size_t)2147483647 ? -1 : (int)len;
}

/* Plot column of v in [0, width). */
static int
plot_col(double v, double lo, double hi, int width)
{
	int	c;

	if (!(hi > lo))
		return width / 2;
	c = (int)lround((v - lo) / (hi - lo) * (width - 1));
	return c < 0 ? 0 : c >= width ? width - 1 : c;
}

/* The "|___M_A___|" row of one sample. */
static void
plot_bar(const double *x, size_t n, double lo, double hi, int width,
    char *row)
{
	double	m, sd;
	int	c, l, r;

	m = stats_mean(x, n);
	sd = n > 1 ? stats_stddev(x, n) : 0.0;
	memset(row, ' ', (size_t)width);
	l = plot_col(m - sd, lo, hi, width);
	r = plot_col(m + sd, lo, hi, width);
	for (c = l; c <= r; c++)
		row[c] = '_';
	row[l] = '|';
	row[r] = '|';
	row[plot_col(stats_median(x, n), lo, hi, width)] = 'M';
	row[plot_col(m, lo, hi, width)] = 'A';
	row[width] = '\0';
}

int
stats_ministat_plot(const double *a, size_t na, const double *b, size_t nb,
    int width, char *out, size_t outlen, char *err, size_t errlen)
{
	size_t	*ca = NULL, *cb = NULL, rows = 0, r, i, len = 0;
	char	*row = NULL;
	double	 lo, hi;
	int	 c;

	if (stats_check(a, na, err, errlen) == -1 ||
	    stats_check(b, nb, err, errlen) == -1)
		return -1;
	if (width < 20 || width > 1000) {
		util_seterr(err, errlen, "plot width %d not in [20, 1000]",
		    width);
		return -1;
	}
	width -= 2;	/* the frame */
	lo = fmin(stats_quantile(a, na, 0), stats_quantile(b, nb, 0));
	hi = fmax(stats_quantile(a, na, 1), stats_quantile(b, nb, 1));
	ca = xcalloc((size_t)width, sizeof *ca);
	cb = xcalloc((size_t)width, sizeof *cb);
	row = xmalloc((size_t)width + 1);
	for (i = 0; i < na; i++)
		ca[plot_col(a[i], lo, hi, width)]++;
	for (i = 0; i < nb; i++)
		cb[plot_col(b[i], lo, hi, width)]++;
	for (c = 0; c < width; c++)
		rows = ca[c] > rows ? ca[c] : cb[c] > rows ? cb[c] : rows;
	if (outlen > 0)
		out[0] = '\0';
	memset(row, '-', (size_t)width);
	row[width] = '\0';
	outf(out, outlen, &len, "+%s+\n", row);
	for (r = rows; r-- > 0;) {
		for (c = 0; c < width; c++)
			row[c] = r < ca[c] && r < cb[c] ? '*' : r < ca[c] ?
			    'x' : r < cb[c] ? '+' : ' ';
		outf(out, outlen, &len, "|%s|\n", row);
	}
	plot_bar(a, na, lo, hi, width, row);
	outf(out, outlen, &len, "|%s|\n", row);
	plot_bar(b, nb, lo, hi, width, row);
	outf(out, outlen, &len, "|%s|\n", row);
	memset(row, '-', (size_t)width);
	outf(out, outlen, &len, "+%s+\n", row);
	free(ca);
	free(cb);
	free(row);
	return len > (size_t)2147483647 ? -1 : (int)len;
}
