/* spec_random.c - tl.randint, tl.randint4x, tl.rand, tl.rand4x, tl.randn
 * and tl.randn4x: Triton 3.6's random.py, transcribed.
 *
 * Philox 4x32 with n_rounds rounds (10 by default).  randint4x makes the
 * counter (lo, hi, 0, 0) from the offset: lo = offset.to(tl.uint32) (a
 * value cast: truncated from 64 bits, sign- or zero-extended from 8 and
 * 16), hi = (offset >> 32).to(tl.uint32) for a 64-bit offset and 0
 * otherwise, so an int64 or uint64 offset uses all its 64 bits and the
 * results are uint32 whatever the offset's type.  The key is the seed
 * converted to uint64 and split into (low, high) 32-bit halves.  Each round
 * is
 *     c0, c2 = umulhi(B, c2) ^ c1 ^ k0, umulhi(A, c0) ^ c3 ^ k1
 *     c1, c3 = B * c2, A * c0;   k0 += KEY_A;  k1 += KEY_B
 * It is built from ordinary operations (sp_binop, tl.umulhi) rather than a
 * PHILOX opcode, so every step gets exactly the types Triton's own code
 * gets, and the GPU emitters need nothing new.  rand maps a uint32 u to
 * fp32 as uint_to_uniform_float's 32-bit branch does (the only one these
 * reach, since the results are uint32): i = bitcast int32,
 * i < 0 ? -i - 1 : i, times 4.6566127342e-10; randn is the cosine half of
 * Box-Muller on two uniforms.  The offset must be a tile (randint4x starts
 * with offset.to(tl.uint32)).  randint/rand are bit-exact with Triton;
 * randn depends on the libm's log, sqrt and cos (the GPU's are
 * approximations too). */
#include "spec_tl.h"

#include <string.h>

static const int64_t PHILOX_KEY_A = 0x9E3779B9, PHILOX_KEY_B = 0xBB67AE85,
                     PHILOX_ROUND_A = 0xD2511F53, PHILOX_ROUND_B = 0xCD9E8D57;

#define SP_BIN(op, x, y, out) sp_binop(s, AST_OP_##op, x, y, call, out)

static bool sp_bitcast_sv(spec *s, sval v, dtype dt, const ast_node *call, sval *out)
{
    int32_t x;
    if (!sp_want_tile(s, v, call, "a value", &x))
        return false;
    ir_type t = *sp_slot_type(s, x);
    if (t.dt == dt) {
        *out = sv_tile(x);
        return true;
    }
    t.dt = dt;
    *out = sp_new_tile(s, t, IR_BITCAST, 0, x, -1, -1, 0, call);
    return true;
}

static bool sp_umulhi2(spec *s, sval x, sval y, const ast_node *call, sval *out)
{
    sp_args a = {.argc = 2, .argv = (sval[]){x, y}};
    return tl_umulhi(s, &a, call, out);
}

/* randint4x's counter: (lo, hi, 0, 0), lo = offset.to(tl.uint32),
 * hi = (offset >> 32).to(tl.uint32) when the offset has more than 32 bits
 * (an arithmetic shift for int64, but only bits 32..63 survive either way),
 * else the zeros, lo * 0. */
static bool sp_philox_counter(spec *s, int32_t off, const ast_node *call, sval c[4])
{
    sval zero, hi;
    c[0] = sv_tile(sp_cast(s, off, DTYPE_UINT32, call));
    if (!SP_BIN(MUL, c[0], sv_int(0), &zero))
        return false;
    c[1] = c[2] = c[3] = zero;
    if (dtype_bits(sp_slot_type(s, off)->dt) <= 32)
        return true;
    if (!SP_BIN(RSHIFT, sv_tile(off), sv_int(32), &hi))
        return false;
    c[1] = sv_tile(sp_cast(s, hi.slot, DTYPE_UINT32, call));
    return true;
}

static bool sp_philox(spec *s, const char *qual, sval seed, sval offset, sval n_rounds,
                      const ast_node *call, sval c[4])
{
    int32_t sd, off;
    int64_t rounds = 10;
    if (offset.kind == SV_CONST) {
        /* Triton 3.6's randint4x (which all of these call) starts with
         * offset.to(tl.uint32): a Python number has no .to. */
        char nb[64];
        return sp_error(s, call, "the offset of %s must be a tile: Triton converts it with "
                        "offset.to(tl.uint32), which a constant does not have; use "
                        "tl.full((), N, tl.int32) or offsets from tl.arange",
                        sp_display_name(qual, nb, sizeof nb));
    }
    if (!sp_want_tile(s, seed, call, "the seed", &sd) ||
        !sp_want_tile(s, offset, call, "the offsets", &off))
        return false;
    if (!sv_is_none(n_rounds) && !sp_const_int(s, n_rounds, call, "n_rounds", &rounds))
        return false;
    if (rounds < 0 || rounds > 64)
        return sp_error(s, call, "n_rounds must be between 0 and 64, not %lld",
                        (long long)rounds);
    dtype sdt = sp_slot_type(s, sd)->dt, odt = sp_slot_type(s, off)->dt;
    if (!dtype_is_int(sdt) || dtype_is_ptr(sdt))
        return sp_error(s, call, "the seed must be an integer, not %s", dtype_name(sdt));
    if (!dtype_is_int(odt) || dtype_is_ptr(odt))
        return sp_error(s, call, "the offsets must be integers, not %s: tritsim takes no "
                        "float offsets (Triton would convert them with "
                        "offset.to(tl.uint32)); convert them with .to() first",
                        dtype_name(odt));
    sval t, k0, k1, seed64 = sv_tile(sp_cast(s, sd, DTYPE_UINT64, call));
    if (!SP_BIN(RSHIFT, seed64, sv_int(32), &t) ||
        !SP_BIN(BITAND, t, sv_int(0xffffffff), &t))
        return false;
    k1 = sv_tile(sp_cast(s, t.slot, DTYPE_UINT32, call));
    if (!SP_BIN(BITAND, seed64, sv_int(0xffffffff), &t))
        return false;
    k0 = sv_tile(sp_cast(s, t.slot, DTYPE_UINT32, call));
    if (!sp_philox_counter(s, off, call, c))
        return false;
    sval A = sv_int(PHILOX_ROUND_A), B = sv_int(PHILOX_ROUND_B);
    for (int64_t r = 0; r < rounds; r++) {
        sval c0 = c[0], c2 = c[2], h;
        bool ok = sp_umulhi2(s, B, c2, call, &h) && SP_BIN(BITXOR, h, c[1], &h) &&
                  SP_BIN(BITXOR, h, k0, &c[0]) &&
                  sp_umulhi2(s, A, c0, call, &h) && SP_BIN(BITXOR, h, c[3], &h) &&
                  SP_BIN(BITXOR, h, k1, &c[2]) &&
                  SP_BIN(MUL, B, c2, &c[1]) && SP_BIN(MUL, A, c0, &c[3]) &&
                  SP_BIN(ADD, k0, sv_int(PHILOX_KEY_A), &k0) &&
                  SP_BIN(ADD, k1, sv_int(PHILOX_KEY_B), &k1);
        if (!ok)
            return false;
    }
    return true;
}

