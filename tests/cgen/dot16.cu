// ---- tritsim: CUDA source of dot16 (num_warps 1)
extern "C" __global__ void __launch_bounds__(32)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok13;   /* 13: checked at 6 (cgen_check.c) */
bool tk_ok15;   /* 15: checked at 6 (cgen_check.c) */
bool tk_ok21;   /* 21: checked at 19 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
(void)tk_lo2; (void)tk_hi2; (void)tk_c2;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_u64 s2; (void)s2;
tk_i32 s3[1]; (void)s3;
tk_i32 s4[1]; (void)s4;
tk_i32 s5; (void)s5;
tk_i32 s6[1]; (void)s6;
tk_i32 s7[1]; (void)s7;
tk_i32 s8[1]; (void)s8;
tk_i32 s9[8]; (void)s9;
tk_i32 s10[8]; (void)s10;
tk_i32 s11[8]; (void)s11;
tk_u64 s12[8]; (void)s12;
float s13[8]; (void)s13;
tk_u64 s14[8]; (void)s14;
float s15[8]; (void)s15;
float s16[8]; (void)s16;
float s18[8]; (void)s18;
tk_u64 s19[8]; (void)s19;
float s20[8]; (void)s20;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s3[r] = (tk_i32)(0 + e);
  }
}}
/* 4: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s4[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 5: const */
s5 = ((tk_i32)16ll);
/* 13: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h0b = (tk_u64)s0;
TK_MU const tk_i64 tk_h3b = 0ll, tk_h3n = tk_h3b, tk_h3x = tk_h3b + 15ll;
TK_MU const tk_i64 tk_h4b = tk_h3b;
TK_MU const tk_i64 tk_h4n = tk_h3n, tk_h4x = tk_h3x;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h6b = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4b);
TK_MU const tk_i64 tk_h6p = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4n), tk_h6q = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4x);
TK_MU const tk_i64 tk_h6n = tk_h6p < tk_h6q ? tk_h6p : tk_h6q, tk_h6x = tk_h6p < tk_h6q ? tk_h6q : tk_h6p;
TK_MU const tk_i64 tk_h9b = tk_h6b;
TK_MU const tk_i64 tk_h9n = tk_h6n, tk_h9x = tk_h6x;
TK_MU const tk_i64 tk_h7b = 0ll, tk_h7n = tk_h7b, tk_h7x = tk_h7b + 15ll;
TK_MU const tk_i64 tk_h8b = tk_h7b;
TK_MU const tk_i64 tk_h8n = tk_h7n, tk_h8x = tk_h7x;
TK_MU const tk_i64 tk_h10b = tk_h8b;
TK_MU const tk_i64 tk_h10n = tk_h8n, tk_h10x = tk_h8x;
TK_MU const tk_i64 tk_h11b = (tk_i64)((tk_u64)tk_h9b + (tk_u64)tk_h10b);
TK_MU const tk_i64 tk_h11n = (tk_i64)((tk_u64)tk_h9n + (tk_u64)tk_h10n), tk_h11x = (tk_i64)((tk_u64)tk_h9x + (tk_u64)tk_h10x);
TK_MU const tk_u64 tk_h12b = tk_h0b + (tk_u64)tk_h11b * 2ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h12b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 2 - (tk_oh - tk_ol);
tk_ok13 = true && tk_h3n >= -1073741824ll && tk_h3x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h11n >= -1073741824ll && tk_h11x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 1ull) == 0));
}
if (!tk_ok13) {
  tk_ok13 = tk_find13(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s0, s5);
  if (!tk_ok13) tk_bad = 1;
  tk_ok13 = !__syncthreads_or(!tk_ok13);
}
/* 15: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h1b = (tk_u64)s1;
TK_MU const tk_i64 tk_h3b = 0ll, tk_h3n = tk_h3b, tk_h3x = tk_h3b + 15ll;
TK_MU const tk_i64 tk_h4b = tk_h3b;
TK_MU const tk_i64 tk_h4n = tk_h3n, tk_h4x = tk_h3x;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h6b = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4b);
TK_MU const tk_i64 tk_h6p = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4n), tk_h6q = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4x);
TK_MU const tk_i64 tk_h6n = tk_h6p < tk_h6q ? tk_h6p : tk_h6q, tk_h6x = tk_h6p < tk_h6q ? tk_h6q : tk_h6p;
TK_MU const tk_i64 tk_h9b = tk_h6b;
TK_MU const tk_i64 tk_h9n = tk_h6n, tk_h9x = tk_h6x;
TK_MU const tk_i64 tk_h7b = 0ll, tk_h7n = tk_h7b, tk_h7x = tk_h7b + 15ll;
TK_MU const tk_i64 tk_h8b = tk_h7b;
TK_MU const tk_i64 tk_h8n = tk_h7n, tk_h8x = tk_h7x;
TK_MU const tk_i64 tk_h10b = tk_h8b;
TK_MU const tk_i64 tk_h10n = tk_h8n, tk_h10x = tk_h8x;
TK_MU const tk_i64 tk_h11b = (tk_i64)((tk_u64)tk_h9b + (tk_u64)tk_h10b);
TK_MU const tk_i64 tk_h11n = (tk_i64)((tk_u64)tk_h9n + (tk_u64)tk_h10n), tk_h11x = (tk_i64)((tk_u64)tk_h9x + (tk_u64)tk_h10x);
TK_MU const tk_u64 tk_h14b = tk_h1b + (tk_u64)tk_h11b * 2ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h14b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 2 - (tk_oh - tk_ol);
tk_ok15 = true && tk_h3n >= -1073741824ll && tk_h3x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h11n >= -1073741824ll && tk_h11x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 1ull) == 0));
}
if (!tk_ok15) {
  tk_ok15 = tk_find15(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s1, s5);
  if (!tk_ok15) tk_bad = 1;
  tk_ok15 = !__syncthreads_or(!tk_ok15);
}
/* 6: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s6[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s5)));
  }
}}
/* 7: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s7[r] = (tk_i32)(0 + e);
  }
}}
/* 8: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s8[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 9: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s9[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)));
  }
}}
/* 10: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s10[r] = ((tk_i32)(0 + ((((e) % 16)))));
  }
}}
/* 11: binary */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s11[r] = ((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))));
  }
}}
/* 12: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s12[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 2ull);
  }
}}
/* 13: load */
{
bool tk_vs[1];
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 8, e0 = (c * 32 + tk_tid) * 8; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 2ull);
bool tk_v = tk_ok13;
uint4 tk_w = make_uint4(0u, 0u, 0u, 0u);
if (tk_v) tk_w = *(const uint4 *)tk_a0;
  s13[r0 + 0] = tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s13[r0 + 1] = tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s13[r0 + 2] = tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s13[r0 + 3] = tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
  s13[r0 + 4] = tk_f16_to_f32(((tk_u16)(((tk_w.z >> 0) & 0xffffu))));
  s13[r0 + 5] = tk_f16_to_f32(((tk_u16)(((tk_w.z >> 16) & 0xffffu))));
  s13[r0 + 6] = tk_f16_to_f32(((tk_u16)(((tk_w.w >> 0) & 0xffffu))));
  s13[r0 + 7] = tk_f16_to_f32(((tk_u16)(((tk_w.w >> 16) & 0xffffu))));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 1; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 8, e0 = (c * 32 + tk_tid) * 8; (void)e0;
