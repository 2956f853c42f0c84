/*
 * exec_clock.h - how long an operator kept this machine busy, the one
 * measure `profile` and `target calibrate` share.
 *
 * A wall clock counts the time other jobs ran on a shared machine; the
 * kernels' threads' CPU time alone counts their work, whether it was
 * spread over them or not. The busy time of a span is the longer of the
 * calling thread's CPU time and the CPU time of the calling thread and the
 * kernel pool's workers (kernel_parallel_for's) divided by the kernels'
 * threads (kernel_cpu_threads): what the span would have taken on that
 * many idle cores, had the work been split evenly. An operator that runs
 * on the calling thread alone is its own CPU time; one split evenly over
 * T threads is a T-th of their sum; a thread that spins while it waits
 * counts as the work it kept from others. OpenBLAS's own threads are not
 * counted: in a product the calling thread computes its share, so its
 * CPU time is the product's duration, and after one they spin for about
 * 0.1 s (OpenBLAS's default), which the whole process's CPU time would
 * charge to the operators that follow. Nor are other threads of the
 * process (another run's). The workers' time is a sum they keep of their
 * calls' ranges (kernel_cpu_pool_seconds), so that a reading makes one
 * system call, the calling thread's clock, at any thread count.
 *
 * Reading the CPU clock is a system call (a few tenths of a microsecond
 * of CPU time, and up to a microsecond of wall clock on a virtual
 * machine): exec_clock_cost measures what an empty span costs, which
 * `profile` takes off each operator it times, so that a microsecond
 * operator is not measured as mostly the clocks' own time. Its median is
 * measured once, so it must be a cost that stays put: reading the
 * workers' own clocks too (a system call each) once doubled it at 2
 * threads and made it swing with what the other core ran, and the
 * subtraction took a one-element operator's whole cost.
 */
#ifndef DEVPLAN_EXEC_CLOCK_H
#define DEVPLAN_EXEC_CLOCK_H

#include <stdbool.h>

typedef struct ExecClock {
	double wall;    /* CLOCK_MONOTONIC */
	double thread;  /* the calling thread's CPU time */
	double workers; /* the kernel pool's workers' CPU time; 0 when not read */
} ExecClock;

/* Now, with the CPU clocks when cpu is true (wall only otherwise). */
ExecClock exec_clock_now(bool cpu);

/* The busy seconds between two readings by one thread (never negative). */
double exec_clock_busy(const ExecClock *start, const ExecClock *end);

/* The wall seconds between two readings. */
double exec_clock_wall(const ExecClock *start, const ExecClock *end);

typedef struct ExecClockCost {
	double wall, busy; /* seconds */
} ExecClockCost;

/* The median of v[0, n) (n > 0; v is sorted in place): the measure every
 * repeated timing takes. */
double exec_clock_median(double *v, int n);

/* What an empty span costs (two readings with the CPU clocks): the median
 * wall and busy seconds of many, measured once per process. */
const ExecClockCost *exec_clock_cost(void);

#endif
