// ---- tritsim: CUDA source of dot32 (num_warps 1)
extern "C" __global__ void __launch_bounds__(32, 3)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok14;   /* 14: checked at 6 (cgen_check.c) */
bool tk_ok18;   /* 18: checked at 18 (cgen_check.c) */
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
tk_u64 s13[8]; (void)s13;
float s14[8]; (void)s14;
tk_u64 s15[8]; (void)s15;
float s16[8]; (void)s16;
float s17[8]; (void)s17;
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
/* 14: its lanes' addresses in closed form, checked at once (cgen_check.c) */
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
TK_MU const tk_u64 tk_h13b = tk_h0b + (tk_u64)tk_h11b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)64ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)64ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h13b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_ok14 = true && tk_h3n >= -1073741824ll && tk_h3x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h11n >= -1073741824ll && tk_h11x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok14) {
  tk_ok14 = tk_find14(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s0, s5);
  if (!tk_ok14) tk_bad = 1;
  tk_ok14 = !__syncthreads_or(!tk_ok14);
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
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s9[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)));
  }
}}
/* 10: broadcast */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s10[r] = ((tk_i32)(0 + ((((e) % 16)))));
  }
}}
/* 11: binary */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s11[r] = ((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))));
  }
}}
/* 12: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s12[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 4ull);
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s13[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 4ull);
  }
}}
/* 14: load */
{
bool tk_vs[2];
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 32 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 4ull);
bool tk_v = tk_ok14;
uint4 tk_w = make_uint4(0u, 0u, 0u, 0u);
if (tk_v) tk_w = *(const uint4 *)tk_a0;
  s14[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s14[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s14[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s14[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 2; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 4, e0 = (c * 32 + tk_tid) * 4; (void)e0;
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 4ull)) + (tk_u64)v * 4ull;
bool tk_m = tk_ok14; (void)tk_m;
if (tk_m) s14[r] = (*(const float *)(tk_a)); else s14[r] = (0x0p+0f);
}}}}
/* 15: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s15[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 4ull);
  }
}}
/* 16: load */
__syncthreads();
{
#pragma unroll 4
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 32 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 4ull);
bool tk_v = tk_a0 - tk_lo1 < tk_c1;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
((float *)(tk_smem + 1280))[e0 + 0] = tk_tf32(tk_u2f(((tk_u32)(tk_w.x))));
((float *)(tk_smem + 1280))[e0 + 1] = tk_tf32(tk_u2f(((tk_u32)(tk_w.y))));
((float *)(tk_smem + 1280))[e0 + 2] = tk_tf32(tk_u2f(((tk_u32)(tk_w.z))));
((float *)(tk_smem + 1280))[e0 + 3] = tk_tf32(tk_u2f(((tk_u32)(tk_w.w))));
} else {
#pragma unroll 1
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e) % 16))))))))) * 4ull);
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 4)) {
  TK_NOTE(1, 16, e, tk_a, 1, 0); tk_m = false;
}
float tk_lv;
if (tk_m) tk_lv = (*(const float *)(tk_a)); else tk_lv = (0x0p+0f);
((float *)(tk_smem + 1280))[e] = tk_tf32(tk_lv);
}}}}
/* 17: dot */
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
((float *)tk_smem)[((e) % 16) * 20 + ((e) / 16) % 8 * 2 + (e) / 128] = tk_tf32(s14[r]);
  }
}}
__syncthreads();
{
const float *tk_A = (const float *)tk_smem;
const float *tk_B = (const float *)(tk_smem + 1280);
{
#pragma unroll
  for (int r = 0; r < 8; r++) {
  const int e = ((((r) / 4) * 32 + tk_tid) * 4 + (r) % 4); (void)e;
  {
s17[r] = 0;
  }
}}
const int tk_col = (tk_tid * 4) % 16;
const int tk_q = (tk_tid * 4) / 16;
#pragma unroll 4
for (int k = 0; k < 16; k++) {
  const float *tk_ak = tk_A + k * 20 + tk_q * 2;
  float tk_bv[4];
#pragma unroll
  for (int v = 0; v < 4; v++) tk_bv[v] = tk_B[k * 16 + tk_col + v];
#pragma unroll
  for (int c = 0; c < 2; c++) {
    const float tk_av = tk_ak[c];
#pragma unroll
    for (int v = 0; v < 4; v++)
      s17[c * 4 + v] = __fmaf_rn(tk_av, tk_bv[v], s17[c * 4 + v]);
  }
}
}
/* 18: its lanes' addresses in closed form, checked at once (cgen_check.c) */
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
TK_MU const tk_u64 tk_h12b = tk_h2b + (tk_u64)tk_h11b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)64ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)64ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h12b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_ok18 = true && tk_h3n >= -1073741824ll && tk_h3x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h11n >= -1073741824ll && tk_h11x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok18) {
  tk_ok18 = tk_find18(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s5);
  if (!tk_ok18) tk_bad = 1;
  tk_ok18 = !__syncthreads_or(!tk_ok18);
}
/* 18: store */
{
#pragma unroll
for (int c = 0; c < 2; c++) {
const int r0 = c * 4, e0 = (c * 32 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s5)))) + (tk_u32)(((tk_i32)(0 + ((((e0) % 16))))))))) * 4ull);
bool tk_v = tk_ok18;
if (tk_v) {
  uint4 tk_w;
  tk_w.x = (unsigned int)(((tk_u32)(tk_f2u(s17[r0 + 0]))));
  tk_w.y = (unsigned int)(((tk_u32)(tk_f2u(s17[r0 + 1]))));
  tk_w.z = (unsigned int)(((tk_u32)(tk_f2u(s17[r0 + 2]))));
  tk_w.w = (unsigned int)(((tk_u32)(tk_f2u(s17[r0 + 3]))));
  *(uint4 *)tk_a0 = tk_w;
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (tk_a0) + (tk_u64)v * 4ull;
bool tk_m = tk_ok18; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s17[r]); }
}}}}
/* 19: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (32 threads, 2304 bytes of shared memory)
