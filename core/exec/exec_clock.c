/*
 * exec_clock.c - busy time of a span (exec_clock.h).
 */
#include "exec_clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "kernels.h"

static double seconds_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ExecClock exec_clock_now(bool cpu)
{
	ExecClock c = {seconds_of(CLOCK_MONOTONIC), 0, 0};
	if (cpu) {
		c.thread = seconds_of(CLOCK_THREAD_CPUTIME_ID);
		if (kernel_cpu_threads() > 1)
			c.workers = kernel_cpu_pool_seconds();
	}
	return c;
}

double exec_clock_busy(const ExecClock *start, const ExecClock *end)
{
	double thread = end->thread - start->thread;
	double shared = (thread + end->workers - start->workers) / kernel_cpu_threads();
	double busy = thread > shared ? thread : shared;
	return busy > 0 ? busy : 0;
}

double exec_clock_wall(const ExecClock *start, const ExecClock *end)
{
	double wall = end->wall - start->wall;
	return wall > 0 ? wall : 0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double exec_clock_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), compare_doubles);
	return v[n / 2];
}

enum { CLOCK_SAMPLES = 201 };
static ExecClockCost clock_cost;
static pthread_once_t clock_cost_once = PTHREAD_ONCE_INIT;

static void measure_cost(void)
{
	double wall[CLOCK_SAMPLES], busy[CLOCK_SAMPLES];
	for (int i = 0; i < CLOCK_SAMPLES; i++) {
		ExecClock a = exec_clock_now(true), b = exec_clock_now(true);
		wall[i] = exec_clock_wall(&a, &b);
		busy[i] = exec_clock_busy(&a, &b);
	}
	clock_cost.wall = exec_clock_median(wall, CLOCK_SAMPLES);
	clock_cost.busy = exec_clock_median(busy, CLOCK_SAMPLES);
}

const ExecClockCost *exec_clock_cost(void)
{
	pthread_once(&clock_cost_once, measure_cost);
	return &clock_cost;
}
