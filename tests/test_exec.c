/*
 * test_exec.c - the interpreter and the `run`, `compare` and `profile`
 * commands (core/exec/exec_run.c, core/exec/exec.c, commands/cmd_run.c;
 * the session's side of the run alone in test_run.c).
 *
 * [P5] `compare` passes on every planning case of tests/data/cases (planned
 * with the settings its .dp script sets) and on the models of
 * tests/data/models, planned twice: everything on the cpu, and everything
 * on cuda:0 (so that every input crosses and every op runs in the
 * emulator's memory). cuda devices run on the host emulator here (`set gpu
 * emulate`), so planned and reference results must agree exactly; the GPU
 * itself is tested op by op in test_exec_cuda.c. Each planned run must
 * also perform every transfer the placement lists, with the bytes it
 * predicts.
 *
 * Models: mlp, lstm, dcgan, squeezenet, mobilenet, resnet18 and the
 * real-world resnet50 and mobilenet_v3_large run (bert_base once, with
 * cuda:0 as the fallback, for its 440 MB of weights); vgg11
 * (138M parameters, 7.6 GFLOP) runs once, as the shared case model_vgg11
 * with its convolutions on the GPU, and tests/data/models/vgg11.relay itself
 * only with DEVPLAN_TEST_BIG=1, to keep the suite within a minute on two
 * cores.
 *
 * The emulator must catch a plan with a missing device_copy (both the
 * interpreter's check and the backend's own) and read the inputs lent to
 * it where they are without ever writing them, memory must stay bounded on
 * a long chain, oversized or unknown shapes must be refused before any
 * allocation, and the interpreter must handle calls, closures, lets,
 * tuples, `if` and bounded recursion.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dispatch.h"
#include "exec.h"
#include "exec_clock.h"
#include "file_read.h"
#include "infer.h"
#include "parse.h"
#include "plan.h"

/* ---- a session driven through commands ------------------------------------ */

typedef struct Fixture {
	Session session;
	CmdContext ctx;
	char *out, *err;
} Fixture;

static int setup(void **state)
{
	Fixture *f = xcalloc(1, sizeof *f);
	session_init(&f->session);
	cmd_context_init(&f->ctx, &f->session, NULL, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	Fixture *f = *state;
	cmd_context_free(&f->ctx);
	session_free(&f->session);
	free(f->out);
	free(f->err);
	free(f);
	return 0;
}

static int run(Fixture *f, const char *line)
{
	size_t out_len, err_len;
	int status;
	free(f->out);
	free(f->err);
	f->ctx.out = open_memstream(&f->out, &out_len);
	f->ctx.err = open_memstream(&f->err, &err_len);
	status = commands_execute_line(&f->ctx, line);
	fclose(f->ctx.out);
	fclose(f->ctx.err);
	f->ctx.out = f->ctx.err = NULL;
	return status;
}

static void run_ok(Fixture *f, const char *line)
{
	if (run(f, line) != 0) {
		print_error("'%s' failed:\n%s%s", line, f->out, f->err);
		fail();
	}
}

/* Applies the `set` lines of a case script; returns the module path it
 * loads (caller frees). */
static char *apply_script(Fixture *f, const char *dir, const char *dp)
{
	char path[4096], line[1024], *module = NULL;
	FILE *in;
	snprintf(path, sizeof path, "%s/%s", dir, dp);
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof line, in)) {
		char value[512];
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "set ", 4) == 0)
			run_ok(f, line);
		else if (sscanf(line, "load %511s", value) == 1) {
			free(module);
			module = xasprintf("%s/%s", dir, value);
		}
	}
	fclose(in);
	return module;
}

/* Every transfer of the placement happened, with the predicted bytes. */
static void check_copies_performed(Fixture *f)
{
	const IrModule *m = session_current(&f->session);
	ExecParam *params;
	size_t n = exec_params(m, &params);
	NpyArray *inputs = xcalloc(n + 1, sizeof(NpyArray));
	ExecOptions o = {.gpu = GPU_EMULATE, .profile = true};
	ExecResult r;
	DiagList diags;
	Placement p;
	char *err = NULL;
	for (size_t i = 0; i < n; i++) {
		const Type *t = params[i].type;
		assert_true(npy_random(&inputs[i], t->u.tensor.dtype, t->u.tensor.ndim,
				       t->u.tensor.dims, i, &err));
	}
	diag_init(&diags);
	if (!exec_run(m, &f->session.devices, &o, inputs, n, &r, &diags)) {
		diag_print_all(stderr, &diags);
		fail();
	}
	plan_placement(m, &p);
	for (size_t i = 0; i < p.count; i++) {
		const PlacementFact *fact = &p.facts[i];
		bool found = false;
		if (fact->kind != FACT_COPY)
			continue;
		for (size_t k = 0; k < r.profile.ncopies; k++) {
			const ExecCopyStat *c = &r.profile.copies[k];
			if (c->expr != fact->expr)
				continue;
			found = true;
			assert_true(c->count >= 1);
			assert_int_equal(c->bytes, (uint64_t)fact->bytes * c->count);
			assert_int_equal(c->src, fact->device);
			assert_int_equal(c->dst, fact->dest);
		}
		if (!found) {
			print_error("copy of %s %s -> %s did not run\n", fact->value,
				    devices_name(&f->session.devices, fact->device),
				    devices_name(&f->session.devices, fact->dest));
			fail();
		}
	}
	plan_placement_free(&p);
	exec_result_free(&r);
	diag_free(&diags);
	for (size_t i = 0; i < n; i++)
		npy_array_free(&inputs[i]);
	free(inputs);
	free(params);
}

/* Loads and plans module with the settings already applied; false when
 * planning fails (a case that fails by design, under the error policy). */
static bool load_and_plan(Fixture *f, const char *module)
{
	char *line = xasprintf("load %s", module);
	run_ok(f, "set gpu emulate");
	run_ok(f, line);
	free(line);
	return run(f, "plan") == 0;
}

/* Expects `compare: PASS` and every planned copy performed. */
static void compare_passes(Fixture *f, const char *what)
{
	if (run(f, "compare") != 0 || !strstr(f->out, "compare: PASS")) {
		print_error("%s: compare did not pass:\n%s%s", what, f->out, f->err);
		fail();
	}
	check_copies_performed(f);
}

static void test_compare_shared_cases(void **state)
{
	const char *dir = DEVPLAN_DATA_DIR "/cases";
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), tested = 0;
	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		if (len > 3 && strcmp(name + len - 3, ".dp") == 0) {
			void *fs;
			Fixture *f;
			char *module;
			setup(&fs);
			f = fs;
			module = apply_script(f, dir, name);
			assert_non_null(module);
			if (load_and_plan(f, module)) {
				compare_passes(f, name);
				tested++;
			}
			free(module);
			teardown(&fs);
		}
		free(names[i]);
	}
	free(names);
	assert_true(tested >= 8);
}

/* Plans the model with each fallback of `fallbacks` (both when NULL) and
 * compares. */
static void compare_model_with(const char *name, const char *only_fallback)
{
	static const char *const both[] = {"cpu:0", "cuda:0"};
	const char *const *fallbacks = only_fallback ? &only_fallback : both;
	size_t nfallbacks = only_fallback ? 1 : DP_COUNT(both);
	char *module = xasprintf("%s/models/%s.relay", DEVPLAN_DATA_DIR, name);
	for (size_t k = 0; k < nfallbacks; k++) {
		void *fs;
		Fixture *f;
		char *line = xasprintf("set fallback %s", fallbacks[k]);
		char *what = xasprintf("%s with fallback %s", name, fallbacks[k]);
		setup(&fs);
		f = fs;
		run_ok(f, line);
		assert_true(load_and_plan(f, module));
		compare_passes(f, what);
		teardown(&fs);
		free(line);
		free(what);
	}
	free(module);
}

static void compare_model(const char *name)
{
	compare_model_with(name, NULL);
}

static void test_compare_models(void **state)
{
	static const char *const models[] = {"mlp",
					     "lstm",
					     "dcgan",
					     "squeezenet",
					     "mobilenet",
					     "resnet18",
					     "metadata_small",
					     "realworld/rw_resnet50",
					     "realworld/rw_mobilenet_v3_large"};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(models); i++)
		compare_model(models[i]);
	/* bert_base (110M parameters): once, everything in the emulator */
	compare_model_with("realworld/rw_bert_base", "cuda:0");
	if (getenv("DEVPLAN_TEST_BIG") && *getenv("DEVPLAN_TEST_BIG") == '1')
		compare_model("vgg11");
}

/* ---- running modules directly -------------------------------------------------- */

typedef struct Program {
	DeviceTable devices;
	DiagList diags;
	SourceFile *src;
	IrModule *m;
} Program;

/* Parses and types text (no planning). */
static void program_load(Program *p, const char *text)
{
	devices_init_default(&p->devices);
	diag_init(&p->diags);
	p->src = source_from_string("prog.relay", text, strlen(text));
	p->m = parse_module(p->src, &p->devices, &p->diags);
	if (!p->m || !infer_module(p->m, &p->diags)) {
		diag_print_all(stderr, &p->diags);
		fail();
	}
}

