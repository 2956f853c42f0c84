/*
 * viz_render.c - laying out and writing a drawing (SPEC §6).
 *
 * The file formats and the gvc half of the Graphviz lifecycle (gvLayout,
 * gvRender, gvFreeLayout on the graph viz_draw.c built). Graphviz renders
 * into memory and never writes the file itself (its gvwrite calls exit(1)
 * on a failed write, which would end the session): the bytes are written
 * by file_write.h's writer, atomically and with every write checked.
 *
 * Every layout runs in a child process (viz_layout_render_child), whatever
 * the graph's size: under an address-space limit (VIZ_LAYOUT_MEMORY beyond
 * what it inherits) and a CPU-time limit (VIZ_LAYOUT_SECONDS), so that no
 * graph dot finds hard, and no allocation that fails inside Graphviz, GLib
 * or fontconfig (which abort or crash rather than return), can take the
 * session or the machine with it: the child's death is a failed command.
 * Ctrl-C, SIGTERM and SIGHUP abandon the child, since Graphviz cannot be
 * interrupted, and it dies with the session (PR_SET_PDEATHSIG). The
 * session itself never loads the font stack.
 *
 * The gvc context is made once per process and never freed: Graphviz
 * 2.43's pango text-layout plugin caches, in a static, a pointer to the
 * last font name, which lives in the context's font dictionary; after a
 * gvFreeContext the next context's first label compares against freed
 * memory (AddressSanitizer: heap-use-after-free in pango_textlayout on the
 * second render of a session). One context keeps that pointer valid; it
 * stays reachable, so it is not a leak.
 *
 * Graphviz reports problems through agerr, which prints to stderr; during a
 * render its messages are captured (agseterrf) and become part of the error
 * returned, since library code never prints.
 */
#define _GNU_SOURCE /* pthread_setattr_default_np, in the layout child */
#include "viz.h"

#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "file_write.h"
#include "interrupt.h"
#include "oom.h"
#include "util.h"

/* cgraph takes char *; it copies every name and value it is given. */
#define VIZ_S(s) ((char *)(s))

const char *viz_format_name(VizFormat format)
{
	switch (format) {
	case VIZ_FORMAT_PNG:
		return "png";
	case VIZ_FORMAT_SVG:
		return "svg";
	case VIZ_FORMAT_PDF:
		return "pdf";
	case VIZ_FORMAT_DOT:
		return "dot";
	}
	return "?";
}

static const char *viz_extension(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? dot + 1 : NULL;
}

bool viz_format_of_path(const char *path, VizFormat *out)
{
	static const VizFormat formats[] = {VIZ_FORMAT_PNG, VIZ_FORMAT_SVG, VIZ_FORMAT_PDF,
					    VIZ_FORMAT_DOT};
	const char *ext = viz_extension(path);
	if (!ext)
		return false;
	for (size_t i = 0; i < DP_COUNT(formats); i++) {
		if (strcasecmp(ext, viz_format_name(formats[i])) == 0) {
			*out = formats[i];
			return true;
		}
	}
	return false;
}

/* Graphviz's messages during a render (agerr), instead of stderr. The
 * buffer is reserved before the render and never grows inside Graphviz,
 * which may be short of memory when it reports: what does not fit is
 * dropped. */
enum { VIZ_MESSAGES_MAX = 16384 };
static StrBuf *viz_messages;

static int viz_capture_message(char *message)
{
	size_t n, room;
	if (!viz_messages)
		return 0;
	n = strlen(message);
	room = viz_messages->cap - viz_messages->len - 1;
	if (n > room)
		n = room;
	memcpy(viz_messages->data + viz_messages->len, message, n);
	viz_messages->len += n;
	viz_messages->data[viz_messages->len] = '\0';
	return 0;
}

/* "what: message" with Graphviz's last line, when it said something. */
static char *viz_graphviz_error(const char *what, StrBuf *messages)
{
	while (messages->len && (messages->data[messages->len - 1] == '\n' ||
				 messages->data[messages->len - 1] == ' '))
		messages->data[--messages->len] = '\0';
	if (!messages->len)
		return xasprintf("graphviz could not %s the graph", what);
	return xasprintf("graphviz could not %s the graph: %s", what, messages->data);
}

