// ---- tritsim: CUDA source of show (num_warps 1)
extern "C" __global__ void __launch_bounds__(32)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok4;   /* 4: checked at 1 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
tk_u64 s0; (void)s0;
tk_i32 s1; (void)s1;
tk_i32 s2[1]; (void)s2;
tk_u64 s3[1]; (void)s3;
tk_i32 s4[1]; (void)s4;
tk_i32 s5; (void)s5;
bool s6[1]; (void)s6;
unsigned int tk_seq = 0, tk_pslot = 0; (void)tk_pslot;
__shared__ unsigned long long tk_print_at[2]; (void)tk_print_at;
/* 0: arg */
s0 = (tk_u64)p0;
/* 4: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h0b = (tk_u64)s0;
TK_MU const tk_i64 tk_h2b = 0ll, tk_h2n = tk_h2b, tk_h2x = tk_h2b + 3ll;
TK_MU const tk_u64 tk_h3b = tk_h0b + (tk_u64)tk_h2b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h3b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_ok4 = true && tk_h2n >= -1073741824ll && tk_h2x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok4) {
  tk_ok4 = tk_find4(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s0);
  if (!tk_ok4) tk_bad = 1;
  tk_ok4 = !__syncthreads_or(!tk_ok4);
}
/* 1: program_id */
s1 = (tk_i32)blockIdx.x;
/* 2: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s2[r] = (tk_i32)(0 + e);
  }
}}
/* 3: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s3[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
  }
}}
/* 4: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
bool tk_m = tk_ok4; (void)tk_m;
if (tk_m) s4[r] = ((tk_i32)(*(const tk_u32 *)(tk_a))); else s4[r] = ((tk_i32)0ll);
  }
}}
/* 5: print */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
if (true) {
if (tk_tid == 0) {
  const unsigned long long tk_o = atomicAdd(&tk_rt_p->print_used, 48ull);
  tk_print_at[tk_pslot] = tk_o;
  unsigned char *tk_p = tk_rt_p->print_buf + tk_o;
  if (tk_o + 8ull <= tk_rt_p->print_cap) *(unsigned int *)tk_p = 48u;
  if (tk_o + 48ull <= tk_rt_p->print_cap) {
    unsigned int *tk_h = (unsigned int *)tk_p;
    tk_h[1] = 5u; tk_h[2] = blockIdx.x; tk_h[3] = blockIdx.y; tk_h[4] = blockIdx.z; tk_h[5] = tk_seq;
*(tk_u32 *)(tk_p + 24) = ((tk_u32)(s1));
  }
}
__syncthreads();
{
const unsigned long long tk_o = tk_print_at[tk_pslot];
tk_pslot ^= 1u;
if (tk_o + 48ull <= tk_rt_p->print_cap) {
unsigned char *tk_p = tk_rt_p->print_buf + tk_o;
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  if (tk_tid < 4)
  {
*(tk_u32 *)(tk_p + 32 + (tk_u64)e * 4) = ((tk_u32)(s4[r]));
  }
}}
}
}
tk_seq++;
}
/* 6: const */
s5 = ((tk_i32)4ll);
/* 7: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s6[r] = ((s4[r]) < (s5));
  }
}}
/* 8: assert */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  if (tk_tid < 4)
  {
if (!(s6[r])) TK_NOTE(2, 8, e, 0, -1, 0);
  }
}}
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
/* 9: return */
return;
}
// ---- end (32 threads, 0 bytes of shared memory)