static void program_free(Program *p)
{
	ir_module_free(p->m);
	source_release(p->src);
	devices_free(&p->devices);
	diag_free(&p->diags);
}

/* The diagnostics as text. */
static char *diags_text(const DiagList *d)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < d->count; i++)
		diag_format(&sb, &d->items[i]);
	return strbuf_detach(&sb);
}

static void expect_diag(const DiagList *d, const char *want)
{
	char *text = diags_text(d);
	if (!text || !strstr(text, want)) {
		print_error("diagnostics:\n%s\nlack: %s\n", text ? text : "", want);
		free(text);
		fail();
	}
	free(text);
}

static NpyArray filled(DType dt, uint32_t ndim, const int64_t *shape, double v)
{
	NpyArray a;
	char *err = NULL;
	assert_true(npy_array_alloc(&a, dt, ndim, shape, &err));
	for (int64_t i = 0; i < npy_array_count(&a); i++) {
		if (dt == DT_FLOAT32)
			((float *)a.data)[i] = (float)v;
		else if (dt == DT_INT32)
			((int32_t *)a.data)[i] = (int32_t)v;
		else if (dt == DT_BOOL)
			((uint8_t *)a.data)[i] = v != 0;
		else if (dt == DT_INT64)
			((int64_t *)a.data)[i] = (int64_t)v;
	}
	return a;
}

/* A vector of int64 values. */
static NpyArray int64s(int64_t n, const int64_t *values)
{
	NpyArray a = filled(DT_INT64, 1, &n, 0);
	memcpy(a.data, values, (size_t)n * sizeof(int64_t));
	return a;
}

/* float32 0, 1, 2, ... in the shape given. */
static NpyArray counting(uint32_t ndim, const int64_t *shape)
{
	NpyArray a = filled(DT_FLOAT32, ndim, shape, 0);
	for (int64_t i = 0; i < npy_array_count(&a); i++)
		((float *)a.data)[i] = (float)i;
	return a;
}

static void run_cpu(Program *p, const IrModule *m, const NpyArray *in, size_t n, ExecResult *r);

/* Input arrays that a run borrows where they are: each at byte `offset`
 * of a block of its own (16: not on the 64-byte boundary the executor's
 * own memory has, and no pointer the executor could free), filled with
 * seeded random values. */
typedef struct LentInputs {
	NpyArray *arrays;
	unsigned char **blocks;
	size_t n;
} LentInputs;

static void lent_inputs(const IrModule *m, size_t offset, LentInputs *out)
{
	ExecParam *params;
	out->n = exec_params(m, &params);
	out->arrays = xcalloc(out->n + 1, sizeof(NpyArray));
	out->blocks = xcalloc(out->n + 1, sizeof(unsigned char *));
	for (size_t i = 0; i < out->n; i++) {
		const Type *t = params[i].type;
		NpyArray r;
		char *err = NULL;
		assert_true(t && t->kind == TYPE_TENSOR);
		assert_true(npy_random(&r, t->u.tensor.dtype, t->u.tensor.ndim, t->u.tensor.dims,
				       i + 1, &err));
		out->blocks[i] = xmalloc(r.nbytes + offset + 1);
		out->arrays[i] = r;
		out->arrays[i].data = out->blocks[i] + offset;
		memcpy(out->arrays[i].data, r.data, r.nbytes);
		free(r.data);
	}
	free(params);
}

static void lent_inputs_free(LentInputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->arrays[i].shape);
		free(in->blocks[i]);
	}
	free(in->arrays);
	free(in->blocks);
}

/* [P5] A run on the cpu binds its inputs where they are (no copy): the
 * kernels of every operator the models use only read them, so after the
 * run each input holds the bytes it had, nothing freed them, and the
 * results are bit for bit those of the same inputs at another alignment. */
static void test_inputs_borrowed(void **state)
{
	static const char *const models[] = {"mlp",       "lstm",     "dcgan",         "squeezenet",
					     "mobilenet", "resnet18", "metadata_small"};
	static const char own[] =
		"def @main(%a: Tensor[(4, 6), float32], %b: Tensor[(6), float32]) {\n"
		"  %0 = reshape(%a, newshape=[6, 4]);\n"
		"  %1 = add(%a, %b);\n"
		"  %2 = concatenate((%a, %a), axis=0);\n"
		"  %3 = copy(%b);\n"
		"  (%0, %1, %2, %3, %a)\n"
		"}\n";
	(void)state;
	for (size_t k = 0; k <= DP_COUNT(models); k++) {
		char *path = k < DP_COUNT(models)
				     ? xasprintf("%s/models/%s.relay", DEVPLAN_DATA_DIR, models[k])
				     : NULL;
		char *text = NULL, *err = NULL;
		size_t len;
		Program p;
		LentInputs in[2];
		ExecResult r[2];
		if (path)
			assert_true(file_read_all(path, FILE_REGULAR, &text, &len, &err));
		program_load(&p, path ? text : own);
		for (int j = 0; j < 2; j++) {
			lent_inputs(p.m, j ? 16 : 64, &in[j]);
			run_cpu(&p, p.m, in[j].arrays, in[j].n, &r[j]);
		}
		for (size_t i = 0; i < in[0].n; i++)
			assert_memory_equal(in[0].arrays[i].data, in[1].arrays[i].data,
					    in[0].arrays[i].nbytes);
		{
			/* unchanged: the same seeded values drawn again */
			LentInputs again;
			lent_inputs(p.m, 0, &again);
			for (size_t i = 0; i < again.n; i++)
				assert_memory_equal(again.arrays[i].data, in[0].arrays[i].data,
						    again.arrays[i].nbytes);
			lent_inputs_free(&again);
		}
		assert_int_equal(r[0].noutputs, r[1].noutputs);
		for (size_t i = 0; i < r[0].noutputs; i++) {
			assert_int_equal(r[0].outputs[i].nbytes, r[1].outputs[i].nbytes);
			assert_memory_equal(r[0].outputs[i].data, r[1].outputs[i].data,
					    r[0].outputs[i].nbytes);
		}
		for (int j = 0; j < 2; j++) {
			exec_result_free(&r[j]);
			lent_inputs_free(&in[j]);
		}
		program_free(&p);
		free(text);
		free(path);
	}
}

static void test_calls_closures_lets_if(void **state)
{
	static const char text[] =
		"def @twice(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {\n"
		"  add(%x, %x)\n"
		"}\n"
		"def @main(%a: Tensor[(3), float32], %c: bool) {\n"
		"  let %g = fn (%y: Tensor[(3), float32]) -> Tensor[(3), float32] {\n"
		"    multiply(%y, %a)\n"
		"  };\n"
		"  let %t = (@twice(%a), %g(%a), %g(@twice(%a)));\n"
		"  if (%c) { add(%t.0, %t.2) } else { %t.1 }\n"
		"}\n";
	int64_t shape[1] = {3};
	(void)state;
	for (int c = 0; c < 2; c++) {
		Program p;
		NpyArray in[2];
		ExecOptions o = {.all_on_cpu = true};
		ExecResult r;
		program_load(&p, text);
		in[0] = filled(DT_FLOAT32, 1, shape, 3);
		in[1] = filled(DT_BOOL, 0, shape, c);
		if (!exec_run(p.m, &p.devices, &o, in, 2, &r, &p.diags)) {
			diag_print_all(stderr, &p.diags);
			fail();
		}
		assert_int_equal(r.noutputs, 1);
		/* then: 2a + 2a*a = 24; else: a*a = 9 */
		for (int i = 0; i < 3; i++)
			assert_true(((float *)r.outputs[0].data)[i] == (c ? 24.0f : 9.0f));
		exec_result_free(&r);
		npy_array_free(&in[0]);
		npy_array_free(&in[1]);
		program_free(&p);
	}
}

static const char countdown[] =
	"def @count(%n: int32) -> int32 {\n"
	"  if (cast(%n, dtype=\"bool\")) { @count(subtract(%n, 1)) } else { %n }\n"
	"}\n"
	"def @main(%n: int32) -> int32 {\n"
	"  @count(%n)\n"
	"}\n";

