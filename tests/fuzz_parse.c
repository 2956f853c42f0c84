/*
 * fuzz_parse.c - libFuzzer target for the Relay parser, the #[metadata]
 * reader and the planning pipeline behind them.
 *
 * Every input is parsed as a module against the default device table; a
 * module that parses is printed and the text parsed again, then goes
 * through every phase of the pipeline (under
 * the copy policy, so that conflicts are resolved rather than reported),
 * each phase's output is verified (pipeline_verify, as the session does:
 * a rejection aborts, a finding like a crash), the planned module is
 * printed, and everything is freed again; the sanitizers (the target is built with
 * -fsanitize=fuzzer,address,undefined when DEVPLAN_FUZZ is on) turn any
 * crash, over-read, leak or undefined behaviour into a finding. The name
 * does not start with test_, so the unit-test glob leaves it alone.
 *
 *   CC=clang cmake -S . -B build-fuzz -DDEVPLAN_FUZZ=ON -DDEVPLAN_SANITIZE=ON
 *   make -C build-fuzz fuzz_parse
 *   build-fuzz/tests/fuzz_parse -dict=tests/fuzz_parse.dict -max_total_time=60 \
 *       NEW_CORPUS_DIR tests/fuzz_corpus
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"
#include "parse.h"
#include "pipeline.h"
#include "plan.h"
#include "print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DeviceTable devices;
	DiagList diags;
	SourceFile *src = source_from_string("fuzz.relay", (const char *)data, size);
	IrModule *m;
	StrBuf out;
	devices_init_default(&devices);
	diag_init(&diags);
	m = parse_module(src, &devices, &diags);
	/* formatting walks the positions the parser reported */
	strbuf_init(&out);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&out, &diags.items[i]);
	strbuf_reset(&out);
	if (m) {
		/* the module as loaded prints too (lets in expressions, operator
		 * values, ...), and what it prints is read again */
		PrintOptions loaded = {.devices = &devices, .show_metadata = true};
		SourceFile *printed;
		DiagList again;
		print_module(&out, m, &loaded);
		printed = source_from_string("printed.relay", out.data ? out.data : "", out.len);
		diag_init(&again);
		ir_module_free(parse_module(printed, &devices, &again));
		diag_free(&again);
		source_release(printed);
		strbuf_reset(&out);
	}
	if (m) {
		/* each phase's output becomes the next one's input; versions are
		 * freed newest first, as the session does */
		IrModule *versions[16] = {m};
		size_t n = 1;
		PlanTrace *trace = plan_trace_new();
		PhaseContext ctx = {.devices = &devices,
				    .fallback = 0,
				    .policy = POLICY_COPY,
				    .diags = &diags,
				    .trace = trace};
		for (size_t i = 0; i < pipeline_count && n < 16; i++) {
			size_t errors = diags.errors;
			IrModule *next = pipeline_phases[i].run(versions[n - 1], &ctx);
			if (!next)
				break;
			versions[n++] = next;
			if (diags.errors != errors)
				break;
			/* a phase's output the verifier rejects is a finding, as
			 * a crash is: `plan` would fail with an internal error */
			if (!pipeline_verify(i, next, &devices, true, &diags)) {
				fprintf(stderr,
					"fuzz_parse: the verifier rejects what '%s' made:\n",
					pipeline_phases[i].name);
				diag_print_all(stderr, &diags);
				abort();
			}
		}
		if (n == pipeline_count + 1) {
			PrintOptions opts = {.devices = &devices, .show_metadata = true};
			print_module(&out, versions[n - 1], &opts);
		}
		while (n > 1)
			ir_module_free(versions[--n]);
		plan_trace_free(trace);
	}
	strbuf_free(&out);
	ir_module_free(m);
	diag_free(&diags);
	source_release(src);
	devices_free(&devices);
	return 0;
}
