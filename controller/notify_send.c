/*
 * notify_send.c: one message to every target.  A failing target does not
 * stop the others; the error lists each failed one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "config.h"
#include "notify.h"
#include "notify_int.h"
#include "util.h"

static const char *
target_name(const struct notify_target *t)
{
	switch (t->kind) {
	case NOTIFY_WEBHOOK:
		return "webhook";
	case NOTIFY_SMTP:
		return "smtp";
	case NOTIFY_SENDMAIL:
		return "sendmail";
	}
	return "target";
}

static int
send_one(const struct notify_target *t, const struct notify_msg *m,
    const char *json, char *err, size_t errlen)
{
	struct client_mail	 cm;
	char			*text;
	int			 tmo = (t->timeout_s > 0 ? t->timeout_s : 30) * 1000;
	int			 rc;

	if (t->kind == NOTIFY_WEBHOOK) {
		if (json == NULL) {
			util_seterr(err, errlen, "webhook %s: no JSON body",
			    notify_str(t->url));
			return -1;
		}
		return client_webhook_post(t->url, json, tmo, err, errlen);
	}
	if ((text = notify_mail_text(m, t->from, t->to)) == NULL) {
		util_seterr(err, errlen, "%s: no message", target_name(t));
		return -1;
	}
	if (t->kind == NOTIFY_SMTP) {
		memset(&cm, 0, sizeof cm);
		cm.url = t->url;
		cm.from = t->from;
		cm.to = t->to;
		cm.message = text;
		cm.timeout_ms = tmo;
		rc = client_smtp_send(&cm, err, errlen);
		if (rc == -1) {
			char	e[1024];

			snprintf(e, sizeof e, "smtp %s", err);
			util_seterr(err, errlen, "%s", e);
		}
	} else
		rc = client_sendmail(t->argv, text, tmo, err, errlen);
	free(text);
	return rc;
}

int
notify_send(const struct notify_target *t, size_t n,
    const struct notify_msg *m, char *err, size_t errlen)
{
	struct buf	 all;
	char		 e[1024], *json = NULL;
	size_t		 i, failed = 0;

	buf_init(&all, errlen > 0 ? errlen - 1 : 0);
	for (i = 0; i < n; i++)
		if (t[i].kind == NOTIFY_WEBHOOK && json == NULL)
			json = notify_webhook_json(m);
	for (i = 0; i < n; i++) {
		e[0] = '\0';
		if (send_one(&t[i], m, json, e, sizeof e) == 0)
			continue;
		buf_printf(&all, "%s%s", failed++ > 0 ? "; " : "", e);
	}
	free(json);
	if (failed > 0)
		util_seterr(err, errlen, "%zu of %zu notification targets "
		    "failed: %s", failed, n, all.data != NULL ? all.data : "");
	buf_free(&all);
	return failed > 0 ? -1 : 0;
}

struct notify_target *
notify_targets(const struct config_daemon *cfg, size_t *n)
{
	struct notify_target	*t;
	size_t			 i, k = 0;

	*n = 0;
	if (cfg == NULL || (cfg->nwebhooks == 0 && cfg->mail == NULL))
		return NULL;
	t = xcalloc(cfg->nwebhooks + 1, sizeof *t);
	for (i = 0; i < cfg->nwebhooks; i++, k++) {
		t[k].kind = NOTIFY_WEBHOOK;
		t[k].url = cfg->webhooks[i].url;
		t[k].timeout_s = cfg->webhooks[i].timeout_s;
	}
	if (cfg->mail != NULL) {
		t[k].kind = cfg->mail->smtp_url != NULL ? NOTIFY_SMTP :
		    NOTIFY_SENDMAIL;
		t[k].url = cfg->mail->smtp_url;
		t[k].argv = (const char *const *)cfg->mail->sendmail;
		t[k].from = cfg->mail->from;
		t[k].to = (const char *const *)cfg->mail->to;
		t[k].timeout_s = cfg->mail->timeout_s;
		k++;
	}
	*n = k;
	return t;
}

int
notify_pair_bad(const struct config_daemon *cfg, const char *link,
    const char *client, const char *server, const char *why, char *err,
    size_t errlen)
{
	struct notify_target	*t;
	struct notify_msg	 m;
	size_t			 n;
	int			 rc;

	if ((t = notify_targets(cfg, &n)) == NULL)
		return 0;
	memset(&m, 0, sizeof m);
	m.kind = NOTIFY_PAIR_BAD;
	m.link = link;
	m.client = client;
	m.server = server;
	m.health_why = why;
	rc = notify_send(t, n, &m, err, errlen);
	free(t);
	return rc;
}

void
notify_sample(enum notify_kind kind, struct notify_msg *m)
{
	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->regression_id = 1;
	m->bisect_id = kind == NOTIFY_REGRESSION ? 1 : 0;
	m->link = "em-ab";
	m->client = "em-a";
	m->server = "em-b";
	m->driver = "em";
	m->chip = "0x10968086";
	if (kind == NOTIFY_PAIR_BAD) {
		m->health_why = "em-b: ssh connect(198.18.0.3:22): Connection "
		    "refused (sample: labrat notify test)";
		return;
	}
	m->workload = "iperf3";
	m->metric = "throughput";
	m->unit = "Mbit/s";
	m->knobs = "TSO on, MTU 9000";
	m->n_parent = 8;
	m->n_culprit = 8;
	m->p = 0.00016;
	if (kind == NOTIFY_FIXED) {
		m->outcome = "fixed";
		m->change = -0.004;
		m->parent_median = 941.2;
		m->culprit_median = 937.4;
		m->culprit = "r200150";
		m->parent = "r200149";
		m->culprit_msg = "em(4): limit TSO segments to the jumbo MTU";
		return;
	}
	m->outcome = "culprit";
	m->change = -0.177;
	m->parent_median = 933.4;
	m->culprit_median = 768.2;
	m->culprit = "r200140";
	m->parent = "r200139";
	m->culprit_msg = "em(4): enable TSO with jumbo frames on the ESB2";
	m->verified = 1;
	m->reproduce = "labrat lab up --revision r200139\n"
	    "labrat bisect start --inventory inventory.json --link em-ab "
	    "--good r200139 --bad r200140 --test em-tso-9k.json\n";
	m->bisect_log = "# labrat bisect log (sample: labrat notify test)\n"
	    "good r200100\nbad r200160\ngood r200130\nbad r200145\n"
	    "good r200137\nbad r200141\ngood r200139\nbad r200140\n"
	    "# first bad: r200140\n";
}
