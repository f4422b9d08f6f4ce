/*
 * cmd_report: `labrat report [RUN] [--db F] [--format text|json|csv|junit]
 * [--baseline RUN | --no-baseline]`.  Exit 0 when the report was written
 * (regressions or not: the report is the product; CI reads the JUnit
 * failures or the JSON), 1 when the database or the run cannot be read,
 * 2 on bad usage.  --fail-on-regression makes a regression exit 1 too.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

static void
report_usage(void)
{
	fprintf(stderr, "usage: labrat report [RUN] [--db FILE] "
	    "[--format text|json|csv|junit]\n"
	    "                     [--baseline RUN | --no-baseline] "
	    "[--fail-on-regression]\n");
}

int
cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "no-baseline", no_argument, NULL, 'n' },
		{ "fail-on-regression", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	enum report_format	 fmt = REPORT_TEXT;
	const char		*dbopt = NULL, *errstr;
	char			*db, err[1024];
	long long		 run = 0, base = 0;
	int			 ch, failreg = 0, nreg = 0, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			dbopt = optarg;
			break;
		case 'f':
			if (report_format_parse(optarg, &fmt) == -1) {
				report_usage();
				return CMD_EXIT_USAGE;
			}
			break;
		case 'b':
			if (util_strtonum(optarg, 1, INT64_MAX, &base,
			    &errstr) == -1) {
				fprintf(stderr, "labrat report: --baseline %s: "
				    "run id is %s\n", optarg, errstr);
				return CMD_EXIT_USAGE;
			}
			break;
		case 'n':
			base = -1;
			break;
		case 'F':
			failreg = 1;
			break;
		default:
			report_usage();
			return CMD_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		report_usage();
		return CMD_EXIT_USAGE;
	}
	if (optind < argc && util_strtonum(argv[optind], 1, INT64_MAX, &run,
	    &errstr) == -1) {
		fprintf(stderr, "labrat report: %s: run id is %s\n",
		    argv[optind], errstr);
		return CMD_EXIT_USAGE;
	}
	db = cmd_db_path(dbopt);
	rc = report_run(db, run, base, fmt, stdout, &nreg, err, sizeof err);
	free(db);
	if (rc == -1) {
		fprintf(stderr, "labrat report: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return failreg && nreg > 0 ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}