/* The process's one gvc context (see the top of the file). */
static GVC_t *viz_context(void)
{
	static GVC_t *gvc;
	if (!gvc)
		gvc = gvContext();
	return gvc;
}

/* Passes each line Graphviz printed during a render on as a warning. */
static void viz_report_warnings(const VizOptions *opts, const StrBuf *messages)
{
	const char *p = messages->data;
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
			n--;
		if (n && opts->warn) {
			char *line = xasprintf("graphviz: %.*s", (int)n, p);
			opts->warn(opts->warn_context, line);
			free(line);
		}
		p = end ? end + 1 : NULL;
	}
}

/* What to draw instead of a drawing that cannot be laid out or written:
 * never the option that made it (an overview, given or drawn as the
 * fallback, is not told to draw the overview). */
static const char *viz_instead(const VizOptions *opts, bool overview)
{
	if (overview)
		return opts->overview ? "draw a neighbourhood with --focus %x --depth N instead of "
					"--overview"
				      : "draw a neighbourhood with --focus %x --depth N";
	if (opts->focus)
		return "draw a smaller neighbourhood with --depth N";
	return "draw its device regions with --overview, or a neighbourhood with --focus %x "
	       "--depth N";
}

/* Graphviz's PNG resolution (dots per inch) when the graph sets none. */
#define VIZ_PNG_DPI 96.0

/*
 * A PNG is a bitmap, so a drawing too big for it is either scaled down or
 * refused: Cairo takes at most VIZ_PNG_MAX_SIDE pixels a side (Graphviz
 * would shrink the drawing itself, printing to stderr where no one reads
 * it), and the bitmap is held in memory. From the laid-out bounding box
 * (points), the scale that fits: 1 when the drawing fits as it is; a
 * smaller one is applied by lowering the graph's dpi, with a warning;
 * below VIZ_PNG_MIN_SCALE the labels would be unreadable and the render is
 * refused with what to do instead.
 */
/* The laid-out drawing's size in points, its margin of 4 points a side
 * included; false when g has no layout. */
static bool viz_drawing_size(Agraph_t *g, double *w, double *h)
{
	const char *bb = agget(g, VIZ_S("bb"));
	double llx, lly, urx, ury;
	/* gvLayout writes "llx lly urx ury"; dot's output uses commas */
	if (!bb || (sscanf(bb, "%lf %lf %lf %lf", &llx, &lly, &urx, &ury) != 4 &&
		    sscanf(bb, "%lf,%lf,%lf,%lf", &llx, &lly, &urx, &ury) != 4))
		return false;
	*w = urx - llx + 8.0;
	*h = ury - lly + 8.0;
	return true;
}

static bool viz_fit_png(Agraph_t *g, const VizOptions *opts, bool overview, char **err)
{
	double w, h, scale = 1.0;
	if (!viz_drawing_size(g, &w, &h))
		return true; /* nothing laid out: nothing to check */
	w *= VIZ_PNG_DPI / 72.0;
	h *= VIZ_PNG_DPI / 72.0;
	/* Cairo wants each side under the limit, rounded: keep 2 pixels clear */
	if (w >= VIZ_PNG_MAX_SIDE - 2)
		scale = (VIZ_PNG_MAX_SIDE - 2) / w;
	if (h * scale >= VIZ_PNG_MAX_SIDE - 2)
		scale = (VIZ_PNG_MAX_SIDE - 2) / h;
	if (w * h * scale * scale > VIZ_PNG_MAX_PIXELS)
		scale = sqrt(VIZ_PNG_MAX_PIXELS / (w * h));
	if (scale >= 1.0)
		return true;
	if (scale < VIZ_PNG_MIN_SCALE) {
		*err = xasprintf("the drawing is %.0fx%.0f pixels, too big for a PNG: it would "
				 "have to shrink to %.2f of its size, where its labels cannot be "
				 "read; render to .svg (no size limit), or %s",
				 w, h, scale, viz_instead(opts, overview));
		return false;
	}
	/* the layout has read the dpi attribute already; the render reads this */
	GD_drawing(g)->dpi = VIZ_PNG_DPI * scale;
	if (opts->warn) {
		char *message = xasprintf("the drawing is %.0fx%.0f pixels; the PNG is scaled to "
					  "%.2f of that to fit (.svg keeps full size)",
					  w, h, scale);
		opts->warn(opts->warn_context, message);
		free(message);
	}
	return true;
}

