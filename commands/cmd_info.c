/*
 * cmd_info.c - `info SUBJECT`, gdb's way of asking about the state.
 *
 * devplan names its listings by their own commands (`breaks`, `targets`,
 * `show`, ...); a gdb user types `info breakpoints` or `i b` by reflex.
 * Each subject is one row below naming the command that answers it, and
 * `info` runs that command through the dispatcher with the words that
 * follow, so its argument checks, its flags (a loaded module, a plan) and
 * its output are the command's own. `info` only asks: `info pins` takes no
 * words, which would make `pin` pin. Only `info watchpoints`, which gdb
 * has and `breaks` does not, filters. Subjects resolve by unique prefix,
 * as commands do.
 */
#include "dispatch.h"

#include <stdlib.h>
#include <string.h>

typedef struct InfoSubject {
	const char *name;    /* what follows `info` */
	const char *command; /* the command that answers; NULL: watchpoints */
	const char *summary;
	const char *option; /* put before the words: the command's option */
	bool alone;         /* takes no words: the command would change something
		       with them (`pin %x DEV` pins), and info only asks */
} InfoSubject;

/* alphabetical, like the command table */
static const InfoSubject info_subjects[] = {
	{"breakpoints", "breaks", "the breakpoints and watchpoints", NULL, false},
	{"conflicts", "conflicts", "every value demanded on two devices", NULL, false},
	{"contract", "placement", "where each function's parameters and result must live",
	 "--contract", false},
	{"copies", "copies", "every device_copy of the plan", NULL, false},
	{"devices", "targets", "the device table", NULL, false},
	{"phases", "phases", "the planning phases and their state", NULL, false},
	{"pins", "pin", "the pins", NULL, true},
	{"regions", "regions", "the device regions of the plan", NULL, false},
	{"settings", "show", "the settings", NULL, false},
	{"targets", "targets", "the device table", NULL, false},
	{"watchpoints", NULL, "the watchpoints", NULL, true},
};

static void list_subjects(CmdContext *ctx)
{
	fputs("info SUBJECT, where SUBJECT is one of (or a unique prefix):\n", ctx->out);
	for (size_t i = 0; i < DP_COUNT(info_subjects); i++)
		fprintf(ctx->out, "  %-12s %s%s%s%s%s\n", info_subjects[i].name,
			info_subjects[i].summary, info_subjects[i].command ? ", as " : "",
			info_subjects[i].command ? info_subjects[i].command : "",
			info_subjects[i].option ? " " : "",
			info_subjects[i].option ? info_subjects[i].option : "");
}

int cmd_info(CmdContext *ctx, int argc, char **argv)
{
	int i;
	char **args;
	int status, n;
	if (argc == 1) {
		list_subjects(ctx);
		return 0;
	}
	i = prefix_match(argv[1], &info_subjects[0].name, DP_COUNT(info_subjects),
			 sizeof(InfoSubject));
	if (i == PREFIX_AMBIGUOUS) {
		StrBuf sb;
		strbuf_init(&sb);
		prefix_candidates(&sb, argv[1], &info_subjects[0].name, DP_COUNT(info_subjects),
				  sizeof(InfoSubject));
		cmd_error(ctx, "ambiguous subject '%s' for 'info': %s", argv[1], sb.data);
		strbuf_free(&sb);
		return 1;
	}
	if (i < 0) {
		Suggestions s;
		StrBuf sb;
		strbuf_init(&sb);
		suggest_init(&s, argv[1]);
		for (size_t k = 0; k < DP_COUNT(info_subjects); k++)
			suggest_consider(&s, info_subjects[k].name);
		if (!suggest_finish(&s, &sb))
			strbuf_puts(&sb, "; 'info' alone lists the subjects");
		cmd_error(ctx, "unknown subject '%s' for 'info'%s", argv[1], sb.data);
		strbuf_free(&sb);
		return 1;
	}
	if (info_subjects[i].alone && argc > 2)
		return cmd_error(ctx, "'info %s' takes no arguments", info_subjects[i].name);
	if (!info_subjects[i].command) {
		cmd_breaks_list(ctx, true);
		return 0;
	}
	/* the command (and its option), with the words after the subject */
	args = xmalloc((size_t)(argc + 1) * sizeof(char *));
	n = 0;
	args[n++] = (char *)info_subjects[i].command;
	if (info_subjects[i].option)
		args[n++] = (char *)info_subjects[i].option;
	for (int k = 2; k < argc; k++)
		args[n++] = argv[k];
	args[n] = NULL;
	status = commands_execute_argv(ctx, n, args);
	free(args);
	return status;
}

void cmd_complete_info(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out)
{
	if (argc != 1)
		return;
	for (size_t i = 0; i < DP_COUNT(info_subjects); i++)
		cmd_candidates_add(out, word, info_subjects[i].name);
}