#pragma unroll
for (int v = 0; v < 8; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 2ull)) + (tk_u64)v * 2ull;
bool tk_m = tk_ok13; (void)tk_m;
if (tk_m) s13[r] = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else s13[r] = (0x0p+0f);
}}}}
/* 14: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s14[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 2ull);
  }
}}
/* 15: load */
{
bool tk_vs[1];
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 8, e0 = (c * 32 + tk_tid) * 8; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 2ull);
bool tk_v = tk_ok15;
uint4 tk_w = make_uint4(0u, 0u, 0u, 0u);
if (tk_v) tk_w = *(const uint4 *)tk_a0;
  s15[r0 + 0] = tk_f16_to_f32(((tk_u16)(((tk_w.x >> 0) & 0xffffu))));
  s15[r0 + 1] = tk_f16_to_f32(((tk_u16)(((tk_w.x >> 16) & 0xffffu))));
  s15[r0 + 2] = tk_f16_to_f32(((tk_u16)(((tk_w.y >> 0) & 0xffffu))));
  s15[r0 + 3] = tk_f16_to_f32(((tk_u16)(((tk_w.y >> 16) & 0xffffu))));
  s15[r0 + 4] = tk_f16_to_f32(((tk_u16)(((tk_w.z >> 0) & 0xffffu))));
  s15[r0 + 5] = tk_f16_to_f32(((tk_u16)(((tk_w.z >> 16) & 0xffffu))));
  s15[r0 + 6] = tk_f16_to_f32(((tk_u16)(((tk_w.w >> 0) & 0xffffu))));
  s15[r0 + 7] = tk_f16_to_f32(((tk_u16)(((tk_w.w >> 16) & 0xffffu))));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 1; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 8, e0 = (c * 32 + tk_tid) * 8; (void)e0;
