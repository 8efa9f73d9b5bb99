// ---- tritsim: CUDA source of reduce (num_warps 1)
extern "C" __global__ void __launch_bounds__(32)
tk_kernel(tk_rt *tk_rt_p, unsigned long long p0, unsigned long long p1, unsigned long long p2, unsigned long long p3)
{
extern __shared__ __align__(16) unsigned char tk_smem[];
const int tk_tid = (int)threadIdx.x;
int tk_bad = 0; (void)tk_bad;
const tk_u64 tk_lo0 = tk_rt_p->arg_lo[0], tk_hi0 = tk_rt_p->arg_hi[0]; (void)tk_lo0; (void)tk_hi0;
const tk_u64 tk_lo1 = tk_rt_p->arg_lo[1], tk_hi1 = tk_rt_p->arg_hi[1]; (void)tk_lo1; (void)tk_hi1;
const tk_u64 tk_lo2 = tk_rt_p->arg_lo[2], tk_hi2 = tk_rt_p->arg_hi[2]; (void)tk_lo2; (void)tk_hi2;
const tk_u64 tk_lo3 = tk_rt_p->arg_lo[3], tk_hi3 = tk_rt_p->arg_hi[3]; (void)tk_lo3; (void)tk_hi3;
tk_u64 s0;
tk_u64 s1;
tk_u64 s2;
tk_u64 s3;
tk_i32 s4[1];
tk_i32 s5[1];
tk_i32 s6;
tk_i32 s7[1];
tk_u64 s8[1];
tk_i32 s9[1];
tk_i32 s10[1];
tk_u64 s11[4];
tk_i32 s12[4];
tk_u64 s13[4];
float s14[4];
tk_i32 s15[1];
tk_u64 s16[1];
float s17[1];
tk_i32 s18[1];
tk_u64 s19[1];
float s20[1];
float s21[4];
tk_i32 s22;
/* 0: arg */
s0 = (tk_u64)p0;
/* 1: arg */
s1 = (tk_u64)p1;
/* 2: arg */
s2 = (tk_u64)p2;
/* 3: arg */
s3 = (tk_u64)p3;
/* 4: arange */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s4[r] = (tk_i32)(0 + e);
  }
}}
/* 5: reshape */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s5[r] = s4[r];
  }
}}
/* 6: const */
s6 = ((tk_i32)16ll);
/* 7: binary */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s7[r] = ((tk_i32)((tk_u32)(s5[r]) * (tk_u32)(s6)));
  }
}}
/* 8: ptr_add */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s8[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(s7[r]) * 4ull);
  }
}}
/* 9: arange */
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  {
s9[r] = (tk_i32)(0 + e);
  }
}}
/* 10: reshape */
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  {
s10[r] = s9[r];
  }
}}
/* 11: broadcast */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
s11[r] = ((tk_u64)(s0) + (tk_u64)(tk_i64)(((tk_i32)((tk_u32)(((tk_i32)(0 + ((((e) / 16)))))) * (tk_u32)(s6)))) * 4ull);
  }
}}
/* 12: broadcast */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
s12[r] = ((tk_i32)(0 + ((((e) % 16)))));
  }
}}
/* 13: ptr_add */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
s13[r] = ((tk_u64)(s11[r]) + (tk_u64)(tk_i64)(s12[r]) * 4ull);
  }
}}
/* 14: load */
{
#pragma unroll
for (int c = 0; c < 1; c++) {
const int r0 = c * 4, e0 = (c * 32 + tk_tid) * 4; (void)e0;
const tk_u64 tk_a0 = s13[r0];
bool tk_v = (tk_a0 & 15ull) == 0 && s13[r0 + 1] == tk_a0 + 4 && s13[r0 + 2] == tk_a0 + 8 && s13[r0 + 3] == tk_a0 + 12 && tk_a0 >= tk_lo0 && tk_a0 + 16 <= tk_hi0 && ((tk_a0 - tk_lo0) & 3ull) == 0;
if (tk_v) {
  const uint4 tk_w = *(const uint4 *)tk_a0;
  s14[r0 + 0] = tk_u2f(((tk_u32)(tk_w.x)));
  s14[r0 + 1] = tk_u2f(((tk_u32)(tk_w.y)));
  s14[r0 + 2] = tk_u2f(((tk_u32)(tk_w.z)));
  s14[r0 + 3] = tk_u2f(((tk_u32)(tk_w.w)));
} else {
#pragma unroll
for (int v = 0; v < 4; v++) {
const int r = r0 + v, e = e0 + v; (void)e;
const tk_u64 tk_a = s13[r];
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo0, tk_hi0, 4)) {
  tk_fault(tk_rt_p, 1, 14, e, tk_a, 0, 0); tk_bad = 1; tk_m = false;
}
if (tk_m) s14[r] = (*(const float *)(tk_a)); else s14[r] = (0x0p+0f);
}}}}
if (__syncthreads_or(tk_bad)) return;
/* 15: arange */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s15[r] = (tk_i32)(0 + e);
  }
}}
/* 16: ptr_add */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
s16[r] = ((tk_u64)(s1) + (tk_u64)(tk_i64)(s15[r]) * 4ull);
  }
}}
/* 17: reduce */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
((float *)(tk_smem + 0))[e] = s14[r];
  }
}}
__syncthreads();
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  {
const long long tk_base = (e / 1) * 16 + e % 1;
const long long tk_end = 15;
float tk_acc = (float)((const float *)tk_smem)[tk_base];
for (long long l = 1; l <= tk_end; l++) {
  const float tk_x = (float)((const float *)tk_smem)[tk_base + l * 1];
  tk_acc = __fadd_rn(tk_acc, tk_x);
}
s17[r] = tk_acc;
  }
}}
/* 18: store */
{ { const int r = 0; const int e = (int)(tk_tid % 8);
  (void)r; (void)e;
  if (tk_tid < 8)
  {
const tk_u64 tk_a = s16[r];
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo1, tk_hi1, 4)) {
  tk_fault(tk_rt_p, 1, 18, e, tk_a, 1, 0); tk_bad = 1; tk_m = false;
}
if (tk_m) { *(float *)(tk_a) = (s17[r]); }
  }
}}
if (__syncthreads_or(tk_bad)) return;
/* 19: arange */
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  {
s18[r] = (tk_i32)(0 + e);
  }
}}
/* 20: ptr_add */
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  {
s19[r] = ((tk_u64)(s2) + (tk_u64)(tk_i64)(s18[r]) * 4ull);
  }
}}
/* 21: reduce */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
((float *)(tk_smem + 0))[e] = s14[r];
  }
}}
__syncthreads();
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  {
const long long tk_base = (e / 16) * 128 + e % 16;
const long long tk_end = 7;
float tk_acc = (float)((const float *)tk_smem)[tk_base];
for (long long l = 1; l <= tk_end; l++) {
  const float tk_x = (float)((const float *)tk_smem)[tk_base + l * 16];
  tk_acc = (isnan(tk_acc) ? tk_x : isnan(tk_x) ? tk_acc : (tk_x > tk_acc ? tk_x : tk_acc));
}
s20[r] = tk_acc;
  }
}}
/* 22: store */
{ { const int r = 0; const int e = (int)(tk_tid % 16);
  (void)r; (void)e;
  if (tk_tid < 16)
  {
const tk_u64 tk_a = s19[r];
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo2, tk_hi2, 4)) {
  tk_fault(tk_rt_p, 1, 22, e, tk_a, 2, 0); tk_bad = 1; tk_m = false;
}
if (tk_m) { *(float *)(tk_a) = (s20[r]); }
  }
}}
if (__syncthreads_or(tk_bad)) return;
/* 23: reshape */
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
s21[r] = s14[r];
  }
}}
/* 24: reduce */
__syncthreads();
{
#pragma unroll
  for (int r = 0; r < 4; r++) {
  const int e = ((r / 4) * 32 + tk_tid) * 4 + r % 4; (void)e;
  {
((float *)(tk_smem + 0))[e] = s21[r];
  }
}}
__syncthreads();
{ { const int e = 0; (void)e; {
const long long tk_base = (e / 1) * 128 + e % 1;
const long long tk_end = 127;
float tk_best = 0; int tk_acc = -1;
for (long long l = 0; l <= tk_end; l++) {
  const float tk_x = ((const float *)tk_smem)[tk_base + l * 1];
  if (isnan(tk_x)) continue;
  if (tk_acc < 0 || tk_x < tk_best) { tk_best = tk_x; tk_acc = (int)l; }
}
if (tk_acc < 0) tk_acc = 0;
s22 = tk_acc;
}}}
/* 25: store */
{ { const int r = 0, e = 0; (void)r; (void)e;
  if (tk_tid == 0) {
const tk_u64 tk_a = s3;
bool tk_m = true; (void)tk_m;
if (tk_m && !tk_in(tk_a, tk_lo3, tk_hi3, 4)) {
  tk_fault(tk_rt_p, 1, 25, e, tk_a, 3, 0); tk_bad = 1; tk_m = false;
}
if (tk_m) { *(tk_u32 *)(tk_a) = ((tk_u32)(s22)); }
  }
}}
if (__syncthreads_or(tk_bad)) return;
/* 26: return */
return;
}
// ---- end (32 threads, 1024 bytes of shared memory)
