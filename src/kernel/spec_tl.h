/* spec_tl.h - what the files of tl.* functions share: spec_tl.c (argument
 * binding, the table of every built-in, tile attributes and methods, hints
 * and casts), spec_shape.c (tile creation and shapes), spec_mem.c (tl.load,
 * tl.store), spec_math.c (arithmetic and math), spec_reduce.c (reductions
 * and scans), spec_print.c (printing and checks), spec_python.c (Python's
 * builtins), spec_random.c (tl.rand and friends), spec_atomic.c
 * (tl.atomic_*), spec_block.c (block pointers), spec_desc.c (tensor
 * descriptors) and spec_libdevice.c (libdevice).  Argument binding and
 * checking helpers, and the handlers each file gives the table.  Private
 * to the specializer, like spec_impl.h. */
#ifndef TRITSIM_SPEC_TL_H
#define TRITSIM_SPEC_TL_H

#include "spec_impl.h"

enum { SP_MAX_PARAMS = 12 };

/* Bind args to the signature sig: comma-separated names, each optionally
 * followed by '=' (optional, default None); a name starting with '*' takes
 * the remaining positional arguments (bound as a tuple).  Python's rules
 * and messages. */
bool sp_bind_args(spec *s, const char *qual, const char *sig, const sp_args *a,
                  const ast_node *call, sval *out, int nout);

/* Bind into a local array, which must have a slot for every parameter. */
#define SP_BIND(s, qual, sig, a, call, out) \
    sp_bind_args(s, qual, sig, a, call, out, (int)(sizeof(out) / sizeof((out)[0])))

/* v as a tile slot (numbers become constant tiles); else an error naming
 * what. */
bool sp_want_tile(spec *s, sval v, const ast_node *at, const char *what, int32_t *slot);
/* A dtype (tl.float32, ...), or an error naming what. */
bool sp_want_dtype(spec *s, sval v, const ast_node *at, const char *what, dtype *dt);
bool sp_want_str(spec *s, sval v, const ast_node *at, const char *what, const char **str);
/* A static shape from a constant int, tuple or list of ints. */
bool sp_want_shape(spec *s, sval v, const ast_node *at, ir_type *t);
bool sp_want_pointer(spec *s, sval v, const ast_node *at, int32_t *slot);
/* An int1 mask tile, or -1 when absent or constant True. */
bool sp_want_mask(spec *s, sval v, const ast_node *at, int32_t *slot);
/* *slot cast to elem, the element type of the pointer a load's other or a
 * store's value goes through (semantic.py casts them implicitly), or an
 * error that names what when Triton has no such cast (int -> fp8). */
bool sp_mem_cast(spec *s, int32_t *slot, dtype elem, const ast_node *at, const char *what);
/* An error unless the broadcast of a and b to joined (for what: "tl.where",
 * "'+'") stays within Triton's limit on a tile's elements. */
bool sp_broadcast_fits(spec *s, const ir_type *a, const ir_type *b, const ir_type *joined,
                       const ast_node *at, const char *what);
/* The broadcast of shapes a and b (out may be either), or an error. */
bool sp_shapes_join(spec *s, const ir_type *a, const ir_type *b, ir_type *out,
                    const ast_node *at, const char *what);
/* A new slot of type t written by one instruction. */
sval sp_new_tile(spec *s, ir_type t, ir_opcode op, int sub, int32_t a, int32_t b,
                 int32_t c, int64_t imm, const ast_node *at);

/* Handlers: each binds its arguments and makes IR (or a constant). */
typedef bool sp_builtin_fn(spec *s, const sp_args *a, const ast_node *call, sval *out);

/* spec_shape.c */
sp_builtin_fn tl_program_id, tl_num_programs, tl_arange, tl_zeros, tl_full, tl_zeros_like,
    tl_expand_dims, tl_reshape, tl_broadcast_to, tl_trans, tl_join, tl_split, tl_interleave,
    tl_cat, tl_ravel, tl_flip, tl_gather, tl_histogram;
/* Helpers the reductions share: a RESHAPE of slot x to nt's shape (the
 * element counts must agree); a constant flag (None is False); a 2-tuple;
 * a FLIP of x along axis. */
