/*
 * cmd_facts.c: `facts [--if IF]` -- what a result must be tagged with: OS,
 * kernel and revision, hostname, per NIC driver / PCI ids / link / MTU /
 * offloads, and the workload tools with their versions.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "osdep.h"
#include "state.h"
#include "validate.h"

#define FACTS_MAXIFS	64	/* a host with more: the first 64 (the controller
				   asks for an inventory NIC past them by name) */

/*
 * The version word of a tool's -v/-V output: iperf2 "iperf version 2.1.8
 * (...)", iperf3 "iperf 3.12 (cJSON ...)", ssh "OpenSSH_9.2p1 Debian...".
 */
void
agent_tool_version(const char *tool, const char *text, char *out, size_t len)
{
	const char *p = NULL;
	size_t	 n;

	out[0] = '\0';
	if (strcmp(tool, "iperf2") == 0) {
		if ((p = strstr(text, "iperf version ")) != NULL)
			p += strlen("iperf version ");
	} else if (strcmp(tool, "iperf3") == 0) {
		if ((p = strstr(text, "iperf ")) != NULL)
			p += strlen("iperf ");
	} else if ((p = strstr(text, "OpenSSH")) == NULL)
		p = text;
	if (p == NULL)
		return;
	n = strcspn(p, " ,\n\r\t");
	if (n == 0 || n >= len || n > 40)
		return;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* Runs argv and extracts the tool version from stdout+stderr ("" if the
 * tool is missing). */
void
agent_probe_version(const char *tool, char *const argv[], char *out,
    size_t len)
{
	struct exec_result r;
	char	 err[256], *both;

	out[0] = '\0';
	if (osdep_run(argv, 5000, &r, err, sizeof(err)) == 0 && r.exited &&
	    r.status != 127) {
		if ((both = malloc(r.outlen + r.errlen + 2)) != NULL) {
			snprintf(both, r.outlen + r.errlen + 2, "%s\n%s", r.out,
			    r.err);
			agent_tool_version(tool, both, out, len);
			free(both);
		}
	}
	exec_free(&r);
}

/*
 * The cache (PROTOCOL.md "State on the host"): a probe is a process, on
 * every iperf run otherwise.  Anything unusual (no such file, an
 * unreadable or odd cache, no state directory) probes as before.
 */
void
agent_probe_version_cached(const char *tool, char *const argv[], char *out,
    size_t len)
{
	const char *path = getenv("PATH");
	struct stat sb;
	char	 bin[512], cpath[512], key[128], buf[256], err[256];
	size_t	 n, klen;
	int	 found = 0;

	while (path != NULL && *path != '\0' && !found) {
		n = strcspn(path, ":");
		if (n > 0 && n + strlen(argv[0]) + 2 <= sizeof(bin)) {
			snprintf(bin, sizeof(bin), "%.*s/%s", (int)n, path,
			    argv[0]);
			found = stat(bin, &sb) == 0 && S_ISREG(sb.st_mode) &&
			    (sb.st_mode & 0111) != 0;
		}
		path += n + (path[n] == ':');
	}
	if (!found || state_path(cpath, sizeof(cpath), "tools", tool) == -1) {
		agent_probe_version(tool, argv, out, len);
		return;
	}
	snprintf(key, sizeof(key), "%llu %llu %lld %lld %ld",
	    (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino,
	    (long long)sb.st_size, (long long)sb.st_mtime,
	    (long)sb.st_mtim.tv_nsec);
	klen = strlen(key);
	/* "KEY\nVERSION": a version of digits, letters, . + - _ */
	if (osdep_read_small(cpath, buf, sizeof(buf)) == 0 &&
	    strncmp(buf, key, klen) == 0 && buf[klen] == '\n' &&
	    buf[klen + 1] != '\0' && strlen(buf + klen + 1) < len &&
	    strspn(buf + klen + 1, "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+-_") == strlen(buf + klen + 1)) {
		snprintf(out, len, "%s", buf + klen + 1);
		return;
	}
	agent_probe_version(tool, argv, out, len);
	if (out[0] == '\0' || state_mkdir("tools", err, sizeof(err)) == -1)
		return;
	snprintf(buf, sizeof(buf), "%s\n%s\n", key, out);
	(void)state_write_atomic(cpath, buf, strlen(buf), 0600, err,
	    sizeof(err));
}

static void
emit_tristate(struct emit *e, const char *key, int v)
{
	if (v < 0)
		emit_null(e, key);
	else
		emit_bool(e, key, v);
}

static void
emit_nic(struct emit *e, const struct osdep_nic *n)
{
	char	 hex[16];

	emit_obj(e, NULL);
	emit_str(e, "name", n->name);
	emit_str(e, "driver", n->driver[0] ? n->driver : NULL);
	if (n->pci_vendor >= 0 && n->pci_device >= 0) {
		snprintf(hex, sizeof(hex), "0x%04x", n->pci_vendor);
		emit_str(e, "pci_vendor", hex);
		snprintf(hex, sizeof(hex), "0x%04x", n->pci_device);
		emit_str(e, "pci_device", hex);
		snprintf(hex, sizeof(hex), "0x%04x%04x", n->pci_device,
		    n->pci_vendor);
		emit_str(e, "chip", hex);
	} else {
		emit_null(e, "pci_vendor");
		emit_null(e, "pci_device");
		emit_null(e, "chip");
	}
	if (n->speed_mbps > 0)
		emit_int(e, "speed_mbps", n->speed_mbps);
	else
		emit_null(e, "speed_mbps");
	emit_str(e, "duplex", n->duplex == PARSE_DUPLEX_FULL ? "full" :
	    n->duplex == PARSE_DUPLEX_HALF ? "half" : NULL);
	if (n->mtu > 0)
		emit_int(e, "mtu", n->mtu);
	else
		emit_null(e, "mtu");
	emit_tristate(e, "tso", n->tso);
	emit_tristate(e, "tso_partial", n->tso_partial);
	emit_tristate(e, "lro", n->lro);
	emit_tristate(e, "rxcsum", n->rxcsum);
	emit_tristate(e, "txcsum", n->txcsum);
	emit_end(e);
}

static void
emit_tools(struct emit *e)
{
	char	*iperf2[] = { "iperf", "-v", NULL };
	char	*iperf3[] = { "iperf3", "-v", NULL };
	char	*ssh[] = { "ssh", "-V", NULL };
	char	 v[64];

	emit_obj(e, "tools");
	agent_probe_version_cached("iperf2", iperf2, v, sizeof(v));
	emit_str(e, "iperf2", v[0] ? v : NULL);
	agent_probe_version_cached("iperf3", iperf3, v, sizeof(v));
	emit_str(e, "iperf3", v[0] ? v : NULL);
	agent_probe_version_cached("ssh", ssh, v, sizeof(v));
	emit_str(e, "scp", v[0] ? v : NULL);
	emit_end(e);
}

int
agent_cmd_facts(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 1, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	const struct osdep_dialect *d = osdep_host();
	static char ifs[FACTS_MAXIFS][OSDEP_IFNAMSIZ];
	struct osdep_kernel k;
	struct osdep_nic nic;
	struct emit e;
	char	 err[1024], host[256];
	int	 i, n, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if ((rc = d->kernel(&k, err, sizeof(err))) != AGENT_EXIT_OK)
		return emit_error(rc, err);
	if (opts[0].seen) {
		for (n = 0; n < opts[0].seen; n++)
			snprintf(ifs[n], OSDEP_IFNAMSIZ, "%s", opts[0].vals[n]);
	} else if ((n = d->list_ifs(ifs, FACTS_MAXIFS, err, sizeof(err))) < 0)
		return emit_error(AGENT_EXIT_COMMAND, err);
	if (gethostname(host, sizeof(host)) == -1)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "facts");
	emit_str(&e, "os", k.os);
	emit_str(&e, "hostname", host);
	emit_obj(&e, "kernel");
	emit_str(&e, "release", k.release);
	emit_str(&e, "version", k.version);
	emit_str(&e, "revision", k.revision[0] ? k.revision : NULL);
	if (k.osreldate >= 0)
		emit_int(&e, "osreldate", k.osreldate);
	else
		emit_null(&e, "osreldate");
	emit_end(&e);
	emit_arr(&e, "nics");
	for (i = 0; i < n; i++) {
		if ((rc = d->nic(ifs[i], &nic, err, sizeof(err))) !=
		    AGENT_EXIT_OK) {
			emit_free(&e);
			return emit_error(rc, err);
		}
		emit_nic(&e, &nic);
	}
	emit_end(&e);
	emit_tools(&e);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}
