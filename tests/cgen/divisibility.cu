// ---- tritsim: CUDA source of wrap_copy (num_warps 4)
extern "C" __global__ void __launch_bounds__(128)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, int p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok12;   /* 12: checked at 11 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_i32 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_i32 s5; (void)s5;
tk_i32 s6[4]; (void)s6;
tk_i32 s7[4]; (void)s7;
tk_i32 s8[4]; (void)s8;
tk_u64 s9[4]; (void)s9;
float s10[4]; (void)s10;
tk_u64 s11[4]; (void)s11;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_i32)p2;
/* 3: program_id */
s3 = (tk_i32)blockIdx.x;
/* 4: const */
s4 = ((tk_i32)512ll);
/* 5: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s5 = ((tk_i32)((tk_u32)(s3) * (tk_u32)(s4))); }
/* 6: arange */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s6[r] = (tk_i32)(0 + e);
  }
}}
/* 7: binary */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s7[r] = ((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 8: binary */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s8[r] = ((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))), (tk_i32)(s2)));
  }
}}
/* 9: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s9[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))), (tk_i32)(s2)))) * 4ull);
  }
}}
/* 10: load */
{
bool tk_vs[1];
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0))))))), (tk_i32)(s2)))) * 4ull);
bool tk_v = tk_a0 - tk_lo0 < tk_c0;
uint4 tk_w = make_uint4(0u, 0u, 0u, 0u);
if (tk_v) tk_w = *(const uint4 *)tk_a0;
  s10[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s10[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s10[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s10[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 1; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0))))))), (tk_i32)(s2)))) * 4ull)) + (tk_u64)v * 4ull;
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 4)) {
  TK_NOTE(1, 10, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s10[r] = (*(const float *)(tk_a)); else s10[r] = (0x0p+0f);
}}}}
/* 12: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h1b = (tk_u64)s1;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h6b = 0ll, tk_h6n = tk_h6b, tk_h6x = tk_h6b + 511ll;
TK_MU const tk_i64 tk_h7b = (tk_i64)((tk_u64)tk_h5b + (tk_u64)tk_h6b);
TK_MU const tk_i64 tk_h7n = (tk_i64)((tk_u64)tk_h5n + (tk_u64)tk_h6n), tk_h7x = (tk_i64)((tk_u64)tk_h5x + (tk_u64)tk_h6x);
TK_MU const tk_u64 tk_h11b = tk_h1b + (tk_u64)tk_h7b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 512ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h11b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_ok12 = true && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok12) {
  tk_ok12 = tk_find12(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s1, s5);
  if (!tk_ok12) tk_bad = 1;
  tk_ok12 = !__syncthreads_or(!tk_ok12);
}
/* 11: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))) * 4ull);
  }
}}
/* 12: store */
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0))))))) * 4ull);
bool tk_v = tk_ok12;
if (tk_v) {
  uint4 tk_w;
  tk_w.x = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 0]))));
  tk_w.y = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 1]))));
  tk_w.z = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 2]))));
  tk_w.w = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 3]))));
  *(uint4 *)tk_a0 = tk_w;
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 4ull;
bool tk_m = tk_ok12; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s10[r]); }
}}}}
/* 13: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (128 threads, 0 bytes of shared memory)
// ---- tritsim: CUDA source of wrap_copy (num_warps 4)
extern "C" __global__ void __launch_bounds__(128)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, int p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok12;   /* 12: checked at 11 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_i32 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_i32 s5; (void)s5;
tk_i32 s6[4]; (void)s6;
tk_i32 s7[4]; (void)s7;
tk_i32 s8[4]; (void)s8;
tk_u64 s9[4]; (void)s9;
float s10[4]; (void)s10;
tk_u64 s11[4]; (void)s11;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_i32)p2;
/* 3: program_id */
s3 = (tk_i32)blockIdx.x;
/* 4: const */
s4 = ((tk_i32)512ll);
/* 5: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s5 = ((tk_i32)((tk_u32)(s3) * (tk_u32)(s4))); }
/* 6: arange */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s6[r] = (tk_i32)(0 + e);
  }
}}
/* 7: binary */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s7[r] = ((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 8: binary */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s8[r] = ((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))), (tk_i32)(s2)));
  }
}}
/* 9: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s9[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))), (tk_i32)(s2)))) * 4ull);
  }
}}
/* 10: load */
{
bool tk_vs[1];
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0))))))), (tk_i32)(s2)))) * 4ull);
bool tk_v = (tk_a0 & 15ull) == 0 && ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0 + 1))))))), (tk_i32)(s2)))) * 4ull) == tk_a0 + 4 && ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0 + 2))))))), (tk_i32)(s2)))) * 4ull) == tk_a0 + 8 && ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0 + 3))))))), (tk_i32)(s2)))) * 4ull) == tk_a0 + 12 && tk_a0 - tk_lo0 < tk_c0;
uint4 tk_w = make_uint4(0u, 0u, 0u, 0u);
if (tk_v) tk_w = *(const uint4 *)tk_a0;
  s10[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s10[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s10[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s10[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 1; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)tk_mod_i32((tk_i32)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))), (tk_i32)(s2)))) * 4ull);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 4)) {
  TK_NOTE(1, 10, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s10[r] = (*(const float *)(tk_a)); else s10[r] = (0x0p+0f);
}}}}
/* 12: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h1b = (tk_u64)s1;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h6b = 0ll, tk_h6n = tk_h6b, tk_h6x = tk_h6b + 511ll;
TK_MU const tk_i64 tk_h7b = (tk_i64)((tk_u64)tk_h5b + (tk_u64)tk_h6b);
TK_MU const tk_i64 tk_h7n = (tk_i64)((tk_u64)tk_h5n + (tk_u64)tk_h6n), tk_h7x = (tk_i64)((tk_u64)tk_h5x + (tk_u64)tk_h6x);
TK_MU const tk_u64 tk_h11b = tk_h1b + (tk_u64)tk_h7b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 512ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h11b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_ok12 = true && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok12) {
  tk_ok12 = tk_find12(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s1, s5);
  if (!tk_ok12) tk_bad = 1;
  tk_ok12 = !__syncthreads_or(!tk_ok12);
}
/* 11: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e))))))) * 4ull);
  }
}}
/* 12: store */
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(s5) + (tk_u32)(((tk_i32)(0 + (e0))))))) * 4ull);
bool tk_v = tk_ok12;
if (tk_v) {
  uint4 tk_w;
  tk_w.x = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 0]))));
  tk_w.y = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 1]))));
  tk_w.z = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 2]))));
  tk_w.w = (unsigned int)(((tk_u32)(tk_f2u(s10[r0 + 3]))));
  *(uint4 *)tk_a0 = tk_w;
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 4ull;
bool tk_m = tk_ok12; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s10[r]); }
}}}}
/* 13: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (128 threads, 0 bytes of shared memory)