/* A PDF page larger than 200 inches a side (14,400 points) is past what
 * PDF viewers such as Acrobat open (ISO 32000's implementation limit);
 * others show it, so it is written, with a warning. */
static void viz_check_pdf(Agraph_t *g, const VizOptions *opts)
{
	double w, h;
	char *message;
	if (!opts->warn || !viz_drawing_size(g, &w, &h) || (w <= 14400.0 && h <= 14400.0))
		return;
	message = xasprintf("the PDF page is %.0fx%.0f points, past the 14400 some PDF "
			    "viewers open; .svg, --overview or --focus read better",
			    w, h);
	opts->warn(opts->warn_context, message);
	free(message);
}

/* Lays out and renders g into out: the gvc half of the lifecycle. What
 * Graphviz says (agerr) is captured: the error on failure, warnings passed
 * to opts->warn on success. */
static bool viz_layout_render(Agraph_t *g, const VizOptions *opts, VizFormat format, bool overview,
			      FILE *out, char **err)
{
	StrBuf messages;
	GVC_t *gvc;
	agusererrf previous;
	bool ok = true;
	strbuf_init(&messages);
	strbuf_reserve(&messages, VIZ_MESSAGES_MAX);
	strbuf_reset(&messages);
	viz_messages = &messages;
	previous = agseterrf(viz_capture_message);
	/* the context loads the plugins: one that cannot be loaded (no memory
	 * for it) would leave text measured by guesswork, or no renderer */
	gvc = viz_context();
	if (strstr(messages.data, "Could not load")) {
		*err = viz_graphviz_error("load its plugins for", &messages);
		ok = false;
	} else if (gvLayout(gvc, g, "dot") != 0) {
		*err = viz_graphviz_error("lay out", &messages);
		ok = false;
	} else {
		if (format == VIZ_FORMAT_PDF)
			viz_check_pdf(g, opts);
		if (format == VIZ_FORMAT_PNG && !viz_fit_png(g, opts, overview, err))
			ok = false;
		else if (gvRender(gvc, g, viz_format_name(format), out) != 0) {
			*err = viz_graphviz_error("render", &messages);
			ok = false;
		}
		gvFreeLayout(gvc, g);
	}
	agseterrf(previous);
	viz_messages = NULL;
	if (ok)
		viz_report_warnings(opts, &messages);
	strbuf_free(&messages);
	return ok;
}

/* ---- the layout child ------------------------------------------------------- */

/* What the child sends back: this header, then the rendered bytes, the
 * error and the warnings (one a line). */
typedef struct VizChildReply {
	int ok;
	size_t data_len, err_len, warn_len;
} VizChildReply;

static void viz_collect_warning(void *context, const char *message)
{
	StrBuf *sb = context;
	strbuf_printf(sb, "%s\n", message);
}

static bool viz_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The process's address space now, in bytes (Linux's /proc/self/statm);
 * 0 when it cannot be read. */
static size_t viz_address_space(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	long page = sysconf(_SC_PAGESIZE);
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	return page > 0 ? (size_t)pages * (size_t)page : 0;
}

/* The limits a layout runs under: memory bytes beyond base (the session's
 * address space when it forked; 0 when unknown: no memory limit), and
 * seconds of CPU; room is what the child may map in fact, less when the
 * session itself runs under a lower limit (ulimit -v). */
typedef struct VizLimits {
	size_t base, memory, room;
	unsigned seconds;
} VizLimits;

