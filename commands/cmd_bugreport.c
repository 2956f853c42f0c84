/*
 * cmd_bugreport.c - `bugreport DIR`: everything needed to see and replay
 * what this session did, in one new directory.
 *
 *   module.relay     the loaded module's text, as loaded (module.py for a
 *                    Relax module)
 *   settings.dp      `target add`, `target set` and `set` commands: the
 *                    device table, its cost models and
 *                    the settings as they were when the module was loaded,
 *                    which is where the replayed commands start from; the
 *                    state at the end follows as comments
 *   transcript.txt   the session's command lines (CmdContext.history),
 *                    numbered as `history` shows them, failures marked
 *   placement.json   `placement --json` of the plan, planned in a scratch
 *                    session with the same settings and pins when the
 *                    session's own plan is not complete, or a note why
 *                    there is none
 *   conflicts.txt    `conflicts` of that plan
 *   version.txt      `devplan --version`
 *   replay.dp        sources settings.dp, loads module.relay (both
 *                    beside it: a script runs in its own folder), makes
 *                    the pins the load kept, then re-runs the commands the
 *                    session ran after that load in files/, each that
 *                    failed marked `-` so that `devplan -b -x
 *                    DIR/replay.dp` runs it and goes on
 *   files/           the folders those commands ran in, with copies of
 *                    the files they read, where the replay writes what
 *                    they wrote (report_files.c rebuilds it and rewrites
 *                    the paths that need it)
 *
 * The load point is what makes the replay exact: `load` resets planning,
 * so the commands after it, started from the settings and devices it saw,
 * do what they did. cmd_remember_load keeps that state; it is the only
 * part of this file that runs outside `bugreport`.
 *
 * DIR must not exist, or be an empty directory; every file is written
 * with file_write.h's writer into a temporary directory beside DIR
 * (`.dpXXXXXX`), renamed to DIR when all are written: a report that fails
 * (a full disk) leaves nothing, and the same name can be tried again.
 */
#include "dispatch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "oom.h"
#include "pipeline.h"
#include "plan.h"
#include "report_files.h"

void cmd_remember_load(CmdContext *ctx)
{
	const Session *s = ctx->session;
	size_t npins;
	const PlanPin *pins = session_pins(s, &npins);
	ctx->loaded = true;
	ctx->load_history = ctx->nhistory;
	ctx->load_settings = s->settings;
	devices_free(&ctx->load_devices);
	devices_copy(&ctx->load_devices, &s->devices);
	pins_clear(&ctx->load_pins);
	for (size_t i = 0; i < npins; i++)
		pins_set(&ctx->load_pins, &pins[i]);
}

/* Checks that dir does not exist or is an empty directory, and makes the
 * temporary directory beside it that the files go to (renamed to dir once
 * all are written, so that a failure leaves no partial report and the same
 * name can be tried again). The temporary directory's path, or NULL after
 * reporting. */
static char *make_report_dir(CmdContext *ctx, const char *dir)
{
	DIR *d;
	struct dirent *entry;
	bool empty = true;
	const char *slash = strrchr(dir, '/');
	char *tmp;
	mode_t mask;
	d = opendir(dir);
	if (!d && errno != ENOENT) {
		cmd_error(ctx,
			  errno == ENOTDIR ? "'%s' exists and is not a directory"
					   : "cannot create '%s': %s",
			  dir, strerror(errno));
		return NULL;
	}
	while (d && (entry = readdir(d)) != NULL)
		if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
			empty = false;
	if (d)
		closedir(d);
	if (!empty) {
		cmd_error(ctx, "'%s' exists and is not empty; name a new directory", dir);
		return NULL;
	}
	tmp = slash ? xasprintf("%.*s/.dpXXXXXX", (int)(slash - dir), dir) : xstrdup(".dpXXXXXX");
	if (!mkdtemp(tmp)) {
		cmd_error(ctx, "cannot create '%s': %s", dir, strerror(errno));
		free(tmp);
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	(void)chmod(tmp, 0777 & ~mask); /* as mkdir(dir, 0777) would make it */
	return tmp;
}

static const char *const report_names[] = {"module.relay",   "settings.dp",   "transcript.txt",
					   "placement.json", "conflicts.txt", "version.txt",
					   "replay.dp"};
/* A Relax module's report: its module as module.py. */
static const char *const relax_report_names[] = {
	"module.py",     "settings.dp", "transcript.txt", "placement.json",
	"conflicts.txt", "version.txt", "replay.dp"};

/* Removes what is in the directory open as fd (a report's temporary
 * directory or a folder of its files/), never following a link, and
 * closes fd. */
static void remove_contents(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		int sub;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0)
			continue;
		sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			remove_contents(sub);
			(void)unlinkat(fd, e->d_name, AT_REMOVEDIR);
		}
	}
	closedir(d);
}

