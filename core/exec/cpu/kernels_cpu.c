/*
 * kernels_cpu.c - the CPU kernels' threads, what their families share, and
 * their table.
 *
 * There is one C kernel per operator of ops.def, on host memory, in the
 * file of its family beside this one: cpu_elementwise.c, cpu_fill.c,
 * cpu_reduce.c, cpu_nn.c, cpu_window.c and cpu_transform.c. The table at
 * the bottom is generated from ops.def, so an operator without a kernel
 * does not link.
 *
 * Large outputs are split across threads (kernel_parallel_for: a pool of
 * persistent workers, woken per call, so short kernels pay a wake-up of a
 * few microseconds rather than a pthread_create per thread). Matrix products
 * go to OpenBLAS (cpu_gemm below, for nn.dense, nn.batch_matmul and the
 * convolutions), which does its own threading and is only ever called from
 * the thread that launched the kernel, never from our workers, so the two
 * pools never nest; those with a narrow side against a big operand, which
 * OpenBLAS would copy whole, to gemm_skinny.c, on our workers.
 */
#include "kernels_cpu.h"

#include "oom.h"

#include <cblas.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---- threads ----------------------------------------------------------- */

enum { KERNEL_MAX_THREADS = 64 };

static int cpu_threads = 1;
static pthread_once_t cpu_threads_once = PTHREAD_ONCE_INIT;

/* OpenBLAS's threads: each worker allocates a buffer of over 128 MiB when
 * it starts, and one that cannot (under `ulimit -v`) retries for ever while
 * the caller waits. So under an address-space limit there are only as many
 * as it leaves room for (one per 256 MiB past the first 256 MiB), and at
 * least the caller's own (OpenBLAS with one thread runs in the caller and
 * uses no worker). The library is loaded with that many (blas_load). */
static int blas_threads(int wanted)
{
	struct rlimit rl;
	uint64_t room;
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return wanted;
	room = rl.rlim_cur > ((uint64_t)256 << 20) ? (rl.rlim_cur - ((uint64_t)256 << 20)) >> 28
						   : 0;
	if (room < 1)
		return 1;
	return room < (uint64_t)wanted ? (int)room : wanted;
}

static void cpu_threads_init(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	const char *env = getenv("DEVPLAN_THREADS");
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);
		if (*end == '\0' && v >= 1)
			n = v;
	}
	if (n < 1)
		n = 1;
	if (n > KERNEL_MAX_THREADS)
		n = KERNEL_MAX_THREADS;
	cpu_threads = (int)n;
}

int kernel_cpu_threads(void)
{
	pthread_once(&cpu_threads_once, cpu_threads_init);
	return cpu_threads;
}

typedef struct RangeJob {
	KernelRangeFn fn;
	void *ctx;
	int64_t begin, end;
} RangeJob;

static void *range_job_run(void *arg)
{
	RangeJob *job = arg;
	job->fn(job->ctx, job->begin, job->end);
	return NULL;
}

/* The persistent workers (kernel_cpu_threads() - 1 of them; the caller runs
 * the first range itself). They are started on the first parallel call,
 * between calls watch for the next one a while (pool_spin), then sleep on
 * `work`, and are joined by kernel_cpu_pool_stop (the last cpu or
 * emulator device's close, and exit). One caller at a
 * time owns them (`dispatch`); a second, concurrent or nested, one gets
 * threads of its own created for the call, as before the pool. Workers
 * block every signal, so Ctrl-C reaches the main thread; a child after
 * fork has no workers and starts its own. */
