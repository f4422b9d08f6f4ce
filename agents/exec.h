/*
 * exec.h: run one host command from an argv array (never a shell string)
 * with a deadline and capped capture of its stdout and stderr.
 */
#ifndef LABRAT_AGENT_EXEC_H
#define LABRAT_AGENT_EXEC_H

#include <stddef.h>

#define EXEC_CAP_DEFAULT	(1024u * 1024)	/* bytes kept per stream */
#define EXEC_TIMEOUT_DEFAULT	30000		/* ms */

struct exec_result {
	int	 exited;	/* 1: exited normally with status */
	int	 status;	/* exit status, or -1 */
	int	 signo;		/* terminating signal, or 0 */
	int	 timed_out;	/* killed at the deadline */
	char	*out;		/* NUL-terminated, heap, owned; exec_free() */
	size_t	 outlen;
	int	 out_truncated;	/* more than cap bytes were written */
	char	*err;
	size_t	 errlen;
	int	 err_truncated;
	long long elapsed_ms;
};

/*
 * Runs argv[0] (PATH search) in its own process group with stdin from
 * /dev/null.  At timeout_ms the whole group gets SIGTERM, then SIGKILL one
 * second later.  Output beyond cap per stream is read and dropped.
 * Returns 0 when the command ran (inspect r), -1 with err when it could not
 * be started (fork failed, not found); r is then still exec_free()-able.
 */
int	exec_run(char *const argv[], int timeout_ms, size_t cap,
	    struct exec_result *r, char *err, size_t errlen);
void	exec_free(struct exec_result *);
/*
 * exec_run() of fn(arg) in a forked child instead of a program (name for
 * messages): the child's exit status is fn's return value (stdio flushed
 * by exit()); SIGPIPE stays as the caller has it.
 */
int	exec_call(const char *name, int (*fn)(void *), void *arg,
	    int timeout_ms, size_t cap, struct exec_result *r, char *err,
	    size_t errlen);

/*
 * exec_run() and judge it: returns AGENT_EXIT_OK when the command exited 0,
 * else AGENT_EXIT_TIMEOUT / AGENT_EXIT_COMMAND with err naming the command,
 * its exit status and the first line of its stderr.  r is filled either way.
 */
int	exec_cmd(char *const argv[], int timeout_ms, struct exec_result *r,
	    char *err, size_t errlen);
/* Milliseconds of CLOCK_MONOTONIC: for deadlines and elapsed times. */
long long exec_now_ms(void);
/* "ifconfig em0 -tso" (for messages) into buf. */
void	exec_argv_str(char *const argv[], char *buf, size_t len);

#endif
