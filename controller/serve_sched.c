/*
 * serve_sched: firing the stored schedules.  The decision is pure
 * (serve_sched_decide: table-tested); the tick applies it to the store in
 * the order that makes a restart safe: the slot is stored as the
 * schedule's last firing before its night item is queued, and the queue
 * refuses a second item for one (schedule, slot), so a daemon killed at
 * any point never fires a slot twice, and the start-up pass (recover)
 * queues a stored slot whose item a kill prevented.
 */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "serve_int.h"
#include "util.h"

void
serve_sched_decide(const struct serve_sched_view *v, int64_t now_ms,
    struct serve_fire *f)
{
	struct cron_due	d;
	int64_t		base;

	memset(f, 0, sizeof *f);
	f->next = (time_t)-1;
	if (v->cs == NULL || !v->enabled)
		return;
	base = v->last_fired_ms != 0 ? v->last_fired_ms : v->created_ms;
	cron_due(&v->cs->cron, v->cs->zone, (time_t)(base / 1000),
	    (time_t)(now_ms / 1000), &d);
	f->next = d.next;
	if (!d.due)
		return;
	f->slot_ms = (int64_t)d.slot * 1000;
	f->missed = d.missed;
	if (v->active > 0) {
		f->held = 1;
		return;
	}
	f->fire = 1;
}

/* Queues the night item of (s, slot_ms); *added 1 when it is new. */
static int
sched_enqueue(struct store *st, const struct store_sched *s, int64_t slot_ms,
    int *added, char *err, size_t errlen)
{
	char	payload[128], who[128];
	int64_t	id;
	int	dup = 0;

	*added = 0;
	/* Names match ^[A-Za-z0-9._-]{1,64}$: nothing to escape. */
	snprintf(payload, sizeof payload, "{\"schedule\":\"%s\"}", s->name);
	snprintf(who, sizeof who, "schedule %s", s->name);
	if (store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY, payload, who,
	    s->id, slot_ms, &id, &dup, err, errlen) == -1)
		return -1;
	*added = !dup;
	if (!dup)
		log_info("schedule %s: slot %lld queued as item %lld",
		    s->name, (long long)(slot_ms / 1000), (long long)id);
	return 0;
}

static int
sched_one(struct store *st, struct cron_cache *cache,
    const struct store_sched *s, int64_t now_ms, int recover, int *fired,
    char *err, size_t errlen)
{
	struct serve_sched_view	 v;
	struct serve_fire	 f;
	struct cron_sched	 cs;
	char			 e[512], slot[64];
	int			 added, r;

	memset(&v, 0, sizeof v);
	if (cron_sched_compile(cache, s->cron, s->tz, s->name, &cs, e,
	    sizeof e) == 0)
		v.cs = &cs;
	else
		log_debug("schedule %s: %s", s->name, e);
	v.enabled = s->enabled;
	v.created_ms = s->created;
	v.last_fired_ms = s->last_fired;
	if (recover && s->last_fired != 0) {
		if (sched_enqueue(st, s, s->last_fired, &added, err,
		    errlen) == -1)
			return -1;
		if (added)
			log_warnx("schedule %s: its last firing had no queue "
			    "item (a daemon was killed between the two "
			    "writes): queued now", s->name);
		*fired += added;
	}
	if (v.cs == NULL || !v.enabled)
		return 0;
	if (store_q_active_for(st, s->id, &v.active, err, errlen) == -1)
		return -1;
	serve_sched_decide(&v, now_ms, &f);
	if (!f.fire)
		return 0;
	cron_format(cs.zone, (time_t)(f.slot_ms / 1000), slot, sizeof slot);
	if ((r = store_sched_fired(st, s->id, f.slot_ms, err, errlen)) == -1)
		return -1;
	if (r == 0)		/* stored already (another writer): not ours */
		return 0;
	log_info("schedule %s fires for %s%s", s->name, slot, f.missed > 0 ?
	    " (firings missed while no daemon ran collapse into this one)" :
	    "");
	if (sched_enqueue(st, s, f.slot_ms, &added, err, errlen) == -1)
		return -1;
	*fired += added;
	return 0;
}

int
serve_sched_tick(struct serve *sv, struct store *st, struct cron_cache *cache,
    int64_t now_ms, int recover, int *firedp, char *err, size_t errlen)
{
	struct store_sched	*v = NULL;
	size_t			 n = 0, i;
	int			 fired = 0, rc = 0;

	(void)sv;
	if (store_sched_list(st, &v, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		rc = sched_one(st, cache, &v[i], now_ms, recover, &fired, err,
		    errlen);
	store_scheds_free(v, n);
	if (firedp != NULL)
		*firedp = fired;
	return rc;
}