static struct {
	pthread_mutex_t dispatch; /* held by the caller that owns the workers */
	pthread_mutex_t mu;       /* guards everything below */
	pthread_cond_t work, done;
	pthread_t threads[KERNEL_MAX_THREADS];
	int nworkers;
	bool started, quit, atfork;
	/* a call's generation (read unguarded while spinning), the workers'
	 * first; the workers' ranges still running (likewise) */
	_Atomic uint64_t generation;
	uint64_t start_generation;
	_Atomic int pending;
	_Atomic uint64_t rests; /* pool_rest's calls: spinning workers sleep */
	int chunks, users;
	RangeJob jobs[KERNEL_MAX_THREADS];
	/* the workers' CPU nanoseconds (kernel_cpu_pool_seconds): each
	 * adds its own, from waking for a call to its range's end */
	_Atomic uint64_t busy_ns;
} pool = {.dispatch = PTHREAD_MUTEX_INITIALIZER,
	  .mu = PTHREAD_MUTEX_INITIALIZER,
	  .work = PTHREAD_COND_INITIALIZER,
	  .done = PTHREAD_COND_INITIALIZER};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Kept by the workers rather than read from their clocks: reading another
 * thread's CPU clock is a system call (and a mutex), which every reading
 * of exec_clock_now paid per worker, around every operator, also the
 * many that split nothing. That doubled an empty span's cost at 2 threads
 * (about 0.3 -> 0.5 us here) and made it vary with what the other core
 * ran (to 0.75 us while OpenBLAS's threads spun), so that `profile`'s
 * subtraction of its median took a one-element operator's whole 0.15 us
 * (`target calibrate`'s kernel call: 0.15 us at 1 thread, 0.001-0.06 at
 * 2). A worker's time asleep in the kernel's wake-up is not counted. */
double kernel_cpu_pool_seconds(void)
{
	return (double)atomic_load_explicit(&pool.busy_ns, memory_order_acquire) * 1e-9;
}

/* How long a worker keeps watching for the next call after its range,
 * and the caller for the workers' ranges after its own, before sleeping
 * on a condition variable: a model's operators follow each other within
 * microseconds, and waking a sleeping thread on another (virtual) core
 * took 20-100 us here, more than many an operator's work (a 786 KiB
 * attention softmax: 0.2-0.3 ms on two threads against 0.13 on one). */
enum { POOL_SPIN_NS = 100000 };

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A spinning thread yields its core at every turn: OpenBLAS's workers
 * spin after a product (with sched_yield too), and a spinner that only
 * paused would hold the core they, or our own worker with a range to
 * run, need for a whole time slice. */
static inline void spin_pause(void)
{
	sched_yield();
}

/* Sends the spinning workers to sleep: before a call into OpenBLAS,
 * whose own workers need the cores. */
static void pool_rest(void)
{
	atomic_fetch_add_explicit(&pool.rests, 1, memory_order_relaxed);
}

/* What a watcher waits for: a worker for a call after generation `seen`
 * (or pool_rest's call after `rests`), the caller for no pending range. */
typedef struct PoolWatch {
	bool worker;
	uint64_t seen, rests;
} PoolWatch;

static bool pool_watched(const PoolWatch *w)
{
	if (!w->worker)
		return atomic_load_explicit(&pool.pending, memory_order_acquire) == 0;
	return atomic_load_explicit(&pool.generation, memory_order_acquire) != w->seen ||
	       atomic_load_explicit(&pool.rests, memory_order_relaxed) != w->rests;
}

/* Until w's event, or POOL_SPIN_NS. */
static void pool_spin(const PoolWatch *w)
{
	uint64_t start = monotonic_ns();
	for (unsigned i = 1; !pool_watched(w); i++) {
		spin_pause();
		if (i % 8 == 0 && monotonic_ns() - start > POOL_SPIN_NS)
			return;
	}
}

static void *pool_worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	uint64_t seen;
	pthread_mutex_lock(&pool.mu);
	seen = pool.start_generation;
	for (;;) {
		if (pool.generation == seen && !pool.quit) {
			PoolWatch w = {true, seen,
				       atomic_load_explicit(&pool.rests, memory_order_relaxed)};
			pthread_mutex_unlock(&pool.mu);
			pool_spin(&w);
			pthread_mutex_lock(&pool.mu);
		}
		while (pool.generation == seen && !pool.quit)
			pthread_cond_wait(&pool.work, &pool.mu);
		if (pool.quit)
			break;
		seen = pool.generation;
		if (id < pool.chunks) {
			RangeJob job = pool.jobs[id];
			uint64_t woke = thread_cpu_ns();
			pthread_mutex_unlock(&pool.mu);
			range_job_run(&job);
			pthread_mutex_lock(&pool.mu);
			/* counted before the caller can see its call done */
			atomic_fetch_add_explicit(&pool.busy_ns, thread_cpu_ns() - woke,
						  memory_order_release);
			if (--pool.pending == 0)
				pthread_cond_signal(&pool.done);
		}
	}
	pthread_mutex_unlock(&pool.mu);
	return NULL;
}