#pragma unroll
for (int v = 0; v < 8; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 2ull)) + (tk_u64)v * 2ull;
bool tk_m = tk_ok15; (void)tk_m;
if (tk_m) s15[r] = tk_f16_to_f32(*(const tk_u16 *)(tk_a)); else s15[r] = (0x0p+0f);
}}}}
/* 16: const */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 2 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 16 + (tk_tid >> 5) % 1 * 16 + ((r) >> 2) % 2 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)e;
  {
s16[r] = (0x0p+0f);
  }
}}
/* 18: dot */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
((unsigned short *)tk_smem)[((e) / 16) * 24 + (e) % 16] = ((tk_u16)(tk_f32_to_f16(s13[r])));
  }
}}
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
((unsigned short *)(tk_smem + 768))[((e) / 16) * 24 + (e) % 16] = ((tk_u16)(tk_f32_to_f16(s15[r])));
  }
}}
__syncthreads();
{
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 2 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 16 + (tk_tid >> 5) % 1 * 16 + ((r) >> 2) % 2 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)e;
  {
s18[r] = (float)((0x0p+0f));
  }
}}
const unsigned tk_sa = (unsigned)__cvta_generic_to_shared(tk_smem);
const int tk_w = tk_tid >> 5, tk_l = tk_tid & 31;
const int tk_wr = tk_w / 1 * 16, tk_wc = tk_w % 1 * 16;
const unsigned tk_pa = tk_sa + (unsigned)(((tk_wr + (tk_l & 15)) * 24 + (tk_l >> 4) * 8) * 2);
const unsigned tk_pb = tk_sa + 768u + (unsigned)(((tk_l & 15) * 24 + tk_wc + (tk_l >> 4) * 8) * 2);
#pragma unroll 1
for (int k0 = 0; k0 < 16; k0 += 16) {
  unsigned tk_fa[1][4], tk_fb[2][2];
#pragma unroll
  for (int i = 0; i < 1; i++)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
      : "=r"(tk_fa[i][0]), "=r"(tk_fa[i][1]), "=r"(tk_fa[i][2]), "=r"(tk_fa[i][3])
      : "r"(tk_pa + (unsigned)((i * 16 * 24 + k0) * 2)));
#pragma unroll
  for (int j = 0; j < 2; j += 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
      : "=r"(tk_fb[j][0]), "=r"(tk_fb[j][1]), "=r"(tk_fb[j + 1][0]), "=r"(tk_fb[j + 1][1])
      : "r"(tk_pb + (unsigned)((k0 * 24 + j * 8) * 2)));
#pragma unroll
  for (int i = 0; i < 1; i++)