static void test_recursion(void **state)
{
	int64_t none[1] = {0};
	Program p;
	NpyArray in = filled(DT_INT32, 0, none, 50);
	ExecOptions o = {.all_on_cpu = true};
	ExecResult r;
	(void)state;
	program_load(&p, countdown);
	assert_true(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
	assert_int_equal(((int32_t *)r.outputs[0].data)[0], 0);
	exec_result_free(&r);
	npy_array_free(&in);
	/* unbounded: an error, not a hang or a crash */
	in = filled(DT_INT32, 0, none, 100000);
	assert_false(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
	exec_result_free(&r);
	expect_diag(&p.diags, "calls nest deeper than 1000: unbounded recursion?");
	npy_array_free(&in);
	program_free(&p);
}

/* A chain of 64 adds on a 1 MiB tensor keeps about three buffers live. */
static void test_memory_stays_bounded(void **state)
{
	StrBuf text;
	int64_t shape[1] = {256 * 1024};
	Program p;
	NpyArray in;
	ExecOptions o = {.all_on_cpu = true, .profile = true};
	ExecResult r;
	(void)state;
	strbuf_init(&text);
	strbuf_puts(&text, "def @main(%x: Tensor[(262144), float32]) {\n");
	strbuf_puts(&text, "  %0 = add(%x, %x);\n");
	for (int i = 1; i < 64; i++)
		strbuf_printf(&text, "  %%%d = add(%%%d, %%x);\n", i, i - 1);
	strbuf_puts(&text, "  %63\n}\n");
	program_load(&p, text.data);
	in = filled(DT_FLOAT32, 1, shape, 1);
	assert_true(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
	assert_true(((float *)r.outputs[0].data)[0] == 65.0f);
	assert_int_equal(r.profile.ndevices, 1);
	assert_true(r.profile.devices[0].peak_bytes <= 3u << 20);
	exec_result_free(&r);
	npy_array_free(&in);
	program_free(&p);
	strbuf_free(&text);
}

static void test_sizes_checked_before_allocation(void **state)
{
	static const struct {
		const char *text;
		uint64_t limit;
		const char *want;
	} cases[] = {
		{"def @main(%x: Tensor[(2), float32]) {\n"
		 "  (%x, zeros(shape=[100000, 100000, 100000], dtype=\"float32\"))\n}\n",
		 0,
		 "'zeros' needs 3.6 PiB for its Tensor[(100000, 100000, 100000), float32], more "
		 "than this machine's"},
		{"def @main(%x: Tensor[(2), float32]) {\n"
		 "  (%x, zeros(shape=[2305843009213693952, 2], dtype=\"float32\"))\n}\n",
		 0, "whose size in bytes overflows"},
		{"def @main(%x: Tensor[(2), float32]) {\n"
		 "  (%x, ones(shape=[1024, 1024], dtype=\"float32\"))\n}\n",
		 1 << 20,
		 "'ones' needs 4.0 MiB for its Tensor[(1024, 1024), float32], more than the "
		 "1.0 MiB memory limit"},
	};
	int64_t shape[1] = {2};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(cases); i++) {
		Program p;
		NpyArray in = filled(DT_FLOAT32, 1, shape, 1);
		ExecOptions o = {.all_on_cpu = true, .memory_limit = cases[i].limit};
		ExecResult r;
		program_load(&p, cases[i].text);
		assert_false(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
		expect_diag(&p.diags, cases[i].want);
		expect_diag(&p.diags, "prog.relay:2:");
		/* nothing was opened, so nothing was allocated */
		assert_int_equal(r.profile.ndevices, 0);
		exec_result_free(&r);
		npy_array_free(&in);
		program_free(&p);
	}
}

static void test_inputs_checked(void **state)
{
	int64_t shape[2] = {5, 6};
	Program p;
	NpyArray in = filled(DT_FLOAT32, 2, shape, 1);
	ExecOptions o = {.all_on_cpu = true};
	ExecResult r;
	(void)state;
	program_load(&p, "def @main(%a: Tensor[(5, 7), float32]) {\n  negative(%a)\n}\n");
	assert_false(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
	exec_result_free(&r);
	expect_diag(&p.diags,
		    "input %a must be Tensor[(5, 7), float32], not Tensor[(5, 6), float32]");
	npy_array_free(&in);
	program_free(&p);
}

/* The inputs plan_specialize's callback computes values from, as
 * core/session/run.c's does (exec_evaluate), and how many elements a
 * value computed ahead of the run may have. */
typedef struct TestValues {
	const NpyArray *inputs;
	size_t n;
	int64_t max_elements;
	int calls;
} TestValues;

static PlanValueStatus test_value(void *ctx, const IrModule *m, const Expr *e, Arena *arena,
				  Tensor *out, char **why, DiagList *diags)
{
	TestValues *tv = ctx;
	NpyArray a;
	tv->calls++;
	switch (exec_evaluate(m, e, tv->inputs, tv->n, tv->max_elements, &a, why, diags)) {
	case EVAL_DONE:
		break;
	case EVAL_UNKNOWN:
		return PLAN_VALUE_UNKNOWN;
	case EVAL_FAILED:
		return PLAN_VALUE_FAILED;
	}
	out->dtype = a.dtype;
	out->ndim = a.ndim;
	out->shape = arena_array(arena, a.ndim + 1, sizeof(int64_t));
	if (a.ndim)
		memcpy(out->shape, a.shape, a.ndim * sizeof(int64_t));
	out->nbytes = a.nbytes;
	out->data = arena_alloc(arena, a.nbytes + 1);
	if (a.nbytes)
		memcpy(out->data, a.data, a.nbytes);
	npy_array_free(&a);
	return PLAN_VALUE_KNOWN;
}

/* m made static for inputs of these types (NULL: as declared) and values. */
static IrModule *specialize(const IrModule *m, const Type *const *types, const NpyArray *in,
			    size_t n, DiagList *diags)
{
	TestValues tv = {in, n, 4096, 0};
	SpecializeOptions so = {types, n, test_value, &tv};
	return plan_specialize(m, &so, diags);
}

/* A module with `?` dimensions: refused as it is, run once specialised
 * for its inputs' shapes (plan_specialize), with shape_of's values fixing
 * the dyn.* shapes; a shape read from an input's values is named. */
static void test_dynamic_shapes(void **state)
{
	int64_t xshape[2] = {3, 2}, yshape[1] = {6};
	Program p;
	NpyArray in[2] = {filled(DT_FLOAT32, 2, xshape, 1.5), filled(DT_INT32, 1, yshape, 7)};
	ExecOptions o = {.all_on_cpu = true};
	ExecResult r;
	Arena arena;
	const Type *types[2];
	IrModule *m;
	(void)state;
	program_load(&p,
		     "def @main(%x: Tensor[(?, 2), float32], %y: Tensor[(?), int32]) {\n"
		     "  %0 = shape_of(%x, dtype=\"int64\");\n"
		     "  %1 = strided_slice(%0, begin=[1], end=[2]);\n"
		     "  %2 = multiply(strided_slice(%0, begin=[-2], end=[-1]), 1i64);\n"
		     "  %3 = concatenate((%1, %2));\n"
		     "  (sum(%x, axis=[1]), dyn.reshape(%y, %0), dyn.zeros(%0, "
		     "dtype=\"float32\"),\n"
		     "   dyn.expand_dims(%x, 1i64), concatenate((%x, %x)), dyn.full(2f, %0),\n"
		     "   dyn.squeeze(dyn.expand_dims(%x, 1i64), expand_dims(1i64, axis=0)),\n"
		     "   dyn.reshape(%y, %3), dyn.zeros(concatenate((subtract(%2, 1i64), %1))))\n"
		     "}\n");
	assert_true(plan_has_unknown_dims(p.m));
	assert_false(exec_run(p.m, &p.devices, &o, in, 2, &r, &p.diags));
	exec_result_free(&r);
	expect_diag(&p.diags, "no kernel for 'dyn.reshape'");
	arena_init(&arena);
	types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
	types[1] = type_tensor(&arena, DT_INT32, 1, yshape);
	m = specialize(p.m, types, in, 2, &p.diags);
	assert_non_null(m);
	assert_false(plan_has_unknown_dims(m));
	diag_free(&p.diags);
	diag_init(&p.diags);
	if (!exec_run(m, &p.devices, &o, in, 2, &r, &p.diags)) {
		diag_print_all(stderr, &p.diags);
		fail();
	}
	assert_int_equal(r.noutputs, 9);
	/* sum over 2 of 1.5 per row, for the 3 rows */
	assert_int_equal(r.outputs[0].ndim, 1);
	assert_int_equal(r.outputs[0].shape[0], 3);
	for (int i = 0; i < 3; i++)
		assert_float_equal(exec_element(&r.outputs[0], i), 3.0, 0);
	/* y's 6 values in x's shape */
	assert_int_equal(r.outputs[1].ndim, 2);
	assert_int_equal(r.outputs[1].shape[0], 3);
	assert_int_equal(r.outputs[1].shape[1], 2);
	assert_float_equal(exec_element(&r.outputs[1], 5), 7.0, 0);
	assert_int_equal(r.outputs[2].shape[0], 3);
	assert_int_equal(r.outputs[2].shape[1], 2);
	assert_float_equal(exec_element(&r.outputs[2], 4), 0.0, 0);
	assert_int_equal(r.outputs[3].ndim, 3);
	assert_int_equal(r.outputs[3].shape[1], 1);
	assert_int_equal(r.outputs[4].shape[0], 6);
	/* dyn.full as full */
	assert_int_equal(r.outputs[5].ndim, 2);
	assert_int_equal(r.outputs[5].shape[0], 3);
	assert_float_equal(exec_element(&r.outputs[5], 5), 2.0, 0);
	/* dyn.squeeze undoes dyn.expand_dims */
	assert_int_equal(r.outputs[6].ndim, 2);
	assert_int_equal(r.outputs[6].shape[0], 3);
	assert_float_equal(exec_element(&r.outputs[6], 5), 1.5, 0);
	/* shapes computed from shape_of's (3, 2): [2, 3] and [3 - 1, 2] */
	assert_int_equal(r.outputs[7].shape[0], 2);
	assert_int_equal(r.outputs[7].shape[1], 3);
	assert_int_equal(r.outputs[8].shape[0], 2);
	assert_int_equal(r.outputs[8].shape[1], 2);
	exec_result_free(&r);
	ir_module_free(m);
	/* the same with 4 rows: memory per actual shape */
	xshape[0] = 4;
	yshape[0] = 8;
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	in[0] = filled(DT_FLOAT32, 2, xshape, 1);
	in[1] = filled(DT_INT32, 1, yshape, 2);
	types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
	types[1] = type_tensor(&arena, DT_INT32, 1, yshape);
	m = specialize(p.m, types, in, 2, &p.diags);
	assert_non_null(m);
	assert_true(exec_run(m, &p.devices, &o, in, 2, &r, &p.diags));
	assert_int_equal(r.outputs[1].shape[0], 4);
	assert_int_equal(r.outputs[4].shape[0], 8);
	exec_result_free(&r);
	ir_module_free(m);
	/* 7 values do not make a (4, 2) */
	yshape[0] = 7;
	types[1] = type_tensor(&arena, DT_INT32, 1, yshape);
	assert_null(specialize(p.m, types, in, 2, &p.diags));
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	program_free(&p);
	/* a static module stays as it is */
	program_load(&p, "def @main(%a: Tensor[(5, 7), float32]) {\n  negative(%a)\n}\n");
	assert_false(plan_has_unknown_dims(p.m));
	program_free(&p);
	arena_free(&arena);
}

/* Runs m on the cpu with these inputs; fails the test with the errors. */
static void run_cpu(Program *p, const IrModule *m, const NpyArray *in, size_t n, ExecResult *r)
{
	ExecOptions o = {.all_on_cpu = true};
	if (!exec_run(m, &p->devices, &o, in, n, r, &p->diags)) {
		diag_print_all(stderr, &p->diags);
		fail();
	}
}

/* Shapes computed from values as the program's own kernels compute them
 * (plan_specialize's callback, exec_evaluate): arithmetic on shape_of's
 * value, and an input's values, directly and through a let, for
 * dyn.reshape, dyn.broadcast_to, dyn.zeros, dyn.topk and dyn.one_hot.
 * shape_of does not compute its operand. What cannot be computed ahead
 * of the run (no values given, argwhere's data-dependent shape) is named,
 * and a value too large to compute twice is refused. */
static void test_value_shapes(void **state)
{
	int64_t xshape[2] = {4, 6}, s[2] = {3, 4}, t[3] = {2, 1, 3}, big[1] = {10000};
	Program p;
	NpyArray in[3];
	ExecResult r;
	Arena arena;
	const Type *types[3] = {NULL, NULL, NULL};
	IrModule *m;
	SpecializeOptions none = {types, 3, NULL, NULL};
	char *text;
	(void)state;
	arena_init(&arena);
	/* (4, 6) as (4 * 2, 3), the same values in order */
	program_load(&p, "def @main(%x: Tensor[(?, 6), float32]) {\n"
			 "  %0 = shape_of(%x, dtype=\"int64\");\n"
			 "  %1 = strided_slice(%0, begin=[0], end=[1], strides=[1], axes=None);\n"
			 "  %2 = multiply(%1, 2i64);\n"
			 "  %3 = concatenate((%2, full(3i64, shape=[1], dtype=\"int64\")), "
			 "axis=0);\n"
			 "  dyn.reshape(%x, %3, newshape=[])\n}\n");
	in[0] = counting(2, xshape);
	types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
	m = specialize(p.m, types, in, 1, &p.diags);
	assert_non_null(m);
	assert_false(plan_has_unknown_dims(m));
	run_cpu(&p, m, in, 1, &r);
	assert_int_equal(r.outputs[0].ndim, 2);
	assert_int_equal(r.outputs[0].shape[0], 8);
	assert_int_equal(r.outputs[0].shape[1], 3);
	for (int64_t i = 0; i < 24; i++)
		assert_float_equal(exec_element(&r.outputs[0], i), (double)i, 0);
	exec_result_free(&r);
	ir_module_free(m);
	npy_array_free(&in[0]);
	program_free(&p);

	/* shapes that are an input's values */
	program_load(&p, "def @main(%x: Tensor[(?, 2), float32], %s: Tensor[(2), int64],\n"
			 "          %t: Tensor[(3), int64]) {\n"
			 "  let %n = add(%s, 1i64);\n"
			 "  (dyn.reshape(%x, %s), dyn.broadcast_to(sum(%x), %t),\n"
			 "   dyn.zeros(%n, dtype=\"float32\"),\n"
			 "   dyn.topk(%x, take(%s, 1i64), axis=0, ret_type=\"values\"),\n"
			 "   dyn.one_hot(%s, 1f, 0f, take(%n, 0i64)))\n}\n");
	xshape[0] = 6;
	xshape[1] = 2;
	in[0] = counting(2, xshape);
	in[1] = int64s(2, s);
	in[2] = int64s(3, t);
	types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
	assert_null(plan_specialize(p.m, &none, &p.diags));
	expect_diag(&p.diags, "prog.relay:4:4: error: 'dyn.reshape' takes its newshape from "
			      "values known only while running: no inputs' values are given");
	expect_diag(&p.diags, "'dyn.one_hot' takes its depth from values known only while "
			      "running");
	diag_clear(&p.diags);
	m = specialize(p.m, types, in, 3, &p.diags);
	assert_non_null(m);
	assert_false(plan_has_unknown_dims(m));
	run_cpu(&p, m, in, 3, &r);
	assert_int_equal(r.noutputs, 5);
	/* 0..11 as (3, 4) */
	assert_int_equal(r.outputs[0].shape[0], 3);
	assert_int_equal(r.outputs[0].shape[1], 4);
	assert_float_equal(exec_element(&r.outputs[0], 11), 11.0, 0);
	/* the sum 66 as (2, 1, 3) */
	assert_int_equal(r.outputs[1].ndim, 3);
	assert_int_equal(r.outputs[1].shape[0], 2);
	assert_int_equal(r.outputs[1].shape[2], 3);
	assert_float_equal(exec_element(&r.outputs[1], 5), 66.0, 0);
	/* zeros of (4, 5) */
	assert_int_equal(r.outputs[2].shape[0], 4);
	assert_int_equal(r.outputs[2].shape[1], 5);
	/* the 4 largest rows, 10 11 first */
	assert_int_equal(r.outputs[3].shape[0], 4);
	assert_float_equal(exec_element(&r.outputs[3], 0), 10.0, 0);
	assert_float_equal(exec_element(&r.outputs[3], 1), 11.0, 0);
	/* 3 and 4 one-hot in depth 4: the 4 is out of range */
	assert_int_equal(r.outputs[4].shape[0], 2);
	assert_int_equal(r.outputs[4].shape[1], 4);
	assert_float_equal(exec_element(&r.outputs[4], 3), 1.0, 0);
	assert_float_equal(exec_element(&r.outputs[4], 7), 0.0, 0);
	exec_result_free(&r);
	ir_module_free(m);
	/* other values, other shapes: 12 values do not make a (5, 2) */
	((int64_t *)in[1].data)[0] = 2;
	((int64_t *)in[1].data)[1] = 6;
	m = specialize(p.m, types, in, 3, &p.diags);
	assert_non_null(m);
	run_cpu(&p, m, in, 3, &r);
	assert_int_equal(r.outputs[0].shape[0], 2);
	assert_int_equal(r.outputs[0].shape[1], 6);
	exec_result_free(&r);
	ir_module_free(m);
	((int64_t *)in[1].data)[0] = 5;
	assert_null(specialize(p.m, types, in, 3, &p.diags));
	expect_diag(&p.diags, "'reshape' cannot reshape Tensor[(6, 2), float32]");
	for (int i = 0; i < 3; i++)
		npy_array_free(&in[i]);
	program_free(&p);

	/* dyn.nn.pad's pad_width, a [2, 2] input: nn.pad with pairs */
	program_load(&p, "def @main(%x: Tensor[(?, 2), float32], %w: Tensor[(2, 2), int64]) {\n"
			 "  dyn.nn.pad(%x, %w, 7f)\n}\n");
	{
		int64_t wshape[2] = {2, 2}, w[4] = {1, 0, 0, 1};
		xshape[0] = 1;
		xshape[1] = 2;
		in[0] = counting(2, xshape);
		in[1] = filled(DT_INT64, 2, wshape, 0);
		memcpy(in[1].data, w, sizeof w);
	}
	types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
	m = specialize(p.m, types, in, 2, &p.diags);
	assert_non_null(m);
	run_cpu(&p, m, in, 2, &r);
	/* a row of 7 above, a column of 7 after: 7 7 7 / 0 1 7 */
	assert_int_equal(r.outputs[0].shape[0], 2);
	assert_int_equal(r.outputs[0].shape[1], 3);
	assert_float_equal(exec_element(&r.outputs[0], 2), 7.0, 0);
	assert_float_equal(exec_element(&r.outputs[0], 4), 1.0, 0);
	assert_float_equal(exec_element(&r.outputs[0], 5), 7.0, 0);
	exec_result_free(&r);
	ir_module_free(m);
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	program_free(&p);

	/* scales, sizes and an output shape that are inputs' values:
	 * dyn.nn.upsampling (scale_h 2, scale_w 3), dyn.nn.upsampling3d
	 * (scale_d 2, scale_h 3, scale_w 2), dyn.image.resize2d to (4, 4) and
	 * dyn.sparse_to_dense to (5) run as their static twins */
	program_load(&p, "def @main(%x: Tensor[(?, 1, 2, 2), float32], %h: float32, %w: float32,\n"
			 "          %z: Tensor[(2), int64], %roi: Tensor[(4), float32],\n"
			 "          %i: Tensor[(3), int64], %v: Tensor[(3), float32],\n"
			 "          %o: Tensor[(1), int64]) {\n"
			 "  (dyn.nn.upsampling(%x, %h, %w),\n"
			 "   dyn.nn.upsampling3d(expand_dims(%x, axis=2), %h, %w, %h),\n"
			 "   dyn.image.resize2d(%x, %z, %roi, method=\"nearest_neighbor\"),\n"
			 "   dyn.sparse_to_dense(%i, %v, 0f, %o))\n}\n");
	{
		int64_t four[1] = {4}, three[1] = {3}, z[2] = {4, 4}, i[3] = {1, 3, 1}, o5[1] = {5};
		NpyArray vin[8];
		{
			int64_t x4[4] = {1, 1, 2, 2};
			vin[0] = counting(4, x4);
			types[0] = type_tensor(&arena, DT_FLOAT32, 4, x4);
		}
		vin[1] = filled(DT_FLOAT32, 0, NULL, 2.0);
		vin[2] = filled(DT_FLOAT32, 0, NULL, 3.0);
		vin[3] = int64s(2, z);
		vin[4] = filled(DT_FLOAT32, 1, four, 0.0);
		vin[5] = int64s(3, i);
		vin[6] = counting(1, three);
		((float *)vin[6].data)[0] = 5;
		((float *)vin[6].data)[1] = 6;
		((float *)vin[6].data)[2] = 7;
		vin[7] = int64s(1, o5);
		{
			const Type *vtypes[8] = {types[0], NULL, NULL, NULL,
						 NULL,     NULL, NULL, NULL};
			m = specialize(p.m, vtypes, vin, 8, &p.diags);
		}
		if (!m)
			diag_print_all(stderr, &p.diags);
		assert_non_null(m);
		assert_false(plan_has_unknown_dims(m));
		run_cpu(&p, m, vin, 8, &r);
		assert_int_equal(r.noutputs, 4);
		/* x = 0 1 / 2 3 to (4, 6): [r, c] is x[r / 2, c / 3] */
		assert_int_equal(r.outputs[0].ndim, 4);
		assert_int_equal(r.outputs[0].shape[2], 4);
		assert_int_equal(r.outputs[0].shape[3], 6);
		assert_float_equal(exec_element(&r.outputs[0], 5), 1.0, 0);
		assert_float_equal(exec_element(&r.outputs[0], 12), 2.0, 0);
		assert_float_equal(exec_element(&r.outputs[0], 23), 3.0, 0);
		/* (1, 1, 1, 2, 2) to (1, 1, 2, 6, 4): [1, 5, 3] is x[1, 1] */
		assert_int_equal(r.outputs[1].ndim, 5);
		assert_int_equal(r.outputs[1].shape[2], 2);
		assert_int_equal(r.outputs[1].shape[3], 6);
		assert_int_equal(r.outputs[1].shape[4], 4);
		assert_float_equal(exec_element(&r.outputs[1], 47), 3.0, 0);
		assert_float_equal(exec_element(&r.outputs[1], 24 + 1), 0.0, 0);
		/* nearest, half_pixel: the corners keep x's */
		assert_int_equal(r.outputs[2].shape[2], 4);
		assert_int_equal(r.outputs[2].shape[3], 4);
		assert_float_equal(exec_element(&r.outputs[2], 0), 0.0, 0);
		assert_float_equal(exec_element(&r.outputs[2], 3), 1.0, 0);
		assert_float_equal(exec_element(&r.outputs[2], 15), 3.0, 0);
		/* indices 1 3 1 take 5 6 7: the last 1 wins, 0 elsewhere */
		assert_int_equal(r.outputs[3].ndim, 1);
		assert_int_equal(r.outputs[3].shape[0], 5);
		{
			const double want[5] = {0, 7, 0, 6, 0};
			for (int k = 0; k < 5; k++)
				assert_float_equal(exec_element(&r.outputs[3], k), want[k], 0);
		}
		exec_result_free(&r);
		ir_module_free(m);
		program_free(&p);
		/* a float16 scale is not read: named */
		program_load(&p, "def @main(%x: Tensor[(?, 1, 2, 2), float32], %h: float16) {\n"
				 "  dyn.nn.upsampling(%x, %h, %h)\n}\n");
		npy_array_free(&vin[1]);
		vin[1] = filled(DT_FLOAT16, 0, NULL, 2.0);
		assert_null(specialize(p.m, (const Type *[2]){types[0], NULL}, vin, 2, &p.diags));
		expect_diag(&p.diags, "prog.relay:2:3: error: 'dyn.nn.upsampling' takes its "
				      "scale_h from values known only while running: its value is "
				      "not one integer, float32 or float64 number");
		diag_clear(&p.diags);
		for (int k = 0; k < 8; k++)
			npy_array_free(&vin[k]);
	}
	program_free(&p);

	/* argwhere's shape depends on the data: named */
	program_load(&p, "def @main(%x: Tensor[(?), float32], %b: Tensor[(4), bool]) {\n"
			 "  dyn.reshape(%x, shape_of(argwhere(%b)))\n}\n");
	xshape[0] = 4;
	in[0] = counting(1, xshape);
	in[1] = filled(DT_BOOL, 1, xshape, 1);
	types[0] = type_tensor(&arena, DT_FLOAT32, 1, xshape);
	assert_null(specialize(p.m, types, in, 2, &p.diags));
	expect_diag(&p.diags, "prog.relay:2:3: error: 'dyn.reshape' takes its newshape from "
			      "values known only while running: it depends on 'argwhere', whose "
			      "shape is not known before running");
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	program_free(&p);

	/* in a function other than @main: shapes from its constants and types
	 * are computed, from its parameters' values not */
	program_load(&p, "def @f(%y: Tensor[(6), float32], %s: Tensor[(2), int64]) {\n"
			 "  let %z = zeros(shape=[2, 3], dtype=\"float32\");\n"
			 "  (dyn.reshape(%y, shape_of(%z)), dyn.reshape(%y, %s))\n"
			 "}\n"
			 "def @main(%x: Tensor[(?), float32], %s: Tensor[(2), int64]) {\n"
			 "  (@f(ones(shape=[6], dtype=\"float32\"), %s),\n"
			 "   dyn.reshape(%x, add(%s, 0i64)))\n}\n");
	xshape[0] = 6;
	s[0] = 2;
	s[1] = 3;
	in[0] = counting(1, xshape);
	in[1] = int64s(2, s);
	types[0] = type_tensor(&arena, DT_FLOAT32, 1, xshape);
	assert_null(specialize(p.m, types, in, 2, &p.diags));
	text = diags_text(&p.diags);
	if (strstr(text, "prog.relay:3:4:") || strstr(text, "prog.relay:7:") ||
	    !strstr(text, "prog.relay:3:35: error: 'dyn.reshape' takes its newshape from "
			  "values known only while running: it depends on %s, an input of a "
			  "function other than @main")) {
		print_error("diagnostics:\n%s", text);
		free(text);
		fail();
	}
	free(text);
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	program_free(&p);

	/* a chain of 100 dyn.reshape calls, each shape the previous result's:
	 * one more known each round, as many rounds as it takes */
	{
		StrBuf chain;
		strbuf_init(&chain);
		strbuf_puts(&chain,
			    "def @main(%x: Tensor[(?, 8), float32]) {\n  %0 = add(%x, 1f);\n");
		for (int i = 0; i < 100; i++)
			strbuf_printf(&chain,
				      "  %%%d = dyn.reshape(%%%d, shape_of(%%%d));\n"
				      "  %%%d = add(%%%d, 1f);\n",
				      2 * i + 1, 2 * i, 2 * i, 2 * i + 2, 2 * i + 1);
		strbuf_puts(&chain, "  %200\n}\n");
		program_load(&p, chain.data);
		strbuf_free(&chain);
		xshape[0] = 3;
		xshape[1] = 8;
		in[0] = counting(2, xshape);
		types[0] = type_tensor(&arena, DT_FLOAT32, 2, xshape);
		m = specialize(p.m, types, in, 1, &p.diags);
		assert_non_null(m);
		run_cpu(&p, m, in, 1, &r);
		assert_int_equal(r.outputs[0].shape[0], 3);
		assert_float_equal(exec_element(&r.outputs[0], 23), 23.0 + 101, 0);
		exec_result_free(&r);
		ir_module_free(m);
		npy_array_free(&in[0]);
		program_free(&p);
	}

	/* a value of 10000 elements is not computed ahead of the run; the
	 * shape of one is, without computing it */
	program_load(&p,
		     "def @main(%x: Tensor[(?), float32], %y: Tensor[(10000), int64]) {\n"
		     "  (dyn.reshape(%x, shape_of(add(%y, %y))),\n"
		     "   dyn.reshape(%x, strided_slice(add(%y, %y), begin=[0], end=[1])))\n}\n");
	in[0] = counting(1, big);
	in[1] = filled(DT_INT64, 1, big, 1);
	types[0] = type_tensor(&arena, DT_FLOAT32, 1, big);
	assert_null(specialize(p.m, types, in, 2, &p.diags));
	expect_diag(&p.diags, "prog.relay:3:34: error: 'add' would be computed ahead of the run to "
			      "find a shape, but its Tensor[(10000), int64] is more than the 4096 "
			      "elements devplan computes ahead of a run");
	text = diags_text(&p.diags);
	if (strstr(text, "prog.relay:2:")) {
		print_error("shape_of computed its operand:\n%s", text);
		free(text);
		fail();
	}
	free(text);
	npy_array_free(&in[0]);
	npy_array_free(&in[1]);
	program_free(&p);
	arena_free(&arena);
}

static void test_interrupt(void **state)
{
	int64_t shape[1] = {4};
	Program p;
	NpyArray in = filled(DT_FLOAT32, 1, shape, 1);
	ExecOptions o = {.all_on_cpu = true};
	ExecResult r;
	(void)state;
	program_load(&p, "def @main(%a: Tensor[(4), float32]) {\n  negative(exp(%a))\n}\n");
	interrupt_request();
	assert_false(exec_run(p.m, &p.devices, &o, &in, 1, &r, &p.diags));
	exec_result_free(&r);
	interrupt_clear();
	expect_diag(&p.diags, "interrupted");
	npy_array_free(&in);
	program_free(&p);
}

/* ---- a plan with a missing device_copy ------------------------------------------------ */

/* The planned shared-input module with the copy of %b to cuda:0 removed:
 * the gpu add now reads %b straight from cpu memory. */
static void test_missing_copy_is_caught(void **state)
{
	Fixture *f = *state;
	IrModule *broken;
	Expr **by_id;
	ExecParam *params;
	size_t n;
	NpyArray inputs[3];
	ExecOptions o = {.gpu = GPU_EMULATE};
	ExecResult r;
	DiagList diags;
	bool removed = false;
	char *err = NULL;
	run_ok(f, "set fallback cpu:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/cases/shared_input.relay"));
	broken = ir_module_clone(session_current(&f->session));
	by_id = ir_index_by_id(broken);
	for (uint32_t id = 0; id < broken->nexprs; id++) {
		Expr *e = by_id[id];
		if (!e || e->kind != EXPR_CALL || e->u.call.op != OP_ADD)
			continue;
		for (uint32_t i = 0; i < e->u.call.nargs; i++) {
			Expr *a = e->u.call.args[i];
			if (ir_is_op(a, OP_DEVICE_COPY) && a->u.call.args[0]->name &&
			    strcmp(a->u.call.args[0]->name, "b") == 0) {
				e->u.call.args[i] = a->u.call.args[0];
				removed = true;
			}
		}
	}
	free(by_id);
	assert_true(removed);
	n = exec_params(broken, &params);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_true(npy_random(&inputs[i], DT_FLOAT32, 2, params[i].type->u.tensor.dims, i,
				       &err));
	diag_init(&diags);
	assert_false(exec_run(broken, &f->session.devices, &o, inputs, n, &r, &diags));
	exec_result_free(&r);
	expect_diag(&diags,
		    "shared_input.relay:6:8: error: 'add' runs on cuda:0 but its argument 1 "
		    "(%b) lives in cpu:0 memory: a device_copy from cpu:0 to cuda:0 is "
		    "missing");
	expect_diag(&diags, "    %2 = add(%b, %c);\n         ^");
	diag_free(&diags);
	for (size_t i = 0; i < n; i++)
		npy_array_free(&inputs[i]);
	free(params);
	ir_module_free(broken);
}

/* An add of the float32 vectors of shape at a and b into c: its operands
 * and result are written to in and out, which the call points to (change
 * one there and the call follows). */
static KernelCall add_call(void *a, void *b, void *c, const int64_t *shape, KernelTensor in[2],
			   KernelTensor out[1])
{
	KernelCall kc;
	in[0] = kernel_tensor(a, DT_FLOAT32, 1, shape);
	in[1] = kernel_tensor(b, DT_FLOAT32, 1, shape);
	out[0] = kernel_tensor(c, DT_FLOAT32, 1, shape);
	memset(&kc, 0, sizeof kc); /* every byte of the union too */
	kc.op = OP_ADD;
	kc.name = "add";
	kc.in = in;
	kc.nin = 2;
	kc.out = out;
	kc.nout = 1;
	return kc;
}

/* The emulator's own check: a launch on cuda:0 with an operand in cpu:0's
 * memory is refused by the backend too. */
static void test_emulator_checks_operands(void **state)
{
	DeviceTable devices;
	DiagList diags;
	ExecOptions o = {.gpu = GPU_EMULATE};
	ExecRuntime *rt;
	ExecDevice *cpu, *gpu;
	int64_t shape[1] = {4};
	void *a, *b, *c;
	KernelTensor in[2], out[1];
	KernelCall kc;
	char *err = NULL;
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	rt = exec_runtime_new(&devices, &o, &diags);
	cpu = exec_runtime_device(rt, 0);
	gpu = exec_runtime_device(rt, 1);
	assert_non_null(cpu);
	assert_non_null(gpu);
	assert_string_equal(gpu->backend->name, "emulated-cuda");
	expect_diag(&diags, "cuda:0 runs on the host emulator");
	a = exec_alloc(cpu, 16, &err);
	b = exec_alloc(gpu, 16, &err);
	c = exec_alloc(gpu, 16, &err);
	kc = add_call(a, b, c, shape, in, out);
	assert_false(exec_launch(gpu, &kc, &err));
	assert_string_equal(err, "operand 1 of 'add' is not in cuda:0's memory");
	free(err);
	err = NULL;
	/* and a copy into the device from the cpu works */
	assert_true(exec_copy(gpu, b, cpu, a, 16, &err));
	in[0] = kernel_tensor(b, DT_FLOAT32, 1, shape);
	assert_true(exec_launch(gpu, &kc, &err));
	assert_int_equal(gpu->bytes_live, 32);
	exec_free(cpu, a, 16);
	exec_free(gpu, b, 16);
	exec_free(gpu, c, 16);
	assert_int_equal(gpu->bytes_live, 0);
	assert_int_equal(gpu->bytes_peak, 32);
	exec_runtime_free(rt);
	diag_free(&diags);
	devices_free(&devices);
}

/* Host memory lent to the emulator (an input bound where it is): the
 * device reads it as its own (an operand, the source of a copy out), never
 * writes it (a kernel's result, the target of a copy are refused), counts
 * it as a copy would be counted, and takes an array lent twice back twice;
 * once given back it is no longer the device's. */
static void test_emulator_lent_memory(void **state)
{
	DeviceTable devices;
	DiagList diags;
	ExecOptions o = {.gpu = GPU_EMULATE};
	ExecRuntime *rt;
	ExecDevice *gpu;
	int64_t shape[1] = {4};
	/* 64 zero bytes in front: once given back, the emulator's check reads
	 * them as a block header that is not its own */
	unsigned char *block = xcalloc(1, 64 + 16);
	float *lent = (float *)(block + 64), host[4] = {1, 2, 3, 4}, back[4];
	void *b, *c;
	KernelTensor in[2], out[1];
	KernelCall kc;
	char *err = NULL;
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	rt = exec_runtime_new(&devices, &o, &diags);
	gpu = exec_runtime_device(rt, 1);
	assert_non_null(gpu);
	memcpy(lent, host, sizeof host);
	assert_true(exec_can_borrow(gpu));
	assert_true(exec_borrow(gpu, lent, 16, &err));
	assert_true(exec_borrow(gpu, lent, 16, &err)); /* the same array twice */
	assert_int_equal(gpu->bytes_live, 32);
	b = exec_alloc(gpu, 16, &err);
	c = exec_alloc(gpu, 16, &err);
	assert_true(exec_copy_in(gpu, b, host, 16, &err));
	kc = add_call(lent, b, c, shape, in, out);
	assert_true(exec_launch(gpu, &kc, &err));
	assert_true(exec_copy_out(gpu, back, c, 16, &err));
	assert_true(back[3] == 8.0f);
	/* part of a lent array is read as well */
	assert_true(exec_copy_out(gpu, back, lent + 2, 8, &err));
	assert_true(back[0] == 3.0f && back[1] == 4.0f);
	/* never written: a result, a copy in, a copy from another device */
	out[0] = kernel_tensor(lent, DT_FLOAT32, 1, shape);
	assert_false(exec_launch(gpu, &kc, &err));
	assert_string_equal(err, "result 1 of 'add' is not in cuda:0's memory");
	free(err);
	err = NULL;
	assert_false(exec_copy_in(gpu, lent, host, 16, &err));
	assert_string_equal(err, "copy into cuda:0 targets memory that is not the device's");
	free(err);
	err = NULL;
	assert_false(exec_copy(gpu, lent + 1, gpu, b, 4, &err));
	free(err);
	err = NULL;
	assert_memory_equal(lent, host, sizeof host);
	exec_unborrow(gpu, lent, 16);
	assert_true(exec_copy_out(gpu, back, lent, 16, &err)); /* lent once still */
	exec_unborrow(gpu, lent, 16);
	assert_int_equal(gpu->bytes_live, 32);
	/* given back: no longer the device's to read */
	out[0] = kernel_tensor(c, DT_FLOAT32, 1, shape);
	assert_false(exec_launch(gpu, &kc, &err));
	assert_string_equal(err, "operand 1 of 'add' is not in cuda:0's memory");
	free(err);
	exec_free(gpu, b, 16);
	exec_free(gpu, c, 16);
	assert_int_equal(gpu->bytes_live, 0);
	assert_int_equal(gpu->bytes_peak, 64);
	exec_runtime_free(rt);
	diag_free(&diags);
	devices_free(&devices);
	free(block);
}

/* A run on the emulator binds its inputs where they are, as the cpu does:
 * after the run each input holds its bytes, the results are bit for bit
 * those of the cpu, the device's peak counts the inputs as copies, and a
 * memory limit the inputs do not fit refuses them as it refused copies. */
static void test_emulator_inputs_lent(void **state)
{
	Fixture *f = *state;
	const IrModule *m;
	LentInputs in, again;
	ExecOptions o = {.gpu = GPU_EMULATE};
	ExecResult gpu, cpu;
	DiagList diags;
	size_t peak = 0;
	uint64_t inputs = 0;
	run_ok(f, "set fallback cuda:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/models/mlp.relay"));
	m = session_current(&f->session);
	lent_inputs(m, 16, &in);
	diag_init(&diags);
	assert_true(exec_run(m, &f->session.devices, &o, in.arrays, in.n, &gpu, &diags));
	lent_inputs(m, 0, &again);
	for (size_t i = 0; i < in.n; i++) {
		assert_memory_equal(again.arrays[i].data, in.arrays[i].data, in.arrays[i].nbytes);
		inputs += in.arrays[i].nbytes;
	}
	o.all_on_cpu = true;
	assert_true(exec_run(m, &f->session.devices, &o, in.arrays, in.n, &cpu, &diags));
	assert_int_equal(gpu.noutputs, cpu.noutputs);
	for (size_t i = 0; i < cpu.noutputs; i++)
		assert_memory_equal(gpu.outputs[i].data, cpu.outputs[i].data,
				    cpu.outputs[i].nbytes);
	for (size_t i = 0; i < gpu.profile.ndevices; i++)
		if (gpu.profile.devices[i].device == 1)
			peak = gpu.profile.devices[i].peak_bytes;
	assert_true(peak > inputs);
	exec_result_free(&gpu);
	exec_result_free(&cpu);
	/* a limit the inputs do not fit in */
	o.all_on_cpu = false;
	o.memory_limit = inputs - 1;
	assert_false(exec_run(m, &f->session.devices, &o, in.arrays, in.n, &gpu, &diags));
	expect_diag(&diags, "more than the ");
	expect_diag(&diags, "memory limit for all of them together");
	exec_result_free(&gpu);
	diag_free(&diags);
	lent_inputs_free(&in);
	lent_inputs_free(&again);
}

static void test_gpu_require_without_gpu(void **state)
{
	Fixture *f = *state;
	char *why = NULL;
	(void)state;
	if (exec_gpu_available(&why)) {
		skip();
	}
	free(why);
	run_ok(f, "set fallback cuda:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/cases/plain.relay"));
	run_ok(f, "set gpu require");
	assert_int_equal(run(f, "run"), 1);
	assert_non_null(strstr(f->err, "error: no usable GPU for cuda:0 ("));
	assert_non_null(strstr(f->err, ") and the gpu setting is require"));
	run_ok(f, "set gpu auto");
	run_ok(f, "run");
	assert_non_null(strstr(f->err, "note: no usable GPU: cuda:0 runs on the host emulator\n"));
}

/* ---- the commands ---------------------------------------------------------------- */

static void test_run_command(void **state)
{
	Fixture *f = *state;
	char path[] = "/tmp/devplan_test_exec_XXXXXX";
	int fd = mkstemp(path);
	char *line;
	NpyArray a;
	char *err = NULL;
	assert_true(fd >= 0);
	close(fd);
	run_ok(f, "set fallback cpu:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/cases/shared_input.relay"));
	line = xasprintf("run %%a=random:7 c=random --output %s", path);
	run_ok(f, line);
	free(line);
	assert_non_null(strstr(f->out, "result: Tensor[(5, 7), float32] on cpu:0\n"));
	assert_non_null(strstr(f->out, "  first 8 of 35 values: "));
	assert_non_null(strstr(f->out, "  checksum: sum "));
	assert_non_null(strstr(
		f->err, "note: 1 input not given takes realistic random values: %b=random:1"));
	assert_true(npy_read(path, &a, &err));
	assert_int_equal(a.ndim, 2);
	npy_array_free(&a);
	/* the saved result is an input */
	line = xasprintf("run a=%s b=%s c=%s", path, path, path);
	run_ok(f, line);
	free(line);
	unlink(path);
	assert_int_equal(run(f, "run nope=random"), 1);
	assert_non_null(
		strstr(f->err, "error: @main has no input '%nope'; its inputs are %a, %b, %c"));
	assert_int_equal(run(f, "run a=random a=random"), 1);
	assert_non_null(strstr(f->err, "input '%a' is given twice"));
	assert_int_equal(run(f, "run a=random:x"), 1);
	assert_non_null(strstr(f->err, "the seed must be a non-negative integer"));
	assert_int_equal(run(f, "run a=/nonexistent.npy"), 1);
	assert_non_null(strstr(f->err, "cannot open '/nonexistent.npy'"));
	assert_int_equal(run(f, "run --bogus"), 1);
	assert_int_equal(run(f, "compare --output x.npy"), 1);
}

