#!/bin/sh
# triton-compare.sh - run tritsim's test programs under real Triton and say,
# for each, whether it prints what tritsim's golden file says.
#
#   tools/triton-compare.sh run OUTDIR [DIR...]   on a machine with Triton and a GPU
#   tools/triton-compare.sh diff OUTDIR [DIR...]  here: compare OUTDIR with tests/
#
# DIR is a folder under tests/ (default: kernels tutorials tune).  `run` runs
# every DIR/X.tk with python3 (arguments from DIR/X.args, when there is one)
# from inside tests/, as golden.sh runs tritsim,
# and keeps its stdout+stderr in OUTDIR/DIR/X.out and its exit status in
# OUTDIR/DIR/X.status.  `diff` prints one line per program:
#
#   same        exit status and output as tritsim's golden files
#   both-fail   an expected-error test that Triton refuses too
#   DIFF        the output differs (a unified diff follows, indented)
#   STATUS      Triton exits A where tritsim exits B
#
# `.tk` files are Python: PYTHONPATH=tools gives them the lecture's
# triton_util helpers, which tritsim has built in.
set -u
mode=${1:?usage: triton-compare.sh run|diff OUTDIR [DIR...]}
out=${2:?usage: triton-compare.sh run|diff OUTDIR [DIR...]}
shift 2
[ $# -gt 0 ] || set -- kernels tutorials tune
top=$(cd "$(dirname "$0")/.." && pwd)
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

case $mode in
run)
    # one program at a time per core (each compiles its kernels on the CPU)
    cd "$top/tests" || exit 2
    for d in "$@"; do
        mkdir -p "$out/$d"
        ls "$d"/*.tk
    done | TOP=$top OUT=$out xargs -P "$(nproc)" -I{} sh -c '
        b=${1%.tk}
        args=
        [ -f "$b.args" ] && args=$(cat "$b.args")
        # shellcheck disable=SC2086 # ARGS are split on purpose
        PYTHONPATH="$TOP/tools" PYTHONUNBUFFERED=1 timeout 120 \
            python3 "$1" $args >"$OUT/$b.out" 2>&1
        echo $? >"$OUT/$b.status"' sh {}
    ;;
diff)
    cd "$top/tests" || exit 2
    for d in "$@"; do
        for tk in "$d"/*.tk; do
            b=${tk%.tk}
            [ -f "$out/$b.status" ] || { echo "missing    $b"; continue; }
            want=0
            [ -f "$b.status" ] && want=$(cat "$b.status")
            got=$(cat "$out/$b.status")
            if [ "$want" != 0 ] && [ "$got" != 0 ]; then
                echo "both-fail  $b"
            elif [ "$want" != "$got" ]; then
                echo "STATUS     $b (Triton $got, tritsim $want)"
                tail -n 4 "$out/$b.out" | sed 's/^/      /'
            elif diff -u "$b.out" "$out/$b.out" >/tmp/triton-compare.$$ 2>&1; then
                echo "same       $b"
            else
                echo "DIFF       $b"
                head -n 30 /tmp/triton-compare.$$ | sed 's/^/      /'
            fi
        done
    done
    rm -f /tmp/triton-compare.$$
    ;;
*)
    echo "usage: triton-compare.sh run|diff OUTDIR [DIR...]" >&2
    exit 2
    ;;
esac