/* Removes the temporary directory of a report that failed, with what was
 * written into it; allocates through xmalloc nothing, so that it may run
 * when memory ran out (an oom.h cleanup). */
static void remove_report_dir(void *tmp)
{
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		remove_contents(fd);
	(void)rmdir(tmp);
}

/* Reports err, naming the report's directory where it names the temporary
 * one. */
static void report_error(CmdContext *ctx, const char *err, const char *tmp, const char *dir)
{
	const char *at = strstr(err, tmp);
	if (at)
		cmd_error(ctx, "%.*s%s%s", (int)(at - err), err, dir, at + strlen(tmp));
	else
		cmd_error(ctx, "%s", err);
}

/* Writes text to tmp/name; false after reporting, by its name in dir. */
static bool write_report_file(CmdContext *ctx, const char *tmp, const char *dir, const char *name,
			      const StrBuf *text)
{
	char *path = xasprintf("%s/%s", tmp, name), *err;
	bool ok = file_write_all(path, text->data ? text->data : "", text->len, &err);
	free(path);
	if (!ok) {
		report_error(ctx, err, tmp, dir);
		free(err);
	}
	return ok;
}

/* A plan that failed, as placement.json says it: {"planned": false,
 * "note": PHASE, "error": its first error}. */
static void failed_plan_note(StrBuf *placement, const char *phase, const char *reason)
{
	json_object *note = json_object_new_object();
	json_object_object_add(note, "planned", json_object_new_boolean(0));
	json_object_object_add(note, "note", json_object_new_string(phase));
	if (reason)
		json_object_object_add(note, "error", json_object_new_string(reason));
	strbuf_puts(placement, json_object_to_json_string_ext(note, JSON_C_TO_STRING_SPACED));
	strbuf_putc(placement, '\n');
	json_object_put(note);
}

/* describe_plan for a Relax module: RealizeVDevice run to its end in a
 * scratch session unless the session's own plan is complete. */
static void describe_relax_plan(CmdContext *ctx, StrBuf *placement, StrBuf *conflicts)
{
	Session *s = ctx->session, scratch, *planned = s;
	char *placement_argv[] = {"placement", "--json", NULL};
	char *conflicts_argv[] = {"conflicts", NULL};
	bool ok = true;
	if (!session_relax_planned(s)) {
		session_init_like(&scratch, s);
		planned = &scratch;
		ok = session_load_relax(&scratch, s->source, s->path) &&
		     session_relax_step(&scratch, SIZE_MAX);
	}
	if (ok) {
		cmd_capture(ctx, planned, 2, placement_argv, placement);
	} else {
		const char *reason = NULL;
		for (size_t i = 0; i < planned->diags.count && !reason; i++)
			if (planned->diags.items[i].severity == DIAG_ERROR)
				reason = planned->diags.items[i].message;
		failed_plan_note(placement,
				 planned->relax && planned->relax->failed_phase >= 0
					 ? relax_phase_names[planned->relax->failed_phase]
					 : "load",
				 reason);
	}
	if (planned->relax)
		cmd_capture(ctx, planned, 1, conflicts_argv, conflicts);
	if (planned != s)
		session_free(&scratch);
}

/* placement.json and conflicts.txt: of the session's plan when it is
 * complete, else of a scratch session planned with its settings and pins. */
