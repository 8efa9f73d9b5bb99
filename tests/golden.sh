# golden.sh - TAP runner for golden-file tests, sourced by tests/*.test.
#
#   golden_run lex      tests/lex/X.tk     stdout of `parse --tokens`  = X.tokens
#   golden_run parse    tests/parse/X.tk   stdout of `parse --ast`     = X.ast
#                                          (and `--ast --spans` = X.spans if present)
#   golden_run errors   tests/errors/X.tk  stderr of `parse`           = X.err,
#                                          exit status 1
#   golden_run_programs DIR THREADS...
#                       tests/DIR/X.tk     stdout+stderr of `run --threads T`
#                                          = X.out for every T, exit status
#                                          = X.status (default 0)
#   golden_run_inside DIR THREADS...
#                       the same, run from inside tests/DIR (below)
#   golden_run_ir NAME...
#                       tests/ir/X.tk      stderr of `run --dump-ir` = X.ir
#                       samples/NAME.tk    the same, = tests/ir/sample-NAME.ir
#                                          (exit status 0; stdout dropped)
#
# Programs run from inside tests/ so messages name `errors/X.tk`.  Set
# GOLDEN_UPDATE=1 to rewrite the expected files instead (then read them!).

: "${TRITSIM:?TRITSIM must name the built program}"
: "${srcdir:=.}"
# The expected outputs follow Triton's GPU rules unless a program sets
# TRITON_INTERPRET itself: a value from the caller's environment is dropped.
unset TRITON_INTERPRET

golden_n=0
golden_failed=0
golden_tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$golden_tmp"' EXIT

# golden_check NAME EXPECTED-FILE GOT-FILE STATUS WANT-STATUS
golden_check() {
    golden_n=$((golden_n + 1))
    if [ -n "${GOLDEN_UPDATE:-}" ]; then
        cp "$3" "$golden_dir/$2"
    fi
    if [ "$4" != "$5" ]; then
        echo "not ok $golden_n - $1 (exit status $4, expected $5)"
        sed 's/^/# /' "$3"
        golden_failed=$((golden_failed + 1))
    elif ! diff -u "$golden_dir/$2" "$3" >"$golden_tmp/diff" 2>&1; then
        echo "not ok $golden_n - $1"
        sed 's/^/# /' "$golden_tmp/diff"
        golden_failed=$((golden_failed + 1))
    else
        echo "ok $golden_n - $1"
    fi
}

