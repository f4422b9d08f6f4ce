/*
 * run_fixture.h: what the run module's tests share: the demo plan over the
 * fixture lab, and that lab with every host at a closed port of 127.0.0.1
 * (a run whose hosts cannot be reached: restores are only logged, the
 * executor cannot start), a store on tmpfs, and small accessors.
 * Header-only (static functions and data) so each test program carries
 * its own copy; setup()/teardown() are the group's fixtures.
 */
#ifndef LABRAT_RUN_FIXTURE_H
#define LABRAT_RUN_FIXTURE_H

#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include "config.h"
#include "run.h"
#include "store.h"
#include "store_fixture.h"
#include "tmpdir_fixture.h"
#include "util.h"

#define DEMO_JOBS	48	/* configs/plan-demo.json on em + bce */

static char	dbpath[256], plan[512], inv[512], deadinv[512];
static char	tmp[256];

/* A port of 127.0.0.1 nothing listens on (the kernel's pick, let go). */
static int
closed_port(void)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	close(fd);
	return ntohs(sin.sin_port);
}

/* The fixture lab with every host at a closed port of 127.0.0.1. */
static void
write_dead_inventory(void)
{
	char	*text, *out, *p, err[512];
	size_t	 len, o = 0;
	int	 port;

	text = util_read_file(inv, CONFIG_FILE_MAX, &len, err, sizeof err);
	if (text == NULL)
		fail_msg("%s", err);
	port = closed_port();
	out = xcalloc(1, len * 2 + 1);
	for (p = text; *p != '\0'; ) {
		if (strncmp(p, "\"192.0.2.", 9) == 0) {
			o += (size_t)sprintf(out + o, "\"127.0.0.1\"");
			p = strchr(p + 1, '"') + 1;
		} else if (strncmp(p, "\"ssh\": {", 8) == 0) {
			o += (size_t)sprintf(out + o, "\"ssh\": { \"port\": %d,",
			    port);
			p += 8;
		} else
			out[o++] = *p++;
	}
	/* Its key and known_hosts exist: what fails is the connection. */
	snprintf(deadinv, sizeof deadinv, "%s/k", tmp);
	assert_int_equal(util_write_file_atomic(deadinv, "", 0, 0600, err,
	    sizeof err), 0);
	snprintf(deadinv, sizeof deadinv, "%s/kh", tmp);
	assert_int_equal(util_write_file_atomic(deadinv, "", 0, 0644, err,
	    sizeof err), 0);
	snprintf(deadinv, sizeof deadinv, "%s/lab.json", tmp);
	if (util_write_file_atomic(deadinv, out, o, 0644, err,
	    sizeof err) == -1)
		fail_msg("%s", err);
	free(out);
	free(text);
}

static int
setup(void **state)
{
	const char	*src = getenv("LABRAT_SOURCE_DIR");
	const char	*fixtures = getenv("LABRAT_FIXTURES");

	(void)state;
	if (src == NULL || fixtures == NULL)
		return -1;
	fx_db_path(dbpath, sizeof dbpath, "run");
	snprintf(plan, sizeof plan, "%s/configs/plan-demo.json", src);
	snprintf(inv, sizeof inv, "%s/config/cross/lab.json", fixtures);
	if (fx_tmpdir(tmp, sizeof tmp, "run") == -1)
		return -1;
	write_dead_inventory();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	fx_rmtree(tmp);
	return 0;
}

static struct store *
db_open(void)
{
	struct store	*st = NULL;
	char		 err[512];

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

static struct run *
create(const char *invpath, const char *owner)
{
	struct config_errors	 errs;
	struct run		*r = NULL;
	char			 err[1024];

	config_errors_init(&errs);
	if (run_create(dbpath, invpath, plan, "manual", owner, &r, &errs, err,
	    sizeof err) != RUN_OK)
		fail_msg("run_create: %s (%zu config errors)", err, errs.n);
	config_errors_free(&errs);
	assert_non_null(r);
	return r;
}

/* The run's row; store_run_free() it. */
static struct store_run
row(struct store *st, int64_t id)
{
	struct store_run	r;
	char			err[512];

	memset(&r, 0, sizeof r);
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	return r;
}

#endif