static VizLimits viz_limits_of(const VizOptions *opts)
{
	VizLimits l;
	struct rlimit r;
	l.base = viz_address_space();
	l.memory = opts->layout_memory ? opts->layout_memory : VIZ_LAYOUT_MEMORY;
	l.room = l.memory;
	if (l.base && getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
	    r.rlim_cur < l.base + l.memory)
		l.room = r.rlim_cur > l.base ? (size_t)r.rlim_cur - l.base : 0;
	l.seconds = opts->layout_seconds ? opts->layout_seconds : VIZ_LAYOUT_SECONDS;
	return l;
}

/* In the child: lowers RLIMIT_AS to base + memory and RLIMIT_CPU to
 * seconds (SIGXCPU then, SIGKILL a second later), never raising a limit
 * the session runs under. CPU time counts from the fork. */
static void viz_limit_child(const VizLimits *l)
{
	struct rlimit r;
	pthread_attr_t attr;
	/* GLib starts threads for fontconfig, each with the default stack of
	 * RLIMIT_STACK (8 MiB): under a tight limit (the session's ulimit -v)
	 * mapping one fails and GLib aborts. Their work is shallow. */
	if (pthread_attr_init(&attr) == 0) {
		if (pthread_attr_setstacksize(&attr, (size_t)1 << 20) == 0)
			pthread_setattr_default_np(&attr);
		pthread_attr_destroy(&attr);
	}
	if (l->base && getrlimit(RLIMIT_AS, &r) == 0) {
		rlim_t want = (rlim_t)(l->base + l->memory);
		if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > want) {
			r.rlim_cur = want;
			setrlimit(RLIMIT_AS, &r);
		}
	}
	if (getrlimit(RLIMIT_CPU, &r) == 0) {
		if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > l->seconds)
			r.rlim_cur = l->seconds;
		if (r.rlim_max == RLIM_INFINITY || r.rlim_max > r.rlim_cur + 1)
			r.rlim_max = r.rlim_cur + 1;
		setrlimit(RLIMIT_CPU, &r);
	}
	signal(SIGXCPU, SIG_DFL);
}

/* In the child: SIGTERM and SIGHUP end it (the session's handlers only
 * set a flag, which the child never reads), and so does the session's
 * death, however it dies (SIGKILL included): no layout outlives it. */
static void viz_child_signals(pid_t parent)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* it died before prctl */
		_exit(1);
}

/* In the child: lays out and renders, sends the reply, never returns. */
static void viz_child(int fd, Agraph_t *g, const VizOptions *opts, VizFormat format, bool overview,
		      const VizLimits *limits)
{
	VizOptions local = *opts;
	StrBuf warnings;
	char *data = NULL, *err = NULL;
	size_t len = 0;
	FILE *out;
	VizChildReply reply = {0, 0, 0, 0};
	viz_limit_child(limits);
	out = open_memstream(&data, &len);
	strbuf_init(&warnings);
	local.warn = viz_collect_warning;
	local.warn_context = &warnings;
	if (out) {
		reply.ok = viz_layout_render(g, &local, format, overview, out, &err);
		if (fclose(out) != 0)
			reply.ok = 0;
	}
	if (!reply.ok && !err)
		err = xasprintf("cannot render the graph: %s", strerror(errno));
	reply.data_len = reply.ok ? len : 0;
	reply.err_len = err ? strlen(err) : 0;
	reply.warn_len = warnings.len;
	if (viz_write_all(fd, &reply, sizeof reply) && viz_write_all(fd, data, reply.data_len) &&
	    viz_write_all(fd, err, reply.err_len))
		viz_write_all(fd, warnings.data, reply.warn_len);
	_exit(0);
}

/* The last line the child printed on its standard error (GLib and
 * fontconfig say why they abort there), cut to 200 bytes; NULL if none. */
static char *viz_last_line(const StrBuf *said)
{
	size_t end = said->len, start;
	while (end && (said->data[end - 1] == '\n' || said->data[end - 1] == ' ' ||
		       said->data[end - 1] == '\r'))
		end--;
	if (!end)
		return NULL;
	start = end;
	while (start && said->data[start - 1] != '\n')
		start--;
	if (end - start > 200)
		end = start + 200;
	return xstrndup(said->data + start, end - start);
}