static void pool_after_fork(void)
{
	pthread_mutex_init(&pool.dispatch, NULL);
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.work, NULL);
	pthread_cond_init(&pool.done, NULL);
	pool.started = pool.quit = false;
	pool.nworkers = pool.chunks = pool.users = 0;
	atomic_store(&pool.pending, 0);
	atomic_store(&pool.busy_ns, 0);
}

/* With `dispatch` held. */
static void pool_start(void)
{
	sigset_t all, old;
	int want = kernel_cpu_threads() - 1;
	if (!pool.atfork) {
		pool.atfork = pthread_atfork(NULL, NULL, pool_after_fork) == 0;
		atexit(kernel_cpu_pool_stop);
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&pool.mu);
	pool.quit = false;
	pool.start_generation = pool.generation;
	pthread_mutex_unlock(&pool.mu);
	pool.nworkers = 0;
	for (int i = 1; i <= want; i++) {
		if (pthread_create(&pool.threads[i], NULL, pool_worker, (void *)(intptr_t)i) != 0)
			break;
		pool.nworkers = i;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pool.started = true;
}

void kernel_cpu_pool_stop(void)
{
	pthread_mutex_lock(&pool.dispatch);
	if (pool.started) {
		pthread_mutex_lock(&pool.mu);
		pool.quit = true;
		pthread_cond_broadcast(&pool.work);
		pthread_mutex_unlock(&pool.mu);
		for (int i = 1; i <= pool.nworkers; i++)
			pthread_join(pool.threads[i], NULL);
		pool.started = false;
		pool.nworkers = 0;
	}
	pthread_mutex_unlock(&pool.dispatch);
}

void kernel_cpu_pool_open(void)
{
	pthread_mutex_lock(&pool.mu);
	pool.users++;
	pthread_mutex_unlock(&pool.mu);
}

void kernel_cpu_pool_close(void)
{
	bool last;
	pthread_mutex_lock(&pool.mu);
	last = pool.users > 0 && --pool.users == 0;
	pthread_mutex_unlock(&pool.mu);
	if (last)
		kernel_cpu_pool_stop();
}

/* Waits for the workers' ranges of the current call and gives them up: the
 * end of every pooled call, and the cleanup when memory runs out in the
 * caller's own range (oom_fail jumps past the end). */
static void pool_finish(void *arg)
{
	const PoolWatch caller = {false, 0, 0};
	(void)arg;
	pool_spin(&caller);
	pthread_mutex_lock(&pool.mu);
	while (pool.pending > 0)
		pthread_cond_wait(&pool.done, &pool.mu);
	pthread_mutex_unlock(&pool.mu);
	pthread_mutex_unlock(&pool.dispatch);
}

/* Splits [0, n) into `chunks` ranges, the first n % chunks one longer. */
static void range_jobs(RangeJob *jobs, int64_t chunks, int64_t n, KernelRangeFn fn, void *ctx)
{
	for (int64_t i = 0; i < chunks; i++) {
		jobs[i] =
			(RangeJob){fn, ctx, n / chunks * i + (i < n % chunks ? i : n % chunks), 0};
		jobs[i].end = jobs[i].begin + n / chunks + (i < n % chunks);
	}
}

/* Runs fn over [0, n) in `chunks` ranges (fewer if the pool has fewer
 * workers) on the pool; false (nothing run) when another caller
 * owns it or it has no workers. */
static bool pool_run(int64_t chunks, int64_t n, KernelRangeFn fn, void *ctx)
{
	OomCleanup cleanup;
	if (pthread_mutex_trylock(&pool.dispatch) != 0)
		return false;
	if (!pool.started)
		pool_start();
	if (pool.nworkers < 1) {
		pthread_mutex_unlock(&pool.dispatch);
		return false;
	}
	if (chunks > pool.nworkers + 1)
		chunks = pool.nworkers + 1;
	pthread_mutex_lock(&pool.mu);
	range_jobs(pool.jobs, chunks, n, fn, ctx);
	pool.chunks = (int)chunks;
	pool.pending = (int)chunks - 1;
	pool.generation++;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mu);
	cleanup = oom_cleanup_add(pool_finish, NULL);
	range_job_run(&pool.jobs[0]);
	oom_cleanup_remove(cleanup);
	pool_finish(NULL);
	return true;
}