golden_run() {
    kind=$1
    golden_dir=$(cd "$srcdir/tests" && pwd) || exit 99
    cd "$golden_dir" || exit 99
    set -- "$kind"/*.tk
    [ -e "$1" ] || { echo "1..0 # SKIP no $kind tests"; exit 0; }
    plan=0
    for tk in "$@"; do
        plan=$((plan + 1))
        [ "$kind" = parse ] && [ -f "${tk%.tk}.spans" ] && plan=$((plan + 1))
    done
    echo "1..$plan"
    for tk in "$@"; do
        base=${tk%.tk}
        out=$golden_tmp/out
        case $kind in
        lex)
            "$TRITSIM" parse --tokens "$tk" >"$out" 2>&1; st=$?
            golden_check "$tk tokens" "$base.tokens" "$out" "$st" 0 ;;
        parse)
            "$TRITSIM" parse --ast "$tk" >"$out" 2>&1; st=$?
            golden_check "$tk ast" "$base.ast" "$out" "$st" 0
            if [ -f "$base.spans" ]; then
                "$TRITSIM" parse --ast --spans "$tk" >"$out" 2>&1; st=$?
                golden_check "$tk spans" "$base.spans" "$out" "$st" 0
            fi ;;
        errors)
            "$TRITSIM" parse "$tk" >/dev/null 2>"$out"; st=$?
            golden_check "$tk diagnostics" "$base.err" "$out" "$st" 1 ;;
        esac
    done
    [ "$golden_failed" -eq 0 ]
}

golden_run_programs() {
    dir=$1
    shift
    golden_dir=$(cd "$srcdir/tests" && pwd) || exit 99
    cd "$golden_dir" || exit 99
    threads=$*
    set -- "$dir"/*.tk
    [ -e "$1" ] || { echo "1..0 # SKIP no $dir tests"; exit 0; }
    nt=0
    for t in $threads; do nt=$((nt + 1)); done
    echo "1..$(($# * nt))"
    for tk in "$@"; do
        base=${tk%.tk}
        want=0
        [ -f "$base.status" ] && want=$(cat "$base.status")
        for t in $threads; do
            "$TRITSIM" run --threads "$t" "$tk" >"$golden_tmp/out" 2>&1 </dev/null; st=$?
            if [ -n "${golden_mask_timings:-}" ]; then
                sed 's/finished after [0-9.]*s;/finished after <T>s;/' "$golden_tmp/out" \
                    >"$golden_tmp/masked" && mv "$golden_tmp/masked" "$golden_tmp/out"
            fi
            golden_check "$tk with $t thread(s)" "$base.out" "$golden_tmp/out" "$st" "$want"
        done
    done
    [ "$golden_failed" -eq 0 ]
}

# golden_run_inside DIR THREADS...
#                       as golden_run_programs, but each program runs from
#                       inside tests/DIR (as `run X.tk`), so that the files
#                       it opens by a bare name are found there and its
#                       messages name `X.tk` (tests/lecture: the lecture's
#                       cells open 'puppy.jpg').
golden_run_inside() {
    dir=$1
    shift
    golden_dir=$(cd "$srcdir/tests/$dir" && pwd) || exit 99
    cd "$golden_dir" || exit 99
    threads=$*
    set -- *.tk
    [ -e "$1" ] || { echo "1..0 # SKIP no $dir tests"; exit 0; }
    nt=0
    for t in $threads; do nt=$((nt + 1)); done
    echo "1..$(($# * nt))"
    for tk in "$@"; do
        base=${tk%.tk}
        want=0
        [ -f "$base.status" ] && want=$(cat "$base.status")
        for t in $threads; do
            "$TRITSIM" run --threads "$t" "$tk" >"$golden_tmp/out" 2>&1 </dev/null; st=$?
            golden_check "$dir/$tk with $t thread(s)" "$base.out" "$golden_tmp/out" "$st" "$want"
        done
    done
    [ "$golden_failed" -eq 0 ]
}

# golden_run_masked DIR THREADS...
#                       as golden_run_programs, but timings are masked in the
#                       output before comparing: "finished after 0.12s"
#                       becomes "finished after <T>s" (tests/tune: autotuning
#                       reports how long it took).
golden_run_masked() {
    golden_mask_timings=1
    golden_run_programs "$@"
}

# golden_run_ir NAME...: the IR listings (`run --dump-ir`, on stderr) of the
# programs in tests/ir and of the lecture's samples/NAME.tk.  A program's
# own output goes to /dev/null; it must succeed.
golden_run_ir() {
    golden_dir=$(cd "$srcdir/tests" && pwd) || exit 99
    cd "$golden_dir" || exit 99
    samples=$*
    set -- ir/*.tk
    [ -e "$1" ] || set --
    plan=$#
    for name in $samples; do plan=$((plan + 1)); done
    echo "1..$plan"
    for tk in "$@"; do
        "$TRITSIM" run --dump-ir "$tk" 2>"$golden_tmp/out" >/dev/null </dev/null; st=$?
        golden_check "$tk IR" "${tk%.tk}.ir" "$golden_tmp/out" "$st" 0
    done
    for name in $samples; do
        "$TRITSIM" run --dump-ir "../samples/$name.tk" -- ../samples/images/pattern.png \
            "$golden_tmp/grey.png" 2>"$golden_tmp/out" >/dev/null </dev/null; st=$?
        golden_check "samples/$name.tk IR" "ir/sample-$name.ir" "$golden_tmp/out" "$st" 0
    done
    [ "$golden_failed" -eq 0 ]
}
