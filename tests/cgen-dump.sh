# cgen-dump.sh - sourced by cgen-nvrtc.test and cgen-hip.test: the GPU
# source the emitter makes of each kernel of a program, one file per
# kernel and num_warps, from `tritsim run --dump-cuda` or `--dump-hip` on
# the CPU backend (no GPU needed).
#
#   cgen_dump_init DIR EXT     files go to DIR/NNNN.EXT, numbered on from 1
#   cgen_dump NAME ARGS...     `$TRITSIM run $cgen_dump_opt ARGS...`, its
#                              kernels filed; NAME is the program, named in
#                              each file's first line (the dump's header)
#   cgen_dump_count            how many files so far
#   cgen_dump_programs TMP     every program of tests/kernels,
#                              tests/tutorials, tests/cgen, samples (TMP
#                              takes their output images) and bench/gpu
#                              (with --dry)
# Kernels the emitter refused are listed in DIR/none.  Set cgen_dump_opt
# to --dump-cuda or --dump-hip first; run from the source tree's top.

cgen_dump_init() {
    cgen_dump_dir=$1
    cgen_dump_ext=$2
    mkdir -p "$cgen_dump_dir" || exit 99
    echo 0 >"$cgen_dump_dir/count"
}

cgen_dump_count() {
    cat "$cgen_dump_dir/count"
}

cgen_dump() {
    _prog=$1
    shift
    "$TRITSIM" run "$cgen_dump_opt" "$@" </dev/null 2>&1 >/dev/null |
        awk -v dir="$cgen_dump_dir" -v ext="$cgen_dump_ext" -v prog="$_prog" \
            -v first="$(cgen_dump_count)" -v none="$cgen_dump_dir/none" \
            -v countf="$cgen_dump_dir/count" '
        BEGIN { n = first }
        /^\/\/ ---- tritsim: (CUDA|HIP) source of / {
            n++; f = sprintf("%s/%04d.%s", dir, n, ext)
            print $0 " in " prog > f; next }
        /^\/\/ ---- end / { close(f); f = ""; next }
        /^\/\/ ---- none: / { print prog ": " $0 >> none; next }
        f != "" { print > f }
        END { print n > countf }'
}

cgen_dump_programs() {
    for _tk in tests/kernels/*.tk tests/tutorials/*.tk tests/cgen/*.tk; do
        (cd tests && cgen_dump "$_tk" "${_tk#tests/}")
    done
    for _tk in samples/*.tk; do
        cgen_dump "$_tk" "$_tk" -- samples/images/pattern.png "$1/grey.png"
    done
    for _tk in bench/gpu/*.tk; do
        cgen_dump "$_tk" "$_tk" -- --dry
    done
}