bool sp_reshape_to(spec *s, int32_t x, ir_type nt, const ast_node *at, sval *out);
bool sp_const_flag(spec *s, sval v, const ast_node *at, const char *what, bool *out);
sval sp_pair(spec *s, sval a, sval b);
bool sp_flip_axis(spec *s, int32_t x, int64_t axis, const ast_node *at, int32_t *out);

/* spec_types.c: a dtype's attributes and query methods, a tile's type
 * (x.type) and its attributes, and the call of a query method (an
 * SV_METHOD with slot -1 whose result is its c). */
bool sp_dtype_attr(spec *s, dtype dt, const char *attr, const ast_node *at, sval *out);
bool sp_tile_type(spec *s, int32_t slot, sval *out);
bool sp_type_attr(spec *s, sval ty, const char *attr, const ast_node *at, sval *out);
bool sp_type_method_call(spec *s, sval m, const sp_args *a, const ast_node *call, sval *out);

/* spec_sort.c */
sp_builtin_fn tl_sort, tl_topk, tl_bitonic_merge;
/* spec_dotscaled.c */
sp_builtin_fn tl_dot_scaled;

/* spec_mem.c */
sp_builtin_fn tl_load, tl_store;

/* spec_math.c (tl_where and on are used by the other files too) */
sp_builtin_fn tl_dot, tl_minimum, tl_cdiv, triton_next_power_of_2, tl_swizzle2d, tl_fma,
    tl_fdiv, tl_div_rn, tl_clamp;
sp_builtin_fn tl_where, tl_maximum, tl_umulhi, tl_exp, tl_exp2, tl_log, tl_log2, tl_sqrt,
    tl_sqrt_rn, tl_rsqrt, tl_sin, tl_cos, tl_abs, tl_floor, tl_ceil, tl_erf, tl_sigmoid;
/* p[0] / p[1] on floats: fdiv, or div_rn when rn; fname names it. */
bool sp_float_div(spec *s, const char *fname, const sval *p, bool rn, const ast_node *call,
                  sval *out);

/* spec_reduce.c */
sp_builtin_fn tl_sum, tl_xor_sum, tl_reduce_or, tl_max, tl_min, tl_argmax, tl_argmin, tl_cumsum, tl_cumprod,
    tl_reduce, tl_associative_scan, tl_softmax;

/* spec_print.c */
sp_builtin_fn sp_builtin_print, util_print_if, util_breakpoint_if, sp_builtin_breakpoint,
    tl_device_print, tl_static_print, tl_static_assert, tl_device_assert;

/* spec_python.c */
sp_builtin_fn sp_builtin_min, sp_builtin_max, sp_builtin_len, sp_builtin_int, sp_builtin_float,
    sp_builtin_bool, sp_builtin_isinstance, util_host_only;

/* spec_random.c */
sp_builtin_fn tl_randint, tl_randint4x, tl_rand, tl_rand4x, tl_randn, tl_randn4x;

/* spec_atomic.c */
sp_builtin_fn tl_atomic_add, tl_atomic_max, tl_atomic_min, tl_atomic_xchg, tl_atomic_cas,
    tl_atomic_and, tl_atomic_or, tl_atomic_xor;

/* spec_libdevice.c: qual is a libdevice function's qualified name, in
 * either spelling (triton.language.extra[.cuda].libdevice.NAME);
 * sp_libdevice_name lists them (the first spelling), NULL past the end. */
bool sp_libdevice_has(const char *qual);
const char *sp_libdevice_name(int i);
bool sp_libdevice_call(spec *s, const char *qual, const sp_args *a, const ast_node *call,
                       sval *out);

/* spec_block.c; p are tl.load's / tl.store's bound arguments, p[0] a
 * block pointer. */
sp_builtin_fn tl_make_block_ptr, tl_advance;
bool sp_block_load(spec *s, const sval *p, const ast_node *call, sval *out);
bool sp_block_store(spec *s, const sval *p, const ast_node *call, sval *out);
/* The pointer tile and mask (-1: none) of block pointer bp (its items: base,
 * shape, strides, offsets): the mask checks the dimensions in the bits of
 * dims. */
bool sp_block_lower(spec *s, sval bp, unsigned dims, const ast_node *at, int32_t *ptr,
                    int32_t *mask);

/* spec_desc.c */
sp_builtin_fn tl_make_tensor_descriptor, tl_load_tensor_descriptor, tl_store_tensor_descriptor;

#endif