static void test_profile_command(void **state)
{
	Fixture *f = *state;
	run_ok(f, "set fallback cpu:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/cases/shared_input.relay"));
	run_ok(f, "profile");
	assert_non_null(strstr(f->out, "ops:\n"));
	assert_non_null(strstr(f->out, "@main %b cpu:0 -> cuda:0"));
	assert_non_null(strstr(f->out, "inputs: 3 tensors, 420 bytes"));
	assert_non_null(strstr(f->out, "memory peak:"));
	/* the estimate beside the measurement, with this machine's calibration
	 * for the cpu and for the emulated cuda:0, which ran the cpu kernels
	 * and copied between host buffers: on each device the copies that
	 * arrive (%b on cuda:0, %2 on cpu:0: 140 bytes at memcpy's bandwidth,
	 * none of the 10 us a PCIe copy's latency would add) and the peak
	 * memory, 420 bytes estimated and measured on both */
	assert_non_null(strstr(f->out, "estimate vs measured"));
	assert_non_null(strstr(f->out, "cost model: cpu:0, cuda:0 calibrated on this machine ("));
	assert_true(f->session.calibrated);
	{
		const char *cpu = strstr(f->out, "\n  cpu:0  ");
		const char *cuda = strstr(f->out, "\n  cuda:0 ");
		assert_non_null(cpu);
		assert_non_null(cuda);
		assert_null(strstr(cpu, "10 us"));
		assert_non_null(strstr(cpu, "           420           420\n"));
		assert_non_null(strstr(cuda, "           420           420\n"));
	}
	/* each operator beside its estimate */
	assert_non_null(strstr(f->out, "time         wall   share     estimate   x est\n"));
	/* the emulator's times are the host's, and the report says so */
	assert_non_null(strstr(f->err, "note: cuda:0 ran on the host emulator: its times are the "
				       "cpu kernels' and host memory copies', and say nothing "
				       "about a GPU (its estimate is the cpu's calibrated one)\n"));
	run_ok(f, "run --profile");
	assert_non_null(strstr(f->out, "result: Tensor[(5, 7), float32] on cpu:0"));
	assert_non_null(strstr(f->out, "copies:\n"));
}

