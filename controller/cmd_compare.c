/*
 * cmd_compare: `labrat compare RUN_A RUN_B [--db F] [--link L] [--knobs KEY]
 * [--metric M] [--width N]`: ministat-style, RUN_A the baseline.  Exit 0
 * when no series regressed, 1 when at least one did, 2 on bad usage or
 * when the runs cannot be read or have nothing in common.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

static void
compare_usage(void)
{
	fprintf(stderr, "usage: labrat compare RUN_A RUN_B [--db FILE] "
	    "[--link LINK] [--knobs KEY]\n"
	    "                      [--metric METRIC] [--width N]\n");
}

int
cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "link", required_argument, NULL, 'l' },
		{ "knobs", required_argument, NULL, 'k' },
		{ "metric", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_compare_opts	 o;
	const char			*dbopt = NULL, *errstr;
	char				*db, err[1024];
	long long			 a, b, w;
	int				 ch, nreg = 0, rc;

	memset(&o, 0, sizeof o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			dbopt = optarg;
			break;
		case 'l':
			o.link = optarg;
			break;
		case 'k':
			o.knobs = optarg;
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'w':
			if (util_strtonum(optarg, 20, 400, &w, &errstr) == -1) {
				fprintf(stderr, "labrat compare: --width %s: "
				    "%s\n", optarg, errstr);
				return CMD_EXIT_USAGE;
			}
			o.width = (int)w;
			break;
		default:
			compare_usage();
			return CMD_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		compare_usage();
		return CMD_EXIT_USAGE;
	}
	if (util_strtonum(argv[optind], 1, INT64_MAX, &a, &errstr) == -1 ||
	    util_strtonum(argv[optind + 1], 1, INT64_MAX, &b, &errstr) == -1) {
		fprintf(stderr, "labrat compare: run ids are numbers >= 1\n");
		return CMD_EXIT_USAGE;
	}
	db = cmd_db_path(dbopt);
	rc = report_compare(db, a, b, &o, stdout, &nreg, err, sizeof err);
	free(db);
	if (rc == -1) {
		fprintf(stderr, "labrat compare: %s\n", err);
		return CMD_EXIT_USAGE;
	}
	return nreg > 0 ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}
