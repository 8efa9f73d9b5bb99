// ---- tritsim: CUDA source of centre (num_warps 2)
extern "C" __global__ void __launch_bounds__(64)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, unsigned long long p3, int p4, int p5, tk_u64 tk_lo0, tk_u64 tk_hi0, tk_u64 tk_c0, tk_u64 tk_lo1, tk_u64 tk_hi1, tk_u64 tk_c1, tk_u64 tk_lo2, tk_u64 tk_hi2, tk_u64 tk_c2, tk_u64 tk_lo3, tk_u64 tk_hi3, tk_u64 tk_c3)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
__shared__ unsigned long long tk_fmin;   /* TK_FIRST */
unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */
volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */
unsigned int tk_all = ~0u;   /* a bit for each access whose test at the entry passed (cg_emit_entry_checks) */
bool tk_ok23;   /* 23: checked at 18 (cgen_check.c) */
bool tk_ok32;   /* 32: checked at 32 (cgen_check.c) */
bool tk_ok42;   /* 42: checked at 38 (cgen_check.c) */
bool tk_ok45;   /* 45: checked at 38 (cgen_check.c) */
bool tk_ok49;   /* 49: checked at 38 (cgen_check.c) */
(void)tk_lo0; (void)tk_hi0; (void)tk_c0;
(void)tk_lo1; (void)tk_hi1; (void)tk_c1;
(void)tk_lo2; (void)tk_hi2; (void)tk_c2;
(void)tk_lo3; (void)tk_hi3; (void)tk_c3;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_u64 s2; (void)s2;
tk_u64 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_i32 s5; (void)s5;
tk_i32 s6; (void)s6;
tk_i32 s7; (void)s7;
tk_u64 s8; (void)s8;
tk_i32 s9; (void)s9;
tk_u64 s10; (void)s10;
float s11[1]; (void)s11;
tk_i32 s12; (void)s12;
tk_i32 s13; (void)s13;
float s14[1]; (void)s14;
tk_i32 s15; (void)s15;
bool s16; (void)s16;
tk_i32 s17[1]; (void)s17;
tk_i32 s18[1]; (void)s18;
tk_u64 s19[1]; (void)s19;
bool s20[1]; (void)s20;
float s21; (void)s21;
float s22[1]; (void)s22;
float s23[1]; (void)s23;
float s24; (void)s24;
float s25; (void)s25;
float s26; (void)s26;
tk_u64 s27; (void)s27;
tk_i32 s28; (void)s28;
tk_i32 s29; (void)s29;
tk_i32 s30; (void)s30;
bool s31; (void)s31;
tk_i32 s32[1]; (void)s32;
tk_i32 s33[1]; (void)s33;
bool s34[1]; (void)s34;
tk_u64 s35[1]; (void)s35;
float s36[1]; (void)s36;
tk_u64 s37[1]; (void)s37;
float s38; (void)s38;
float s39[1]; (void)s39;
tk_u64 s40[1]; (void)s40;
float s41[1]; (void)s41;
float s42[1]; (void)s42;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_u64)p3;
/* 4: arg */
s4 = (tk_i32)p4;
/* 5: arg */
s5 = (tk_i32)p5;
/* 6: program_id */
s6 = (tk_i32)blockIdx.x;
/* 7: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s7 = ((tk_i32)((tk_u32)(s6) * (tk_u32)(s4))); }
/* 8: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s8 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s7) * 4ull); }
/* 9: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s9 = ((tk_i32)((tk_u32)(s6) * (tk_u32)(s4))); }
/* 10: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s9) * 4ull); }
/* 11: const */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s11[r] = (0x0p+0f);
  }
}}
/* 12: const */
s12 = ((tk_i32)0ll);
/* 13: const */
s13 = ((tk_i32)4ll);
/* 14: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s14[r] = (0x0p+0f);
  }
}}
/* 15: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s15 = s12; }
/* the accesses of whole loops, tested for all their rounds at the kernel's entry (cgen_check.c) */
{
__shared__ unsigned int tk_alls;
{ /* 23: its first round's lines into L2 while the tests run */
const tk_i32 s15 = (tk_i32)(((tk_i64)0ll));
TK_MU const tk_u64 tk_h8b = (tk_u64)s8;
TK_MU const tk_i64 tk_h15b = (tk_i64)s15, tk_h15n = tk_h15b, tk_h15x = tk_h15b;
TK_MU const tk_i64 tk_h17b = 0ll, tk_h17n = tk_h17b, tk_h17x = tk_h17b + 3ll;
TK_MU const tk_i64 tk_h18b = (tk_i64)((tk_u64)tk_h15b + (tk_u64)tk_h17b);
TK_MU const tk_i64 tk_h18n = (tk_i64)((tk_u64)tk_h15n + (tk_u64)tk_h17n), tk_h18x = (tk_i64)((tk_u64)tk_h15x + (tk_u64)tk_h17x);
TK_MU const tk_u64 tk_h19b = tk_h8b + (tk_u64)tk_h18b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h20c = (tk_i64)((tk_u64)tk_h18b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h20l0, tk_h20h0;
tk_span(tk_h20c, 1ll, 4ll, &tk_h20l0, &tk_h20h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_s = tk_h19b + (tk_u64)tk_ol, tk_e = tk_s + (tk_u64)(tk_oh - tk_ol) + 4ull;
const tk_u64 tk_a0 = tk_s < tk_lo0 ? tk_lo0 : tk_s, tk_a1 = tk_e > tk_hi0 ? tk_hi0 : tk_e;
if ((tk_u64)(tk_oh - tk_ol) < 16ull && tk_a0 < tk_a1) {
  const tk_u64 tk_a = (tk_a0 & ~127ull) + (tk_u64)tk_tid * 128ull;
  if (tk_a < tk_a1) asm volatile("prefetch.global.L2 [%0];" :: "l"(tk_a < tk_a0 ? tk_a0 : tk_a));
}
}
if (tk_tid == 0) {
unsigned int tk_all = ~0u;
{
bool tk_wok = true;
const tk_i64 tk_ws = ((tk_i64)0ll), tk_wb = ((tk_i64)s5);
const tk_i64 tk_wd = tk_wb - tk_ws - 1;
const bool tk_wr = tk_wd >= 0;
const tk_i64 tk_wn = tk_wr ? tk_wd / 4ll : 0, tk_wl = tk_ws + tk_wn * 4ll;
tk_wok = tk_ws >= -1073741824ll && tk_ws <= 1073741824ll && tk_wb >= -1073741824ll && tk_wb <= 1073741824ll && tk_wl + 4ll >= -2147483648ll && tk_wl + 4ll <= 2147483647ll;
bool tk_w23 = tk_wok;
bool tk_w42 = tk_wok;
bool tk_w49 = tk_wok;
if (tk_wr && tk_wok) {
{ /* 23 */
const tk_i32 s15 = (tk_i32)(tk_wl);
{
TK_MU const tk_u64 tk_h8b = (tk_u64)s8;
TK_MU const tk_i64 tk_h15b = (tk_i64)s15, tk_h15n = tk_h15b, tk_h15x = tk_h15b;
TK_MU const tk_i64 tk_h17b = 0ll, tk_h17n = tk_h17b, tk_h17x = tk_h17b + 3ll;
TK_MU const tk_i64 tk_h18b = (tk_i64)((tk_u64)tk_h15b + (tk_u64)tk_h17b);
TK_MU const tk_i64 tk_h18n = (tk_i64)((tk_u64)tk_h15n + (tk_u64)tk_h17n), tk_h18x = (tk_i64)((tk_u64)tk_h15x + (tk_u64)tk_h17x);
TK_MU const tk_u64 tk_h19b = tk_h8b + (tk_u64)tk_h18b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h20c = (tk_i64)((tk_u64)tk_h18b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h20l0, tk_h20h0;
tk_span(tk_h20c, 1ll, 4ll, &tk_h20l0, &tk_h20h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = tk_h20l0, tk_e = tk_h20h0;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w23 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w23 &= !!(tk_h17n >= -1073741824ll);
tk_w23 &= !!(tk_h17x <= 1073741824ll);
tk_w23 &= !!(tk_h18n >= -1073741824ll);
tk_w23 &= !!(tk_h18x <= 1073741824ll);
}
}
{ /* 42 */
const tk_i32 s30 = (tk_i32)(tk_wl);
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h35b = tk_h2b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = tk_h34l0, tk_e = tk_h34h0;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h35b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_w42 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w42 &= !!(tk_h32n >= -1073741824ll);
tk_w42 &= !!(tk_h32x <= 1073741824ll);
tk_w42 &= !!(tk_h33n >= -1073741824ll);
tk_w42 &= !!(tk_h33x <= 1073741824ll);
}
}
{ /* 49 */
const tk_i32 s30 = (tk_i32)(tk_wl);
{
TK_MU const tk_u64 tk_h10b = (tk_u64)s10;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h40b = tk_h10b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = tk_h34l0, tk_e = tk_h34h0;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h40b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_w49 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w49 &= !!(tk_h32n >= -1073741824ll);
tk_w49 &= !!(tk_h32x <= 1073741824ll);
tk_w49 &= !!(tk_h33n >= -1073741824ll);
tk_w49 &= !!(tk_h33x <= 1073741824ll);
}
}
if (tk_wn > 0) {
{ /* 23, every lane */
const tk_i32 s15 = (tk_i32)(tk_ws);
{
TK_MU const tk_u64 tk_h8b = (tk_u64)s8;
TK_MU const tk_i64 tk_h15b = (tk_i64)s15, tk_h15n = tk_h15b, tk_h15x = tk_h15b;
TK_MU const tk_i64 tk_h17b = 0ll, tk_h17n = tk_h17b, tk_h17x = tk_h17b + 3ll;
TK_MU const tk_i64 tk_h18b = (tk_i64)((tk_u64)tk_h15b + (tk_u64)tk_h17b);
TK_MU const tk_i64 tk_h18n = (tk_i64)((tk_u64)tk_h15n + (tk_u64)tk_h17n), tk_h18x = (tk_i64)((tk_u64)tk_h15x + (tk_u64)tk_h17x);
TK_MU const tk_u64 tk_h19b = tk_h8b + (tk_u64)tk_h18b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h20c = (tk_i64)((tk_u64)tk_h18b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h20l0, tk_h20h0;
tk_span(tk_h20c, 1ll, 4ll, &tk_h20l0, &tk_h20h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w23 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w23 &= !!(tk_h17n >= -1073741824ll);
tk_w23 &= !!(tk_h17x <= 1073741824ll);
tk_w23 &= !!(tk_h18n >= -1073741824ll);
tk_w23 &= !!(tk_h18x <= 1073741824ll);
}
}
{ /* 42, every lane */
const tk_i32 s30 = (tk_i32)(tk_ws);
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h35b = tk_h2b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h35b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_w42 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w42 &= !!(tk_h32n >= -1073741824ll);
tk_w42 &= !!(tk_h32x <= 1073741824ll);
tk_w42 &= !!(tk_h33n >= -1073741824ll);
tk_w42 &= !!(tk_h33x <= 1073741824ll);
}
}
{ /* 49, every lane */
const tk_i32 s30 = (tk_i32)(tk_ws);
{
TK_MU const tk_u64 tk_h10b = (tk_u64)s10;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h40b = tk_h10b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h40b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_w49 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w49 &= !!(tk_h32n >= -1073741824ll);
tk_w49 &= !!(tk_h32x <= 1073741824ll);
tk_w49 &= !!(tk_h33n >= -1073741824ll);
tk_w49 &= !!(tk_h33x <= 1073741824ll);
}
}
{ /* 23, every lane */
const tk_i32 s15 = (tk_i32)(tk_wl - (4ll));
{
TK_MU const tk_u64 tk_h8b = (tk_u64)s8;
TK_MU const tk_i64 tk_h15b = (tk_i64)s15, tk_h15n = tk_h15b, tk_h15x = tk_h15b;
TK_MU const tk_i64 tk_h17b = 0ll, tk_h17n = tk_h17b, tk_h17x = tk_h17b + 3ll;
TK_MU const tk_i64 tk_h18b = (tk_i64)((tk_u64)tk_h15b + (tk_u64)tk_h17b);
TK_MU const tk_i64 tk_h18n = (tk_i64)((tk_u64)tk_h15n + (tk_u64)tk_h17n), tk_h18x = (tk_i64)((tk_u64)tk_h15x + (tk_u64)tk_h17x);
TK_MU const tk_u64 tk_h19b = tk_h8b + (tk_u64)tk_h18b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h20c = (tk_i64)((tk_u64)tk_h18b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h20l0, tk_h20h0;
tk_span(tk_h20c, 1ll, 4ll, &tk_h20l0, &tk_h20h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h19b + (tk_u64)tk_ol - tk_lo0;
const tk_i64 tk_w = (tk_i64)(tk_hi0 - tk_lo0) - 4 - (tk_oh - tk_ol);
tk_w23 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w23 &= !!(tk_h17n >= -1073741824ll);
tk_w23 &= !!(tk_h17x <= 1073741824ll);
tk_w23 &= !!(tk_h18n >= -1073741824ll);
tk_w23 &= !!(tk_h18x <= 1073741824ll);
}
}
{ /* 42, every lane */
const tk_i32 s30 = (tk_i32)(tk_wl - (4ll));
{
TK_MU const tk_u64 tk_h2b = (tk_u64)s2;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h35b = tk_h2b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h35b + (tk_u64)tk_ol - tk_lo2;
const tk_i64 tk_w = (tk_i64)(tk_hi2 - tk_lo2) - 4 - (tk_oh - tk_ol);
tk_w42 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w42 &= !!(tk_h32n >= -1073741824ll);
tk_w42 &= !!(tk_h32x <= 1073741824ll);
tk_w42 &= !!(tk_h33n >= -1073741824ll);
tk_w42 &= !!(tk_h33x <= 1073741824ll);
}
}
{ /* 49, every lane */
const tk_i32 s30 = (tk_i32)(tk_wl - (4ll));
{
TK_MU const tk_u64 tk_h10b = (tk_u64)s10;
TK_MU const tk_i64 tk_h30b = (tk_i64)s30, tk_h30n = tk_h30b, tk_h30x = tk_h30b;
TK_MU const tk_i64 tk_h32b = 0ll, tk_h32n = tk_h32b, tk_h32x = tk_h32b + 3ll;
TK_MU const tk_i64 tk_h33b = (tk_i64)((tk_u64)tk_h30b + (tk_u64)tk_h32b);
TK_MU const tk_i64 tk_h33n = (tk_i64)((tk_u64)tk_h30n + (tk_u64)tk_h32n), tk_h33x = (tk_i64)((tk_u64)tk_h30x + (tk_u64)tk_h32x);
TK_MU const tk_u64 tk_h40b = tk_h10b + (tk_u64)tk_h33b * 4ull;
TK_MU const tk_i64 tk_h5b = (tk_i64)s5, tk_h5n = tk_h5b, tk_h5x = tk_h5b;
TK_MU const tk_i64 tk_h34c = (tk_i64)((tk_u64)tk_h33b - (tk_u64)tk_h5b);
TK_MU tk_i64 tk_h34l0, tk_h34h0;
tk_span(tk_h34c, 1ll, 4ll, &tk_h34l0, &tk_h34h0);
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
{ const tk_i64 tk_l = 0, tk_e = 4ll;
  const tk_i64 tk_u = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)tk_l), tk_v = (tk_i64)((tk_u64)((tk_i64)4ll) * (tk_u64)(tk_e - 1));
  tk_z = tk_z || tk_l >= tk_e;
  tk_ol += tk_u;
  tk_oh += tk_v; }
const tk_u64 tk_r = tk_h40b + (tk_u64)tk_ol - tk_lo1;
const tk_i64 tk_w = (tk_i64)(tk_hi1 - tk_lo1) - 4 - (tk_oh - tk_ol);
tk_w49 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
tk_w49 &= !!(tk_h32n >= -1073741824ll);
tk_w49 &= !!(tk_h32x <= 1073741824ll);
tk_w49 &= !!(tk_h33n >= -1073741824ll);
tk_w49 &= !!(tk_h33x <= 1073741824ll);
}
}
}
}
if (!tk_w23) tk_all &= ~0x9u;
if (!tk_w42) tk_all &= ~0x4u;
if (!tk_w49) tk_all &= ~0x10u;
}
{
bool tk_wok = true;
bool tk_w32 = tk_wok;
{ /* 32 */
const tk_u64 s27 = ((tk_u64)(s3) + (tk_u64)(tk_i64)(s6) * 4ull);
{
TK_MU const tk_u64 tk_h27b = (tk_u64)s27;
tk_i64 tk_ol = 0, tk_oh = 0;
bool tk_z = false;
const tk_u64 tk_r = tk_h27b + (tk_u64)tk_ol - tk_lo3;
const tk_i64 tk_w = (tk_i64)(tk_hi3 - tk_lo3) - 4 - (tk_oh - tk_ol);
tk_w32 &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & ((((tk_u64)tk_r) & 3ull) == 0)));
}
}
if (!tk_w32) tk_all &= ~0x2u;
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
(void)tk_lo2; (void)tk_hi2; (void)tk_c2;
(void)tk_lo3; (void)tk_hi3; (void)tk_c3;
tk_u64 s0; (void)s0;
tk_u64 s1; (void)s1;
tk_u64 s2; (void)s2;
tk_u64 s3; (void)s3;
tk_i32 s4; (void)s4;
tk_i32 s5; (void)s5;
tk_i32 s6; (void)s6;
tk_i32 s7; (void)s7;
tk_u64 s8; (void)s8;
tk_i32 s9; (void)s9;
tk_u64 s10; (void)s10;
float s11[1]; (void)s11;
tk_i32 s12; (void)s12;
tk_i32 s13; (void)s13;
float s14[1]; (void)s14;
tk_i32 s15; (void)s15;
bool s16; (void)s16;
tk_i32 s17[1]; (void)s17;
tk_i32 s18[1]; (void)s18;
tk_u64 s19[1]; (void)s19;
bool s20[1]; (void)s20;
float s21; (void)s21;
float s22[1]; (void)s22;
float s23[1]; (void)s23;
float s24; (void)s24;
float s25; (void)s25;
float s26; (void)s26;
tk_u64 s27; (void)s27;
tk_i32 s28; (void)s28;
tk_i32 s29; (void)s29;
tk_i32 s30; (void)s30;
bool s31; (void)s31;
tk_i32 s32[1]; (void)s32;
tk_i32 s33[1]; (void)s33;
bool s34[1]; (void)s34;
tk_u64 s35[1]; (void)s35;
float s36[1]; (void)s36;
tk_u64 s37[1]; (void)s37;
float s38; (void)s38;
float s39[1]; (void)s39;
tk_u64 s40[1]; (void)s40;
float s41[1]; (void)s41;
float s42[1]; (void)s42;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_u64)p3;
/* 4: arg */
s4 = (tk_i32)p4;
/* 5: arg */
s5 = (tk_i32)p5;
/* 6: program_id */
s6 = (tk_i32)blockIdx.x;
/* 7: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s7 = ((tk_i32)((tk_u32)(s6) * (tk_u32)(s4))); }
/* 8: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s8 = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s7) * 4ull); }
/* 9: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s9 = ((tk_i32)((tk_u32)(s6) * (tk_u32)(s4))); }
/* 10: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s10 = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s9) * 4ull); }
/* 11: const */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s11[r] = (0x0p+0f);
  }
}}
/* 12: const */
s12 = ((tk_i32)0ll);
/* 13: const */
s13 = ((tk_i32)4ll);
/* 14: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s14[r] = (0x0p+0f);
  }
}}
/* 15: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s15 = s12; }
LF16:;
/* 16: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s16 = ((s15) < (s5)); }
/* 17: branch */
if (!(s16)) goto LF28;
/* 18: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s17[r] = (tk_i32)(0 + e);
  }
}}
/* 19: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s18[r] = ((tk_i32)((tk_u32)(s15) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 20: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s19[r] = ((tk_u64)(s8) + (tk_u64)(tk_i64)(s18[r]) * 4ull);
  }
}}
/* 21: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s20[r] = ((s18[r]) < (s5));
  }
}}
/* 22: const */
s21 = (0x0p+0f);
/* 23: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s19[r];
bool tk_m = s20[r]; (void)tk_m;
if (tk_m) s22[r] = (*(const float *)(tk_a)); else s22[r] = s21;
  }
}}
/* 24: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s23[r] = __fadd_rn(s14[r], s22[r]);
  }
}}
/* 25: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s14[r] = s23[r];
  }
}}
/* 26: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s15 = ((tk_i32)((tk_u32)(s15) + (tk_u32)(s13))); }
/* 27: jump */
goto LF16;
LF28:;
/* 28: reduce */
{
float tk_a[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 1; i++) {
const int r = (0); (void)r;
const float tk_x = ((float)s14[r]);
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
const float tk_acc = tk_a[0];
s24 = tk_acc;
}
/* 29: cast */
{ const int r = 0, e = 0; (void)r; (void)e; s25 = __int2float_rn(s5); }
/* 30: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s26 = __fdiv_rn(s24, s25); }
/* 31: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s27 = ((tk_u64)(s3) + (tk_u64)(tk_i64)(s6) * 4ull); }
/* 32: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s27;
bool tk_m = true; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s26); }
  }
}}
/* 33: const */
s28 = ((tk_i32)0ll);
/* 34: const */
s29 = ((tk_i32)4ll);
/* 35: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s30 = s28; }
LF36:;
/* 36: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s31 = ((s30) < (s5)); }
/* 37: branch */
if (!(s31)) goto LF52;
/* 38: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s32[r] = (tk_i32)(0 + e);
  }
}}
/* 39: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s33[r] = ((tk_i32)((tk_u32)(s30) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 40: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s34[r] = ((s33[r]) < (s5));
  }
}}
/* 41: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s35[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 42: load */
__syncthreads();
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s35[r];
bool tk_m = s34[r]; (void)tk_m;
if (tk_m) s36[r] = (*(const float *)(tk_a)); else s36[r] = (0x0p+0f);
  }
}}
/* 43: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s37[r] = ((tk_u64)(s8) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 44: const */
s38 = (0x0p+0f);
/* 45: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s37[r];
bool tk_m = s34[r]; (void)tk_m;
if (tk_m) s39[r] = (*(const float *)(tk_a)); else s39[r] = s38;
  }
}}
/* 46: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s40[r] = ((tk_u64)(s10) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 47: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s41[r] = __fsub_rn(s39[r], s26);
  }
}}
/* 48: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s42[r] = __fmul_rn(s41[r], s36[r]);
  }
}}
/* 49: store */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  if (tk_tid < 4)
  {
const tk_u64 tk_a = s40[r];
bool tk_m = s34[r]; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s42[r]); }
  }
}}
/* 50: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s30 = ((tk_i32)((tk_u32)(s30) + (tk_u32)(s29))); }
/* 51: jump */
goto LF36;
LF52:;
/* 52: return */
return;
return;
}
L16:;
/* 16: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s16 = ((s15) < (s5)); }
/* 17: branch */
if (!(s16)) goto L28;
/* 23: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok23 = (tk_all >> 0) & 1u;
if (!tk_ok23) {
  tk_ok23 = tk_find23(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s5, s8, s15);
  if (!tk_ok23) tk_bad = 1;
  tk_ok23 = !__syncthreads_or(!tk_ok23);
}
/* 18: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s17[r] = (tk_i32)(0 + e);
  }
}}
/* 19: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s18[r] = ((tk_i32)((tk_u32)(s15) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 20: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s19[r] = ((tk_u64)(s8) + (tk_u64)(tk_i64)(s18[r]) * 4ull);
  }
}}
/* 21: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s20[r] = ((s18[r]) < (s5));
  }
}}
/* 22: const */
s21 = (0x0p+0f);
/* 23: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s19[r];
bool tk_m = s20[r] && tk_ok23; (void)tk_m;
if (tk_m) s22[r] = (*(const float *)(tk_a)); else s22[r] = s21;
  }
}}
/* 24: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s23[r] = __fadd_rn(s14[r], s22[r]);
  }
}}
/* 25: copy */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s14[r] = s23[r];
  }
}}
/* 26: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s15 = ((tk_i32)((tk_u32)(s15) + (tk_u32)(s13))); }
/* 27: jump */
tk_ep++;
goto L16;
L28:;
/* 28: reduce */
{
float tk_a[1];
#pragma unroll
for (int j = 0; j < 1; j++) {
#pragma unroll
for (int i = 0; i < 1; i++) {
const int r = (0); (void)r;
const float tk_x = ((float)s14[r]);
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
const float tk_acc = tk_a[0];
s24 = tk_acc;
}
/* 29: cast */
{ const int r = 0, e = 0; (void)r; (void)e; s25 = __int2float_rn(s5); }
/* 30: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s26 = __fdiv_rn(s24, s25); }
/* 31: ptr_add */
{ const int r = 0, e = 0; (void)r; (void)e; s27 = ((tk_u64)(s3) + (tk_u64)(tk_i64)(s6) * 4ull); }
/* 32: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok32 = (tk_all >> 1) & 1u;
if (!tk_ok32) {
  tk_ok32 = tk_find32(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s27);
  if (!tk_ok32) tk_bad = 1;
  tk_ok32 = !__syncthreads_or(!tk_ok32);
}
/* 32: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s27;
bool tk_m = tk_ok32; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s26); }
  }
}}
/* 33: const */
s28 = ((tk_i32)0ll);
/* 34: const */
s29 = ((tk_i32)4ll);
/* 35: copy */
{ const int r = 0, e = 0; (void)r; (void)e; s30 = s28; }
L36:;
/* 36: cmp */
{ const int r = 0, e = 0; (void)r; (void)e; s31 = ((s30) < (s5)); }
/* 37: branch */
if (!(s31)) goto L52;
/* 42: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok42 = (tk_all >> 2) & 1u;
if (!tk_ok42) {
  tk_ok42 = tk_find42(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s2, s5, s30);
  if (!tk_ok42) tk_bad = 1;
  tk_ok42 = !__syncthreads_or(!tk_ok42);
}
/* 45: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok45 = (tk_all >> 3) & 1u;
if (!tk_ok45) {
  tk_ok45 = tk_find45(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s5, s8, s30);
  if (!tk_ok45) tk_bad = 1;
  tk_ok45 = !__syncthreads_or(!tk_ok45);
}
/* 49: its lanes' addresses in closed form, checked at once (cgen_check.c) */
tk_ok49 = (tk_all >> 4) & 1u;
if (!tk_ok49) {
  tk_ok49 = tk_find49(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep, s5, s10, s30);
  if (!tk_ok49) tk_bad = 1;
  tk_ok49 = !__syncthreads_or(!tk_ok49);
}
/* 38: arange */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s32[r] = (tk_i32)(0 + e);
  }
}}
/* 39: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s33[r] = ((tk_i32)((tk_u32)(s30) + (tk_u32)(((tk_i32)(0 + (e))))));
  }
}}
/* 40: cmp */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s34[r] = ((s33[r]) < (s5));
  }
}}
/* 41: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s35[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 42: load */
__syncthreads();
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s35[r];
bool tk_m = s34[r] && tk_ok42; (void)tk_m;
if (tk_m) s36[r] = (*(const float *)(tk_a)); else s36[r] = (0x0p+0f);
  }
}}
/* 43: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s37[r] = ((tk_u64)(s8) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 44: const */
s38 = (0x0p+0f);
/* 45: load */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
const tk_u64 tk_a = s37[r];
bool tk_m = s34[r] && tk_ok45; (void)tk_m;
if (tk_m) s39[r] = (*(const float *)(tk_a)); else s39[r] = s38;
  }
}}
/* 46: ptr_add */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s40[r] = ((tk_u64)(s10) + (tk_u64)(tk_i64)(s33[r]) * 4ull);
  }
}}
/* 47: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s41[r] = __fsub_rn(s39[r], s26);
  }
}}
/* 48: binary */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  {
s42[r] = __fmul_rn(s41[r], s36[r]);
  }
}}
/* 49: store */
{ { const int r = 0; const int e = ((int)(tk_tid % 4));
  (void)r; (void)e;
  if (tk_tid < 4)
  {
const tk_u64 tk_a = s40[r];
bool tk_m = s34[r] && tk_ok49; (void)tk_m;
if (tk_m) { *(float *)(tk_a) = (s42[r]); }
  }
}}
/* 50: binary */
{ const int r = 0, e = 0; (void)r; (void)e; s30 = ((tk_i32)((tk_u32)(s30) + (tk_u32)(s29))); }
/* 51: jump */
tk_ep++;
goto L36;
L52:;
/* 52: return */
if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }
return;
}
// ---- end (64 threads, 0 bytes of shared memory)