/* profile and run --profile on a module with `?` dimensions: the ops run
 * in the input's shape (the dyn.* ones as their static forms), and the
 * bytes moved are the actual ones. */
static void test_profile_dynamic(void **state)
{
	Fixture *f = *state;
	assert_true(load_and_plan(f, DEVPLAN_SOURCE_DIR "/tests/transcripts/dyn_shape_of.relay"));
	run_ok(f, "profile x=random:1:(5,3) y=random:2:(15) b=random:3 r=random:4");
	assert_non_null(strstr(f->out, "ops:\n"));
	assert_non_null(strstr(f->out, "reshape "));
	assert_non_null(strstr(f->out, "tile "));
	/* x 60 bytes, y 60, b 12, r 8 */
	assert_non_null(strstr(f->out, "inputs: 4 tensors, 140 bytes"));
	assert_non_null(strstr(f->out, "memory peak:"));
	run_ok(f, "run --profile x=random:1:(2,3) y=random:2:(6) b=random:3 r=random:4");
	assert_non_null(strstr(f->out, "result.0: Tensor[(4, 3), float32] on cuda:0"));
	assert_non_null(strstr(f->out, "inputs: 4 tensors, 68 bytes"));
	assert_int_equal(run(f, "profile x=random:1 y=random:2:(6)"), 1);
	assert_non_null(strstr(f->err, "input %x has type Tensor[(?, 3), float32] with unknown "
				       "dimensions"));
}

