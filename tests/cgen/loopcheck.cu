// ---- tritsim: CUDA source of row_sum (num_warps 1)
extern "C" __global__ void __launch_bounds__(32)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, int p2, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
unsigned int tk_all = ~0u;   /* a bit for each access whose test at the entry passed (cg_emit_entry_checks) */
bool tk_ok18;   /* 18: checked at 13 (cgen_check.c) */
bool tk_ok25;   /* 25: checked at 24 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_i32 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_u64 s5; (void)s5;
float s6[1]; (void)s6;
tk_i32 s7; (void)s7;
tk_i32 s8; (void)s8;
float s9[1]; (void)s9;
tk_i32 s10; (void)s10;
bool s11; (void)s11;
tk_i32 s12[1]; (void)s12;
tk_i32 s13[1]; (void)s13;
tk_u64 s14[1]; (void)s14;
bool s15[1]; (void)s15;
float s16; (void)s16;
float s17[1]; (void)s17;
float s18[1]; (void)s18;
tk_u64 s19; (void)s19;
float s20; (void)s20;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_i32)p2;
/* 3: program_id */
s3 = (tk_i32)blockIdx.x;
/* 4: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s4 = ((tk_i32)((tk_u32)(s3) * (tk_u32)(s2))); }
/* 5: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s5 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s4) * 4ull); }
/* 6: const */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s6[r] = (0x0p+0f);
  }
}}
/* 7: const */
s7 = ((tk_i32)0ll);
/* 8: const */
s8 = ((tk_i32)8ll);
/* 9: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s9[r] = (0x0p+0f);
  }
}}
/* 10: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = s7; }
/* the accesses of whole loops, tested for all their rounds at the kernel's entry (cgen_check.c) */
{
__shared__ unsigned int tk_alls;
{ /* 18: its first round's lines into L2 while the tests run */
const tk_i32 s10 = (tk_i32)(((tk_i64)0ll));
TK_MU const tk_u64 tk_h5b = (tk_u64)s5;
TK_MU const tk_i64 tk_h10b = (tk_i64)s10, tk_h10n = tk_h10b, tk_h10x = tk_h10b;
TK_MU const tk_i64 tk_h12b = 0ll, tk_h12n = tk_h12b, tk_h12x = tk_h12b + 7ll;
TK_MU const tk_i64 tk_h13b = (tk_i64)((tk_u64)tk_h10b + (tk_u64)tk_h12b);
TK_MU const tk_i64 tk_h13n = (tk_i64)((tk_u64)tk_h10n + (tk_u64)tk_h12n), tk_h13x = (tk_i64)((tk_u64)tk_h10x + (tk_u64)tk_h12x);
TK_MU const tk_u64 tk_h14b = tk_h5b + (tk_u64)tk_h13b * 4ull;
TK_MU const tk_i64 tk_h2b = (tk_i64)s2, tk_h2n = tk_h2b, tk_h2x = tk_h2b;
TK_MU const tk_i64 tk_h15c = (tk_i64)((tk_u64)tk_h13b - (tk_u64)tk_h2b);
TK_MU tk_i64 tk_h15l0, tk_h15h0;
tk_span(tk_h15c, 1ll, 8ll, &tk_h15l0, &tk_h15h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 8ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_s = tk_h14b + (tk_u64)tk_ol, tk_e = tk_s + (tk_u64)(tk_oh - tk_ol) + 4ull;
const tk_u64 tk_a0 = tk_s < tk_lo0 ? tk_lo0 : tk_s, tk_a1 = tk_e > tk_hi0 ? tk_hi0 : tk_e;
if ((tk_u64)(tk_oh - tk_ol) < 32ull && tk_a0 < tk_a1) {
  const tk_u64 tk_a = (tk_a0 & ~127ull) + (tk_u64)tk_tid * 128ull;
  if (tk_a < tk_a1) asm volatile("prefetch.global.L2 [%0];" :: "l"(tk_a < tk_a0 ? tk_a0 : tk_a));
}
}
if (tk_tid == 0) {
unsigned int tk_all = ~0u;
{
bool tk_wok = true;
const tk_i64 tk_ws = ((tk_i64)0ll), tk_wb = ((tk_i64)s2);
const tk_i64 tk_wd = tk_wb - tk_ws - 1;
const bool tk_wr = tk_wd >= 0;
const tk_i64 tk_wn = tk_wr ? tk_wd / 8ll : 0, tk_wl = tk_ws + tk_wn * 8ll;
tk_wok = tk_ws >= -1073741824ll && tk_ws <= 1073741824ll && tk_wb >= -1073741824ll && tk_wb <= 1073741824ll && tk_wl + 8ll >= -2147483648ll && tk_wl + 8ll <= 2147483647ll;
bool tk_w18 = tk_wok;
if (tk_wr && tk_wok) {
{ /* 18 */
const tk_i32 s10 = (tk_i32)(tk_wl);
{
TK_MU const tk_u64 tk_h5b = (tk_u64)s5;
TK_MU const tk_i64 tk_h10b = (tk_i64)s10, tk_h10n = tk_h10b, tk_h10x = tk_h10b;
TK_MU const tk_i64 tk_h12b = 0ll, tk_h12n = tk_h12b, tk_h12x = tk_h12b + 7ll;
TK_MU const tk_i64 tk_h13b = (tk_i64)((tk_u64)tk_h10b + (tk_u64)tk_h12b);
TK_MU const tk_i64 tk_h13n = (tk_i64)((tk_u64)tk_h10n + (tk_u64)tk_h12n), tk_h13x = (tk_i64)((tk_u64)tk_h10x + (tk_u64)tk_h12x);
TK_MU const tk_u64 tk_h14b = tk_h5b + (tk_u64)tk_h13b * 4ull;
TK_MU const tk_i64 tk_h2b = (tk_i64)s2, tk_h2n = tk_h2b, tk_h2x = tk_h2b;
TK_MU const tk_i64 tk_h15c = (tk_i64)((tk_u64)tk_h13b - (tk_u64)tk_h2b);
TK_MU tk_i64 tk_h15l0, tk_h15h0;
tk_span(tk_h15c, 1ll, 8ll, &tk_h15l0, &tk_h15h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = tk_h15l0, tk_e = tk_h15h0;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h14b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w18 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w18 &= !!(tk_h12n >= -1073741824ll);
tk_w18 &= !!(tk_h12x <= 1073741824ll);
tk_w18 &= !!(tk_h13n >= -1073741824ll);
tk_w18 &= !!(tk_h13x <= 1073741824ll);
}
}
if (tk_wn > 0) {
{ /* 18, every lane */
const tk_i32 s10 = (tk_i32)(tk_ws);
{
TK_MU const tk_u64 tk_h5b = (tk_u64)s5;
TK_MU const tk_i64 tk_h10b = (tk_i64)s10, tk_h10n = tk_h10b, tk_h10x = tk_h10b;
TK_MU const tk_i64 tk_h12b = 0ll, tk_h12n = tk_h12b, tk_h12x = tk_h12b + 7ll;
TK_MU const tk_i64 tk_h13b = (tk_i64)((tk_u64)tk_h10b + (tk_u64)tk_h12b);
TK_MU const tk_i64 tk_h13n = (tk_i64)((tk_u64)tk_h10n + (tk_u64)tk_h12n), tk_h13x = (tk_i64)((tk_u64)tk_h10x + (tk_u64)tk_h12x);
TK_MU const tk_u64 tk_h14b = tk_h5b + (tk_u64)tk_h13b * 4ull;
TK_MU const tk_i64 tk_h2b = (tk_i64)s2, tk_h2n = tk_h2b, tk_h2x = tk_h2b;
TK_MU const tk_i64 tk_h15c = (tk_i64)((tk_u64)tk_h13b - (tk_u64)tk_h2b);
TK_MU tk_i64 tk_h15l0, tk_h15h0;
tk_span(tk_h15c, 1ll, 8ll, &tk_h15l0, &tk_h15h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 8ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h14b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w18 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w18 &= !!(tk_h12n >= -1073741824ll);
tk_w18 &= !!(tk_h12x <= 1073741824ll);
tk_w18 &= !!(tk_h13n >= -1073741824ll);
tk_w18 &= !!(tk_h13x <= 1073741824ll);
}
}
{ /* 18, every lane */
const tk_i32 s10 = (tk_i32)(tk_wl - (8ll));
{
TK_MU const tk_u64 tk_h5b = (tk_u64)s5;
TK_MU const tk_i64 tk_h10b = (tk_i64)s10, tk_h10n = tk_h10b, tk_h10x = tk_h10b;
TK_MU const tk_i64 tk_h12b = 0ll, tk_h12n = tk_h12b, tk_h12x = tk_h12b + 7ll;
TK_MU const tk_i64 tk_h13b = (tk_i64)((tk_u64)tk_h10b + (tk_u64)tk_h12b);
TK_MU const tk_i64 tk_h13n = (tk_i64)((tk_u64)tk_h10n + (tk_u64)tk_h12n), tk_h13x = (tk_i64)((tk_u64)tk_h10x + (tk_u64)tk_h12x);
TK_MU const tk_u64 tk_h14b = tk_h5b + (tk_u64)tk_h13b * 4ull;
TK_MU const tk_i64 tk_h2b = (tk_i64)s2, tk_h2n = tk_h2b, tk_h2x = tk_h2b;
TK_MU const tk_i64 tk_h15c = (tk_i64)((tk_u64)tk_h13b - (tk_u64)tk_h2b);
TK_MU tk_i64 tk_h15l0, tk_h15h0;
tk_span(tk_h15c, 1ll, 8ll, &tk_h15l0, &tk_h15h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 8ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h14b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w18 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w18 &= !!(tk_h12n >= -1073741824ll);
tk_w18 &= !!(tk_h12x <= 1073741824ll);
tk_w18 &= !!(tk_h13n >= -1073741824ll);
tk_w18 &= !!(tk_h13x <= 1073741824ll);
}
}
}
}
if (!tk_w18) tk_all &= ~0x1u;
}
{
bool tk_wok = true;
bool tk_w25 = tk_wok;
{ /* 25 */
const tk_u64 s19 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s3) * 4ull);
{
TK_MU const tk_u64 tk_h19b = (tk_u64)s19;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_w25 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
}
}
if (!tk_w25) tk_all &= ~0x2u;
}
tk_alls = tk_all;
}
__syncthreads();
tk_all = tk_alls;
}
/* every test of the entry passed: the program as --unchecked makes it (cgen.c, emit_unchecked_copy) */
if (tk_all == ~0u) {
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_i32 s2; (void)s2;
tk_i32 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_u64 s5; (void)s5;
float s6[1]; (void)s6;
tk_i32 s7; (void)s7;
tk_i32 s8; (void)s8;
float s9[1]; (void)s9;
tk_i32 s10; (void)s10;
bool s11; (void)s11;
tk_i32 s12[1]; (void)s12;
tk_i32 s13[1]; (void)s13;
tk_u64 s14[1]; (void)s14;
bool s15[1]; (void)s15;
float s16; (void)s16;
float s17[1]; (void)s17;
float s18[1]; (void)s18;
tk_u64 s19; (void)s19;
float s20; (void)s20;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_i32)p2;
/* 3: program_id */
s3 = (tk_i32)blockIdx.x;
/* 4: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s4 = ((tk_i32)((tk_u32)(s3) * (tk_u32)(s2))); }
/* 5: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s5 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s4) * 4ull); }
/* 6: const */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s6[r] = (0x0p+0f);
  }
}}
/* 7: const */
s7 = ((tk_i32)0ll);
/* 8: const */
s8 = ((tk_i32)8ll);
/* 9: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s9[r] = (0x0p+0f);
  }
}}
/* 10: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = s7; }
LF11:;
/* 11: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s11 = ((s10) < (s2)); }
/* 12: branch */
if (!(s11)) goto LF23;
/* 13: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s12[r] = (tk_i32)(0 + e);
  }
}}
/* 14: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s13[r] = ((tk_i32)((tk_u32)(s10) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 15: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s14[r] = ((tk_u64)(s5) + (tk_u64)(tk_i64)(s13[r]) * 4ull);
  }
}}
/* 16: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s15[r] = ((s13[r]) < (s2));
  }
}}
/* 17: const */
s16 = (0x0p+0f);
/* 18: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s14[r];
bool tk_m = s15[r]; (void)tk_m;
if (tk_m) s17[r] = (*(const float *)(tk_a)); else s17[r] = s16;
  }
}}
/* 19: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s18[r] = __fadd_rn(s9[r], s17[r]);
  }
}}
/* 20: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s9[r] = s18[r];
  }
}}
/* 21: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = ((tk_i32)((tk_u32)(s10) + (tk_u32)(s8))); }
/* 22: jump */
goto LF11;
LF23:;
/* 23: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s19 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s3) * 4ull); }
/* 24: reduce */
{
float tk_a[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 1; i++) {
const int r = (0); (void)r;
const float tk_x = ((float)s9[r]);
if (i == 0) tk_a[j] = tk_x; else { const float tk_lo = tk_a[j], tk_hi = tk_x; tk_a[j] = __fadd_rn(tk_lo, tk_hi); }
}}
{
const bool tk_up = (tk_tid >> 0) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 1));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 1) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 2));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 2) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 4));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
const float tk_acc = tk_a[0];
s20 = tk_acc;
}
/* 25: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s19;
bool tk_m = true; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s20); }
  }
}}
/* 26: return */
return;
return;
}
L11:;
/* 11: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s11 = ((s10) < (s2)); }
/* 12: branch */
if (!(s11)) goto L23;
/* 18: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok18 = (tk_all >> 0) & 1u;
if (!tk_ok18) {
  tk_ok18 = tk_find18(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s5, s10);
  if (!tk_ok18) tk_bad = 1;
  tk_ok18 = !__syncthreads_or(!tk_ok18);
}
/* 13: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s12[r] = (tk_i32)(0 + e);
  }
}}
/* 14: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s13[r] = ((tk_i32)((tk_u32)(s10) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 15: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s14[r] = ((tk_u64)(s5) + (tk_u64)(tk_i64)(s13[r]) * 4ull);
  }
}}
/* 16: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s15[r] = ((s13[r]) < (s2));
  }
}}
/* 17: const */
s16 = (0x0p+0f);
/* 18: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s14[r];
bool tk_m = s15[r] && tk_ok18; (void)tk_m;
if (tk_m) s17[r] = (*(const float *)(tk_a)); else s17[r] = s16;
  }
}}
/* 19: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s18[r] = __fadd_rn(s9[r], s17[r]);
  }
}}
/* 20: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 8));
  (void)r; (void)e;
  {
s9[r] = s18[r];
  }
}}
/* 21: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = ((tk_i32)((tk_u32)(s10) + (tk_u32)(s8))); }
/* 22: jump */
tk_ep++;
goto L11;
L23:;
/* 23: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s19 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s3) * 4ull); }
/* 25: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok25 = (tk_all >> 1) & 1u;
if (!tk_ok25) {
  tk_ok25 = tk_find25(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s19);
  if (!tk_ok25) tk_bad = 1;
  tk_ok25 = !__syncthreads_or(!tk_ok25);
}
/* 24: reduce */
{
float tk_a[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 1; i++) {
const int r = (0); (void)r;
const float tk_x = ((float)s9[r]);
if (i == 0) tk_a[j] = tk_x; else { const float tk_lo = tk_a[j], tk_hi = tk_x; tk_a[j] = __fadd_rn(tk_lo, tk_hi); }
}}
{
const bool tk_up = (tk_tid >> 0) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 1));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 1) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 2));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
{
const bool tk_up = (tk_tid >> 2) & 1;
#pragma unroll
for (int j = 0; j < 1; j++) {
const float tk_y = ((float)__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 4));
const float tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;
tk_a[j] = __fadd_rn(tk_lo, tk_hi);
}}
const float tk_acc = tk_a[0];
s20 = tk_acc;
}
/* 25: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s19;
bool tk_m = tk_ok25; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s20); }
  }
}}
/* 26: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (32 threads, 0 bytes of shared memory)