void kernel_parallel_for(int64_t n, int64_t grain, KernelRangeFn fn, void *ctx)
{
	pthread_t threads[KERNEL_MAX_THREADS];
	RangeJob jobs[KERNEL_MAX_THREADS];
	bool started[KERNEL_MAX_THREADS];
	int64_t chunks;
	if (n <= 0)
		return;
	if (grain < 1)
		grain = 1;
	chunks = n / grain;
	if (chunks > kernel_cpu_threads())
		chunks = kernel_cpu_threads();
	if (chunks <= 1) {
		fn(ctx, 0, n);
		return;
	}
	if (pool_run(chunks, n, fn, ctx))
		return;
	range_jobs(jobs, chunks, n, fn, ctx);
	for (int64_t i = 1; i < chunks; i++)
		started[i] = pthread_create(&threads[i], NULL, range_job_run, &jobs[i]) == 0;
	range_job_run(&jobs[0]);
	for (int64_t i = 1; i < chunks; i++) {
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			range_job_run(&jobs[i]);
	}
}

/* ---- messages ---------------------------------------------------------- */

bool cpu_unsupported(const KernelCall *kc, DType dt, char **err)
{
	*err = xasprintf("'%s' on the cpu does not support %s", kc->name, dtype_name(dt));
	return false;
}

bool cpu_too_large(const KernelCall *kc, char **err)
{
	*err = xasprintf("'%s' has a dimension too large for BLAS (more than %d)", kc->name,
			 INT_MAX);
	return false;
}

/* ---- dtypes ------------------------------------------------------------ */

/* Runs f32 or f64 over [0, n) by the first input's dtype; other dtypes are unsupported. */
bool cpu_run_float(const KernelCall *kc, int64_t n, int64_t grain, KernelRangeFn f32,
		   KernelRangeFn f64, void *job, char **err)
{
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		kernel_parallel_for(n, grain, f32, job);
		return true;
	case DT_FLOAT64:
		kernel_parallel_for(n, grain, f64, job);
		return true;
	case DT_FLOAT16:
	case DT_BFLOAT16:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_INT32:
	case DT_UINT32:
	case DT_INT64:
	case DT_UINT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return cpu_unsupported(kc, kc->in[0].dtype, err);
}

/* ---- matrix products (nn and window) ----------------------------------- */

/* ---- OpenBLAS, loaded by the first matrix product ------------------------ */

/* The four routines devplan calls, resolved from the library at its first
 * use (CMakeLists.txt says why it is not linked). */
typedef struct Blas {
	void *handle;
	char *error; /* why it could not be loaded, or NULL */
	__typeof__(&cblas_sgemm) sgemm;
	__typeof__(&cblas_dgemm) dgemm;
	__typeof__(&cblas_sgemv) sgemv;
	__typeof__(&cblas_dgemv) dgemv;
} Blas;

static Blas blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

/* The OpenBLAS core type for this CPU's instruction sets, or NULL to let
 * OpenBLAS detect it. OpenBLAS 0.3.21 (Debian 12) detects by CPU model and
 * falls back to its SSE3 "Prescott" kernels for a model it does not know:
 * on a Sapphire Rapids VM that ran sgemm at a quarter of the machine's
 * rate. Naming the core by what the CPU can execute (the OS's saved
 * state included: __builtin_cpu_supports checks XGETBV) gives the kernels
 * the CPU has; a user's OPENBLAS_CORETYPE wins. */
const char *kernel_blas_coretype(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
		return "SkylakeX";
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return "Haswell";
	if (__builtin_cpu_supports("avx"))
		return "Sandybridge";
#endif
	return NULL;
}

/* Loads OpenBLAS with OPENBLAS_NUM_THREADS set (unless the user set it) to
 * the threads whose buffers fit (blas_threads): its constructor starts
 * them, before any call could lower the number; OPENBLAS_CORETYPE
 * (unless set) to kernel_blas_coretype's, which its constructor reads too.
 * Its workers' spin after a call is left as it is: OPENBLAS_THREAD_TIMEOUT=4
 * (sleep at once) made rw_bert_base's operators at 2 threads slower, busy
 * 665-757 -> 825-1772 ms, waking the workers for every small product
 * (batch_matmul 8.6 -> 42 ms). The soname first, so that
 * LD_LIBRARY_PATH and Debian's alternatives choose, then the file the
 * build found. */