static void describe_plan(CmdContext *ctx, StrBuf *placement, StrBuf *conflicts)
{
	Session *s = ctx->session;
	Session scratch;
	Session *planned = s;
	char *placement_argv[] = {"placement", "--json", NULL};
	char *conflicts_argv[] = {"conflicts", NULL};
	bool scratch_used = false;
	if (session_relax_active(s)) {
		describe_relax_plan(ctx, placement, conflicts);
		return;
	}
	if (!session_planned(s)) {
		session_init_like(&scratch, s);
		scratch_used = true;
		planned = &scratch;
		if (!session_load_source(&scratch, s->source, s->path) ||
		    !session_step(&scratch, pipeline_count)) {
			const char *reason = NULL;
			int failed = session_failed_phase(&scratch, &reason);
			failed_plan_note(placement,
					 failed >= 0 ? pipeline_phases[failed].name : "interrupted",
					 reason);
			cmd_capture(ctx, planned, 1, conflicts_argv, conflicts);
			session_free(&scratch);
			return;
		}
	}
	cmd_capture(ctx, planned, 2, placement_argv, placement);
	cmd_capture(ctx, planned, 1, conflicts_argv, conflicts);
	if (scratch_used)
		session_free(&scratch);
}

/* settings.dp: the state the replayed commands start from (see the top). */
static void write_settings(CmdContext *ctx, StrBuf *sb)
{
	const Session *s = ctx->session;
	Session at_load = *s; /* a view: the same session with the old settings */
	DeviceTable defaults;
	StrBuf value;
	size_t npins;
	const PlanPin *pins = session_pins(s, &npins);
	bool any = false;
	devices_init_default(&defaults);
	strbuf_init(&value);
	at_load.settings = ctx->load_settings;
	strbuf_puts(sb, "# devplan settings as they were when the module was loaded: the\n"
			"# devices added to the default table, then every setting that\n"
			"# differs from its default\n");
	for (uint32_t i = defaults.count; i < ctx->load_devices.count; i++) {
		const Device *d = &ctx->load_devices.items[i];
		strbuf_printf(sb, "target add %s %s\n", d->name, d->target);
	}
	for (uint32_t i = 0; i < ctx->load_devices.count; i++) {
		strbuf_reset(&value);
		devices_format_costs(&ctx->load_devices.items[i], &value);
		if (value.len)
			strbuf_printf(sb, "target set %s%s\n", ctx->load_devices.items[i].name,
				      value.data);
	}
	for (size_t i = 0; i < session_setting_count; i++) {
		if (session_setting_is_default(&at_load, (int)i))
			continue;
		strbuf_reset(&value);
		session_setting_format(&at_load, (int)i, &value);
		strbuf_printf(sb, "set %s %s\n", session_settings[i].name, value.data);
	}
	strbuf_puts(sb, "# at the end of the session, where replay.dp's commands lead:\n");
	for (uint32_t i = defaults.count; i < s->devices.count; i++) {
		strbuf_printf(sb, "#   target add %s %s\n", s->devices.items[i].name,
			      s->devices.items[i].target);
		any = true;
	}
	for (uint32_t i = 0; i < s->devices.count; i++) {
		strbuf_reset(&value);
		devices_format_costs(&s->devices.items[i], &value);
		if (value.len) {
			strbuf_printf(sb, "#   target set %s%s\n", s->devices.items[i].name,
				      value.data);
			any = true;
		}
	}
	for (size_t i = 0; i < session_setting_count; i++) {
		if (session_setting_is_default(s, (int)i))
			continue;
		strbuf_reset(&value);
		session_setting_format(s, (int)i, &value);
		strbuf_printf(sb, "#   set %s %s\n", session_settings[i].name, value.data);
		any = true;
	}
	for (size_t i = 0; i < npins; i++) {
		strbuf_puts(sb, "#   pin ");
		plan_pin_format(sb, &pins[i], &s->devices);
		strbuf_putc(sb, '\n');
		any = true;
	}
	if (!any)
		strbuf_puts(sb, "#   every setting at its default, no devices added, no pins\n");
	strbuf_free(&value);
	devices_free(&defaults);
}

/* Commands a replay must not run again: they write files or report on
 * the session rather than change it. */
static bool replays(const char *line)
{
	int argc;
	char **argv, *err;
	bool ambiguous, keep = true;
	const Command *cmd;
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return true;
	}
	cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	/* `cd`: the replay follows the folders each line ran in */
	if (cmd &&
	    (cmd->handler == cmd_bugreport || cmd->handler == cmd_record || cmd->handler == cmd_cd))
		keep = false;
	commands_free_words(argc, argv);
	return keep;
}