/* Why the child left without a reply: out of CPU time, killed, or an exit
 * (Graphviz exits when an allocation fails), with what it last said. */
static char *viz_child_failure(int status, const struct rusage *usage, const VizLimits *l,
			       const StrBuf *said, const char *instead)
{
	double cpu = (double)usage->ru_utime.tv_sec + (double)usage->ru_stime.tv_sec +
		     ((double)usage->ru_utime.tv_usec + (double)usage->ru_stime.tv_usec) / 1e6;
	char *line = viz_last_line(said), *why, *out;
	if (WIFSIGNALED(status) &&
	    (WTERMSIG(status) == SIGXCPU || (WTERMSIG(status) == SIGKILL && cpu >= l->seconds))) {
		free(line);
		return xasprintf("graphviz used up the %u s of CPU a layout may take without "
				 "finishing it; %s",
				 l->seconds, instead);
	}
	if (WIFSIGNALED(status))
		why = xasprintf("graphviz died laying out the graph (signal %d, %s, after %.1f s "
				"of CPU%s%s)",
				WTERMSIG(status), strsignal(WTERMSIG(status)), cpu,
				line ? "; it said: " : "", line ? line : "");
	else
		why = xasprintf(
			"graphviz gave up laying out the graph (exit status %d, after %.1f s "
			"of CPU%s%s)",
			WIFEXITED(status) ? WEXITSTATUS(status) : -1, cpu,
			line ? "; it said: " : "", line ? line : "");
	out = xasprintf("%s, most likely out of the %zu MiB a layout may map; %s", why,
			l->room >> 20, instead);
	free(why);
	free(line);
	return out;
}

/* Lays out and renders g into out in a child process, under the limits of
 * opts; abandoned on Ctrl-C. overview: g is an overview (for the advice of
 * an error). */
