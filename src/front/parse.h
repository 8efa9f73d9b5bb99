/* parse.h - recursive-descent parser: tokens to an AST.
 *
 * Python's grammar with Python's precedence, trimmed to the language
 * doc/language.md lists.  Constructs the language does not support (yield,
 * async, ...) get a diagnostic that names them.  After an error
 * the parser skips to the next statement and goes on, so one run reports
 * many errors (the diag_sink's max_errors stops it). */
#ifndef TRITSIM_PARSE_H
#define TRITSIM_PARSE_H

#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Parse the whole file.  Returns the MODULE node (never NULL; with errors
 * it holds the statements that did parse).  The caller checks d->nerrors. */
ast_node *parse_file(const src_file *f, diag_sink *d, arena *a);

/* Parse the whole text of f as one expression (Python's eval mode: leading
 * blanks and trailing newlines are fine; a bare tuple `a, b` is a tuple),
 * e.g. a debugger's `print EXPR`.  Anything after the expression is a
 * syntax error.  Returns NULL after reporting errors to d. */
ast_node *parse_expr(const src_file *f, diag_sink *d, arena *a);

#endif