static void blas_load(void)
{
	static const char *const names[] = {"libopenblas.so.0", DEVPLAN_OPENBLAS_PATH};
	char threads[16];
	if (!getenv("OPENBLAS_NUM_THREADS")) {
		snprintf(threads, sizeof threads, "%d", blas_threads(kernel_cpu_threads()));
		setenv("OPENBLAS_NUM_THREADS", threads, 1);
	}
	if (!getenv("OPENBLAS_CORETYPE") && kernel_blas_coretype())
		setenv("OPENBLAS_CORETYPE", kernel_blas_coretype(), 1);
	for (size_t i = 0; i < DP_COUNT(names) && !blas.handle; i++)
		blas.handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!blas.handle) {
		const char *why = dlerror();
		blas.error = xasprintf("cannot load OpenBLAS (libopenblas.so.0): %s",
				       why ? why : "not found");
		return;
	}
	*(void **)&blas.sgemm = dlsym(blas.handle, "cblas_sgemm");
	*(void **)&blas.dgemm = dlsym(blas.handle, "cblas_dgemm");
	*(void **)&blas.sgemv = dlsym(blas.handle, "cblas_sgemv");
	*(void **)&blas.dgemv = dlsym(blas.handle, "cblas_dgemv");
	if (!blas.sgemm || !blas.dgemm || !blas.sgemv || !blas.dgemv) {
		blas.error = xasprintf("the OpenBLAS library found lacks the cblas routines");
		dlclose(blas.handle);
		blas.handle = NULL;
	}
}

/* OpenBLAS allocates a work buffer of 128 MiB in the calling thread on its
 * first call, and retries for ever when the address space cannot hold it
 * (`ulimit -v`): so before the first call, the room left under the limit
 * is checked and a product that could not run fails with a clear error.
 * Once a call has run, the buffer exists. */
enum { BLAS_BUFFER_ROOM = 160 << 20 };
static bool blas_room_known;

static bool blas_room(char **err)
{
	struct rlimit rl;
	unsigned long pages = 0;
	uint64_t used, room;
	FILE *f;
	if (blas_room_known || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return true;
	f = fopen("/proc/self/statm", "r");
	if (!f)
		return true;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGE_SIZE);
	room = rl.rlim_cur > used ? rl.rlim_cur - used : 0;
	if (room < BLAS_BUFFER_ROOM) {
		*err = xasprintf("OpenBLAS needs a work buffer of 128 MiB, and the address-space "
				 "limit (ulimit -v) leaves %llu MiB free",
				 (unsigned long long)(room >> 20));
		return false;
	}
	blas_room_known = true;
	return true;
}

/* Whether a product can run: OpenBLAS loaded and room for its buffer. */
static bool blas_ready(char **err)
{
	if (!blas_room(err))
		return false;
	pthread_once(&blas_once, blas_load);
	if (blas.error) {
		*err = xstrdup(blas.error);
		return false;
	}
	return true;
}

/* GEMM_SKINNY_BIG, the least elements of a skinny product's big operand
 * for cpu_gemm_skinny (see cpu_gemm): 2^19, 2 MiB of floats, this machine's
 * L2. Below it the operand sits in cache, where OpenBLAS's kernel (fewer
 * loads per multiply-add) wins: one thread, n = 16, sgemm took 0.6-0.8 of
 * the skinny kernel's time on 256 x 256 to 1024 x 256 operands; from
 * 1024 x 512 up its copy is an extra pass over memory, and it took
 * 1.4-2.0 times as long for n from 1 to 16 (8192 x 1024: 7-10 ms against
 * 3.3-7.6, load 13-14).
 *
 * c[m, n] = op(a) * op(b) with row-major leading dimensions. */
