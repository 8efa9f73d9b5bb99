/* builtins_impl.h - what the files of the built-ins share (builtins.c,
 * str.c, strformat.c, containers.c, numbers.c and the standard modules
 * mathmod.c ... randommod.c); not a contract with other modules. */
#ifndef TRITSIM_BUILTINS_IMPL_H
#define TRITSIM_BUILTINS_IMPL_H

#include "builtins.h"
#include "host.h"

#include <stdio.h>

/* Define a val_cfunc of the built-ins: BUILTIN_FN one of the file's own
 * (static), BUILTIN_SHARED_FN one that another file uses (declared
 * below). */
#define BUILTIN_SHARED_FN(name) \
    val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, src_span at)
#define BUILTIN_FN(name) static BUILTIN_SHARED_FN(name)
#define UNUSED_ARGS (void)h; (void)self; (void)argc; (void)argv; (void)kw; (void)at

/* One entry of a method table: BUILTIN_METHOD(VAL_STR, "str", join, fn)
 * is {"join", "str.join", fn, VAL_STR}. */
#define BUILTIN_METHOD(kind, tname, name, fn) {#name, tname "." #name, fn, kind}

/* The str a method of str is called on. */
#define STR_SELF (val_as_str(self))

static inline bool builtin_is_int(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL;
}

static inline int64_t builtin_int_of(val v)
{
    return v.kind == VAL_BOOL ? (int64_t)v.u.b : v.u.i;
}

static inline bool builtin_is_num(val v)
{
    return builtin_is_int(v) || v.kind == VAL_FLOAT;
}

static inline double builtin_float_of(val v)
{
    return v.kind == VAL_FLOAT ? v.u.f : (double)builtin_int_of(v);
}

/* ---- builtins.c ---- */

/* Report "fname() takes no keyword arguments" when kw has any. */
bool builtin_no_kwargs(host *h, const char *fname, const val_kwargs *kw, src_span at);
/* Check the number of positional arguments of fname (no keywords). */
bool builtin_nargs(host *h, const char *fname, int argc, const val_kwargs *kw,
                   int min, int max, src_span at);
/* Call obj.__name__() if obj's type provides it (VAL_MISSING if not). */
val builtin_dunder(host *h, val obj, const char *name, int argc, const val *argv,
                   src_span at);

/* Append code point c to b as UTF-8. */
void builtin_put_utf8(strbuf *b, uint32_t c);
/* Sort list in place (list.sort and sorted): stable, by key(item) when
 * key is not None. */
bool builtin_sort_list(host *h, val list, val key, bool reverse, src_span at);
/* sum() and math.prod(): acc (owned) op x for each x of iterable, left
 * to right. */
val builtin_fold(host *h, ast_op op, val acc, val iterable, src_span at);
/* A file object writing to fp (sys.stdout, sys.stderr); name a static
 * string. */
val builtin_file_new(FILE *fp, const char *name);

/* Register the type object `name` in h->builtins: calling it calls fn
 * (the constructor); isinstance(v, it) holds for values of kind (and of
 * val_type type, unless NULL).  Returns it, borrowed. */
val builtin_type_new(host *h, const char *name, val_cfunc fn, val_kind kind,
                     const val_type *type);

/* ---- the types' files: their type objects and method tables ---- */

void builtin_numbers_init(host *h);      /* numbers.c: int, float */
void builtin_containers_init(host *h);   /* containers.c: list, tuple, dict, range, slice */
BUILTIN_SHARED_FN(builtin_str_format);   /* strformat.c: str.format */
BUILTIN_SHARED_FN(builtin_str_encode);   /* bytesmod.c: str.encode */
/* bytesmod.c: the bytes type object (the value: host/bytesval.c) */
void builtin_bytes_init(host *h);
/* fmt % args for a str fmt (strformat.c: printf-style formatting). */
val builtin_percent_format(host *h, val fmt, val args, src_span at);
/* each ended by an entry whose name is NULL */
extern const host_method builtin_str_methods[], builtin_list_methods[],
    builtin_tuple_methods[], builtin_dict_methods[], builtin_range_methods[],
    builtin_int_methods[], builtin_float_methods[];

/* ---- numbers.c ---- */

/* int(f) of a float: truncated; a ValueError for nan, an OverflowError
 * for infinities and what does not fit in 64 bits. */
val builtin_float_to_int(host *h, double f, src_span at);

/* ---- containers.c ---- */

/* A live view of dict: what its keys() (what 0), values() (1) and
 * items() (2) return; os.environ's views too. */
val builtin_view_new(val dict, int what);

/* ---- fileio.c ---- */

/* Raise the OSError class that errno err means (FileNotFoundError,
 * FileExistsError, PermissionError, IsADirectoryError, NotADirectoryError,
 * else OSError) with errno, strerror and filename (NULL: none). */
val fileio_raise_errno(host *h, int err, const char *filename, src_span at);
/* open(name, mode, encoding=encoding) (name a str; encoding a str or
 * VAL_MISSING), with universal newlines when translate: a new file
 * object, or VAL_ERR after raising. */
val fileio_open(host *h, val name, const char *mode, val encoding, bool translate,
                src_span at);

/* ---- sysmod.c ---- */

BUILTIN_SHARED_FN(builtin_sys_exit);   /* exit() and quit() too */
/* time.time_ns(): the time of day in nanoseconds (random's seed). */
int64_t builtin_time_ns(void);

#endif