/* run, compare and profile on a module whose shapes are an input's values
 * (dyn_s.npy holds 3 5): each computes them from the values given. */
static void test_commands_value_shapes(void **state)
{
	Fixture *f = *state;
#define TRANSCRIPTS DEVPLAN_SOURCE_DIR "/tests/transcripts/"
#define VALUE_INPUTS "x=random:1:(5,3) s=" TRANSCRIPTS "dyn_s.npy t=" TRANSCRIPTS "dyn_t.npy"
	assert_true(load_and_plan(f, TRANSCRIPTS "dyn_value_run.relay"));
	run_ok(f, "run " VALUE_INPUTS);
	assert_non_null(strstr(f->out, "result.0: Tensor[(3, 5), float32]"));
	assert_non_null(strstr(f->out, "result.1: Tensor[(2, 1, 3), float32]"));
	assert_non_null(strstr(f->out, "result.2: Tensor[(4, 6), float32]"));
	run_ok(f, "compare " VALUE_INPUTS);
	assert_non_null(strstr(f->out, "compare: PASS: 3 results match"));
	run_ok(f, "profile " VALUE_INPUTS);
	assert_non_null(strstr(f->out, "reshape "));
	assert_non_null(strstr(f->out, "broadcast_to "));
	/* x 60 bytes, s 16, t 24 */
	assert_non_null(strstr(f->out, "inputs: 3 tensors, 100 bytes"));
	/* 6 values do not make a (3, 5) */
	assert_int_equal(run(f, "profile x=random:1:(2,3) s=" TRANSCRIPTS "dyn_s.npy t=" TRANSCRIPTS
				"dyn_t.npy"),
			 1);
	assert_non_null(strstr(f->err, "'reshape' cannot reshape Tensor[(2, 3), float32] (6 "
				       "elements) to newshape [3, 5]"));
#undef VALUE_INPUTS
#undef TRANSCRIPTS
}

