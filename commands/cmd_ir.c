/*
 * cmd_ir.c - `ir`: print a module version in the Relay text format.
 *
 * Arguments are parsed here (not by getopt) so that options and @f may come
 * in any order; the printer does the rest. Types are shown by default once
 * the version is typed, as TVM's printer does after InferType. `--phase P`
 * for the phase where planning stopped, which made no module, prints the
 * module it analysed (cmd_version_analysed). While core is stepped with
 * stepi, `--devices` on the current version shows the devices its replay
 * has bound so far (cmd_replay_devices), `free` for the rest.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "print.h"

int cmd_ir(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const IrModule *m;
	if (session_relax_active(s))
		return cmd_relax_ir(ctx, argc, argv);
	m = session_current(s);
	PrintOptions opts;
	int types = -1;      /* -1: as typed */
	bool input;          /* --phase named the phase that failed: its input */
	bool current = true; /* no --phase: the current version */
	int32_t *replay = NULL;
	int status;
	StrBuf sb;
	memset(&opts, 0, sizeof opts);
	opts.devices = &s->devices;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--devices") == 0) {
			opts.show_devices = true;
		} else if (strcmp(a, "--types") == 0) {
			types = 1;
		} else if (strcmp(a, "--no-types") == 0) {
			types = 0;
		} else if (strcmp(a, "--metadata") == 0) {
			opts.show_metadata = true;
		} else if (strcmp(a, "--phase") == 0) {
			int phase;
			if (i + 1 >= argc)
				return cmd_error(ctx, "'--phase' needs a phase name");
			current = false;
			m = cmd_phase_version(ctx, argv[++i], &phase, &input);
			if (!m)
				return 1;
		} else if (a[0] == '@' && a[1]) {
			opts.only_global = a + 1;
		} else if (a[0] == '-') {
			return cmd_error(ctx, "unknown option '%s' for 'ir'", a);
		} else {
			return cmd_error(ctx, "unexpected argument '%s'; a global is named '@%s'",
					 a, a);
		}
	}
	if (opts.only_global && ir_find_global(m, opts.only_global) < 0) {
		char *word = xasprintf("@%s", opts.only_global);
		strbuf_init(&sb);
		ir_suggest_names(m, word, &sb);
		cmd_error(ctx, "no global function '%s' in the module%s", word,
			  sb.data ? sb.data : "");
		strbuf_free(&sb);
		free(word);
		return 1;
	}
	opts.show_types = types < 0 ? m->typed : types == 1;
	/* core in progress under stepi: the devices its replay bound so far */
	if (opts.show_devices && current)
		opts.device_of = replay = cmd_replay_devices(ctx);
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	status = cmd_write(ctx, &sb);
	strbuf_free(&sb);
	free(replay);
	return status;
}

void cmd_complete_ir(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out)
{
	static const char *const options[] = {"--devices", "--types", "--no-types", "--metadata",
					      "--phase"};
	if (argc > 1 && strcmp(argv[argc - 1], "--phase") == 0) {
		cmd_complete_phases(word, true, out);
		return;
	}
	if (word[0] == '-' || word[0] == '\0')
		for (size_t i = 0; i < DP_COUNT(options); i++)
			cmd_candidates_add(out, word, options[i]);
	if (word[0] == '@' || word[0] == '\0')
		cmd_complete_module_names(s, word[0] ? word : "@", out);
}
