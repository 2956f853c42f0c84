/*
 * fuzz_relax.c - libFuzzer target for the Relax front end and
 * RealizeVDevice (core/relax/).
 *
 * Every input is parsed as a Relax module; the diagnostics are formatted
 * (which walks the positions they name); a module that parses is printed,
 * the print parsed again and printed again (the two prints must be the
 * same text: a difference aborts, which libFuzzer reports), and then goes
 * through the five RealizeVDevice phases under policy tvm and under copy,
 * and each result is printed. The
 * sanitizers turn a crash, over-read, leak or undefined behaviour into a
 * finding. Seeds: tests/data/relax (scripts/fuzz fuzz_relax).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "relax_parse.h"
#include "relax_print.h"
#include "relax_realize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print_again(const StrBuf *first)
{
	SourceFile *src =
		source_from_string("printed.py", first->data ? first->data : "", first->len);
	DiagList diags;
	RxModule *m;
	diag_init(&diags);
	m = relax_parse(src, &diags);
	if (!m) {
		diag_print_all(stderr, &diags);
		fputs(first->data, stderr);
		abort(); /* what the printer wrote does not read back */
	}
	StrBuf second;
	strbuf_init(&second);
	relax_print_module(&second, m);
	if (second.len != first->len || memcmp(second.data, first->data, first->len) != 0)
		abort(); /* parse(print(m)) does not print the same */
	strbuf_free(&second);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SourceFile *src = source_from_string("fuzz.py", (const char *)data, size);
	DiagList diags;
	RxModule *m;
	StrBuf out;
	diag_init(&diags);
	strbuf_init(&out);
	m = relax_parse(src, &diags);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&out, &diags.items[i]);
	strbuf_reset(&out);
	if (m) {
		RxRealize r;
		relax_print_module(&out, m);
		print_again(&out);
		strbuf_reset(&out);
		for (int copy = 0; copy <= 1; copy++) { /* policy tvm, then copy */
			relax_realize_init(&r, m);
			r.copy_policy = copy;
			while (r.done < RX_PHASE_COUNT && relax_realize_step(&r, &diags))
				;
			strbuf_reset(&out);
			relax_print_module(&out, relax_realize_current(&r));
			relax_realize_free(&r);
		}
		relax_module_free(m);
	}
	strbuf_free(&out);
	diag_free(&diags);
	source_release(src);
	return 0;
}
