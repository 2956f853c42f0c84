/*
 * bench_commands.c - how long each REPL command takes on a large module
 * (SPEC §9: under 100 ms on a 100,000-binding module, except render, run
 * and the commands that run the whole pipeline).
 *
 * Generates a chain of N graph bindings with an annotation every 8 (device
 * alternating, so there are conflicts and copies to report), plans it once
 * through the session, then runs each command through the same dispatcher
 * the shell uses, with its output going to /dev/null, and reports the
 * wall-clock time of the best of REPS runs. Usage:
 *   bench_commands [-r REPS] [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "session.h"

enum { TARGET_MS = 100 };

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *write_module(long n)
{
	char *path = xstrdup("/tmp/devplan-bench-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "#[version = \"0.0.5\"]\ndef @main(%%x: Tensor[(5, 7), float32]) {\n"
		   "  %%0 = add(%%x, %%x);\n");
	for (long i = 1; i < n; i++) {
		if (i % 8 == 7)
			fprintf(f,
				"  %%%ld = on_device(%%%ld, "
				"virtual_device=meta[VirtualDevice][%ld]);\n",
				i, i - 1, (i / 8) % 2);
		else
			fprintf(f, "  %%%ld = add(%%%ld, %%x);\n", i, i - 1);
	}
	fprintf(f, "  %%%ld\n}\n", n - 1);
	fclose(f);
	return path;
}

int main(int argc, char **argv)
{
	long n = 100000;
	int reps = 3, opt, missed = 0;
	char *path, line[256];
	Session s;
	CmdContext ctx;
	FILE *null = fopen("/dev/null", "w");
	/* %{n/2} is in the middle of the chain; the commands that change the
	 * plan (pin) are followed by their undo, which is timed too */
	const char *commands[] = {
		"phases",
		"why %%%ld",
		"constraints %%%ld",
		"conflicts",
		"copies",
		"placement",
		"placement --json",
		"regions",
		"verify",
		"ir",
		"ir --devices",
		"ir --phase check",
		"diff",
		"diff rewrite",
		"breaks",
		"show",
		"targets",
	};
	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt == 'r')
			reps = atoi(optarg);
		else {
			fprintf(stderr, "usage: bench_commands [-r REPS] [N]\n");
			return 2;
		}
	}
	if (optind < argc)
		n = atol(argv[optind]);
	if (n < 16 || reps < 1 || !null) {
		fprintf(stderr, "bench_commands: bad arguments\n");
		return 2;
	}
	path = write_module(n);
	session_init(&s);
	cmd_context_init(&ctx, &s, null, null);
	ctx.batch = true;
	snprintf(line, sizeof line, "load %s", path);
	if (commands_execute_line(&ctx, line) || commands_execute_line(&ctx, "plan")) {
		fprintf(stderr, "bench_commands: the module did not plan\n");
		return 2;
	}
	printf("%-9s %-10s %-24s %10s  %-16s %s\n", "workload", "size", "command", "time", "target",
	       "ratio");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		double best = 1e30;
		snprintf(line, sizeof line, commands[i], n / 2);
		for (int r = 0; r < reps; r++) {
			double t0 = now_ms();
			commands_execute_line(&ctx, line);
			if (now_ms() - t0 < best)
				best = now_ms() - t0;
		}
		printf("%-9s %-10ld %-24s %7.1f ms  %-16s %5.2f %s\n", "command", n, line, best,
		       "time < 100 ms", best / TARGET_MS, best < TARGET_MS ? "ok" : "MISSED");
		missed += best >= TARGET_MS;
	}
	{
		/* what-if: a pin plans again, so it is a whole-pipeline command;
		 * reported without a target */
		double t0;
		snprintf(line, sizeof line, "pin %%%ld cuda:0", n / 2 - 3);
		t0 = now_ms();
		commands_execute_line(&ctx, line);
		printf("%-9s %-10ld %-24s %7.1f ms  %-16s\n", "command", n, line, now_ms() - t0,
		       "(whole pipeline)");
	}
	cmd_context_free(&ctx);
	session_free(&s);
	unlink(path);
	free(path);
	fclose(null);
	printf("bench_commands: %s\n",
	       missed ? "some commands missed the target" : "every target met");
	return missed ? 1 : 0;
}