/* uint_to_uniform_float for 32-bit sources. */
static bool sp_uniform(spec *s, sval x, const ast_node *call, sval *out)
{
    sval neg, lt, alt;
    if (!sp_bitcast_sv(s, x, DTYPE_INT32, call, &x) ||
        !SP_BIN(LT, x, sv_int(0), &lt) || !sp_unop(s, AST_OP_USUB, x, call, &neg) ||
        !SP_BIN(SUB, neg, sv_int(1), &alt))
        return false;
    sp_args w = {.argc = 3, .argv = (sval[]){lt, alt, x}};
    spec_const scale = {.kind = SC_FLOAT, .u.f = 4.6566127342e-10};
    return tl_where(s, &w, call, &x) && SP_BIN(MUL, x, sv_const(scale), out);
}

/* pair_uniform_to_normal: (r cos th, r sin th). */
static bool sp_box_muller(spec *s, sval u1, sval u2, const ast_node *call, sval out[2])
{
    spec_const tiny = {.kind = SC_FLOAT, .u.f = 1.0e-7};
    spec_const two_pi = {.kind = SC_FLOAT, .u.f = 6.283185307179586};
    spec_const m2 = {.kind = SC_FLOAT, .u.f = -2.0};
    sval th, r, cs, sn;
    sp_args mx = {.argc = 2, .argv = (sval[]){sv_const(tiny), u1}};
    if (!tl_maximum(s, &mx, call, &u1) || !SP_BIN(MUL, sv_const(two_pi), u2, &th))
        return false;
    sp_args l = {.argc = 1, .argv = &u1};
    if (!tl_log(s, &l, call, &r) || !SP_BIN(MUL, sv_const(m2), r, &r))
        return false;
    sp_args q = {.argc = 1, .argv = &r}, t = {.argc = 1, .argv = &th};
    return tl_sqrt(s, &q, call, &r) && tl_cos(s, &t, call, &cs) && tl_sin(s, &t, call, &sn) &&
           SP_BIN(MUL, r, cs, &out[0]) && SP_BIN(MUL, r, sn, &out[1]);
}

static sval sp_tuple4(spec *s, const sval *v)
{
    sval r = {.kind = SV_TUPLE, .n = 4, .slot = -1};
    r.items = arena_alloc(s->a, 4 * sizeof *r.items);
    memcpy(r.items, v, 4 * sizeof *v);
    return r;
}

#define SP_RANDOM_ARGS(qual) \
    sval p[3], c[4]; \
    if (!SP_BIND(s, qual, "seed, offset, n_rounds=", a, call, p) || \
        !sp_philox(s, qual, p[0], p[1], p[2], call, c)) \
        return false

bool tl_randint4x(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.randint4x");
    *out = sp_tuple4(s, c);
    return true;
}

bool tl_randint(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.randint");
    *out = c[0];
    return true;
}

bool tl_rand(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.rand");
    return sp_uniform(s, c[0], call, out);
}

bool tl_rand4x(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.rand4x");
    for (int i = 0; i < 4; i++)
        if (!sp_uniform(s, c[i], call, &c[i]))
            return false;
    *out = sp_tuple4(s, c);
    return true;
}

bool tl_randn(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.randn");
    sval n[2];
    if (!sp_uniform(s, c[0], call, &c[0]) || !sp_uniform(s, c[1], call, &c[1]) ||
        !sp_box_muller(s, c[0], c[1], call, n))
        return false;
    *out = n[0];
    return true;
}

bool tl_randn4x(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    SP_RANDOM_ARGS("triton.language.randn4x");
    sval n[4];
    for (int i = 0; i < 4; i++)
        if (!sp_uniform(s, c[i], call, &c[i]))
            return false;
    if (!sp_box_muller(s, c[0], c[1], call, n) || !sp_box_muller(s, c[2], c[3], call, n + 2))
        return false;
    *out = sp_tuple4(s, n);
    return true;
}
#undef SP_RANDOM_ARGS
