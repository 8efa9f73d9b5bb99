// ---- tritsim: HIP source of mm (num_warps 4)
extern "C" __global__ void __launch_bounds__(256)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, int p3, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
bool tk_pf33 = false;   /* its operands are loaded already */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
unsigned int tk_all = ~0u;   /* a bit for each access whose test at the entry passed (cg_emit_entry_checks) */
bool tk_ok51;   /* 51: checked at 45 (cgen_check.c) */
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
float s32[16]; (void)s32;
tk_i32 s33; (void)s33;
tk_i64 s34_d; (void)s34_d;   /* base: s13 */
tk_i32 s35; (void)s35;
tk_i64 s36_d; (void)s36_d;   /* base: s21 */
tk_i32 s37[1]; (void)s37;
tk_i32 s38; (void)s38;
tk_i32 s39[1]; (void)s39;
tk_u64 s40[1]; (void)s40;
tk_i32 s41[1]; (void)s41;
tk_u64 s42[16]; (void)s42;
tk_i32 s43[16]; (void)s43;
tk_u64 s44[16]; (void)s44;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_i32)p3;
/* 4: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s4[r] = (tk_i32)(0 + e);
  }
}}
/* 5: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s5[r] = (tk_i32)(0 + e);
  }
}}
/* 6: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s6[r] = (tk_i32)(0 + e);
  }
}}
/* 7: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s7[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 8: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s8[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s3)));
  }
}}
/* 9: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s9[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s3)))) * 2ull);
  }
}}
/* 10: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s10[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 11: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull);
  }
}}
/* 12: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s12[r] = ((tk_i32)(0 + ((((e) % 32)))));
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s13[r] = ((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 2ull);
  }
}}
/* 14: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s14[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 15: const */
s15 = ((tk_i32)64ll);
/* 16: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s16[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s15)));
  }
}}
/* 17: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 32));
  (void)r; (void)e;
  {
s17[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s15)))) * 2ull);
  }
}}
/* 18: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s18[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 19: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s19[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull);
  }
}}
/* 20: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s20[r] = ((tk_i32)(0 + ((((e) % 64)))));
  }
}}
/* 21: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s21[r] = ((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull);
  }
}}
/* 22: const */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((tk_tid / 128 * 32 + r / 16 * 32 + r / 4 % 4 * 8 + tk_tid / 32 % 2 * 4 + r % 4) * 64 + (tk_tid / 64 % 2 * 32 + tk_tid % 32)); (void)e;
  {
s22[r] = (0x0p+0f);
  }
}}
/* 23: const */
s23 = ((tk_i32)0ll);
/* 24: const */
s24 = ((tk_i32)32ll);
/* 25: copy */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((tk_tid / 128 * 32 + r / 16 * 32 + r / 4 % 4 * 8 + tk_tid / 32 % 2 * 4 + r % 4) * 64 + (tk_tid / 64 % 2 * 32 + tk_tid % 32)); (void)e;
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
bool tk_w51 = tk_wok;
{ /* 51 */
const tk_i32 s38 = ((tk_i32)64ll);
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h4b = 0ll, tk_h4n = tk_h4b, tk_h4x = tk_h4b + 63ll;
TK_MU const tk_i64 tk_h37b = tk_h4b;
TK_MU const tk_i64 tk_h37n = tk_h4n, tk_h37x = tk_h4x;
TK_MU const tk_i64 tk_h38b = (tk_i64)s38, tk_h38n = tk_h38b, tk_h38x = tk_h38b;
TK_MU const tk_i64 tk_h39b = (tk_i64)((tk_u64)tk_h38b * (tk_u64)tk_h37b);
TK_MU const tk_i64 tk_h39p = (tk_i64)((tk_u64)tk_h38b * (tk_u64)tk_h37n), tk_h39q = (tk_i64)((tk_u64)tk_h38b * (tk_u64)tk_h37x);
TK_MU const tk_i64 tk_h39n = tk_h39p < tk_h39q ? tk_h39p : tk_h39q, tk_h39x = tk_h39p < tk_h39q ? tk_h39q : tk_h39p;
TK_MU const tk_u64 tk_h40b = tk_h2b + (tk_u64)tk_h39b * 4ull;
TK_MU const tk_u64 tk_h42b = tk_h40b;
TK_MU const tk_i64 tk_h5b = 0ll, tk_h5n = tk_h5b, tk_h5x = tk_h5b + 63ll;
TK_MU const tk_i64 tk_h41b = tk_h5b;
TK_MU const tk_i64 tk_h41n = tk_h5n, tk_h41x = tk_h5x;
TK_MU const tk_i64 tk_h43b = tk_h41b;
TK_MU const tk_i64 tk_h43n = tk_h41n, tk_h43x = tk_h41x;
TK_MU const tk_u64 tk_h44b = tk_h42b + (tk_u64)tk_h43b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 64ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)256ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)256ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 64ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h44b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_w51 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w51 &= !!(tk_h4n >= -1073741824ll);
tk_w51 &= !!(tk_h4x <= 1073741824ll);
tk_w51 &= !!(tk_h38n >= -1073741824ll);
tk_w51 &= !!(tk_h38x <= 1073741824ll);
tk_w51 &= !!(tk_h37n >= -1073741824ll);
tk_w51 &= !!(tk_h37x <= 1073741824ll);
tk_w51 &= !!(tk_h39n >= -1073741824ll);
tk_w51 &= !!(tk_h39x <= 1073741824ll);
tk_w51 &= !!(tk_h5n >= -1073741824ll);
tk_w51 &= !!(tk_h5x <= 1073741824ll);
}
}
if (!tk_w51) tk_all &= ~0x1u;
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
const int e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 32)))))) * 2ull));
tk_cb31[c] = tk_a0;
}}
/* 32: load's chunks, before its loop */
tk_u64 tk_cb32[2];
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 64)))))) * 2ull));
tk_cb32[c] = tk_a0;
}}
L29:;
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
/* 30: branch */
if (!(s29)) goto L43;
if (!tk_pf33) {
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 >= tk_lo0 && tk_a0 + 8 <= tk_hi0 && (tk_lo0 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
  s30[r0 + 0] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s30[r0 + 1] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s30[r0 + 2] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s30[r0 + 3] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 2ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 2)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s30[r] = tk_bf16_to_f32(*(const tk_u16 *)(tk_a)); else s30[r] = (0x0p+0f);
}}}}
}
if (!tk_pf33) {
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 >= tk_lo1 && tk_a0 + 8 <= tk_hi1 && (tk_lo1 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
  s31[r0 + 0] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s31[r0 + 1] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s31[r0 + 2] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s31[r0 + 3] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 2)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
if (tk_m) s31[r] = tk_bf16_to_f32(*(const tk_u16 *)(tk_a)); else s31[r] = (0x0p+0f);
}}}}
}
/* 33: dot, pipelined (cgen_pipe.c): its operands into shared memory, the loop's tail, the next round's loads, then the arithmetic */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
((unsigned short *)(tk_smem + 0))[((e) / 32 * 40 + (e) % 32)] = ((tk_u16)(tk_f32_to_bf16(s30[r])));
  }
}}
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
((unsigned short *)(tk_smem + 5120))[((e) % 64 * 40 + (e) / 64)] = ((tk_u16)(tk_f32_to_bf16(s31[r])));
  }
}}
__syncthreads();
/* 34: const */
s33 = ((tk_i32)32ll);
/* 35: ptr_add */
s34_d = (tk_i64)((tk_u64)(s26_d) + (tk_u64)(tk_i64)(s33) * 2ull);
/* 36: const */
s35 = ((tk_i32)2048ll);
/* 37: ptr_add */
s36_d = (tk_i64)((tk_u64)(s27_d) + (tk_u64)(tk_i64)(s35) * 2ull);
/* 39: copy */
s26_d = s34_d;
/* 40: copy */
s27_d = s36_d;
/* 41: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s28 = ((tk_i32)((tk_u32)(s28) + (tk_u32)(s24))); }
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
tk_pf33 = s29 != 0;
if (tk_pf33) {
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 >= tk_lo0 && tk_a0 + 8 <= tk_hi0 && (tk_lo0 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
  s30[r0 + 0] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s30[r0 + 1] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s30[r0 + 2] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s30[r0 + 3] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 2ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 2)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
if (tk_m) s30[r] = tk_bf16_to_f32(*(const tk_u16 *)(tk_a)); else s30[r] = (0x0p+0f);
}}}}
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 256 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 >= tk_lo1 && tk_a0 + 8 <= tk_hi1 && (tk_lo1 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
  s31[r0 + 0] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s31[r0 + 1] = tk_bf16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s31[r0 + 2] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s31[r0 + 3] = tk_bf16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
} else {
#pragma unroll 
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 2)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
if (tk_m) s31[r] = tk_bf16_to_f32(*(const tk_u16 *)(tk_a)); else s31[r] = (0x0p+0f);
}}}}
}
/* 33: dot */
{
typedef short tk_bf16x4 __attribute__((ext_vector_type(4)));
typedef float tk_f32x16 __attribute__((ext_vector_type(16)));
const unsigned short *tk_A = (const unsigned short *)tk_smem;
const unsigned short *tk_B = (const unsigned short *)(tk_smem + 5120);
#pragma unroll 4
for (int k0 = 0; k0 < 32; k0 += 8) {
  tk_bf16x4 tk_fa[1], tk_fb[1];
#pragma unroll
  for (int i = 0; i < 1; i++)
    tk_fa[i] = *(const tk_bf16x4 *)(tk_A + (tk_tid / 128 * 32 + i * 32 + tk_tid % 32) * 40 + (k0 + tk_tid / 32 % 2 * 4));
#pragma unroll
  for (int j = 0; j < 1; j++)
    tk_fb[j] = *(const tk_bf16x4 *)(tk_B + (tk_tid / 64 % 2 * 32 + j * 32 + tk_tid % 32) * 40 + (k0 + tk_tid / 32 % 2 * 4));
#pragma unroll
  for (int i = 0; i < 1; i++)
#pragma unroll
  for (int j = 0; j < 1; j++) {
    float *tk_d = &s25[(i * 1 + j) * 16];
    tk_f32x16 tk_c;
#pragma unroll
    for (int q = 0; q < 16; q++) tk_c[q] = tk_d[q];
    tk_c = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(tk_fa[i], tk_fb[j], tk_c, 0, 0, 0);
#pragma unroll
    for (int q = 0; q < 16; q++) tk_d[q] = tk_c[q];
  }
}
}
/* 42: jump */
tk_ep++;
goto L29;
L43:;
/* 43: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s37[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 44: const */
s38 = ((tk_i32)64ll);
/* 51: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok51 = (tk_all >> 0) & 1u;
if (!tk_ok51) {
  tk_ok51 = tk_find51(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s38);
  if (!tk_ok51) tk_bad = 1;
  tk_ok51 = !__syncthreads_or(!tk_ok51);
}
/* 45: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s39[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s38)));
  }
}}
/* 46: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s40[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s38)))) * 4ull);
  }
}}
/* 47: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s41[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 48: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s42[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s38)))) * 4ull);
  }
}}
/* 49: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s43[r] = ((tk_i32)(0 + ((((e) % 64)))));
  }
}}
/* 50: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 256 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s44[r] = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s38)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 4ull);
  }
}}
/* 51: store */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((tk_tid / 128 * 32 + r / 16 * 32 + r / 4 % 4 * 8 + tk_tid / 32 % 2 * 4 + r % 4) * 64 + (tk_tid / 64 % 2 * 32 + tk_tid % 32)); (void)e;
  {
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s38)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 4ull);
bool tk_m = tk_ok51; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s25[r]); }
  }
}}
/* 52: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (256 threads, 10240 bytes of shared memory)