static void test_compare_fails_beyond_tolerance(void **state)
{
	Fixture *f = *state;
	/* a module whose two runs differ cannot be built from a correct plan,
	 * so the failing path is checked through the tolerance: 0 still
	 * passes equal results */
	run_ok(f, "set fallback cuda:0");
	assert_true(load_and_plan(f, DEVPLAN_DATA_DIR "/models/mlp.relay"));
	run_ok(f, "set tolerance 0");
	run_ok(f, "compare");
	assert_non_null(strstr(f->out, "max abs error 0, max rel error 0\ncompare: PASS"));
}

/* ---- busy time (exec_clock.h) ------------------------------------------- */

/* Spins until the calling thread has used `seconds` of CPU time. */
static void spin_cpu(double seconds)
{
	ExecClock a = exec_clock_now(true), b;
	do
		b = exec_clock_now(true);
	while (b.thread - a.thread < seconds);
}

static void spin_range(void *ctx, int64_t begin, int64_t end)
{
	(void)ctx;
	for (int64_t i = begin; i < end; i++)
		spin_cpu(0.03);
}

/* Busy time is CPU time, not the wall clock: a sleep costs next to
 * nothing, a spin on the calling thread counts whole, and work split over
 * the kernels' threads counts as its sum over their number (T spins of
 * 30 ms on T threads: 30 ms, not T x 30 ms); an empty span costs under a
 * few microseconds, and an operator's time has it taken off. */
