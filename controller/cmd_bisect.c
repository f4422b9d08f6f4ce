/*
 * cmd_bisect: `labrat bisect start|status|log|resume|reset`.  The driver is
 * the hunt module; this file parses the arguments, turns SIGINT / SIGTERM
 * into hunt's stop flag, prints its progress on stderr and the result
 * (cmd_bisect_show.c).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hunt.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

static volatile sig_atomic_t	cli_stop;

static void
cli_on_signal(int sig)
{
	(void)sig;
	cli_stop = 1;
}

/* arg: int *quiet.  A replay is said even when quiet. */
static void
cli_event(const struct hunt_event *ev, void *arg)
{
	const int	*quiet = arg;

	if (*quiet && ev->kind != HUNT_EV_REPLAYED)
		return;
	fprintf(stderr, "labrat: %s\n", ev->text);
}

/* hunt_start() (rq) or hunt_resume() (id) with the signals caught; the
 * outcome printed; CMD_EXIT_*. */
static int
cli_hunt(const char *db, const struct hunt_request *rq, int64_t id,
    int json, int quiet)
{
	struct hunt_opts	o;
	struct sigaction	sa, oint, oterm;
	enum hunt_status	st;
	char			err[4096];

	memset(&o, 0, sizeof o);
	o.db_path = db;
	o.stop = &cli_stop;
	o.event = cli_event;
	o.event_arg = &quiet;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cli_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	cli_stop = 0;
	err[0] = '\0';
	st = rq != NULL ? hunt_start(&o, rq, &id, err, sizeof err) :
	    hunt_resume(&o, id, &id, err, sizeof err);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	switch (st) {
	case HUNT_CONFIG:
		/* one error per line, "FILE: PATH: what", as config check */
		fprintf(stderr, "%s\n", err);
		return CMD_EXIT_USAGE;
	case HUNT_ERROR:
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	case HUNT_INTERRUPTED:
		log_warnx("bisect %lld: %s; `labrat bisect resume` continues "
		    "where it stopped", (long long)id, err);
		return CMD_EXIT_FAIL;
	default:
		break;
	}
	if (bisect_cli_show(db, id, 0, json, stdout) == -1)
		return CMD_EXIT_FAIL;
	return st == HUNT_FAILED ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

int
bisect_cli_start(const char *db, const struct hunt_request *rq, int json,
    int quiet)
{
	return cli_hunt(db, rq, 0, json, quiet);
}

static int
cli_reset(const char *db, int64_t id)
{
	char	err[1024], was[16];
	int64_t	rid;
	int	r;

	if ((r = hunt_reset(db, id, &rid, was, sizeof was, err,
	    sizeof err)) == -1)
		log_warnx("%s", err);
	else if (r == 0)
		log_warnx("%s: no bisect %lld", db, (long long)id);
	else
		fprintf(stderr, "labrat: bisect %lld reset (was %s)\n",
		    (long long)rid, was);
	return r == 1 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static void
bisect_usage(void)
{
	fprintf(stderr,
	    "usage: labrat bisect start --inventory F --link L --good REV "
	    "--bad REV --test F\n"
	    "                           [--revisions git:PATH[:SUB,...]|FILE] "
	    "[--replay LOG]\n"
	    "                           [--db F] [--format text|json] "
	    "[--quiet] [--leave-on-culprit]\n"
	    "       labrat bisect status|log|resume|reset [--bisect ID] "
	    "[--db F] [--format text|json]\n");
}

int
cmd_bisect(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "link", required_argument, NULL, 'l' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "test", required_argument, NULL, 't' },
		{ "revisions", required_argument, NULL, 'r' },
		{ "replay", required_argument, NULL, 'R' },
		{ "bisect", required_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "leave-on-culprit", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	struct hunt_request		 rq;
	const char			*sub, *dbopt = NULL, *errstr;
	char				*db;
	long long			 id = 0;
	int				 ch, rc, json = 0, quiet = 0;

	if (argc < 2) {
		bisect_usage();
		return CMD_EXIT_USAGE;
	}
	sub = argv[1];
	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = getopt_long(argc - 1, argv + 1, "", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'i': rq.inventory = optarg; break;
		case 'l': rq.link = optarg; break;
		case 'g': rq.good = optarg; break;
		case 'b': rq.bad = optarg; break;
		case 't': rq.test = optarg; break;
		case 'r': rq.revisions = optarg; break;
		case 'R': rq.replay = optarg; break;
		case 'd': dbopt = optarg; break;
		case 'q': quiet = 1; break;
		case 'L': rq.leave_on_culprit = 1; break;
		case 'n':
			if (util_strtonum(optarg, 1, INT64_MAX, &id,
			    &errstr) == -1) {
				fprintf(stderr, "labrat bisect: --bisect %s: "
				    "%s\n", optarg, errstr);
				return CMD_EXIT_USAGE;
			}
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0)
				json = 1;
			else if (strcmp(optarg, "text") != 0) {
				bisect_usage();
				return CMD_EXIT_USAGE;
			}
			break;
		default:
			bisect_usage();
			return CMD_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || (strcmp(sub, "start") == 0 &&
	    (rq.inventory == NULL || rq.link == NULL || rq.good == NULL ||
	    rq.bad == NULL || rq.test == NULL))) {
		bisect_usage();
		return CMD_EXIT_USAGE;
	}
	db = cmd_db_path(dbopt);
	if (strcmp(sub, "start") == 0 || strcmp(sub, "resume") == 0) {
		if (ssh_global_init() == -1) {
			free(db);
			return CMD_EXIT_FAIL;
		}
		rc = cli_hunt(db, strcmp(sub, "start") == 0 ? &rq : NULL, id,
		    json, quiet);
		ssh_global_cleanup();
	} else if (strcmp(sub, "status") == 0 || strcmp(sub, "log") == 0)
		rc = bisect_cli_show(db, id, strcmp(sub, "log") == 0 ? 2 : 1,
		    json, stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
	else if (strcmp(sub, "reset") == 0)
		rc = cli_reset(db, id);
	else {
		bisect_usage();
		rc = CMD_EXIT_USAGE;
	}
	free(db);
	return rc;
}
