/* fuzz_parse.c - libFuzzer target for the front end: every input is lexed
 * (token dump) and parsed (AST printed) with diagnostics on, to a null
 * stream.  Any crash, sanitizer report, leak or hang is a bug.
 * Build and run with `make fuzz` (clang with -fsanitize=fuzzer). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "lex.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    src_file *f = src_from_string("fuzz.tk", (const char *)data, size);
    diag_sink d;
    diag_sink_init(&d, null_out);

    lex_dump(f, &d, null_out);

    diag_sink_init(&d, null_out);
    arena a;
    arena_init(&a);
    ast_node *m = parse_file(f, &d, &a);
    if (d.nerrors == 0)
        ast_print(null_out, m, true);
    arena_free(&a);
    src_free(f);
    return 0;
}