static void test_clock_busy(void **state)
{
	ExecClock a, b;
	int threads = kernel_cpu_threads();
	(void)state;
	a = exec_clock_now(true);
	usleep(30000);
	b = exec_clock_now(true);
	assert_true(exec_clock_wall(&a, &b) >= 0.03);
	assert_true(exec_clock_busy(&a, &b) < 0.01);
	a = exec_clock_now(true);
	spin_cpu(0.03);
	b = exec_clock_now(true);
	assert_true(exec_clock_busy(&a, &b) >= 0.03);
	assert_true(exec_clock_busy(&a, &b) < 0.045);
	a = exec_clock_now(true);
	kernel_parallel_for(threads, 1, spin_range, NULL);
	b = exec_clock_now(true);
	print_message("%d threads: %d spins of 30 ms are %.1f ms busy\n", threads, threads,
		      exec_clock_busy(&a, &b) * 1e3);
	assert_true(exec_clock_busy(&a, &b) >= 0.03);
	assert_true(exec_clock_busy(&a, &b) < 0.045);
	assert_true(exec_clock_cost()->busy > 0 && exec_clock_cost()->busy < 5e-6);
	assert_true(exec_clock_cost()->wall >= 0 && exec_clock_cost()->wall < 1e-4);
}

/* OpenBLAS's workers spin for about 0.1 s after a product (its default,
 * which devplan keeps): that is CPU time of this process, but not the work
 * of the operator that follows. A span right after a 512 x 512 product on
 * the kernels' threads, in which the calling thread is off the CPU (a
 * sleep, as when the machine's other jobs preempt it), is next to no busy
 * time; charged with the process's CPU time it was half the spin. */
static void test_clock_after_product(void **state)
{
	enum { N = 512 };
	const int64_t shape[2] = {N, N};
	float *a = xcalloc(N * N, sizeof(float)), *b = xcalloc(N * N, sizeof(float));
	float *c = xcalloc(N * N, sizeof(float));
	KernelTensor in[2], out[1];
	KernelCall kc;
	ExecClock t0, t1;
	char *err = NULL;
	(void)state;
	for (int i = 0; i < N * N; i++) {
		a[i] = (float)(i % 7);
		b[i] = (float)(i % 5);
	}
	in[0] = kernel_tensor(a, DT_FLOAT32, 2, shape);
	in[1] = kernel_tensor(b, DT_FLOAT32, 2, shape);
	out[0] = kernel_tensor(c, DT_FLOAT32, 2, shape);
	memset(&kc, 0, sizeof kc);
	kc.op = OP_DENSE;
	kc.name = "nn.dense";
	kc.in = in;
	kc.nin = 2;
	kc.out = out;
	kc.nout = 1;
	kc.p.matmul = (KernelMatmul){
		.batch = 1, .batch_a = 1, .batch_b = 1, .m = N, .n = N, .k = N, .trans_b = true};
	for (int rep = 0; rep < 3; rep++) {
		assert_true(kernel_cpu_launch(&kc, &err));
		t0 = exec_clock_now(true);
		usleep(30000);
		t1 = exec_clock_now(true);
		print_message("%d threads: a 30 ms sleep after a product is %.2f ms busy\n",
			      kernel_cpu_threads(), exec_clock_busy(&t0, &t1) * 1e3);
		assert_true(exec_clock_busy(&t0, &t1) < 0.001);
	}
	assert_true(c[0] > 0);
	free(a);
	free(b);
	free(c);
}

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	/* two threads at least, so that the busy time of the kernels' threads
	 * and OpenBLAS's workers are both in play (test_clock_after_product) */
	setenv("DEVPLAN_THREADS", "2", 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_shared_cases),
		cmocka_unit_test(test_compare_models),
		cmocka_unit_test(test_inputs_borrowed),
		cmocka_unit_test(test_calls_closures_lets_if),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_memory_stays_bounded),
		cmocka_unit_test(test_sizes_checked_before_allocation),
		cmocka_unit_test(test_inputs_checked),
		cmocka_unit_test(test_dynamic_shapes),
		cmocka_unit_test(test_value_shapes),
		TEST(test_profile_dynamic),
		TEST(test_commands_value_shapes),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_clock_busy),
		cmocka_unit_test(test_clock_after_product),
		TEST(test_missing_copy_is_caught),
		cmocka_unit_test(test_emulator_checks_operands),
		cmocka_unit_test(test_emulator_lent_memory),
		TEST(test_emulator_inputs_lent),
		TEST(test_gpu_require_without_gpu),
		TEST(test_run_command),
		TEST(test_profile_command),
		TEST(test_compare_fails_beyond_tolerance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
