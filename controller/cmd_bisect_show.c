/*
 * cmd_bisect_show: `labrat bisect status|log` and the result of start and
 * resume, written by the hunt module (hunt_show()) from the store alone.
 */
#include <stdio.h>

#include "cmd.h"
#include "hunt.h"
#include "log.h"

int
bisect_cli_show(const char *db, int64_t id, int what, int json, FILE *fp)
{
	char	err[4096];
	int	rc;

	rc = hunt_show(db, id, (enum hunt_show)what, json, fp, err,
	    sizeof err);
	if (rc != 0)
		log_warnx("%s", err);
	return rc == -1 ? -1 : 0;
}
