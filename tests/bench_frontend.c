/*
 * bench_frontend.c - how load, planning and printing scale (SPEC §9).
 *
 * Generates Relay modules of N graph or let bindings (a chain of adds with an
 * on_device every few bindings), writes each to a temporary file, and times
 * what the debugger does with it: `load` (read and parse), then every phase
 * of pipeline_phases in order, one `step` at a time, then printing the last
 * version. It goes through the Session like the shell does, so phases added
 * to the pipeline table (the planner's rewrite, check and core) are measured
 * here as soon as they land, each under its own name, with no change to this
 * file; and like the shell it keeps every module version until the end.
 *
 * Each (workload, size) runs REPS times (default 3), each run in a forked
 * child pinned to one core, so that peak memory is per run and a crash is
 * reported, not fatal; the table shows the median time and largest peak.
 * The child resets the kernel's peak-RSS mark before each stage
 * (/proc/self/clear_refs) and reads it back after (VmHWM), so a stage's
 * peak is the most memory resident while it ran, everything already loaded
 * included. The parent prints one table: per stage, then `total` (load and
 * every phase; printing is not part of the target), then the scaling
 * between consecutive sizes. Targets (SPEC §9): 1,000,000 bindings planned
 * in under 2 s with under 1 GiB peak, and 10x the bindings in at most 12x
 * the time. For sizes other than a million, the time and memory ratios
 * compare with those targets scaled linearly, for information only.
 *
 * Usage: bench_frontend [-r REPS] [-w graph|let] [SIZE...]
 * Exit status: 0 when every target is met, 1 when one is missed, 2 when a
 * run failed.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pipeline.h"
#include "print.h"
#include "session.h"
#include "util.h"

enum {
	BENCH_MAX_STAGES = 16,
	BENCH_ANNOTATE_EVERY = 8, /* an on_device every this many bindings */
};

static const double bench_target_seconds = 2.0;                /* at a million */
static const double bench_target_bytes = 1024.0 * 1024 * 1024; /* at a million */
static const double bench_target_scaling = 12.0;               /* for 10x bindings */
static const double bench_target_size = 1e6;

typedef enum BenchWorkload { WORKLOAD_GRAPH, WORKLOAD_LET } BenchWorkload;

static const char *const bench_workload_names[] = {"graph", "let"};

typedef struct BenchStage {
	char name[24];
	double seconds;
	long peak_kib; /* VmHWM after the stage, or -1 when unknown */
	bool in_total; /* load and planning phases; not print */
} BenchStage;

/* What a child sends back through its pipe. */
typedef struct BenchRun {
	bool ok;
	bool peak_reset; /* clear_refs worked: peaks are per stage */
	uint32_t nstages;
	BenchStage stages[BENCH_MAX_STAGES];
	char error[512];
} BenchRun;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The graph workload, for n bindings:
 *   def @main(%x: Tensor[(2, 4), float32]) {
 *     %0 = add(%x, %x);
 *     %1 = add(%0, %x);
 *     ...
 *     %7 = on_device(%6, virtual_device=meta[VirtualDevice][1]);
 *     ...
 *     %N-1
 *   }
 * and the let workload the same chain as `let %vI = ...;`, with the
 * on_device wrapped around the add (a let-bound on_device, which `rewrite`
 * fixes).
 */
static void generate_module(StrBuf *out, BenchWorkload workload, long n)
{
	const char *prefix = workload == WORKLOAD_GRAPH ? "" : "v";
	const char *device = "virtual_device=meta[VirtualDevice][1]";
	strbuf_puts(out, "#[version = \"0.0.5\"]\n"
			 "def @main(%x: Tensor[(2, 4), float32]) {\n");
	for (long i = 0; i < n; i++) {
		char prev[32];
		bool annotate = i % BENCH_ANNOTATE_EVERY == BENCH_ANNOTATE_EVERY - 1;
		if (i == 0)
			snprintf(prev, sizeof(prev), "%%x");
		else
			snprintf(prev, sizeof(prev), "%%%s%ld", prefix, i - 1);
		if (workload == WORKLOAD_GRAPH && annotate)
			strbuf_printf(out, "  %%%ld = on_device(%s, %s);\n", i, prev, device);
		else if (workload == WORKLOAD_GRAPH)
			strbuf_printf(out, "  %%%ld = add(%s, %%x);\n", i, prev);
		else if (annotate)
			strbuf_printf(out, "  let %%v%ld = on_device(add(%s, %%x), %s);\n", i, prev,
				      device);
		else
			strbuf_printf(out, "  let %%v%ld = add(%s, %%x);\n", i, prev);
	}
	strbuf_printf(out, "  %%%s%ld\n}\n", prefix, n - 1);
}