/* The lines the replay runs again: those after the load. */
static const CmdHistoryLine **replayed_lines(const CmdContext *ctx, size_t *n)
{
	const CmdHistoryLine **lines = xmalloc((ctx->nhistory + 1) * sizeof *lines);
	*n = 0;
	for (size_t i = ctx->load_history; i < ctx->nhistory; i++)
		if (replays(ctx->history[i].line))
			lines[(*n)++] = &ctx->history[i];
	return lines;
}

static void write_replay(CmdContext *ctx, ReportFiles *files, const CmdHistoryLine **lines,
			 size_t n, StrBuf *sb)
{
	const Session *s = ctx->session;
	strbuf_puts(sb, "# devplan bug report: replays the session with\n"
			"#     devplan -b -x DIR/replay.dp\n"
			"# from any directory. The commands run in files/, which holds the\n"
			"# files they read and receives the files they write. A line starting\n"
			"# with '-' failed in the session: it runs again, and its failure does\n"
			"# not stop the replay.\n"
			"source settings.dp\n");
	strbuf_puts(sb,
		    session_relax_active(s) ? "load module.py --as " : "load module.relay --as ");
	commands_put_word(sb, s->source->name);
	strbuf_putc(sb, '\n');
	for (size_t i = 0; i < ctx->load_pins.current.count; i++) {
		strbuf_puts(sb, "pin ");
		plan_pin_format(sb, &ctx->load_pins.current.items[i], &s->devices);
		strbuf_putc(sb, '\n');
	}
	for (size_t i = 0; i < n; i++) {
		char *cd, *line = report_files_line(files, lines[i], &cd);
		char *text = commands_recorded_line(lines[i]->line, line, lines[i]->failed);
		if (cd)
			strbuf_printf(sb, "%s\n", cd);
		strbuf_puts(sb, text);
		free(text);
		free(line);
		free(cd);
	}
}

int cmd_bugreport(CmdContext *ctx, int argc, char **argv)
{
	const char *const *names = report_names;
	Session *s = ctx->session;
	const char *dir = argv[1];
	StrBuf text[DP_COUNT(report_names)];
	const CmdHistoryLine **lines;
	ReportFiles *files;
	size_t nlines;
	char *tmp, *err;
	OomCleanup cleanup;
	bool ok = true;
	if (!ctx->loaded)
		return cmd_error(ctx, "no module was loaded in this session; use 'load FILE'");
	if (!(tmp = make_report_dir(ctx, dir)))
		return 1;
	if (session_relax_active(s))
		names = relax_report_names;
	cleanup = oom_cleanup_add(remove_report_dir, tmp);
	for (size_t i = 0; i < DP_COUNT(report_names); i++)
		strbuf_init(&text[i]);
	strbuf_append(&text[0], s->source->text, s->source->len);
	write_settings(ctx, &text[1]);
	for (size_t i = 0; i < ctx->nhistory; i++)
		strbuf_printf(&text[2], "%5zu  %s%s\n", i + 1, ctx->history[i].line,
			      ctx->history[i].failed ? "    # failed" : "");
	describe_plan(ctx, &text[3], &text[4]);
	strbuf_printf(&text[5], "devplan %s\n", DEVPLAN_VERSION);
	lines = replayed_lines(ctx, &nlines);
	files = report_files_collect(lines, nlines);
	write_replay(ctx, files, lines, nlines, &text[6]);
	for (size_t i = 0; i < DP_COUNT(report_names) && ok; i++)
		ok = write_report_file(ctx, tmp, dir, names[i], &text[i]);
	if (ok && !(ok = report_files_write(files, tmp, &err))) {
		report_error(ctx, err, tmp, dir);
		free(err);
	}
	report_files_free(files);
	free(lines);
	for (size_t i = 0; i < DP_COUNT(report_names); i++)
		strbuf_free(&text[i]);
	/* an empty directory of that name is replaced */
	if (ok && rename(tmp, dir) != 0) {
		cmd_error(ctx, "cannot create '%s': %s", dir, strerror(errno));
		ok = false;
	}
	oom_cleanup_remove(cleanup);
	if (!ok)
		remove_report_dir(tmp);
	free(tmp);
	if (!ok)
		return 1;
	fprintf(ctx->out,
		"wrote a bug report to '%s'; replay it with: devplan -b -x %s/replay.dp\n", dir,
		dir);
	return 0;
}
