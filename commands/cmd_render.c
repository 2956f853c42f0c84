/*
 * cmd_render.c - `render`: draw a module version as a device-coloured graph
 * (SPEC §6).
 *
 * The handler only reads its options and picks the version; viz_render
 * does the drawing and the atomic write. Options may come before or after
 * FILE, like `ir`'s. FILE `-` writes the graph source (the .dot format) to
 * the command's output, so that scripts and transcripts can read it. While
 * core is stepped with stepi, the current version is drawn with the devices
 * its replay has bound so far (cmd_replay_devices); free ones are drawn
 * unplanned, white and dashed. `--html PAGE`, or a FILE ending in .html,
 * writes the SVG as a page to browse (cmd_render_html.c).
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stepper.h"
#include "viz.h"

/* The version `--phase P` names, with its title; NULL after an error.
 * After a failed phase the title says where planning stopped; the
 * conflicts check recorded are drawn either way (they are in the trace). */
static const IrModule *render_version(CmdContext *ctx, const char *phase_name, StrBuf *title)
{
	Session *s = ctx->session;
	const IrModule *m;
	int phase, failed = session_failed_phase(s, NULL);
	size_t applied, total;
	bool input;
	const char *path = session_module_name(s);
	const char *slash = strrchr(path, '/');
	const char *file = slash ? slash + 1 : path;
	if (!phase_name) {
		m = session_current(s);
		if (s->phases_done == 0)
			strbuf_printf(title, "%s as loaded", file);
		else
			strbuf_printf(title, "%s after %s", file,
				      pipeline_phases[s->phases_done - 1].name);
		if (stepper_in_progress(s, &applied, &total))
			strbuf_printf(title, "; %s in progress, devices as of event %zu of %zu",
				      pipeline_phases[s->phases_done].name, applied, total);
		if (cmd_note_stopped(ctx))
			strbuf_printf(title, "; planning stopped in %s",
				      pipeline_phases[failed].name);
		return m;
	}
	m = cmd_phase_version(ctx, phase_name, &phase, &input);
	if (!m)
		return NULL;
	if (phase == CMD_PHASE_PARSE)
		strbuf_printf(title, "%s as loaded", file);
	else if (input)
		strbuf_printf(title, "%s as %s analysed it; planning stopped there", file,
			      pipeline_phases[phase].name);
	else
		strbuf_printf(title, "%s after %s", file, pipeline_phases[phase].name);
	return m;
}

/* Whether path names an HTML page (.html or .htm), which --html writes. */
static bool render_is_html(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot && !strchr(dot, '/') &&
	       (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0);
}

/* VizOptions.warn: a render's warnings, as the command's warnings. */
static void render_warn(void *context, const char *message)
{
	cmd_warning(context, "%s", message);
}

/* A non-negative count; false for anything else. */
static bool render_parse_depth(const char *text, int *out)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

