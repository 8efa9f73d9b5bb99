// ---- tritsim: CUDA source of mm (num_warps 4)
extern "C" __global__ void __launch_bounds__(128)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, int p3, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
unsigned tk_wsa;
asm volatile("mov.u32 %0, %1;" : "=r"(tk_wsa) : "r"(((unsigned)__cvta_generic_to_shared(tk_smem) + 1023u) & ~1023u));
unsigned char *const tk_wsm = tk_smem + (tk_wsa - (unsigned)__cvta_generic_to_shared(tk_smem));
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
int tk_nb34 = 0, tk_cur34 = 0, tk_L34 = 0; bool tk_end34 = false;   /* its ring (cgen_pipe.c) */
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
tk_u64 s11[16]; (void)s11;
tk_i32 s12[16]; (void)s12;
tk_u64 s13[16]; (void)s13;
tk_i32 s14[1]; (void)s14;
tk_i32 s15; (void)s15;
tk_i32 s16[1]; (void)s16;
tk_u64 s17[1]; (void)s17;
tk_i32 s18[1]; (void)s18;
tk_u64 s19[16]; (void)s19;
tk_i32 s20[16]; (void)s20;
tk_u64 s21[16]; (void)s21;
float s22[32]; (void)s22;
tk_i32 s23; (void)s23;
tk_i32 s24; (void)s24;
float s25[32]; (void)s25;
tk_i64 s26_d; (void)s26_d;   /* base: s13 */
tk_i64 s27_d; (void)s27_d;   /* base: s21 */
tk_i32 s28; (void)s28;
bool s29; (void)s29;
float s30[16]; (void)s30;
float s31[16]; (void)s31;
float s33[32]; (void)s33;
tk_i32 s34; (void)s34;
tk_i64 s35_d; (void)s35_d;   /* base: s13 */
tk_i32 s36; (void)s36;
tk_i64 s37_d; (void)s37_d;   /* base: s21 */
tk_i32 s38[1]; (void)s38;
tk_i32 s39; (void)s39;
tk_i32 s40[1]; (void)s40;
tk_u64 s41[1]; (void)s41;
tk_i32 s42[1]; (void)s42;
tk_u64 s43[32]; (void)s43;
tk_i32 s44[32]; (void)s44;
tk_u64 s45[32]; (void)s45;
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
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull);
  }
}}
/* 12: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s12[r] = ((tk_i32)(0 + ((((e) % 32)))));
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
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
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s19[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull);
  }
}}
/* 20: broadcast */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s20[r] = ((tk_i32)(0 + ((((e) % 64)))));
  }
}}
/* 21: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 16; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s21[r] = ((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull);
  }
}}
/* 22: const */
{
#pragma unroll
  for (int r = 0; r < 32; r++) {
  const int e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 8 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 64 + (tk_tid >> 5) % 1 * 64 + ((r) >> 2) % 8 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)e;
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
  for (int r = 0; r < 32; r++) {
  const int e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 8 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 64 + (tk_tid >> 5) % 1 * 64 + ((r) >> 2) % 8 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)e;
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
const tk_i32 s39 = ((tk_i32)64ll);
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h4b = 0ll, tk_h4n = tk_h4b, tk_h4x = tk_h4b + 63ll;
TK_MU const tk_i64 tk_h38b = tk_h4b;
TK_MU const tk_i64 tk_h38n = tk_h4n, tk_h38x = tk_h4x;
TK_MU const tk_i64 tk_h39b = (tk_i64)s39, tk_h39n = tk_h39b, tk_h39x = tk_h39b;
TK_MU const tk_i64 tk_h40b = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38b);
TK_MU const tk_i64 tk_h40p = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38n), tk_h40q = (tk_i64)((tk_u64)tk_h39b * (tk_u64)tk_h38x);
TK_MU const tk_i64 tk_h40n = tk_h40p < tk_h40q ? tk_h40p : tk_h40q, tk_h40x = tk_h40p < tk_h40q ? tk_h40q : tk_h40p;
TK_MU const tk_u64 tk_h41b = tk_h2b + (tk_u64)tk_h40b * 4ull;
TK_MU const tk_u64 tk_h43b = tk_h41b;
TK_MU const tk_i64 tk_h5b = 0ll, tk_h5n = tk_h5b, tk_h5x = tk_h5b + 63ll;
TK_MU const tk_i64 tk_h42b = tk_h5b;
TK_MU const tk_i64 tk_h42n = tk_h5n, tk_h42x = tk_h5x;
TK_MU const tk_i64 tk_h44b = tk_h42b;
TK_MU const tk_i64 tk_h44n = tk_h42n, tk_h44x = tk_h42x;
TK_MU const tk_u64 tk_h45b = tk_h43b + (tk_u64)tk_h44b * 4ull;
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
tk_u64 tk_cb31[4];
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 32)))))) * 2ull));
tk_cb31[c] = tk_a0;
}}
/* 32: load's chunks, before its loop */
tk_u64 tk_cb32[4];
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = (tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 64)))))) * 2ull));
tk_cb32[c] = tk_a0;
}}
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
if (!(s29)) goto L44;   /* no round: past the loop */
L29:;
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
/* 30: branch */
if (!(s29) && tk_L34 == 0) {
tk_end34 = false;
asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
goto L44;
}
if (tk_L34 == 0) {
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 >= tk_lo0 && tk_a0 + 8 <= tk_hi0 && (tk_lo0 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 0) % 32 / 32 * 4096 + ((e0 + 0) / 32) * 64 + (e0 + 0) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 1) % 32 / 32 * 4096 + ((e0 + 1) / 32) * 64 + (e0 + 1) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 2) % 32 / 32 * 4096 + ((e0 + 2) / 32) * 64 + (e0 + 2) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 3) % 32 / 32 * 4096 + ((e0 + 3) / 32) * 64 + (e0 + 3) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu)))))));
} else {
#pragma unroll 1
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 2ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 2)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
float tk_lv;
if (tk_m) tk_lv = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else tk_lv = (0x0p+0f);
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e) % 32 / 32 * 4096 + ((e) / 32) * 64 + (e) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_lv)));
}}}}
}
if (tk_L34 == 0) {
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 >= tk_lo1 && tk_a0 + 8 <= tk_hi1 && (tk_lo1 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 0) % 64 / 64 * 4096 + (e0 + 0) / 64 * 128 + (e0 + 0) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 1) % 64 / 64 * 4096 + (e0 + 1) / 64 * 128 + (e0 + 1) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 2) % 64 / 64 * 4096 + (e0 + 2) / 64 * 128 + (e0 + 2) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 3) % 64 / 64 * 4096 + (e0 + 3) / 64 * 128 + (e0 + 3) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu)))))));
} else {
#pragma unroll 1
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 2)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
float tk_lv;
if (tk_m) tk_lv = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else tk_lv = (0x0p+0f);
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e) % 64 / 64 * 4096 + (e) / 64 * 128 + (e) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_lv)));
}}}}
}
/* 34: dot, pipelined (cgen_pipe.c): a ring of 4 shared-memory buffers, up to 2 rounds loading while one computes */
if (tk_L34 == 0) {
asm volatile("cp.async.commit_group;" ::: "memory");
tk_L34 = 1;
tk_nb34 = tk_nb34 == 24576 ? 0 : tk_nb34 + 8192;
}
if (tk_L34 > 2) asm volatile("cp.async.wait_group 2;" ::: "memory");
else if (tk_L34 > 1) asm volatile("cp.async.wait_group 1;" ::: "memory");
else asm volatile("cp.async.wait_group 0;" ::: "memory");
asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
__syncthreads();
/* 34: dot */
{
const unsigned tk_sa = tk_wsa + (unsigned)(tk_cur34);
const unsigned tk_lb = ((tk_sa + 4096u) >> 4) | 0x1000000u;
const unsigned tk_la = ((tk_sa + (unsigned)((tk_tid >> 7) * 4096)) >> 4) | 0x10000u;
asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
for (int k0 = 0; k0 < 32; k0 += 16) {
  const unsigned long long tk_db = tk_wgdesc(tk_lb + (unsigned)(k0 * 8), 0x40000040u);
  { const unsigned long long tk_da = tk_wgdesc(tk_la + (unsigned)((k0 / 32 * 4096 + 0 + k0 % 32 * 2) >> 4), 0x80000020u);
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 1;\n}\n"
      : "+f"(s25[0]), "+f"(s25[1]), "+f"(s25[2]), "+f"(s25[3]), "+f"(s25[4]), "+f"(s25[5]), "+f"(s25[6]), "+f"(s25[7]),
        "+f"(s25[8]), "+f"(s25[9]), "+f"(s25[10]), "+f"(s25[11]), "+f"(s25[12]), "+f"(s25[13]), "+f"(s25[14]), "+f"(s25[15]),
        "+f"(s25[16]), "+f"(s25[17]), "+f"(s25[18]), "+f"(s25[19]), "+f"(s25[20]), "+f"(s25[21]), "+f"(s25[22]), "+f"(s25[23]),
        "+f"(s25[24]), "+f"(s25[25]), "+f"(s25[26]), "+f"(s25[27]), "+f"(s25[28]), "+f"(s25[29]), "+f"(s25[30]), "+f"(s25[31])
      : "l"(tk_da), "l"(tk_db), "r"(1)); }
}
asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
while (tk_L34 < 3 && !tk_end34) {
/* 35: const */
s34 = ((tk_i32)32ll);
/* 36: ptr_add */
s35_d = (tk_i64)((tk_u64)(s26_d) + (tk_u64)(tk_i64)(s34) * 2ull);
/* 37: const */
s36 = ((tk_i32)2048ll);
/* 38: ptr_add */
s37_d = (tk_i64)((tk_u64)(s27_d) + (tk_u64)(tk_i64)(s36) * 2ull);
/* 40: copy */
s26_d = s35_d;
/* 41: copy */
s27_d = s37_d;
/* 42: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s28 = ((tk_i32)((tk_u32)(s28) + (tk_u32)(s24))); }
/* 29: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s29 = ((s28) < (s3)); }
if (!(s29)) {
tk_end34 = true;
break;
}
/* 31: load */
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb31[c] + (tk_u64)s26_d;
bool tk_v = tk_a0 >= tk_lo0 && tk_a0 + 8 <= tk_hi0 && (tk_lo0 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 0) % 32 / 32 * 4096 + ((e0 + 0) / 32) * 64 + (e0 + 0) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 1) % 32 / 32 * 4096 + ((e0 + 1) / 32) * 64 + (e0 + 1) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 2) % 32 / 32 * 4096 + ((e0 + 2) / 32) * 64 + (e0 + 2) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e0 + 3) % 32 / 32 * 4096 + ((e0 + 3) / 32) * 64 + (e0 + 3) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu)))))));
} else {
#pragma unroll 1
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 32)))))) * (tk_u32)(s3)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 32)))))) * 2ull)) + (tk_u64)s26_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 2)) {
  TK_NOTE(1, 31, e, tk_a, 0, 0); tk_m = false;
}
float tk_lv;
if (tk_m) tk_lv = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else tk_lv = (0x0p+0f);
*(unsigned short *)((tk_wsm + tk_nb34) + tk_swz2((unsigned)((e) % 32 / 32 * 4096 + ((e) / 32) * 64 + (e) % 32 * 2))) = ((tk_u16)(tk_f32_to_f16(tk_lv)));
}}}}
/* 32: load */
{
#pragma unroll
for (int c = 0; c < 4; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = tk_cb32[c] + (tk_u64)s27_d;
bool tk_v = tk_a0 >= tk_lo1 && tk_a0 + 8 <= tk_hi1 && (tk_lo1 & 1ull) == 0;
if (tk_v) {
  const uint2 tk_w = *(const uint2 *)tk_a0;
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 0) % 64 / 64 * 4096 + (e0 + 0) / 64 * 128 + (e0 + 0) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 1) % 64 / 64 * 4096 + (e0 + 1) / 64 * 128 + (e0 + 1) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 2) % 64 / 64 * 4096 + (e0 + 2) / 64 * 128 + (e0 + 2) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu)))))));
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e0 + 3) % 64 / 64 * 4096 + (e0 + 3) / 64 * 128 + (e0 + 3) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu)))))));
} else {
#pragma unroll 1
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(((tk_u64)(((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s15)))) * 2ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 2ull)) + (tk_u64)s27_d);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 2)) {
  TK_NOTE(1, 32, e, tk_a, 1, 0); tk_m = false;
}
float tk_lv;
if (tk_m) tk_lv = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else tk_lv = (0x0p+0f);
*(unsigned short *)((tk_wsm + tk_nb34) + (4096u + tk_swz1((unsigned)((e) % 64 / 64 * 4096 + (e) / 64 * 128 + (e) % 64 * 2)))) = ((tk_u16)(tk_f32_to_f16(tk_lv)));
}}}}
asm volatile("cp.async.commit_group;" ::: "memory");
tk_L34++;
tk_nb34 = tk_nb34 == 24576 ? 0 : tk_nb34 + 8192;
}
asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
tk_cur34 = tk_cur34 == 24576 ? 0 : tk_cur34 + 8192;
tk_L34--;
/* 43: jump */
tk_ep++;
goto L29;
L44:;
/* 44: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s38[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 45: const */
s39 = ((tk_i32)64ll);
/* 52: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok52 = (tk_all >> 0) & 1u;
if (!tk_ok52) {
  tk_ok52 = tk_find52(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s39);
  if (!tk_ok52) tk_bad = 1;
  tk_ok52 = !__syncthreads_or(!tk_ok52);
}
/* 46: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s40[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s39)));
  }
}}
/* 47: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s41[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s39)))) * 4ull);
  }
}}
/* 48: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 64));
  (void)r; (void)e;
  {
s42[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 49: broadcast */
{
#pragma unroll
  for (int r = 0; r < 32; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s43[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s39)))) * 4ull);
  }
}}
/* 50: broadcast */
{
#pragma unroll
  for (int r = 0; r < 32; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s44[r] = ((tk_i32)(0 + ((((e) % 64)))));
  }
}}
/* 51: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 32; r++) {
  const int e = ((((r) / 4) * 128 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s45[r] = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 64)))))) * (tk_u32)(s39)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 64)))))) * 4ull);
  }
}}
/* 52: store */
/* 52: the value to shared memory by pairs, row-major, then stored by 16-byte chunks */
__syncthreads();
{
#pragma unroll
for (int q = 0; q < 16; q++) {
const int r = 2 * q, e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 8 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 64 + (tk_tid >> 5) % 1 * 64 + ((r) >> 2) % 8 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)r;
*(unsigned long long *)(tk_smem + e / 64 * 288 + e % 64 * 4) = (unsigned long long)(((tk_u32)(tk_f2u(s25[r])))) | ((unsigned long long)(((tk_u32)(tk_f2u(s25[r + 1])))) << 32);
}}
__syncthreads();
{
#pragma unroll
for (int c = 0; c < 8; c++) {
const int r0 = c * 4, e0 = (c * 128 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 64)))))) * (tk_u32)(s39)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 64)))))) * 4ull);
bool tk_v = tk_ok52;
if (tk_v) {
  *(uint4 *)tk_a0 = *(const uint4 *)(tk_smem + e0 / 64 * 288 + e0 % 64 * 4);
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 4ull;
bool tk_m = tk_ok52; (void)tk_m;
if (tk_m) { *(tk_u32 *)(tk_a) = *(const tk_u32 *)(tk_smem + e / 64 * 288 + e % 64 * 4); }
}}}}
/* 53: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (128 threads, 33792 bytes of shared memory)
