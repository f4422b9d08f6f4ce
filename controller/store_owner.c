/*
 * store_owner: who owns a run or a bisect and whether it still lives (the
 * one liveness check of runs and bisects), the busy budget with its
 * back-off, and what a store fault asks of the user.  See store.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "store_int.h"
#include "util.h"

#define BUSY_STEP_MAX_MS	100

void
store_owner_self(struct store_owner *o)
{
	memset(o, 0, sizeof *o);
	/* The same 63 bytes run_owner_default() keeps. */
	if (gethostname(o->host, 64) == -1)
		snprintf(o->host, sizeof o->host, "?");
	o->host[63] = '\0';
	o->pid = (int64_t)getpid();
	if (store_owner_proc_start(o->pid, &o->start) == -1)
		o->start = 0;
	o->since = store_now();
}

/*
 * /proc/PID/stat: "pid (comm) S ppid ... starttime ...", starttime the
 * 22nd field; comm may hold spaces and parentheses, so fields count from
 * the last ')'.  Without /proc (FreeBSD without linprocfs) the start is
 * unknown (0) and kill(pid, 0) alone tells whether the pid lives.
 */
int
store_owner_proc_start(int64_t pid, int64_t *start)
{
	char		 path[64], buf[1024], *p, *end;
	FILE		*fp;
	size_t		 n;
	int		 field;

	*start = 0;
	if (pid <= 0 || pid > INT32_MAX)
		return -1;
	snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
	if ((fp = fopen(path, "r")) == NULL) {
		if (access("/proc/self/stat", R_OK) == 0)
			return -1;	/* /proc works: no such process */
		return kill((pid_t)pid, 0) == -1 && errno == ESRCH ? -1 : 0;
	}
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return -1;
	p += 2;
	/* Field 3, the state: a zombie (or dead) process has exited. */
	if (*p == 'Z' || *p == 'X' || *p == 'x')
		return -1;
	for (field = 3; field < 22 && p != NULL; field++) {
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p == NULL)
		return -1;
	errno = 0;
	*start = strtoll(p, &end, 10);
	if (errno != 0 || end == p)
		*start = 0;
	return 0;
}

enum store_owner_state
store_owner_state(const struct store_owner *o)
{
	struct store_owner	self;
	int64_t			start;

	if (o->host[0] == '\0' || o->pid <= 0)
		return STORE_OWNER_UNKNOWN;
	store_owner_self(&self);
	if (strcmp(o->host, self.host) != 0)
		return STORE_OWNER_ELSEWHERE;
	if (store_owner_proc_start(o->pid, &start) == -1)
		return STORE_OWNER_GONE;
	/* Both known and different: the pid was reused since. */
	if (o->start != 0 && start != 0 && o->start != start)
		return STORE_OWNER_GONE;
	return STORE_OWNER_ALIVE;
}

void
store_owner_text(const struct store_owner *o, char *buf, size_t len)
{
	char		since[32] = "";
	struct tm	tm;
	time_t		t;

	if (o->since > 0) {
		t = (time_t)(o->since / 1000);
		if (gmtime_r(&t, &tm) != NULL)
			strftime(since, sizeof since, " since %H:%M UTC", &tm);
	}
	snprintf(buf, len, "pid %lld on %s%s", (long long)o->pid,
	    o->host[0] != '\0' ? o->host : "?", since);
}

int
store_owner_parse(const char *text, struct store_owner *o)
{
	const char	*colon, *errstr;
	char		 pid[32];
	long long	 v;
	size_t		 hl, pl;

	memset(o, 0, sizeof *o);
	if (text == NULL || (colon = strchr(text, ':')) == NULL)
		return -1;
	hl = (size_t)(colon - text);
	pl = strcspn(colon + 1, ":");
	if (hl == 0 || hl >= sizeof o->host || pl == 0 || pl >= sizeof pid)
		return -1;
	memcpy(pid, colon + 1, pl);
	pid[pl] = '\0';
	if (util_strtonum(pid, 1, INT32_MAX, &v, &errstr) == -1)
		return -1;
	memcpy(o->host, text, hl);
	o->host[hl] = '\0';
	o->pid = v;
	return 0;
}

void
store_owner_cols(sqlite3_stmt *stmt, int i, struct store_owner *o)
{
	memset(o, 0, sizeof *o);
	store_cols(stmt, i, "sIII", o->host, sizeof o->host, &o->pid,
	    &o->start, &o->since);
}

/* ---- busy budget, faults -------------------------------------------------- */

int
store_busy_budget_ms(char *err, size_t errlen)
{
	const char	*env = getenv("LABRAT_DB_BUSY_TIMEOUT"), *errstr;
	long long	 v;

	if (env == NULL || *env == '\0')
		return STORE_BUSY_MS;
	if (util_strtonum(env, 0, 86400, &v, &errstr) == -1) {
		util_seterr(err, errlen, "LABRAT_DB_BUSY_TIMEOUT=%s: seconds "
		    "are %s (0 to 86400)", env, errstr);
		return -1;
	}
	return (int)(v * 1000);
}

/*
 * SQLite's busy handler: called with count 0, 1, ... while a lock is
 * held elsewhere; returning 0 gives up (SQLITE_BUSY).  The pause is a
 * quarter of the time waited so far, from 1 ms up to BUSY_STEP_MAX_MS: a
 * waiter is at most a quarter late, so the links' workers, whose
 * transactions take a few ms and often come at once (a batch's first
 * claims), queue up behind each other in about the sum of their
 * transactions instead of doubling pauses (the fourth of four waited
 * 27 ms for three claims of 3 ms), and a long hold is polled ten times a
 * second.
 */
int
store_busy_wait(void *arg, int count)
{
	struct store	*st = arg;
	int64_t		 now = util_now_ms(), left, step;

	if (count == 0)
		st->busy_since = now;
	left = st->busy_ms - (now - st->busy_since);
	if (left <= 0)
		return 0;
	step = (now - st->busy_since) / 4;
	if (step < 1)
		step = 1;
	if (step > BUSY_STEP_MAX_MS)
		step = BUSY_STEP_MAX_MS;
	if (step > left)
		step = left;
	usleep((useconds_t)step * 1000);
	return 1;
}

enum store_fault
store_last_fault(const struct store *st)
{
	return st->fault;
}

const char *
store_fault_advice(enum store_fault f)
{
	switch (f) {
	case STORE_FAULT_FULL:
		return "free space on the database's file system";
	case STORE_FAULT_BUSY:
		return "let the process that holds the database lock finish "
		    "(or raise LABRAT_DB_BUSY_TIMEOUT)";
	case STORE_FAULT_IO:
		return "check the disk and the database file";
	default:
		return NULL;
	}
}