int cmd_render(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *path = NULL, *phase = NULL, *html = NULL;
	VizOptions opts;
	VizStats stats;
	int32_t *replay = NULL;
	StrBuf title;
	char *err = NULL;
	bool ok, depth_given = false;
	memset(&opts, 0, sizeof opts);
	opts.depth = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--phase") == 0 || strcmp(a, "--focus") == 0 ||
		    strcmp(a, "--depth") == 0) {
			if (i + 1 >= argc)
				return cmd_error(ctx, "'%s' needs %s", a,
						 a[2] == 'p'   ? "a phase name"
						 : a[2] == 'f' ? "a value such as %x"
							       : "a number of edges");
			if (a[2] == 'p') {
				phase = argv[++i];
			} else if (a[2] == 'f') {
				opts.focus = argv[++i];
			} else {
				if (!render_parse_depth(argv[++i], &opts.depth))
					return cmd_error(
						ctx, "'--depth' needs a number of edges, not '%s'",
						argv[i]);
				depth_given = true;
			}
		} else if (strcmp(a, "--html") == 0) {
			if (i + 1 >= argc)
				return cmd_error(
					ctx, "'--html' needs a page to write, such as graph.html");
			if (html || path)
				return cmd_error(ctx, "'render' takes one file; '%s' is a second",
						 argv[i + 1]);
			html = path = argv[++i];
		} else if (strcmp(a, "--regions") == 0) {
			opts.regions = true;
		} else if (strcmp(a, "--params") == 0) {
			opts.params = true;
		} else if (strcmp(a, "--overview") == 0) {
			opts.overview = true;
		} else if (strcmp(a, "--force") == 0) {
			opts.force = true;
		} else if (a[0] == '-' && a[1]) {
			return cmd_error(ctx, "unknown option '%s' for 'render'", a);
		} else if (path) {
			return cmd_error(ctx, "'render' takes one file; '%s' is a second", a);
		} else {
			path = a;
		}
	}
	if (!path)
		return cmd_error(ctx, "'render' needs a file to write (.png, .svg, .pdf or .dot)");
	if (!html && render_is_html(path))
		html = path;
	if (html && !render_is_html(html))
		return cmd_error(ctx, "'--html' writes an HTML page; name a .html file, not '%s'",
				 html);
	if (depth_given && !opts.focus)
		return cmd_error(ctx, "'--depth' needs '--focus %%x' to say where to start");
	if (opts.overview && (opts.focus || opts.regions || opts.params))
		return cmd_error(ctx, "'--overview' draws regions, not nodes; it takes no '%s'",
				 opts.focus     ? "--focus"
				 : opts.regions ? "--regions"
						: "--params");
	strbuf_init(&title);
	opts.module = render_version(ctx, phase, &title);
	if (!opts.module) {
		strbuf_free(&title);
		return 1;
	}
	opts.devices = &s->devices;
	opts.trace = s->trace;
	opts.title = title.data;
	opts.warn = render_warn;
	opts.warn_context = ctx;
	/* core in progress under stepi: the devices its replay bound so far */
	if (!phase) {
		opts.device_of = replay = cmd_replay_devices(ctx);
		/* the first step of `why` in each SVG tooltip */
		opts.analysis = cmd_analysis(ctx);
	}
	if (html)
		ok = cmd_render_html(ctx, &opts, html, &stats, &err);
	else if (strcmp(path, "-") == 0)
		ok = viz_write_dot(&opts, ctx->out, &stats, &err);
	else
		ok = viz_render(&opts, path, &stats, &err);
	strbuf_free(&title);
	free(replay);
	if (!ok) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	if (stats.too_big) {
		char *why = viz_too_big_reason(&stats, true);
		cmd_warning(ctx,
			    "%s; drew the overview of its device regions instead (--force draws "
			    "every node, --focus %%x --depth N a neighbourhood)",
			    why);
		free(why);
	}
	if (strcmp(path, "-") != 0) {
		VizFormat format = VIZ_FORMAT_DOT;
		viz_format_of_path(path, &format);
		fprintf(ctx->out, "wrote '%s' (%s): %zu node%s, %zu edge%s", path,
			html ? "html" : viz_format_name(format), stats.nodes,
			stats.nodes == 1 ? "" : "s", stats.edges, stats.edges == 1 ? "" : "s");
		if (stats.copies)
			fprintf(ctx->out, ", %zu cop%s", stats.copies,
				stats.copies == 1 ? "y" : "ies");
		if (stats.conflicts)
			fprintf(ctx->out, ", %zu conflicting use%s", stats.conflicts,
				stats.conflicts == 1 ? "" : "s");
		if (stats.folded)
			fprintf(ctx->out, ", %zu weight%s folded", stats.folded,
				stats.folded == 1 ? "" : "s");
		if (stats.overview)
			fputs(", overview of device regions", ctx->out);
		fputc('\n', ctx->out);
	}
	return 0;
}

void cmd_complete_render(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	static const char *const options[] = {"--phase",  "--focus",    "--depth", "--regions",
					      "--params", "--overview", "--force", "--html"};
	const char *prev = argc > 1 ? argv[argc - 1] : "";
	if (strcmp(prev, "--phase") == 0) {
		cmd_complete_phases(word, true, out);
		return;
	}
	if (strcmp(prev, "--focus") == 0) {
		cmd_complete_module_names(s, word[0] ? word : "%", out);
		return;
	}
	if (strcmp(prev, "--depth") == 0)
		return;
	if (word[0] == '-') {
		for (size_t i = 0; i < DP_COUNT(options); i++)
			cmd_candidates_add(out, word, options[i]);
		return;
	}
	out->files = true;
}
