/*
 * qfill: test-only access to a real store's daemon queue and heartbeat
 * (the store module's API, no mocks) for tests/integration/queue_cli.sh,
 * until `labrat serve` writes them itself:
 *   qfill DB daemon OWNER            register OWNER as the serving daemon
 *   qfill DB unregister OWNER        it stopped (the row stays)
 *   qfill DB add KIND PRIO PAYLOAD WHO [SCHEDULE SLOT]   prints the id
 *   qfill DB claim OWNER             claims the best item, prints its id
 *   qfill DB finish ID STATE RESULT  done, failed or cancelled
 *   qfill DB ids ID RUN BISECT       the run and bisect an item made
 * Exit 0, 1 on a store error (message on stderr), 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_daemon.h"

static int
kind_of(const char *s)
{
	int	k;

	for (k = STORE_Q_RUN; k <= STORE_Q_HEALTH; k++)
		if (strcmp(store_q_kind_name(k), s) == 0)
			return k;
	return -1;
}

static int
state_of(const char *s)
{
	int	k;

	for (k = STORE_Q_QUEUED; k <= STORE_Q_CANCELLED; k++)
		if (strcmp(store_q_state_name(k), s) == 0)
			return k;
	return -1;
}

static int
run(struct store *st, int argc, char **argv, char *err, size_t errlen)
{
	struct store_daemon	other;
	struct store_q_item	it;
	const char		*cmd = argv[2];
	int64_t			id;
	int			dup, rc;

	if (strcmp(cmd, "daemon") == 0 && argc == 4) {
		rc = store_daemon_register(st, argv[3], STORE_DAEMON_STALE_MS,
		    &other, err, errlen);
		if (rc == 1)
			snprintf(err, errlen, "refused: %s serves", other.owner);
		store_daemon_free(&other);
		return rc == 0 ? 0 : -1;
	}
	if (strcmp(cmd, "unregister") == 0 && argc == 4)
		return store_daemon_unregister(st, argv[3], err, errlen);
	if (strcmp(cmd, "add") == 0 && (argc == 7 || argc == 9) &&
	    kind_of(argv[3]) >= 0) {
		if (store_q_add(st, kind_of(argv[3]), atoi(argv[4]), argv[5],
		    argv[6], argc == 9 ? atoll(argv[7]) : 0, argc == 9 ?
		    atoll(argv[8]) : 0, &id, &dup, err, errlen) == -1)
			return -1;
		printf("%lld%s\n", (long long)id, dup ? " dup" : "");
		return 0;
	}
	if (strcmp(cmd, "claim") == 0 && argc == 4) {
		if ((rc = store_q_claim(st, argv[3], ~0u, &it, err,
		    errlen)) == -1)
			return -1;
		printf("%lld\n", rc == 1 ? (long long)it.id : 0LL);
		store_q_item_free(&it);
		return 0;
	}
	if (strcmp(cmd, "finish") == 0 && argc == 6 && state_of(argv[4]) >= 0)
		return store_q_finish(st, atoll(argv[3]), state_of(argv[4]),
		    argv[5], err, errlen);
	if (strcmp(cmd, "ids") == 0 && argc == 6)
		return store_q_set_ids(st, atoll(argv[3]), atoll(argv[4]),
		    atoll(argv[5]), err, errlen);
	return -2;
}

int
main(int argc, char **argv)
{
	struct store	*st;
	char		 err[1024] = "";
	int		 rc;

	if (argc < 3) {
		fprintf(stderr, "usage: qfill DB daemon|unregister|add|claim|"
		    "finish|ids ...\n");
		return 2;
	}
	if (store_open(argv[1], STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "qfill: %s\n", err);
		return 1;
	}
	rc = run(st, argc, argv, err, sizeof err);
	store_close(st);
	if (rc == -2)
		fprintf(stderr, "qfill: bad usage: %s\n", argv[2]);
	else if (rc == -1)
		fprintf(stderr, "qfill: %s\n", err);
	return rc == 0 ? 0 : rc == -2 ? 2 : 1;
}
