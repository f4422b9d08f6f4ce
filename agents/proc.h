/*
 * proc.h: detached helper processes (the rollback timer, workload servers)
 * and their pid files.  A pid file is held under an fcntl write lock by the
 * process it names for as long as that process lives (the lock survives
 * exec), so "who holds the lock" identifies it without trusting a stale pid
 * that may have been reused.
 */
#ifndef LABRAT_AGENT_PROC_H
#define LABRAT_AGENT_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Runs fn(arg, notify_fd) in a grandchild detached from the caller (setsid,
 * double fork, stdin /dev/null, stdout+stderr appended to logpath, other
 * descriptors closed).  fn must call proc_pidfile_take() and then
 * proc_notify(notify_fd) once it is ready; its return value is the
 * grandchild's exit status.  Returns the grandchild's pid in the caller, or
 * -1 with err if it never became ready within 10 s.
 */
pid_t	proc_detach(const char *logpath, int (*fn)(void *, int), void *arg,
	    char *err, size_t errlen);
/* Tells the caller of proc_detach() that we are ready. */
void	proc_notify(int notify_fd);
/* Creates path, write-locks it and writes our pid.  The fd (to keep open,
 * also across exec) or -1. */
int	proc_pidfile_take(const char *path);
/* Pid of the live process holding path's lock, or 0 if none. */
pid_t	proc_pidfile_holder(const char *path);
/* SIGTERM the holder (SIGKILL after wait_ms), wait for it to go, remove
 * path.  Returns the pid stopped, or 0 if nobody held it. */
pid_t	proc_pidfile_stop(const char *path, int wait_ms);
/* The pause before the next look at something that takes a few ms: 1 ms
 * at first, a tenth of waited_ms later, at most max_ms. */
int	proc_backoff_ms(int waited_ms, int max_ms);
/* Sleeps ms milliseconds (restarting after signals). */
void	proc_sleep_ms(long ms);

#endif
