/*
 * hunt_back: what the hosts of a bisect's link ran before it -- asked of
 * them before a new bisect's first step and stored with the bisect, read
 * back from the store on resume -- and putting them back there when the
 * bisect ends (found, range, failed) or is reset (ktest's SWITCH_TO_GOOD).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hunt_int.h"
#include "store.h"
#include "util.h"

static const struct config_host *
back_host(const struct hunt_sess *s, int server)
{
	return &s->inv->hosts[server ? s->link->server.host_index :
	    s->link->client.host_index];
}

/*
 * From the stored row: the one revision both hosts ran before (0, rev), or
 * why there is none to put them back on (-1, why).
 */
static int
back_target(const struct hunt_sess *s, char *rev, size_t revlen, char *why,
    size_t whylen)
{
	const char	*c = s->v.row.client_before, *sv = s->v.row.server_before;

	rev[0] = '\0';
	if (c == NULL || sv == NULL)
		snprintf(why, whylen, "what %s ran before the bisect is not "
		    "known", back_host(s, c != NULL)->name);
	else if (strcmp(c, sv) != 0)
		snprintf(why, whylen, "before the bisect %s ran %s, %s ran %s",
		    back_host(s, 0)->name, c, back_host(s, 1)->name, sv);
	else {
		snprintf(rev, revlen, "%s", c);
		return 0;
	}
	return -1;
}

/* Asks both hosts what they run and stores it (NULL: could not tell). */
static void
back_ask(struct hunt_sess *s)
{
	char	rev[2][STORE_NAME_MAX], e[1024];
	char	*got[2] = { NULL, NULL };
	int	i;

	for (i = 0; i < 2; i++) {
		if (s->ops->running(s->lab_arg, &s->lab, back_host(s, i),
		    rev[i], sizeof rev[i], e, sizeof e) == 0)
			got[i] = rev[i];
		else
			hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED,
			    NULL, "bisect %lld: %s", (long long)s->v.row.id,
			    e);
	}
	if (store_bisect_set_before(s->v.st, s->v.row.id, got[0], got[1], e,
	    sizeof e) == -1)
		hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED, NULL,
		    "bisect %lld: %s", (long long)s->v.row.id, e);
	free(s->v.row.client_before);
	free(s->v.row.server_before);
	s->v.row.client_before = got[0] != NULL ? xstrdup(got[0]) : NULL;
	s->v.row.server_before = got[1] != NULL ? xstrdup(got[1]) : NULL;
}

void
hunt_before(struct hunt_sess *s)
{
	char	why[512];

	s->before[0] = '\0';
	/* A new bisect asks; a resumed one has what its start stored. */
	if (s->v.nsteps == 0 && s->v.row.client_before == NULL &&
	    s->v.row.server_before == NULL && s->ops->running != NULL)
		back_ask(s);
	/* Said unless the lab cannot tell at all (nor was asked to). */
	if (back_target(s, s->before, sizeof s->before, why,
	    sizeof why) == -1 && !s->opts->leave_on_culprit &&
	    s->ops->running != NULL)
		hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED, NULL,
		    "bisect %lld: %s: the hosts stay on the revision the "
		    "bisect leaves them on", (long long)s->v.row.id, why);
}

void
hunt_put_back(struct hunt_sess *s, const struct bisect_result *res)
{
	const char	*rev = s->before;
	char		 reason[2048], e[1024];
	int		 r;

	if (s->opts->leave_on_culprit)
		rev = res->status == BISECT_FOUND ? bisect_id(s->v.m,
		    res->culprit) : "";
	if (rev[0] == '\0' || strcmp(rev, s->installed) == 0)
		return;
	hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED, rev,
	    "bisect %lld: putting the hosts %s %s", (long long)s->v.row.id,
	    s->opts->leave_on_culprit ? "on the culprit" : "back on", rev);
	if ((r = hunt_install(s, rev, reason, sizeof reason, e,
	    sizeof e)) != 0)
		hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED, rev,
		    "bisect %lld: hosts not put on %s: %s",
		    (long long)s->v.row.id, rev, r == 1 ? reason : e);
}

int
hunt_reset_back(struct hunt_sess *s, char *done, size_t donelen)
{
	char	rev[STORE_NAME_MAX], why[512], reason[2048], e[1024];
	int	r;

	if (back_target(s, rev, sizeof rev, why, sizeof why) == -1) {
		snprintf(done, donelen, "%s, %s stay where the bisect left "
		    "them: %s", back_host(s, 0)->name, back_host(s, 1)->name,
		    why);
		return 0;
	}
	if ((r = hunt_install(s, rev, reason, sizeof reason, e,
	    sizeof e)) != 0) {
		snprintf(done, donelen, "%s, %s not put back on %s: %s",
		    back_host(s, 0)->name, back_host(s, 1)->name, rev,
		    r == 1 ? reason : e);
		return -1;
	}
	snprintf(done, donelen, "%s, %s back on %s", back_host(s, 0)->name,
	    back_host(s, 1)->name, rev);
	return 0;
}