static bool viz_layout_render_child(Agraph_t *g, const VizOptions *opts, VizFormat format,
				    bool overview, FILE *out, char **err)
{
	int fds[2], errfds[2], status = 0;
	pid_t pid, parent;
	StrBuf got, said;
	VizChildReply reply;
	VizLimits limits = viz_limits_of(opts);
	struct rusage usage;
	bool ok = false, interrupted = false;
	if (pipe(fds) != 0) {
		*err = xasprintf("cannot start the layout: %s", strerror(errno));
		return false;
	}
	if (pipe(errfds) != 0) {
		*err = xasprintf("cannot start the layout: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	fflush(NULL); /* nothing buffered is written twice */
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		*err = xasprintf("cannot start the layout: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		close(errfds[0]);
		close(errfds[1]);
		return false;
	}
	if (pid == 0) {
		/* what GLib, fontconfig or Graphviz print comes back to the
		 * session, not to its terminal */
		oom_after_fork();
		viz_child_signals(parent);
		close(fds[0]);
		dup2(errfds[1], STDERR_FILENO);
		close(errfds[0]);
		close(errfds[1]);
		viz_child(fds[1], g, opts, format, overview, &limits);
	}
	close(fds[1]);
	close(errfds[1]);
	strbuf_init(&got);
	strbuf_init(&said);
	/* the reply, and the child's standard error (its last 16 KiB) */
	for (int open_fds = 2; open_fds;) {
		struct pollfd pfd[2] = {{fds[0], POLLIN, 0}, {errfds[0], POLLIN, 0}};
		char buf[65536];
		if (interrupt_pending()) {
			interrupted = true;
			kill(pid, SIGKILL);
			break;
		}
		if (poll(pfd, 2, 100) <= 0)
			continue;
		for (int k = 0; k < 2; k++) {
			ssize_t n;
			if (pfd[k].fd < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(pfd[k].fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pfd[k].fd);
				*(k ? &errfds[0] : &fds[0]) = -1;
				open_fds--;
				continue;
			}
			strbuf_append(k ? &said : &got, buf, (size_t)n);
			if (k && said.len > 16384) {
				memmove(said.data, said.data + said.len - 16384, 16384);
				said.len = 16384;
				said.data[said.len] = '\0';
			}
		}
	}
	if (fds[0] >= 0)
		close(fds[0]);
	if (errfds[0] >= 0)
		close(errfds[0]);
	memset(&usage, 0, sizeof usage);
	while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
		;
	if (interrupted) {
		*err = xstrdup("interrupted: the layout was abandoned, nothing was written");
	} else if (got.len < sizeof reply) {
		*err = viz_child_failure(status, &usage, &limits, &said,
					 viz_instead(opts, overview));
	} else {
		memcpy(&reply, got.data, sizeof reply);
		if (got.len != sizeof reply + reply.data_len + reply.err_len + reply.warn_len) {
			*err = xstrdup("graphviz's reply was cut short");
		} else {
			const char *p = got.data + sizeof reply;
			ok = reply.ok != 0;
			if (ok && fwrite(p, 1, reply.data_len, out) != reply.data_len)
				ok = false;
			p += reply.data_len;
			if (!reply.ok)
				*err = xstrndup(p, reply.err_len);
			p += reply.err_len;
			/* the warnings, one a line, to the caller's callback */
			for (size_t i = 0; opts->warn && i < reply.warn_len;) {
				const char *line = p + i,
					   *end = memchr(line, '\n', reply.warn_len - i);
				size_t n = end ? (size_t)(end - line) : reply.warn_len - i;
				char *w = xstrndup(line, n);
				opts->warn(opts->warn_context, w);
				free(w);
				i += n + 1;
			}
		}
	}
	/* anything else it printed, as warnings, after a layout that worked */
	if (ok && opts->warn && said.len) {
		for (const char *p = said.data; p && *p;) {
			const char *end = strchr(p, '\n');
			size_t n = end ? (size_t)(end - p) : strlen(p);
			if (n) {
				char *w = xasprintf("graphviz: %.*s", (int)n, p);
				opts->warn(opts->warn_context, w);
				free(w);
			}
			p = end ? end + 1 : NULL;
		}
	}
	strbuf_free(&said);
	strbuf_free(&got);
	return ok;
}

bool viz_render(const VizOptions *opts, const char *path, VizStats *stats, char **err)
{
	VizFormat format;
	FileWriter *f;
	char *data;
	size_t len;
	bool ok;
	*err = NULL;
	if (!viz_format_of_path(path, &format)) {
		const char *ext = viz_extension(path);
		if (!ext)
			*err = xasprintf(
				"'%s' has no extension; name a .png, .svg, .pdf or .dot file",
				path);
		else
			*err = xasprintf(
				"unknown format '.%s' of '%s'; use .png, .svg, .pdf or .dot", ext,
				path);
		return false;
	}
	/* the destination is checked before the work of the layout */
	f = file_begin(path, err);
	if (!f)
		return false;
	if (!viz_render_to_memory(opts, format, &data, &len, stats, err)) {
		file_abort(f);
		return false;
	}
	ok = file_write(f, data, len, err);
	free(data);
	if (!ok) {
		file_abort(f);
		return false;
	}
	return file_commit(f, err);
}

bool viz_render_to_memory(const VizOptions *opts, VizFormat format, char **data, size_t *len,
			  VizStats *stats, char **err)
{
	FILE *out;
	Agraph_t *g;
	VizStats local;
	bool ok;
	*err = NULL;
	*data = NULL;
	*len = 0;
	out = open_memstream(data, len);
	if (!out) {
		*err = xasprintf("cannot render the graph: %s", strerror(errno));
		return false;
	}
	if (!stats)
		stats = &local;
	g = viz_build_graph(opts, stats, err);
	ok = g != NULL;
	if (ok) {
		if (format == VIZ_FORMAT_DOT)
			ok = agwrite(g, out) == 0;
		else
			ok = viz_layout_render_child(g, opts, format, stats->overview, out, err);
		agclose(g);
	}
	if (fclose(out) != 0)
		ok = false;
	if (!ok) {
		if (!*err)
			*err = xasprintf("cannot render the graph: %s", strerror(errno));
		free(*data);
		*data = NULL;
		*len = 0;
	}
	return ok;
}