void cpu_gemm(DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
	      int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc)
{
	if (m == 0 || n == 0)
		return;
	if (k == 0) {
		for (int64_t i = 0; i < m; i++)
			memset((char *)c + (size_t)(i * ldc) * dtype_size(dt), 0,
			       (size_t)n * dtype_size(dt));
		return;
	}
	if (m == 1 && !ta) {
		/* a row vector times op(b): a matrix-vector product, which streams b
		 * once instead of packing it as gemm would */
		pool_rest();
		if (dt == DT_FLOAT32)
			blas.sgemv(CblasRowMajor, tb ? CblasNoTrans : CblasTrans,
				   tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0f, b, (int)ldb, a,
				   1, 0.0f, c, 1);
		else
			blas.dgemv(CblasRowMajor, tb ? CblasNoTrans : CblasTrans,
				   tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0, b, (int)ldb, a,
				   1, 0.0, c, 1);
		return;
	}
	/* one side narrow and the other, big, operand lying along the wide
	 * side's rows (gemm_skinny.c): read where it lies rather than
	 * packed, when it is big enough for the copy to cost (GEMM_SKINNY_BIG) */
	if (n <= GEMM_SKINNY_MAX && ta && m * k >= GEMM_SKINNY_BIG &&
	    cpu_gemm_skinny(dt, m, n, k, a, lda, b, tb ? 1 : ldb, tb ? ldb : 1, c, ldc, 1))
		return;
	if (m <= GEMM_SKINNY_MAX && !tb && n * k >= GEMM_SKINNY_BIG &&
	    cpu_gemm_skinny(dt, n, m, k, b, ldb, a, ta ? lda : 1, ta ? 1 : lda, c, 1, ldc))
		return;
	pool_rest();
	if (dt == DT_FLOAT32)
		blas.sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
			   tb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
			   (int)lda, b, (int)ldb, 0.0f, c, (int)ldc);
	else
		blas.dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
			   tb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a, (int)lda,
			   b, (int)ldb, 0.0, c, (int)ldc);
}

bool cpu_blas_dtype(const KernelCall *kc, char **err)
{
	DType dt = kc->in[0].dtype;
	if (dt == DT_FLOAT32 || dt == DT_FLOAT64)
		return blas_ready(err);
	return cpu_unsupported(kc, dt, err);
}

/* ---- the dtypes the kernels take --------------------------------------------- */

/* Which of the dtypes that kernel_dtype_checked_at_launch leaves to
 * kernel_cpu_supports an operator's kernel takes. */
typedef enum CpuDtypes {
	CPU_NONE,       /* none: BLAS and the float-only drivers (cpu_run_float) */
	CPU_ALL,        /* every one: moving bytes, casts, fills, integer arithmetic */
	CPU_FLOAT,      /* bfloat16 only: the transcendental functions */
	CPU_NOT_UINT64, /* all but uint64: reductions compare and divide in int64 */
} CpuDtypes;