/* Resets the peak-RSS mark to the current RSS; false where not allowed. */
static bool reset_peak_rss(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	bool ok;
	if (fd < 0)
		return false;
	ok = write(fd, "5", 1) == 1;
	close(fd);
	return ok;
}

/* VmHWM in KiB, or -1. */
static long read_peak_rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* Runs only on one core, the one it is on now; SPEC §9 measures one core. */
static void pin_to_one_core(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static BenchStage *begin_stage(BenchRun *run, const char *name, bool in_total)
{
	BenchStage *stage = &run->stages[run->nstages++];
	DP_ASSERT(run->nstages <= BENCH_MAX_STAGES);
	snprintf(stage->name, sizeof(stage->name), "%s", name);
	stage->in_total = in_total;
	run->peak_reset = reset_peak_rss();
	stage->seconds = -now_seconds();
	return stage;
}

static void end_stage(BenchStage *stage)
{
	stage->seconds += now_seconds();
	stage->peak_kib = read_peak_rss_kib();
}

/* Keeps the first diagnostics of a failed load or phase for the report. */
static void record_failure(BenchRun *run, const char *what, const DiagList *diags)
{
	StrBuf sb;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s failed", what);
	for (size_t i = 0; i < diags->count && i < 3; i++) {
		strbuf_puts(&sb, "\n    ");
		diag_format(&sb, &diags->items[i]);
	}
	snprintf(run->error, sizeof(run->error), "%s", sb.data);
	strbuf_free(&sb);
}

/* The child's work: one run of one workload at one size. */
static void run_once(BenchWorkload workload, long n, const char *path, BenchRun *run)
{
	Session session;
	StrBuf text, printed;
	FILE *f;
	BenchStage *stage;

	pin_to_one_core();
	strbuf_init(&text);
	generate_module(&text, workload, n);
	f = fopen(path, "w");
	if (!f || fwrite(text.data, 1, text.len, f) != text.len || fclose(f) != 0) {
		snprintf(run->error, sizeof(run->error), "cannot write %.300s: %s", path,
			 strerror(errno));
		return;
	}
	strbuf_free(&text);

	session_init(&session);
	stage = begin_stage(run, "load", true);
	bool loaded = session_load(&session, path);
	end_stage(stage);
	if (!loaded) {
		record_failure(run, "load", &session.diags);
		session_free(&session);
		return;
	}

	/* Every phase of the pipeline, as `step` runs them; the planner's
	 * phases join the table, and so this bench, when they land. */
	for (size_t i = 0; i < pipeline_count; i++) {
		stage = begin_stage(run, pipeline_phases[i].name, true);
		bool stepped = session_step(&session, 1);
		end_stage(stage);
		if (!stepped) {
			record_failure(run, pipeline_phases[i].name, &session.diags);
			session_free(&session);
			return;
		}
	}

	PrintOptions opts = {.devices = &session.devices};
	strbuf_init(&printed);
	stage = begin_stage(run, "print", false);
	print_module(&printed, session_current(&session), &opts);
	end_stage(stage);
	if (printed.len < (size_t)n) {
		snprintf(run->error, sizeof(run->error), "print wrote %zu bytes for %ld bindings",
			 printed.len, n);
		strbuf_free(&printed);
		session_free(&session);
		return;
	}
	strbuf_free(&printed);
	session_free(&session);
	run->ok = true;
}

/* Forks a child for one run and collects its result; false on failure,
 * with run->error saying why. */
static bool fork_run(BenchWorkload workload, long n, BenchRun *run)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[4096];
	int fds[2], status, fd;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/devplan-bench-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);

	memset(run, 0, sizeof(*run));
	if (fd < 0 || pipe(fds) != 0) {
		snprintf(run->error, sizeof(run->error), "mkstemp/pipe: %s", strerror(errno));
		return false;
	}
	close(fd);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(run->error, sizeof(run->error), "fork: %s", strerror(errno));
		return false;
	}
	if (pid == 0) {
		BenchRun *mine = xcalloc(1, sizeof(BenchRun));
		close(fds[0]);
		run_once(workload, n, path, mine);
		ssize_t wrote = write(fds[1], mine, sizeof(*mine));
		_exit(wrote == (ssize_t)sizeof(*mine) ? 0 : 3);
	}
	close(fds[1]);
	size_t got = 0;
	while (got < sizeof(*run)) {
		ssize_t r = read(fds[0], (char *)run + got, sizeof(*run) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	unlink(path);
	if (WIFSIGNALED(status)) {
		snprintf(run->error, sizeof(run->error), "the run was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return false;
	}
	if (got != sizeof(*run)) {
		snprintf(run->error, sizeof(run->error), "the run exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return false;
	}
	return run->ok;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Medians of each stage's time and the largest peak over reps runs. */
static bool measure(BenchWorkload workload, long n, int reps, BenchRun *result)
{
	double times[BENCH_MAX_STAGES][16];
	DP_ASSERT(reps >= 1 && reps <= 16);
	for (int r = 0; r < reps; r++) {
		BenchRun run;
		if (!fork_run(workload, n, &run)) {
			*result = run;
			return false;
		}
		if (r == 0)
			*result = run;
		for (uint32_t s = 0; s < run.nstages; s++) {
			times[s][r] = run.stages[s].seconds;
			if (run.stages[s].peak_kib > result->stages[s].peak_kib)
				result->stages[s].peak_kib = run.stages[s].peak_kib;
		}
	}
	for (uint32_t s = 0; s < result->nstages; s++) {
		qsort(times[s], (size_t)reps, sizeof(double), compare_doubles);
		result->stages[s].seconds = times[s][reps / 2];
	}
	return true;
}

static const char *format_time(char *buf, size_t size, double seconds)
{
	if (seconds < 1.0)
		snprintf(buf, size, "%.1f ms", seconds * 1e3);
	else
		snprintf(buf, size, "%.2f s", seconds);
	return buf;
}

static const char *format_rate(char *buf, size_t size, double per_second)
{
	if (per_second >= 1e6)
		snprintf(buf, size, "%.2f M/s", per_second / 1e6);
	else
		snprintf(buf, size, "%.1f k/s", per_second / 1e3);
	return buf;
}

static const char *format_kib(char *buf, size_t size, long kib)
{
	if (kib < 0)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%.1f MiB", (double)kib / 1024.0);
	return buf;
}

static void print_row(const char *workload, const char *size, const char *stage, const char *time,
		      const char *rate, const char *peak, const char *target, const char *ratio)
{
	printf("%-8s %-15s %-8s %10s %11s %11s  %-22s %s\n", workload, size, stage, time, rate,
	       peak, target, ratio);
}

/* A ratio of a measurement to its target, marked when over it. Only the
 * targets SPEC §9 states count (`binding` true); the others say `info`. */
static const char *format_ratio(char *buf, size_t size, double ratio, bool binding, int *missed)
{
	if (!binding)
		snprintf(buf, size, "%.2f (info)", ratio);
	else if (ratio <= 1.0)
		snprintf(buf, size, "%.2f ok", ratio);
	else {
		snprintf(buf, size, "%.2f MISSED", ratio);
		(*missed)++;
	}
	return buf;
}

/* Prints the rows of one measured size; returns the total seconds. */
static double print_size(BenchWorkload workload, long n, const BenchRun *run, int *missed)
{
	const char *name = bench_workload_names[workload];
	char size[32], time[32], rate[32], peak[32], target[48], ratio[32];
	double total = 0;
	long total_peak = -1;
	bool at_target_size = (double)n == bench_target_size;
	double scale = (double)n / bench_target_size;

	snprintf(size, sizeof(size), "%ld", n);
	for (uint32_t s = 0; s < run->nstages; s++) {
		const BenchStage *st = &run->stages[s];
		print_row(name, size, st->name, format_time(time, sizeof(time), st->seconds),
			  format_rate(rate, sizeof(rate), (double)n / st->seconds),
			  format_kib(peak, sizeof(peak), st->peak_kib), "", "");
		if (st->in_total) {
			total += st->seconds;
			if (st->peak_kib > total_peak)
				total_peak = st->peak_kib;
		}
	}
	snprintf(target, sizeof(target), "time < %s",
		 format_time(time, sizeof(time), bench_target_seconds * scale));
	print_row(name, size, "total", format_time(time, sizeof(time), total),
		  format_rate(rate, sizeof(rate), (double)n / total),
		  format_kib(peak, sizeof(peak), total_peak), target,
		  format_ratio(ratio, sizeof(ratio), total / (bench_target_seconds * scale),
			       at_target_size, missed));
	if (total_peak >= 0) {
		double limit = bench_target_bytes * scale;
		snprintf(target, sizeof(target), "peak < %.1f MiB", limit / (1024.0 * 1024));
		print_row("", "", "", "", "", "", target,
			  format_ratio(ratio, sizeof(ratio), (double)total_peak * 1024.0 / limit,
				       at_target_size, missed));
	}
	return total;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_frontend [-r REPS] [-w graph|let] [SIZE...]\n"
			"  default sizes 10000 100000 1000000; REPS (1-16) runs per size, the\n"
			"  median time reported (default 3); -w picks one workload\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long sizes[16];
	int nsizes = 0, reps = 3, opt, missed = 0, failed = 0;
	bool want[2] = {true, true};

	while ((opt = getopt(argc, argv, "r:w:h")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > 16)
				usage();
			break;
		case 'w':
			want[WORKLOAD_GRAPH] = strcmp(optarg, "graph") == 0;
			want[WORKLOAD_LET] = strcmp(optarg, "let") == 0;
			if (!want[WORKLOAD_GRAPH] && !want[WORKLOAD_LET])
				usage();
			break;
		default:
			usage();
		}
	}
	for (int i = optind; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);
		if (*end || n < 1 || nsizes == (int)DP_COUNT(sizes))
			usage();
		sizes[nsizes++] = n;
	}
	if (nsizes == 0) {
		sizes[nsizes++] = 10000;
		sizes[nsizes++] = 100000;
		sizes[nsizes++] = 1000000;
	}

	printf("bench_frontend: one core per run; total = load + every pipeline phase "
	       "(printing excluded)\n");
	print_row("workload", "size", "stage", "time", "bindings/s", "peak RSS", "target", "ratio");
	for (int w = 0; w < 2; w++) {
		double prev_total = 0;
		long prev_n = 0;
		if (!want[w])
			continue;
		for (int i = 0; i < nsizes; i++) {
			BenchRun run;
			long n = sizes[i];
			if (!measure((BenchWorkload)w, n, reps, &run)) {
				printf("%-8s %-15ld FAILED: %s\n", bench_workload_names[w], n,
				       run.error[0] ? run.error : "no reason given");
				failed++;
				prev_n = 0;
				continue;
			}
			if (i == 0 && !run.peak_reset)
				puts("(peaks are cumulative: clear_refs is not writable)");
			double total = print_size((BenchWorkload)w, n, &run, &missed);
			/* Linear scaling: k times the bindings in at most
			 * 1.2 k times the time (12x for 10x). */
			if (prev_n > 0 && n > prev_n) {
				char size[48], time[32], target[48], ratio[32];
				double k = (double)n / (double)prev_n;
				double allowed = bench_target_scaling / 10.0 * k;
				snprintf(size, sizeof(size), "%ld->%ld", prev_n, n);
				snprintf(time, sizeof(time), "%.2fx", total / prev_total);
				snprintf(target, sizeof(target), "time <= %.1fx", allowed);
				print_row(bench_workload_names[w], size, "scaling", time, "", "",
					  target,
					  format_ratio(ratio, sizeof(ratio),
						       total / prev_total / allowed, true,
						       &missed));
			}
			prev_total = total;
			prev_n = n;
		}
	}
	if (failed)
		printf("bench_frontend: %d run(s) failed\n", failed);
	else if (missed)
		printf("bench_frontend: %d target(s) missed\n", missed);
	else
		printf("bench_frontend: every target met\n");
	return failed ? 2 : missed ? 1 : 0;
}
