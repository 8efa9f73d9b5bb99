// ---- tritsim: HIP source of reduce (num_warps 1)
extern "C" __global__ void __launch_bounds__(64)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, unsigned long long p3, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2, tk_u64 tk_lo3, tk_u64 tk_hi3, tk_u64 tk_c3)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
bool tk_ok14;   /* 14: checked at 7 (cgen_check.c) */
bool tk_ok18;   /* 18: checked at 7 (cgen_check.c) */
bool tk_ok22;   /* 22: checked at 7 (cgen_check.c) */
bool tk_ok25;   /* 25: checked at 7 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
(void)tk_lo2; (void)tk_hi2; (void)tk_c2;
(void)tk_lo3; (void)tk_hi3; (void)tk_c3;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_u64 s2; (void)s2;
tk_u64 s3; (void)s3;
tk_i32 s4[1]; (void)s4;
tk_i32 s5[1]; (void)s5;
tk_i32 s6; (void)s6;
tk_i32 s7[1]; (void)s7;
tk_u64 s8[1]; (void)s8;
tk_i32 s9[1]; (void)s9;
tk_i32 s10[1]; (void)s10;
tk_u64 s11[2]; (void)s11;
tk_i32 s12[2]; (void)s12;
tk_u64 s13[2]; (void)s13;
float s14[2]; (void)s14;
tk_i32 s15[1]; (void)s15;
tk_u64 s16[1]; (void)s16;
float s17[1]; (void)s17;
tk_i32 s18[1]; (void)s18;
tk_u64 s19[1]; (void)s19;
float s20[1]; (void)s20;
float s21[2]; (void)s21;
tk_i32 s22; (void)s22;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_u64)p3;
/* 4: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s4[r] = (tk_i32)(0 + e);
  }
}}
/* 5: reshape */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s5[r] = ((tk_i32)(0 + (e)));
  }
}}
/* 6: const */
s6 = ((tk_i32)16ll);
/* 14: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h0b = (tk_u64)s0;
TK_MU const tk_i64 tk_h4b = 0ll, tk_h4n = tk_h4b, tk_h4x = tk_h4b + 7ll;
TK_MU const tk_i64 tk_h5b = tk_h4b;
TK_MU const tk_i64 tk_h5n = tk_h4n, tk_h5x = tk_h4x;
TK_MU const tk_i64 tk_h6b = (tk_i64)s6, tk_h6n = tk_h6b, tk_h6x = tk_h6b;
TK_MU const tk_i64 tk_h7b = (tk_i64)((tk_u64)tk_h6b * (tk_u64)tk_h5b);
TK_MU const tk_i64 tk_h7p = (tk_i64)((tk_u64)tk_h6b * (tk_u64)tk_h5n), tk_h7q = (tk_i64)((tk_u64)tk_h6b * (tk_u64)tk_h5x);
TK_MU const tk_i64 tk_h7n = tk_h7p < tk_h7q ? tk_h7p : tk_h7q, tk_h7x = tk_h7p < tk_h7q ? tk_h7q : tk_h7p;
TK_MU const tk_u64 tk_h8b = tk_h0b + (tk_u64)tk_h7b * 4ull;
TK_MU const tk_u64 tk_h11b = tk_h8b;
TK_MU const tk_i64 tk_h9b = 0ll, tk_h9n = tk_h9b, tk_h9x = tk_h9b + 15ll;
TK_MU const tk_i64 tk_h10b = tk_h9b;
TK_MU const tk_i64 tk_h10n = tk_h9n, tk_h10x = tk_h9x;
TK_MU const tk_i64 tk_h12b = tk_h10b;
TK_MU const tk_i64 tk_h12n = tk_h10n, tk_h12x = tk_h10x;
TK_MU const tk_u64 tk_h13b = tk_h11b + (tk_u64)tk_h12b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 8ll;
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
tk_ok14 = true && tk_h4n >= -1073741824ll && tk_h4x <= 1073741824ll && tk_h6n >= -1073741824ll && tk_h6x <= 1073741824ll && tk_h5n >= -1073741824ll && tk_h5x <= 1073741824ll && tk_h7n >= -1073741824ll && tk_h7x <= 1073741824ll && tk_h9n >= -1073741824ll && tk_h9x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok14) {
  tk_ok14 = tk_find14(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s0, s6);
  if (!tk_ok14) tk_bad = 1;
  tk_ok14 = !__syncthreads_or(!tk_ok14);
}
/* 18: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h1b = (tk_u64)s1;
TK_MU const tk_i64 tk_h15b = 0ll, tk_h15n = tk_h15b, tk_h15x = tk_h15b + 7ll;
TK_MU const tk_u64 tk_h16b = tk_h1b + (tk_u64)tk_h15b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 8ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h16b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_ok18 = true && tk_h15n >= -1073741824ll && tk_h15x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok18) {
  tk_ok18 = tk_find18(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s1);
  if (!tk_ok18) tk_bad = 1;
  tk_ok18 = !__syncthreads_or(!tk_ok18);
}
/* 22: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h18b = 0ll, tk_h18n = tk_h18b, tk_h18x = tk_h18b + 15ll;
TK_MU const tk_u64 tk_h19b = tk_h2b + (tk_u64)tk_h18b * 4ull;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 16ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_ok22 = true && tk_h18n >= -1073741824ll && tk_h18x <= 1073741824ll && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok22) {
  tk_ok22 = tk_find22(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2);
  if (!tk_ok22) tk_bad = 1;
  tk_ok22 = !__syncthreads_or(!tk_ok22);
}
/* 25: its lanes' addresses in closed form, checked at once (cgen_check.c) */
{
TK_MU const tk_u64 tk_h3b = (tk_u64)s3;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h3b + (tk_u64)tk_ol - tk_lo3;
const tk_i64 tk_w = (tk_i64)(tk_hi3 - tk_lo3) - 4 - (tk_oh - tk_ol);
tk_ok25 = true && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && (((tk_u64)tk_r) & 3ull) == 0));
}
if (!tk_ok25) {
  tk_ok25 = tk_find25(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s3);
  if (!tk_ok25) tk_bad = 1;
  tk_ok25 = !__syncthreads_or(!tk_ok25);
}
/* 7: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s7[r] = ((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s6)));
  }
}}
/* 8: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s8[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + (e)))) * (tk_u32)(s6)))) * 4ull);
  }
}}
/* 9: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s9[r] = (tk_i32)(0 + e);
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
  for (int r = 0; r < 2; r++) {
  const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
  {
s11[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s6)))) * 4ull);
  }
}}
/* 12: broadcast */
{
#pragma unroll
  for (int r = 0; r < 2; r++) {
  const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
  {
s12[r] = ((tk_i32)(0 + ((((e) % 16)))));
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 2; r++) {
  const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
  {
s13[r] = ((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s6)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e) % 16)))))) * 4ull);
  }
}}
/* 14: load */
{
bool tk_vs[1];
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 2, e0 = (c * 64 + tk_tid) * 2; (void)e0;
const tk_u64 tk_a0 = ((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s6)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 16)))))) * 4ull);
bool tk_v = tk_ok14;
uint2 tk_w = make_uint2(0u, 0u);
if (tk_v) tk_w = *(const uint2 *)tk_a0;
  s14[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s14[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
tk_vs[c] = tk_v;
}
#pragma unroll
for (int c = 0; c < 1; c++) {
if (tk_vs[c]) continue;
const int r0 = c * 2, e0 = (c * 64 + tk_tid) * 2; (void)e0;
#pragma unroll
for (int v = 0; v < 2; v++) {
const int r = r0 + v, e = e0 + v; (void)r; (void)e;
const tk_u64 tk_a = (((tk_u64)(((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e0) / 16)))))) * (tk_u32)(s6)))) * 4ull)) + (tk_u64)(tk_i64)(((tk_i32)(0 + ((((e0) % 16)))))) * 4ull)) + (tk_u64)v * 4ull;
bool tk_m = tk_ok14; (void)tk_m;
if (tk_m) s14[r] = (*(const float *)(tk_a)); else s14[r] = (0x0p+0f);
}}}}
/* 15: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s15[r] = (tk_i32)(0 + e);
  }
}}
/* 16: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s16[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
  }
}}
/* 17: reduce */
{
float tk_a[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 2; i++) {
const int r = (0 | (((i) >> 0) & 1) << 0); (void)r;
const float tk_x = ((float)s14[r]);
if (i == 0) tk_a[j] = tk_x; else { const float tk_lo = tk_a[j], tk_hi = tk_x; tk_a[j] = __fadd_rn(tk_lo, tk_hi); }
}}
{
const bool tk_up = (tk_tid >> 0) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 1));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 1) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 2));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 2) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 4));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
__syncthreads();
if ((tk_tid & 7) == 0) {
const int tk_w = (0);
#pragma unroll
for (int j = 0; j < 1; j++) {
const int r = (0 | (((0) >> 0) & 1) << 0); (void)r;
const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
const int tk_o = ((((e) >> 4) << 0) | ((e) & 0));
((float *)tk_smem)[tk_o * 1 + tk_w] = tk_a[j];
}}
__syncthreads();
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
const float *tk_pv = (const float *)tk_smem + e * 1;
float tk_acc = tk_pv[0];
for (int w = 1; w < 1; w++) { const float tk_lo = tk_acc, tk_hi = tk_pv[w]; tk_acc = __fadd_rn(tk_lo, tk_hi); }
s17[r] = tk_acc;
  }
}}
}
/* 18: store */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  if (tk_tid < 8)
  {
const tk_u64 tk_a = ((tk_u64)(s1) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
bool tk_m = tk_ok18; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s17[r]); }
  }
}}
/* 19: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s18[r] = (tk_i32)(0 + e);
  }
}}
/* 20: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
s19[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
  }
}}
/* 21: reduce */
{
float tk_a[2];
#pragma unroll
for (int j = 0; j < 2; j++) {
#pragma unroll
for (int i = 0; i < 1; i++) {
const int r = (0 | (((j) >> 0) & 1) << 0); (void)r;
const float tk_x = ((float)s14[r]);
if (i == 0) tk_a[j] = tk_x; else { const float tk_lo = tk_a[j], tk_hi = tk_x; tk_a[j] = (((tk_hi) > (tk_lo) || (tk_lo) != (tk_lo)) ? (tk_hi) : (tk_lo)); }
}}
{
const bool tk_up = (tk_tid >> 3) & 1;
#pragma unroll
for (int j = 0; j < 2; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 8));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = (((tk_hi) > (tk_lo) || (tk_lo) != (tk_lo)) ? (tk_hi) : (tk_lo));
}}
{
const bool tk_up = (tk_tid >> 4) & 1;
#pragma unroll
for (int j = 0; j < 2; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 16));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = (((tk_hi) > (tk_lo) || (tk_lo) != (tk_lo)) ? (tk_hi) : (tk_lo));
}}
{
const bool tk_up = (tk_tid >> 5) & 1;
#pragma unroll
for (int j = 0; j < 2; j++) {
const float tk_y = ((float)__shfl_xor((float)(tk_a[j]), 32));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = (((tk_hi) > (tk_lo) || (tk_lo) != (tk_lo)) ? (tk_hi) : (tk_lo));
}}
__syncthreads();
if ((tk_tid & 56) == 0) {
const int tk_w = (0);
#pragma unroll
for (int j = 0; j < 2; j++) {
const int r = (0 | (((j) >> 0) & 1) << 0); (void)r;
const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
const int tk_o = ((((e) >> 7) << 4) | ((e) & 15));
((float *)tk_smem)[tk_o * 1 + tk_w] = tk_a[j];
}}
__syncthreads();
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  {
const float *tk_pv = (const float *)tk_smem + e * 1;
float tk_acc = tk_pv[0];
for (int w = 1; w < 1; w++) { const float tk_lo = tk_acc, tk_hi = tk_pv[w]; tk_acc = (((tk_hi) > (tk_lo) || (tk_lo) != (tk_lo)) ? (tk_hi) : (tk_lo)); }
s20[r] = tk_acc;
  }
}}
}
/* 22: store */
{ { const int r = 0; const int e = ((int)(tk_tid % 16));
  (void)r; (void)e;
  if (tk_tid < 16)
  {
const tk_u64 tk_a = ((tk_u64)(s2) + (tk_u64)(tk_i64)(((tk_i32)(0 + (e)))) * 4ull);
bool tk_m = tk_ok22; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s20[r]); }
  }
}}
/* 23: reshape */
{
#pragma unroll
  for (int r = 0; r < 2; r++) {
  const int e = ((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2); (void)e;
  {
s21[r] = s14[r];
  }
}}
/* 24: reduce */
{
float tk_av[1]; int tk_ai[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 2; i++) {
const int r = (0 | (((i) >> 0) & 1) << 0); (void)r;
const float tk_x = s21[r];
const int tk_xi = tk_x != tk_x ? -1 : (((((r) / 2) * 64 + tk_tid) * 2 + (r) % 2) >> 0) & 127;
if (i == 0) { tk_av[j] = tk_x; tk_ai[j] = tk_xi; } else
if (tk_xi >= 0 && (tk_ai[j] < 0 || tk_x < tk_av[j] || (tk_x == tk_av[j] && tk_xi < tk_ai[j]))) { tk_av[j] = tk_x; tk_ai[j] = tk_xi; }
}}
{
const bool tk_up = (tk_tid >> 0) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 1));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 1));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
{
const bool tk_up = (tk_tid >> 1) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 2));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 2));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
{
const bool tk_up = (tk_tid >> 2) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 4));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 4));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
{
const bool tk_up = (tk_tid >> 3) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 8));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 8));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
{
const bool tk_up = (tk_tid >> 4) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 16));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 16));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
{
const bool tk_up = (tk_tid >> 5) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_yv = ((float)__shfl_xor((float)(tk_av[j]), 32));
const int tk_yi = ((tk_i32)__shfl_xor((int)(tk_ai[j]), 32));
(void)tk_up;
if (tk_yi >= 0 && (tk_ai[j] < 0 || tk_yv < tk_av[j] || (tk_yv == tk_av[j] && tk_yi < tk_ai[j]))) { tk_av[j] = tk_yv; tk_ai[j] = tk_yi; }
}}
const int tk_acc = tk_ai[0] < 0 ? 0 : tk_ai[0];
s22 = tk_acc;
}
/* 25: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s3;
bool tk_m = tk_ok25; (void)tk_m;
if (tk_m) { *(tk_u32 *)(tk_a) = ((tk_u32)(s22)); }
  }
}}
/* 26: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (64 threads, 128 bytes of shared memory)
