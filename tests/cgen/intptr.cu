// ---- tritsim: CUDA source of scale (num_warps 1)
/* ---- pointers made from integers (cgen_abi.h: tk_amap) ---- */
struct tk_amap { unsigned long long host, bytes, dev; };
static_assert(sizeof(tk_amap) == 24, "tk_amap");
__device__ __forceinline__ unsigned int tk_tag(unsigned long long a,
    unsigned long long n)
{
  const unsigned int t = (unsigned int)(((a + (1ull << 47)) >> 48) & 0xffffu);
  return t != 0u && t <= n ? t : 0u;
}
__device__ __forceinline__ unsigned long long tk_p2i(unsigned long long a,
    unsigned long long n)
{ return a - ((unsigned long long)tk_tag(a, n) << 48); }
__device__ __noinline__ unsigned long long tk_i2p(unsigned long long a,
    const tk_amap *am, unsigned long long n)
{
  unsigned long long lo = 0, hi = n;
  while (lo < hi) {
    const unsigned long long mid = lo + (hi - lo) / 2;
    if (am[mid].host <= a) lo = mid + 1; else hi = mid;
  }
  if (lo == 0 || a - am[lo - 1].host > am[lo - 1].bytes) return a;
  return a + (lo << 48);
}
/* ---- end of pointers made from integers ---- */
extern "C" __global__ void __launch_bounds__(32)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, int p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, const tk_amap *__restrict__ tk_am, unsigned long long tk_nam)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok5;   /* 5: checked at 5 (cgen_check.c) */
bool tk_ok20;   /* 20: checked at 20 (cgen_check.c) */
bool tk_ok22;   /* 22: checked at 20 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
(void)tk_am; (void)tk_nam;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_i32 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_u64 s4; (void)s4;
tk_i64 s5; (void)s5;
tk_u64 s6; (void)s6;
tk_i32 s7[1]; (void)s7;
tk_u64 s8[1]; (void)s8;
bool s9[1]; (void)s9;
float s10; (void)s10;
float s11[1]; (void)s11;
tk_u64 s12[1]; (void)s12;
float s13; (void)s13;
float s14[1]; (void)s14;
bool s15[1]; (void)s15;
tk_u64 s16; (void)s16;
tk_i64 s17; (void)s17;
tk_u64 s18; (void)s18;
tk_i64 s19; (void)s19;
tk_i64 s20; (void)s20;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_i32)p2;
/* 3: program_id */
s3 = (tk_i32)blockIdx.x;
/* 4: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s4 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s3) * 8ull); }
/* 5: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h4b = (tk_u64)s4;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h4b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 8 - (tk_oh - tk_ol);
tk_ok5 = true && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 7ull) == 0));
}
if (!tk_ok5) {
  tk_ok5 = tk_find5(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s4);
  if (!tk_ok5) tk_bad = 1;
  tk_ok5 = !__syncthreads_or(!tk_ok5);
}
/* 5: load */
{ { const int r = 0, e = 0; (void)r; (void)e;
  {
const tk_u64 tk_a = s4;
bool tk_m = tk_ok5; (void)tk_m;
if (tk_m) s5 = ((tk_i64)(*(const tk_u64 *)(tk_a))); else s5 = ((tk_i64)0ll);
  }
}}
/* 6: cast */
{ const int r = 0, e = 0; (void)r; (void)e; s6 = tk_i2p(((tk_u64)(s5)), tk_am, tk_nam); }
/* 7: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s7[r] = (tk_i32)(0 + e);
  }
}}
/* 8: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s8[r] = ((tk_u64)(s6) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
  }
}}
/* 9: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s9[r] = ((((tk_i32)(0 + (e)))) < (s2));
  }
}}
/* 10: const */
s10 = (0x0p+0f);
/* 11: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
tk_u64 tk_a = ((tk_u64)(s6) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
bool tk_m = ((((tk_i32)(0 + (e)))) < (s2)); (void)tk_m;
const unsigned int tk_t = tk_tag(tk_a, tk_nam);
if (tk_t) {
  const tk_amap *tk_e = &tk_am[tk_t - 1u];
  const tk_u64 tk_h = tk_a - ((tk_u64)tk_t << 48), tk_b = tk_e->host;
  const tk_u64 tk_n = tk_e->bytes;
  if (tk_m && (tk_n < 4ull || tk_h - tk_b > tk_n - 4ull || (tk_h & 3ull) != 0)) {
    TK_NOTE(5, 11, e, tk_h, -1, (long long)tk_t - 1); tk_m = false;
  }
  tk_a = tk_e->dev + (tk_h - tk_b);
} else if (tk_m && !(false || tk_in(tk_a, tk_lo0, tk_hi0, 4) || tk_in(tk_a, tk_lo1, tk_hi1, 4))) {
  TK_NOTE(1, 11, e, tk_a, (tk_a >= tk_lo0 && tk_a < tk_hi0 ? 0 : tk_a >= tk_lo1 && tk_a < tk_hi1 ? 1 : -1), 0); tk_m = false;
}
if (tk_m) s11[r] = (*(const float *)(tk_a)); else s11[r] = s10;
  }
}}
/* 12: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s12[r] = ((tk_u64)(s6) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
  }
}}
/* 13: const */
s13 = (0x1p+1f);
/* 14: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s14[r] = __fmul_rn(s11[r], s13);
  }
}}
/* 15: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s15[r] = ((((tk_i32)(0 + (e)))) < (s2));
  }
}}
/* 16: store */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  if (tk_tid < 8)
  {
tk_u64 tk_a = ((tk_u64)(s6) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
bool tk_m = ((((tk_i32)(0 + (e)))) < (s2)); (void)tk_m;
const unsigned int tk_t = tk_tag(tk_a, tk_nam);
if (tk_t) {
  const tk_amap *tk_e = &tk_am[tk_t - 1u];
  const tk_u64 tk_h = tk_a - ((tk_u64)tk_t << 48), tk_b = tk_e->host;
  const tk_u64 tk_n = tk_e->bytes;
  if (tk_m && (tk_n < 4ull || tk_h - tk_b > tk_n - 4ull || (tk_h & 3ull) != 0)) {
    TK_NOTE(5, 16, e, tk_h, -1, (long long)tk_t - 1); tk_m = false;
  }
  tk_a = tk_e->dev + (tk_h - tk_b);
} else if (tk_m && !(false || tk_in(tk_a, tk_lo0, tk_hi0, 4) || tk_in(tk_a, tk_lo1, tk_hi1, 4))) {
  TK_NOTE(1, 16, e, tk_a, (tk_a >= tk_lo0 && tk_a < tk_hi0 ? 0 : tk_a >= tk_lo1 && tk_a < tk_hi1 ? 1 : -1), 0); tk_m = false;
}
if (tk_m) { *(float *)(tk_a) = (s14[r]); }
  }
}}
/* 17: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s16 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s3) * 8ull); }
/* 18: cast */
{ const int r = 0, e = 0; (void)r; (void)e; s17 = ((tk_i64)(tk_p2i(s6, tk_nam))); }
/* 19: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s18 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s3) * 8ull); }
/* 20: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h18b = (tk_u64)s18;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h18b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 8 - (tk_oh - tk_ol);
tk_ok20 = true && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 7ull) == 0));
}
if (!tk_ok20) {
  tk_ok20 = tk_find20(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s18);
  if (!tk_ok20) tk_bad = 1;
  tk_ok20 = !__syncthreads_or(!tk_ok20);
}
/* 22: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h16b = (tk_u64)s16;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h16b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 8 - (tk_oh - tk_ol);
tk_ok22 = true && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 7ull) == 0));
}
if (!tk_ok22) {
  tk_ok22 = tk_find22(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s16);
  if (!tk_ok22) tk_bad = 1;
  tk_ok22 = !__syncthreads_or(!tk_ok22);
}
/* 20: load */
__syncthreads();
{ { const int r = 0, e = 0; (void)r; (void)e;
  {
const tk_u64 tk_a = s18;
bool tk_m = tk_ok20; (void)tk_m;
if (tk_m) s19 = ((tk_i64)(*(const tk_u64 *)(tk_a))); else s19 = ((tk_i64)0ll);
  }
}}
/* 21: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s20 = ((tk_i64)((tk_u64)(s17) - (tk_u64)(s19))); }
/* 22: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s16;
bool tk_m = tk_ok22; (void)tk_m;
if (tk_m) { *(tk_u64 *)(tk_a) = ((tk_u64)(s20)); }
  }
}}
/* 23: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (32 threads, 0 bytes of shared memory)
