// ---- tritsim: CUDA source of mm (num_warps 2)
extern "C" __global__ void __launch_bounds__(64)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, int p3, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
bool tk_pf34 = false;   /* its operands are loaded already */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
unsigned int tk_all = ~0u;   /* a bit for each access whose test at the entry passed (cg_emit_entry_checks) */
bool tk_ok52;   /* 52: checked at 46 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
(void)tk_lo2; (void)tk_hi2; (void)tk_c2;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_u64 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_i32 s4[1]; (void)s4;
tk_i32 s5[1]; (void)s5;
tk_i32 s6[1]; (void)s6;
tk_i32 s7[1]; (void)s7;
tk_i32 s8[1]; (void)s8;
tk_u64 s9[1]; (void)s9;
tk_i32 s10[1]; (void)s10;
tk_u64 s11[8]; (void)s11;
tk_i32 s12[8]; (void)s12;
tk_u64 s13[8]; (void)s13;
tk_i32 s14[1]; (void)s14;
tk_i32 s15; (void)s15;
tk_i32 s16[1]; (void)s16;
tk_u64 s17[1]; (void)s17;
tk_i32 s18[1]; (void)s18;
tk_u64 s19[8]; (void)s19;
tk_i32 s20[8]; (void)s20;
tk_u64 s21[8]; (void)s21;
float s22[16]; (void)s22;
tk_i32 s23; (void)s23;
tk_i32 s24; (void)s24;
float s25[16]; (void)s25;
tk_i64 s26_d; (void)s26_d;   /* base: s13 */
tk_i64 s27_d; (void)s27_d;   /* base: s21 */
tk_i32 s28; (void)s28;
bool s29; (void)s29;
float s30[8]; (void)s30;
float s31[8]; (void)s31;
float s33[16]; (void)s33;
tk_i32 s34; (void)s34;
tk_i64 s35_d; (void)s35_d;   /* base: s13 */
tk_i32 s36; (void)s36;
tk_i64 s37_d; (void)s37_d;   /* base: s21 */
tk_i32 s38[1]; (void)s38;
tk_i32 s39; (void)s39;
tk_i32 s40[1]; (void)s40;
tk_u64 s41[1]; (void)s41;
tk_i32 s42[1]; (void)s42;
tk_u64 s43[16]; (void)s43;
tk_i32 s44[16]; (void)s44;
tk_u64 s45[16]; (void)s45;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_i32)p3;
/* 4: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s4[r] = (tk_i32)(0 + e);
  }
}}
/* 5: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s5[r] = (tk_i32)(0 + e);
  }
}}
/* 6: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s6[r] = (tk_i32)(0 + e);
  }
}}
/* 7: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s7[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 8: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s8[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s3)));
  }
}}
/* 9: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s9[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s3)))) * 4ull);
  }
}}
/* 10: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s10[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 11: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s3)))) * 4ull);
  }
}}
/* 12: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s12[r] = ((tk_i32)(0 + ((((e) % 16)))));
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s13[r] = ((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s3)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 16)))))) * 4ull);
  }
}}
/* 14: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s14[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 15: const */
s15 = ((tk_i32)32ll);
/* 16: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s16[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s15)));
  }
}}
/* 17: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s17[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s15)))) * 4ull);
  }
}}
/* 18: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s18[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 19: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s19[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s15)))) * 4ull);
  }
}}
/* 20: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s20[r] = ((tk_i32)(0 + ((((e) % 32)))));
  }
}}
/* 21: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s21[r] = ((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s15)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 4ull);
  }
}}
/* 22: const */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s22[r] = (0x0p+0f);
  }
}}
/* 23: const */
s23 = ((tk_i32)0ll);
/* 24: const */
s24 = ((tk_i32)16ll);
/* 25: copy */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s25[r] = (0x0p+0f);
  }
}}
/* 26: copy */
s26_d = 0;
/* 27: copy */
s27_d = 0;
/* 28: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s28 = s23; }
/* the accesses of whole loops, tested for all their rounds at the kernel's entry (cgen_check.c) */
{
__shared__ unsigned int tk_alls;
if (tk_tid == 0) {
unsigned int tk_all = ~0u;
{
bool tk_wok = true;
bool tk_w52 = tk_wok;
{ /* 52 */
const tk_i32 s39 = ((tk_i32)32ll);
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h4b = 0ll, tk_h4n = tk_h4b, tk_h4x = tk_h4b + 31ll;
TK_MU const tk_i64 tk_h38b = tk_h4b;
TK_MU const tk_i64 tk_h38n = tk_h4n, tk_h38x = tk_h4x;
TK_MU const tk_i64 tk_h39b = (tk_i64)s39, tk_h39n = tk_h39b, tk_h39x = tk_h39b;
TK_MU const tk_i64 tk_h40b = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38b);
TK_MU const tk_i64 tk_h40p = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38n), tk_h40q = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38x);
TK_MU const tk_i64 tk_h40n = tk_h40p < tk_h40q ? tk_h40p : tk_h40q, tk_h40x = tk_h40p < tk_h40q ? tk_h40q : tk_h40p;
TK_MU const tk_u64 tk_h41b = tk_h2b + (tk_u64)tk_h40b * 4ull;
TK_MU const tk_u64 tk_h43b = tk_h41b;
TK_MU const tk_i64 tk_h5b = 0ll, tk_h5n = tk_h5b, tk_h5x = tk_h5b + 31ll;
TK_MU const tk_i64 tk_h42b = tk_h5b;
TK_MU const tk_i64 tk_h42n = tk_h5n, tk_h42x = tk_h5x;
TK_MU const tk_i64 tk_h44b = tk_h42b;
TK_MU const tk_i64 tk_h44n = tk_h42n, tk_h44x = tk_h42x;
TK_MU const tk_u64 tk_h45b = tk_h43b + (tk_u64)tk_h44b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 32ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)128ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)128ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 32ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h45b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_w52 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w52 &= !!(tk_h4n >= -1073741824ll);
tk_w52 &= !!(tk_h4x <= 1073741824ll);
tk_w52 &= !!(tk_h39n >= -1073741824ll);
tk_w52 &= !!(tk_h39x <= 1073741824ll);
tk_w52 &= !!(tk_h38n >= -1073741824ll);
tk_w52 &= !!(tk_h38x <= 1073741824ll);
tk_w52 &= !!(tk_h40n >= -1073741824ll);
tk_w52 &= !!(tk_h40x <= 1073741824ll);
tk_w52 &= !!(tk_h5n >= -1073741824ll);
tk_w52 &= !!(tk_h5x <= 1073741824ll);
}
}
if (!tk_w52) tk_all &= ~0x1u;
}
tk_alls = tk_all;
}
__syncthreads();
tk_all = tk_alls;
}
/* 31: load's chunks, before its loop */
tk_u64 tk_cb31[2];
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s3)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 16)))))) * 4ull));
tk_cb31[c] = tk_a0;
}}
/* 32: load's chunks, before its loop */
tk_u64 tk_cb32[2];
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 32)))))) * (tk_u32)(s15)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 32)))))) * 4ull));
tk_cb32[c] = tk_a0;
}}
L29:;
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
/* 30: branch */
if (!(s29)) goto L44;
if (!tk_pf34) {
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 - tk_lo0 < tk_c0;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
  s30[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s30[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s30[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s30[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s3)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 16)))))) * 4ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 4)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s30[r] = (*(const float *)(tk_a)); else s30[r] = (0x0p+0f);
}}}}
}
if (!tk_pf34) {
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 - tk_lo1 < tk_c1;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
  s31[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s31[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s31[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s31[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s15)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 4ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 4)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
if (tk_m) s31[r] = (*(const float *)(tk_a)); else s31[r] = (0x0p+0f);
}}}}
}
/* 34: dot, pipelined (cgen_pipe.c): its operands into shared memory, the loop's tail, the next round's loads, then the arithmetic */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
{ const int tk_k = (int)((e) % 16), tk_p = (int)(((e) / 16) % 8 * 4 + (e) / 128);
  ((float *)tk_smem)[tk_k * 32 + (((tk_p >> 2) ^ ((tk_k >> 2) & 7)) << 2) + (tk_p & 3)] = (s30[r]); }
  }
}}
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
((float *)(tk_smem + 2048))[e] = (s31[r]);
  }
}}
__syncthreads();
/* 35: const */
s34 = ((tk_i32)16ll);
/* 36: ptr_add */
s35_d = (tk_i64)((tk_u64)(s26_d) + (tk_u64)(tk_i64)(s34) * 4ull);
/* 37: const */
s36 = ((tk_i32)512ll);
/* 38: ptr_add */
s37_d = (tk_i64)((tk_u64)(s27_d) + (tk_u64)(tk_i64)(s36) * 4ull);
/* 40: copy */
s26_d = s35_d;
/* 41: copy */
s27_d = s37_d;
/* 42: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s28 = ((tk_i32)((tk_u32)(s28) + (tk_u32)(s24))); }
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
tk_pf34 = s29 != 0;
if (tk_pf34) {
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 - tk_lo0 < tk_c0;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
  s30[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s30[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s30[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s30[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s3)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 16)))))) * 4ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 4)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s30[r] = (*(const float *)(tk_a)); else s30[r] = (0x0p+0f);
}}}}
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 - tk_lo1 < tk_c1;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
  s31[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s31[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s31[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s31[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s15)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 4ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 4)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
if (tk_m) s31[r] = (*(const float *)(tk_a)); else s31[r] = (0x0p+0f);
}}}}
}
/* 34: dot */
{
const float *tk_A = (const float *)tk_smem;
const float *tk_B = (const float *)(tk_smem + 2048);
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
(void)0;
  }
}}
const int tk_col = (tk_tid * 4) % 32;
const int tk_q = (tk_tid * 4) / 32;
#pragma unroll 4
for (int k = 0; k < 16; k++) {
  const float *tk_ak = tk_A + k * 32;
  const int tk_wq = tk_q * 1, tk_sw = (k >> 2) & 7;
  float tk_bv[4];
  { const float4 tk_w = *(const float4 *)(tk_B + k * 32 + tk_col); tk_bv[0] = tk_w.x; tk_bv[1] = tk_w.y; tk_bv[2] = tk_w.z; tk_bv[3] = tk_w.w; }
#pragma unroll
  for (int c4 = 0; c4 < 1; c4++) {
    const float4 tk_w = *(const float4 *)(tk_ak + (((tk_wq + c4) ^ tk_sw) << 2));
    const float tk_av[4] = {tk_w.x, tk_w.y, tk_w.z, tk_w.w};
#pragma unroll
    for (int c = 0; c < 4; c++)
#pragma unroll
      for (int v = 0; v < 4; v++)
        s25[(c4 * 4 + c) * 4 + v] = __fmaf_rn(tk_av[c], tk_bv[v], s25[(c4 * 4 + c) * 4 + v]);
  }
}
}
/* 43: jump */
tk_ep++;
goto L29;
L44:;
/* 44: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s38[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 45: const */
s39 = ((tk_i32)32ll);
/* 52: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok52 = (tk_all >> 0) & 1u;
if (!tk_ok52) {
  tk_ok52 = tk_find52(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s39);
  if (!tk_ok52) tk_bad = 1;
  tk_ok52 = !__syncthreads_or(!tk_ok52);
}
/* 46: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s40[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s39)));
  }
}}
/* 47: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s41[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s39)))) * 4ull);
  }
}}
/* 48: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s42[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 49: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s43[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s39)))) * 4ull);
  }
}}
/* 50: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s44[r] = ((tk_i32)(0 + ((((e) % 32)))));
  }
}}
/* 51: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 64 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s45[r] = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s39)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 4ull);
  }
}}
/* 52: store */
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int r0 = c * 4, e0 = (c * 64 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 32)))))) * (tk_u32)(s39)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 32)))))) * 4ull);
bool tk_v = tk_ok52;
if (tk_v) {
  uint4 tk_w;
  tk_w.x = (unsigned int)(((tk_u32)(tk_f2u(s25[r0 + 0]))));
  tk_w.y = (unsigned int)(((tk_u32)(tk_f2u(s25[r0 + 1]))));
  tk_w.z = (unsigned int)(((tk_u32)(tk_f2u(s25[r0 + 2]))));
  tk_w.w = (unsigned int)(((tk_u32)(tk_f2u(s25[r0 + 3]))));
  *(uint4 *)tk_a0 = tk_w;
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 4ull;
bool tk_m = tk_ok52; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s25[r]); }
}}}}
/* 53: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (64 threads, 4096 bytes of shared memory)
