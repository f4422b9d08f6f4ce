/*
 * notify_send.c: one message to every target.  A failing target does not
 * stop the others; the error lists each failed one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
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
