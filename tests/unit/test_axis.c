/* test_axis.c - the last-axis facts of src/backend/common/axis.c on small
 * kernels built by hand: what the GPU emitter may stop testing at run
 * time (a chunk of lanes consecutive, its first address aligned), and,
 * as much, what it must keep testing. */
#include <stdbool.h>

#include "axis.h"
#include "irbuild.h"
#include "tap.h"

static axis_info facts[IRB_SLOTS];

static void analyse(irb *b)
{
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    TAP_OK(axis_analyse(&b->k, facts), "%s analysed", b->k.name);
}

static int param16(irb *b, const char *name, dtype dt, bool div16)
{
    int p = irb_param(b, name, dt);
    b->params[p].div16 = div16;
    return p;
}

/* (off + arange(256)) % n, then x_ptr (fp32) + that: with n and x_ptr
 * multiples of 16 (or not) and off a multiple of 256. */
static void wrapped(bool n16, bool x16)
{
    irb b;
    irb_init(&b, n16 ? (x16 ? "wrap_both" : "wrap_n") : (x16 ? "wrap_x" : "wrap_none"));
    int x = irb_arg(&b, param16(&b, "x_ptr", dtype_ptr_to(DTYPE_FP32), x16));
    int n = irb_arg(&b, param16(&b, "n", DTYPE_INT32, n16));
    int off = irb_bin(&b, IR_MUL, irb_pid(&b, 0), irb_const(&b, DTYPE_INT32, 256));
    int i = irb_bin(&b, IR_ADD, off, irb_arange(&b, 256));
    int w = irb_bin(&b, IR_MOD, i, n);
    int p = irb_ptr_add(&b, x, w);
    analyse(&b);
    TAP_OK(axis_chunks_step(&facts[i], 8, 1), "%s: off + arange is consecutive", b.k.name);
    TAP_OK(axis_div_at(&facts[i], 8) % 8 == 0, "%s: its chunks of 8 start at multiples of 8",
           b.k.name);
    TAP_OK(axis_chunks_step(&facts[w], 4, 1) == n16,
           "%s: (off + arange) %% n in chunks of 4 consecutive: %s", b.k.name,
           n16 ? "yes" : "not known");
    TAP_OK(axis_chunks_step(&facts[p], 4, 4) == n16,
           "%s: the pointers' chunks of 4 step by 4 bytes: %s", b.k.name, n16 ? "yes" : "not known");
    bool aligned = axis_div_at(&facts[p], 4) % 16 == 0;
    TAP_OK(aligned == (n16 && x16), "%s: the chunks' first addresses 16-byte aligned: %s",
           b.k.name, n16 && x16 ? "yes" : "not known");
    TAP_OK(!axis_chunks_step(&facts[w], 32, 1), "%s: but not in chunks of 32 (n may be 16)",
           b.k.name);
}

/* A loop's variable: k = 0, then k = k + step each round (COPY back). */
static void loop_var(int64_t step, int64_t want)
{
    irb b;
    irb_init(&b, "loop");
    int k = irb_slot(&b, DTYPE_INT32, 0, 0, 0);
    irb_emit(&b, IR_COPY, 0, k, irb_const(&b, DTYPE_INT32, 0), -1, -1, 0);
    int next = irb_bin(&b, IR_ADD, k, irb_const(&b, DTYPE_INT32, step));
    irb_emit(&b, IR_COPY, 0, k, next, -1, -1, 0);
    analyse(&b);
    TAP_OK(facts[k].div == want, "k += %lld: k divisible by %lld (got %lld)", (long long)step,
           (long long)want, (long long)facts[k].div);
}

/* Rows wrap (% M, M not a multiple of 16): constant along the last axis,
 * so a row's chunks are consecutive anyway; columns times a run-time
 * stride are not. */
static void rows_and_strides(void)
{
    irb b;
    irb_init(&b, "rows");
    int m = irb_arg(&b, param16(&b, "M", DTYPE_INT32, false));
    int s = irb_arg(&b, param16(&b, "stride", DTYPE_INT32, true));
    int rows = irb_bin(&b, IR_MOD, irb_arange(&b, 64), m);
    int r2 = irb_shape2(&b, IR_BROADCAST, irb_shape2(&b, IR_RESHAPE, rows, 64, 1), 64, 32);
    int rs = irb_bin(&b, IR_MUL, r2, irb_shape2(&b, IR_BROADCAST, s, 64, 32));
    int c = irb_shape2(&b, IR_BROADCAST, irb_shape2(&b, IR_RESHAPE, irb_arange(&b, 32), 1, 32),
                       64, 32);
    int off = irb_bin(&b, IR_ADD, rs, c);
    int cs = irb_bin(&b, IR_MUL, c, irb_shape2(&b, IR_BROADCAST, s, 64, 32));
    analyse(&b);
    TAP_OK(facts[r2].stride == 0 && facts[r2].run == AXIS_WHOLE,
           "a wrapped row index is equal along the row");
    TAP_OK(axis_div_at(&facts[rs], 1) == 16, "times a 16-divisible stride: multiples of 16");
    TAP_OK(axis_chunks_step(&facts[off], 8, 1) && axis_div_at(&facts[off], 8) == 8,
           "row * stride + column: chunks of 8 consecutive, starting at multiples of 8");
    TAP_OK(!axis_chunks_step(&facts[cs], 2, 1) && facts[cs].run == 1,
           "column * a run-time stride: nothing known of neighbours");
}

int main(void)
{
    wrapped(true, true);
    wrapped(true, false);
    wrapped(false, true);
    wrapped(false, false);
    loop_var(64, 64);
    loop_var(1, 1);
    loop_var(48, 16);
    rows_and_strides();
    return tap_done();
}