#pragma unroll
  for (int j = 0; j < 2; j++) {
    float *d = &s18[(i * 2 + j) * 4];
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(tk_fa[i][0]), "r"(tk_fa[i][1]), "r"(tk_fa[i][2]), "r"(tk_fa[i][3]), "r"(tk_fb[j][0]), "r"(tk_fb[j][1]));
  }
}
}
/* 21: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h3b = 0ll, tk_h3n = tk_h3b, tk_h3x = tk_h3b + 15ll;
TK_MU const tk_i64 tk_h4b = tk_h3b;
TK_MU const tk_i64 tk_h4n = tk_h3n, tk_h4x = tk_h3x;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h6b = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4b);
TK_MU const tk_i64 tk_h6p = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4n), tk_h6q = (tk_i64)((tk_u64)tk_h5b * (tk_u64)tk_h4x);
TK_MU const tk_i64 tk_h6n = tk_h6p < tk_h6q ? tk_h6p : tk_h6q, tk_h6x = tk_h6p < tk_h6q ? tk_h6q : tk_h6p;
TK_MU const tk_i64 tk_h9b = tk_h6b;
TK_MU const tk_i64 tk_h9n = tk_h6n, tk_h9x = tk_h6x;
TK_MU const tk_i64 tk_h7b = 0ll, tk_h7n = tk_h7b, tk_h7x = tk_h7b + 15ll;
TK_MU const tk_i64 tk_h8b = tk_h7b;
TK_MU const tk_i64 tk_h8n = tk_h7n, tk_h8x = tk_h7x;
TK_MU const tk_i64 tk_h10b = tk_h8b;
TK_MU const tk_i64 tk_h10n = tk_h8n, tk_h10x = tk_h8x;
TK_MU const tk_i64 tk_h11b = (tk_i64)((tk_u64)tk_h9b + (tk_u64)tk_h10b);
TK_MU const tk_i64 tk_h11n = (tk_i64)((tk_u64)tk_h9n + (tk_u64)tk_h10n), tk_h11x = (tk_i64)((tk_u64)tk_h9x + (tk_u64)tk_h10x);
TK_MU const tk_u64 tk_h19b = tk_h2b + (tk_u64)tk_h11b * 2ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)32ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)2ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 2 - (tk_oh - tk_ol);
tk_ok21 = true && tk_h3n >= -1073741824ll && tk_h3x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h11n >= -1073741824ll && tk_h11x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 1ull) == 0));
}
if (!tk_ok21) {
  tk_ok21 = tk_find21(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s5);
  if (!tk_ok21) tk_bad = 1;
  tk_ok21 = !__syncthreads_or(!tk_ok21);
}
/* 19: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 8) * 32 + tk_tid) * 8 + (r) % 8); (void)e;
  {
s19[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 2ull);
  }
}}
/* 20: cast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 2 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 16 + (tk_tid >> 5) % 1 * 16 + ((r) >> 2) % 2 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)e;
  {
s20[r] = tk_rnd_f16(s18[r]);
  }
}}
/* 21: store */
/* 21: the value to shared memory by pairs, row-major, then stored by 16-byte chunks */
__syncthreads();
{
#pragma unroll
for (int q = 0; q < 4; q++) {
const int r = 2 * q, e = (((tk_tid >> 5) / 1 * 16 + ((r) >> 2) / 2 * 16 + ((tk_tid & 31) >> 2) + (((r) >> 1) & 1) * 8) * 16 + (tk_tid >> 5) % 1 * 16 + ((r) >> 2) % 2 * 8 + (tk_tid & 3) * 2 + ((r) & 1)); (void)r;
*(unsigned int *)(tk_smem + e / 16 * 48 + e % 16 * 2) = (unsigned int)(((tk_u16)(tk_f32_to_f16(s18[r])))) | ((unsigned int)(((tk_u16)(tk_f32_to_f16(s18[r + 1])))) << 16);
}}
__syncthreads();
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 8, e0 = (c * 32 + tk_tid) * 8; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 2ull);
bool tk_v = tk_ok21;
if (tk_v) {
  *(uint4 *)tk_a0 = *(const uint4 *)(tk_smem + e0 / 16 * 48 + e0 % 16 * 2);
} else {
#pragma unroll
for (int v = 0; v < 8; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 2ull;
bool tk_m = tk_ok21; (void)tk_m;
if (tk_m) { *(tk_u16 *)(tk_a) = *(const tk_u16 *)(tk_smem + e / 16 * 48 + e % 16 * 2); }
}}}}
/* 22: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (32 threads, 1536 bytes of shared memory)