static const uint8_t cpu_dtypes[OP_COUNT] = {
	[OP_RESHAPE] = CPU_ALL,
	[OP_BATCH_FLATTEN] = CPU_ALL,
	[OP_EXPAND_DIMS] = CPU_ALL,
	[OP_SQUEEZE] = CPU_ALL,
	[OP_ON_DEVICE] = CPU_ALL,
	[OP_DEVICE_COPY] = CPU_ALL,
	[OP_TRANSPOSE] = CPU_ALL,
	[OP_CONCATENATE] = CPU_ALL,
	[OP_SPLIT] = CPU_ALL,
	[OP_GATHER] = CPU_ALL,
	[OP_GATHER_ND] = CPU_ALL,
	[OP_SCATTER_ELEMENTS] = CPU_ALL,
	[OP_SCATTER_ND] = CPU_ALL,
	[OP_STACK] = CPU_ALL,
	[OP_ONE_HOT] = CPU_ALL,
	[OP_FULL] = CPU_ALL,
	[OP_FULL_LIKE] = CPU_ALL,
	[OP_ARANGE] = CPU_ALL,
	[OP_LAYOUT_TRANSFORM] = CPU_ALL,
	[OP_DEPTH_TO_SPACE] = CPU_ALL,
	[OP_SPACE_TO_DEPTH] = CPU_ALL,
	[OP_LEAKY_RELU] = CPU_FLOAT,
	[OP_PRELU] = CPU_FLOAT,
	[OP_DROPOUT] = CPU_FLOAT,
	[OP_CUMSUM] = CPU_ALL,
	[OP_CUMPROD] = CPU_ALL,
	[OP_SORT] = CPU_ALL,
	[OP_ARGSORT] = CPU_ALL,
	[OP_TOPK] = CPU_ALL,
	[OP_ZEROS] = CPU_ALL,
	[OP_ONES] = CPU_ALL,
	[OP_ZEROS_LIKE] = CPU_ALL,
	[OP_ONES_LIKE] = CPU_ALL,
	[OP_CAST] = CPU_ALL,
	[OP_CAST_LIKE] = CPU_ALL,
	[OP_REINTERPRET] = CPU_ALL,
	[OP_RESHAPE_LIKE] = CPU_ALL,
	[OP_CONTRIB_REVERSE_RESHAPE] = CPU_ALL,
	[OP_NDARRAY_SIZE] = CPU_ALL,
	[OP_BROADCAST_TO_LIKE] = CPU_ALL,
	[OP_SLICE_LIKE] = CPU_ALL,
	[OP_COLLAPSE_SUM_LIKE] = CPU_NOT_UINT64,
	[OP_COLLAPSE_SUM_TO] = CPU_NOT_UINT64,
	[OP_ADD] = CPU_ALL,
	[OP_SUBTRACT] = CPU_ALL,
	[OP_MULTIPLY] = CPU_ALL,
	[OP_DIVIDE] = CPU_ALL,
	[OP_MAXIMUM] = CPU_ALL,
	[OP_MINIMUM] = CPU_ALL,
	[OP_BIAS_ADD] = CPU_ALL,
	[OP_NEGATIVE] = CPU_ALL,
	[OP_RELU] = CPU_ALL,
	[OP_CLIP] = CPU_ALL,
	[OP_EXP] = CPU_FLOAT,
	[OP_LOG] = CPU_FLOAT,
	[OP_SQRT] = CPU_FLOAT,
	[OP_TANH] = CPU_FLOAT,
	[OP_SIGMOID] = CPU_FLOAT,
	[OP_SUM] = CPU_NOT_UINT64,
	[OP_MEAN] = CPU_NOT_UINT64,
	[OP_MAX] = CPU_NOT_UINT64,
	/* the rest of the elementwise family, by the loops cpu_elementwise.c
	 * generates: the float math on floats, the others on every dtype */
	[OP_ERF] = CPU_FLOAT,
	[OP_FAST_ERF] = CPU_FLOAT,
	[OP_FAST_EXP] = CPU_FLOAT,
	[OP_FAST_TANH] = CPU_FLOAT,
	[OP_RSQRT] = CPU_FLOAT,
	[OP_LOG2] = CPU_FLOAT,
	[OP_LOG10] = CPU_FLOAT,
	[OP_SIN] = CPU_FLOAT,
	[OP_COS] = CPU_FLOAT,
	[OP_TAN] = CPU_FLOAT,
	[OP_ASIN] = CPU_FLOAT,
	[OP_ACOS] = CPU_FLOAT,
	[OP_ATAN] = CPU_FLOAT,
	[OP_SINH] = CPU_FLOAT,
	[OP_COSH] = CPU_FLOAT,
	[OP_ASINH] = CPU_FLOAT,
	[OP_ACOSH] = CPU_FLOAT,
	[OP_ATANH] = CPU_FLOAT,
	[OP_ABS] = CPU_ALL,
	[OP_CEIL] = CPU_ALL,
	[OP_FLOOR] = CPU_ALL,
	[OP_ROUND] = CPU_ALL,
	[OP_TRUNC] = CPU_ALL,
	[OP_SIGN] = CPU_ALL,
	[OP_LOGICAL_NOT] = CPU_ALL,
	[OP_BITWISE_NOT] = CPU_ALL,
	[OP_ISNAN] = CPU_ALL,
	[OP_ISINF] = CPU_ALL,
	[OP_ISFINITE] = CPU_ALL,
	[OP_POWER] = CPU_ALL,
	[OP_MOD] = CPU_ALL,
	[OP_TRUNC_MOD] = CPU_ALL,
	[OP_TRUNC_DIVIDE] = CPU_ALL,
	[OP_FLOOR_DIVIDE] = CPU_ALL,
	[OP_FLOOR_MOD] = CPU_ALL,
	[OP_LOGICAL_AND] = CPU_ALL,
	[OP_LOGICAL_OR] = CPU_ALL,
	[OP_LOGICAL_XOR] = CPU_ALL,
	[OP_BITWISE_AND] = CPU_ALL,
	[OP_BITWISE_OR] = CPU_ALL,
	[OP_BITWISE_XOR] = CPU_ALL,
	[OP_LEFT_SHIFT] = CPU_ALL,
	[OP_RIGHT_SHIFT] = CPU_ALL,
	[OP_EQUAL] = CPU_ALL,
	[OP_NOT_EQUAL] = CPU_ALL,
	[OP_LESS] = CPU_ALL,
	[OP_LESS_EQUAL] = CPU_ALL,
	[OP_GREATER] = CPU_ALL,
	[OP_GREATER_EQUAL] = CPU_ALL,
	[OP_WHERE] = CPU_ALL,
	[OP_PAD] = CPU_ALL,
	[OP_MIRROR_PAD] = CPU_ALL,
	/* the arrange family (cpu_arrange.c) moves bytes or computes integers
	 * through int64 and double */
	[OP_DILATE] = CPU_ALL,
	[OP_SEQUENCE_MASK] = CPU_ALL,
	[OP_REVERSE_SEQUENCE] = CPU_ALL,
	[OP_TRILU] = CPU_ALL,
	[OP_MATRIX_SET_DIAG] = CPU_ALL,
	[OP_MESHGRID] = CPU_ALL,
	[OP_INVERT_PERMUTATION] = CPU_ALL,
	[OP_UNRAVEL_INDEX] = CPU_ALL,
	[OP_SEARCHSORTED] = CPU_ALL,
	[OP_SPACE_TO_BATCH_ND] = CPU_ALL,
	[OP_QNN_QUANTIZE] = CPU_ALL,
	[OP_QNN_DEQUANTIZE] = CPU_ALL,
	[OP_QNN_REQUANTIZE] = CPU_ALL,
	[OP_QNN_ADD] = CPU_ALL,
	[OP_QNN_SUBTRACT] = CPU_ALL,
	[OP_QNN_MUL] = CPU_ALL,
	[OP_QNN_DENSE] = CPU_ALL,
	[OP_QNN_BATCH_MATMUL] = CPU_ALL,
	[OP_QNN_CONV2D] = CPU_ALL,
	[OP_QNN_TANH] = CPU_ALL,
	[OP_QNN_EXP] = CPU_ALL,
	[OP_QNN_SQRT] = CPU_ALL,
	[OP_QNN_RSQRT] = CPU_ALL,
	[OP_QNN_ERF] = CPU_ALL,
	[OP_QNN_SIGMOID] = CPU_ALL,
	[OP_QNN_HARDSWISH] = CPU_ALL,
	[OP_QNN_LOG] = CPU_ALL,
	[OP_QNN_ABS] = CPU_ALL,
	[OP_QNN_LEAKY_RELU] = CPU_ALL,
	[OP_BATCH_TO_SPACE_ND] = CPU_ALL,
	[OP_STRIDED_SLICE] = CPU_ALL,
	[OP_TILE] = CPU_ALL,
	[OP_REPEAT] = CPU_ALL,
	[OP_BROADCAST_TO] = CPU_ALL,
	[OP_REVERSE] = CPU_ALL,
	[OP_TAKE] = CPU_ALL,
	[OP_SHAPE_OF] = CPU_ALL,
	[OP_COPY] = CPU_ALL,
	/* the reductions compare and divide in int64 */
	[OP_MIN] = CPU_NOT_UINT64,
	[OP_PROD] = CPU_NOT_UINT64,
	[OP_ALL] = CPU_NOT_UINT64,
	[OP_ANY] = CPU_NOT_UINT64,
	[OP_ARGMAX] = CPU_NOT_UINT64,
	[OP_ARGMIN] = CPU_NOT_UINT64,
	[OP_VARIANCE] = CPU_NOT_UINT64,
};

bool kernel_cpu_supports(OpKind op, DType dtype)
{
	DP_ASSERT(op < OP_COUNT);
	if (kernel_dtype_checked_at_launch(dtype))
		return true;
	switch ((CpuDtypes)cpu_dtypes[op]) {
	case CPU_NONE:
		return false;
	case CPU_ALL:
		return true;
	case CPU_FLOAT:
		return dtype_is_float(dtype);
	case CPU_NOT_UINT64:
		return dtype != DT_UINT64;
	}
	return false;
}

/* ---- the table ------------------------------------------------------------- */

static const KernelFn kernel_cpu_table[OP_COUNT] = {
#define OP(id, family, name, min_args, max_args, schema) [OP_##id] = kernel_cpu_##id,
#define OP_PLAN(id, family, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP
};

bool kernel_cpu_launch(const KernelCall *kc, char **err)
{
	DP_ASSERT(kc->op < OP_COUNT && kernel_cpu_table[kc->op]);
	kernel_cpu_threads();
	return kernel_cpu_table[kc->op](kc, err);
}
