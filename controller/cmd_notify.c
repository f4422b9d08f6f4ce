/*
 * labrat notify test --config FILE [--kind KIND] [--dry-run]
 *
 * Sends a sample notification (the simulated lab's em fault) to every
 * target of a daemon config, so an operator sees the mail and the webhook
 * arrive before the first real regression does; --dry-run prints the mail
 * and the webhook JSON instead of sending them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd.h"
#include "config.h"
#include "notify.h"

static int
notify_kind_parse(const char *s, enum notify_kind *k)
{
	if (strcmp(s, "regression") == 0)
		*k = NOTIFY_REGRESSION;
	else if (strcmp(s, "fixed") == 0)
		*k = NOTIFY_FIXED;
	else if (strcmp(s, "pair-bad") == 0)
		*k = NOTIFY_PAIR_BAD;
	else
		return -1;
	return 0;
}

static int
dry_run(const struct config_daemon *cfg, const struct notify_msg *m)
{
	static const char *const nobody[] = { "nobody@localhost", NULL };
	const struct config_mail *ml = cfg->mail;
	char	*text, *json;

	text = notify_mail_text(m, ml != NULL ? ml->from : "labrat@localhost",
	    ml != NULL ? (const char *const *)ml->to : nobody);
	json = notify_webhook_json(m);
	fputs(text, stdout);
	printf("\n%s\n", json != NULL ? json : "null");
	free(text);
	free(json);
	return CMD_EXIT_OK;
}

static int
notify_test_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "kind", required_argument, NULL, 'k' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_errors	 errs;
	struct config_daemon	*cfg = NULL;
	struct notify_target	*t;
	struct notify_msg	 m;
	enum notify_kind	 kind = NOTIFY_REGRESSION;
	const char		*path = NULL;
	char			 err[4096];
	size_t			 n;
	int			 ch, dry = 0, rc;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': path = optarg; break;
		case 'k':
			if (notify_kind_parse(optarg, &kind) == -1)
				return cmd_usage_error(ctx, "--kind %s: "
				    "regression, fixed or pair-bad", optarg);
			break;
		case 'n': dry = 1; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (path == NULL)
		return cmd_usage_error(ctx, "--config FILE missing");
	config_errors_init(&errs);
	if (config_daemon_load(path, &cfg, &errs, err, sizeof err) == -1) {
		cmd_config_errors(&errs);
		fprintf(stderr, "labrat notify test: %s\n", err);
		config_errors_free(&errs);
		return CMD_EXIT_USAGE;
	}
	config_errors_free(&errs);
	notify_sample(kind, &m);
	if (dry) {
		rc = dry_run(cfg, &m);
		config_daemon_free(cfg);
		return rc;
	}
	if ((t = notify_targets(cfg, &n)) == NULL) {
		fprintf(stderr, "labrat notify test: %s: no notification "
		    "targets (notify.webhooks, notify.mail)\n", path);
		config_daemon_free(cfg);
		return CMD_EXIT_FAIL;
	}
	client_global_init();
	rc = CMD_EXIT_OK;
	if (notify_send(t, n, &m, err, sizeof err) == -1) {
		fprintf(stderr, "labrat notify test: %s\n", err);
		rc = CMD_EXIT_FAIL;
	} else
		printf("sample %s notification delivered to %zu target%s\n",
		    notify_kind_name(kind), n, n == 1 ? "" : "s");
	free(t);
	config_daemon_free(cfg);
	return rc;
}

const struct cmd_entry cmd_notify_test_entry = {
	.name = "notify test",
	.args = "--config FILE [--kind regression|fixed|pair-bad] [--dry-run]",
	.summary = "Sends a sample notification (the em fault of the "
	    "simulated lab) to every target of a daemon config: its webhooks "
	    "and its mail (SMTP or sendmail).  Exit 1 names each target that "
	    "failed.",
	.options = (const struct cmd_option[]){
		{ "--config FILE", "The daemon config (labrat serve --config)." },
		{ "--kind KIND", "regression (default), fixed or pair-bad." },
		{ "--dry-run", "Print the mail and the webhook JSON instead of "
		    "sending them." },
		{ NULL, NULL }
	},
	.exec = notify_test_exec,
};
