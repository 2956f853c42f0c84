/*
 * bench_relax.c - the Relax target of issue 29: a 100,000-binding Relax
 * module loads (parse) and realises (RealizeVDevice's five phases) in
 * under 1 s of CPU; printing the result is timed beside it.
 *
 * The module is made in memory: a dataflow chain of R.exp and R.add with
 * a hint every 100 bindings, alternating cpu and cuda, as TVM prints it
 * (every binding annotated). scripts/bench runs it from a Release build;
 * exit status 1 when the target is missed, 2 when a step failed.
 *
 *   bench_relax [BINDINGS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "relax_parse.h"
#include "relax_print.h"
#include "relax_realize.h"

#define TENSOR "R.Tensor((2, 3), dtype=\"float32\")"

static void make_module(StrBuf *sb, long n)
{
	char prev[32] = "x";
	strbuf_puts(sb,
		    "@I.ir_module\nclass Module:\n"
		    "    I.module_global_infos({\"vdevice\": [I.vdevice({\"kind\": \"llvm\"}, 0, "
		    "\"global\"), I.vdevice({\"kind\": \"cuda\"}, 0, \"global\")]})\n"
		    "    @R.function\n    def main(x: " TENSOR ") -> " TENSOR ":\n"
		    "        with R.dataflow():\n");
	for (long i = 0; i < n; i++) {
		if (i % 100 == 50)
			strbuf_printf(sb,
				      "            v%ld: " TENSOR " = R.hint_on_device(%s, "
				      "R.device(device_type=%ld, index=0), \"global\")\n",
				      i, prev, 1 + (i / 100) % 2);
		else if (i % 3 == 0)
			strbuf_printf(sb, "            v%ld: " TENSOR " = R.add(%s, %s)\n", i, prev,
				      prev);
		else
			strbuf_printf(sb, "            v%ld: " TENSOR " = R.exp(%s)\n", i, prev);
		snprintf(prev, sizeof prev, "v%ld", i);
	}
	strbuf_printf(sb, "            R.output(%s)\n        return %s\n", prev, prev);
}

static double cpu_seconds(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	StrBuf text, out;
	DiagList diags;
	RxRealize r;
	double t0, t1, t2, t3;
	strbuf_init(&text);
	strbuf_init(&out);
	diag_init(&diags);
	make_module(&text, n);
	SourceFile *src = source_from_string("bench.py", text.data, text.len);
	t0 = cpu_seconds();
	RxModule *m = relax_parse(src, &diags);
	if (!m) {
		diag_print_all(stderr, &diags);
		return 2;
	}
	t1 = cpu_seconds();
	relax_realize_init(&r, m);
	while (r.done < RX_PHASE_COUNT)
		if (!relax_realize_step(&r, &diags)) {
			diag_print_all(stderr, &diags);
			return 2;
		}
	t2 = cpu_seconds();
	relax_print_module(&out, relax_realize_current(&r));
	t3 = cpu_seconds();
	printf("relax: %ld bindings: parse %.3f s, realize %.3f s (target: both under 1 s of CPU: "
	       "%.3f s), print %.3f s\n",
	       n, t1 - t0, t2 - t1, t2 - t0, t3 - t2);
	relax_realize_free(&r);
	relax_module_free(m);
	source_release(src);
	strbuf_free(&text);
	strbuf_free(&out);
	diag_free(&diags);
	return t2 - t0 < 1.0 ? 0 : 1;
}
