#!/bin/sh
# python-check.sh - the evidence that tritsim's host language is Python's:
# every tests/run/X.tk whose second line is "# python3: same output" must
# print, under CPython, exactly the X.out that tritsim is tested against.
# Run from anywhere; needs python3 (3.11 or later).  Not part of make check.
cd "$(dirname "$0")/.." || exit 2
status=0
for tk in run/*.tk; do
    sed -n 2p "$tk" | grep -q '^# python3: same output' || continue
    base=${tk%.tk}
    args=
    [ -f "$base.args" ] && args=$(cat "$base.args")
    py=python3
    # a test of the pytest or packaging module needs an interpreter that has it
    for m in pytest packaging; do
        if grep -q "^\(import\|from\) $m\b" "$tk" && ! python3 -c "import $m" 2>/dev/null; then
            py=/usr/bin/python3
        fi
    done
    # shellcheck disable=SC2086
    if PYTHONDONTWRITEBYTECODE=1 $py -u "$tk" $args 2>&1 | diff -u "$base.out" - >/dev/null; then
        echo "same: $tk"
    else
        echo "DIFFERENT: $tk"
        status=1
    fi
done
exit $status
