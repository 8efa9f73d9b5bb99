#!/bin/sh
# tests/gpu/smoke.sh - the CUDA backend's first check on a machine with an
# NVIDIA GPU: a few programs run with --backend cuda must print what the
# CPU prints, and the second run of each must load its kernels from the
# disk cache (a fresh cache folder, so the first run compiles).
#
#   tests/gpu/smoke.sh [TRITSIM]      (default ./tritsim of the repository)
#
# Exit status: 0 all same, 1 a difference (shown), 77 no usable GPU (the
# reason is printed: tritsim's own message for --backend cuda).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
tritsim=${1:-$top/tritsim}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TRITSIM_CACHE_DIR="$tmp/cache"

# a kernel without prints (prints are not decoded on the GPU yet)
cat >"$tmp/add.tk" <<'TK'
import torch
import triton
import triton.language as tl


@triton.jit
def add1(x_ptr, z_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    mask = offs < n
    tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask) * 2.0 + 1.5, mask)


x = torch.arange(1000, device="cuda", dtype=torch.float32)
z = torch.zeros_like(x)
add1[(8,)](x, z, 1000, 128)
print(z[:5], z[-3:])
add1[(8,)](x, z, 1000, 128, num_warps=8)
print(z.sum())
TK
# an out-of-bounds store: the same message as the CPU's, exit status 1
cat >"$tmp/oob.tk" <<'TK'
import torch
import triton
import triton.language as tl


@triton.jit
def oob(z_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(z_ptr + offs, offs)


z = torch.zeros(6, device="cuda", dtype=torch.int32)
oob[(1,)](z, 8)
TK

if ! "$tritsim" run --backend cuda "$tmp/add.tk" >"$tmp/probe" 2>&1 &&
   grep -q "cannot run kernels with --backend cuda" "$tmp/probe"; then
    sed 's/^/# /' "$tmp/probe"
    echo "1..0 # SKIP no usable GPU"
    exit 77
fi

n=0
failed=0
# same NAME ARGS...: cpu and cuda outputs (and exit statuses) identical
same() {
    name=$1
    shift
    n=$((n + 1))
    (cd "$top" && "$tritsim" run "$@") >"$tmp/cpu.out" 2>&1
    cs=$?
    (cd "$top" && "$tritsim" run --backend cuda "$@") >"$tmp/gpu.out" 2>&1
    gs=$?
    if [ "$cs" = "$gs" ] && cmp -s "$tmp/cpu.out" "$tmp/gpu.out"; then
        echo "ok $n - $name: the same output as the CPU (status $cs)"
    else
        echo "not ok $n - $name: status cpu $cs, cuda $gs"
        diff "$tmp/cpu.out" "$tmp/gpu.out" | sed 's/^/# /' | head -40
        failed=$((failed + 1))
    fi
}

rm -rf "$tmp/cache"
same "add.tk (compiled)" "$tmp/add.tk"
entries=$(ls "$tmp/cache" 2>/dev/null | grep -c '\.cubin$')
n=$((n + 1))
if [ "$entries" -ge 2 ]; then
    echo "ok $n - the cache holds $entries cubins (num_warps 4 and 8)"
else
    echo "not ok $n - the cache holds $entries cubins, expected 2"
    failed=$((failed + 1))
fi
same "add.tk (from the cache)" "$tmp/add.tk"
same "add.tk --unchecked" --unchecked "$tmp/add.tk"
same "oob.tk: out-of-bounds store" "$tmp/oob.tk"
same "samples/copy.tk" samples/copy.tk
echo "1..$n"
[ "$failed" = 0 ]
