#!/bin/bash
# run_all.sh - run the corpus drivers and print a markdown table of results.
#
#   tools/corpus/run_all.sh RUNNER [project | project/kernel ...]
#
# RUNNER is a tritsim binary (each driver runs as `RUNNER run FILE`) or a
# Python with real PyTorch and Triton, such as `python3` (`RUNNER FILE`).
# Without projects, every folder under tools/corpus/drivers/ is run.
#
# Environment:
#   CORPUS_SRC      the projects' code, as setup-sources.sh lays it out
#                   (default: $PWD/corpus-src)
#   CORPUS_TIMEOUT  seconds a driver may run (default 100)
#   CORPUS_JOBS     drivers run at once (default 1)
#   CORPUS_LOGS     where each driver's output is kept
#                   (default: $PWD/corpus-logs/<runner's name>)
#   CORPUS_ARGS     extra arguments for tritsim's `run` (e.g. --threads 2)
#
# Each row: ok when the driver's last RESULT line is `RESULT ok`; otherwise
# fail, with the driver's `RESULT fail: ...` text, or the first `error:`
# line of tritsim's output (the last exception line of Python's), or "no
# RESULT line within N s".  Exit status: 0 when every driver is ok.
# Reads nothing from the terminal; needs bash, awk, sed and xargs.
set -u

here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = --one ]; then
    # one driver: --one RUNNER DRIVER LOGFILE (called through xargs below)
    runner=$2 drv=$3 log=$4
    start=$(date +%s)
    # shellcheck disable=SC2086 # CORPUS_ARGS is split into arguments on purpose
    case $(basename "$runner") in
    tritsim*) set -- "$runner" run ${CORPUS_ARGS:-} "$drv" ;;
    *) set -- "$runner" "$drv" ;;
    esac
    if command -v timeout >/dev/null 2>&1; then
        timeout "$CORPUS_TIMEOUT" "$@" </dev/null >"$log" 2>&1
        rc=$?
    else
        # no timeout(1): a watchdog in the background
        "$@" </dev/null >"$log" 2>&1 &
        pid=$!
        (
            sleep "$CORPUS_TIMEOUT"
            kill -TERM "$pid" 2>/dev/null && echo timeout >"$log.timedout"
        ) >/dev/null 2>&1 &
        dog=$!
        wait "$pid"
        rc=$?
        kill "$dog" 2>/dev/null
        [ -f "$log.timedout" ] && rc=124 && rm -f "$log.timedout"
    fi
    echo "$rc $(($(date +%s) - start))" >"$log.status"
    proj=$(basename "$(dirname "$drv")")
    kern=$(basename "$drv" .py)
    echo "  $proj/${kern#drive_}: exit $rc, $(($(date +%s) - start)) s" >&2
    exit 0
fi

runner=${1:?usage: run_all.sh RUNNER [project | project/kernel ...]}
shift
case $runner in
*/*) [ -x "$runner" ] || {
    echo "run_all.sh: $runner is not an executable" >&2
    exit 2
} ;;
*) command -v "$runner" >/dev/null 2>&1 || {
    echo "run_all.sh: no $runner on PATH" >&2
    exit 2
} ;;
esac
case $runner in */*) runner=$(cd "$(dirname "$runner")" && pwd)/$(basename "$runner") ;; esac

CORPUS_SRC=${CORPUS_SRC:-$PWD/corpus-src}
CORPUS_TIMEOUT=${CORPUS_TIMEOUT:-100}
CORPUS_JOBS=${CORPUS_JOBS:-1}
tag=$(basename "$runner")
CORPUS_LOGS=${CORPUS_LOGS:-$PWD/corpus-logs/$tag}
case $CORPUS_SRC in /*) ;; *) CORPUS_SRC=$PWD/$CORPUS_SRC ;; esac
case $CORPUS_LOGS in /*) ;; *) CORPUS_LOGS=$PWD/$CORPUS_LOGS ;; esac
PYTHONPATH=$here/stubs${PYTHONPATH:+:$PYTHONPATH}
PYTHONDONTWRITEBYTECODE=1
PYTHONUNBUFFERED=1
export CORPUS_SRC CORPUS_TIMEOUT CORPUS_LOGS PYTHONPATH PYTHONDONTWRITEBYTECODE PYTHONUNBUFFERED
[ -d "$CORPUS_SRC" ] || echo "run_all.sh: warning: no $CORPUS_SRC (make it with" \
    "tools/corpus/setup-sources.sh, or set CORPUS_SRC)" >&2

# the drivers, in order
# shellcheck disable=SC2046 # project folders have plain names
[ $# -gt 0 ] || set -- $(cd "$here/drivers" && for d in */; do
    ls "$d"drive_*.py >/dev/null 2>&1 && echo "${d%/}"
done)
list=$CORPUS_LOGS/.drivers
mkdir -p "$CORPUS_LOGS" || exit 2
: >"$list"
for p in "$@"; do
    case $p in
    */*) f=$here/drivers/${p%%/*}/drive_${p#*/}.py
        [ -f "$f" ] && echo "$f" >>"$list" || echo "run_all.sh: no driver $f" >&2 ;;
    *) [ -d "$here/drivers/$p" ] || {
        echo "run_all.sh: no project $p under $here/drivers" >&2
        continue
    }
        ls "$here/drivers/$p"/drive_*.py 2>/dev/null >>"$list" ;;
    esac
done
[ -s "$list" ] || {
    echo "run_all.sh: no drivers to run" >&2
    exit 2
}
while read -r f; do
    mkdir -p "$CORPUS_LOGS/$(basename "$(dirname "$f")")"
done <"$list"

echo "run_all.sh: $(wc -l <"$list" | tr -d ' ') drivers, runner $runner, CORPUS_SRC=$CORPUS_SRC," \
    "${CORPUS_TIMEOUT} s each, $CORPUS_JOBS at once; logs in $CORPUS_LOGS" >&2
while read -r f; do
    p=$(basename "$(dirname "$f")")
    k=$(basename "$f" .py)
    printf '%s\n%s\n' "$f" "$CORPUS_LOGS/$p/${k#drive_}.log"
done <"$list" | xargs -P "$CORPUS_JOBS" -n 2 "${BASH:-bash}" "$here/run_all.sh" --one "$runner"

# the table
table=$CORPUS_LOGS/table.md
{
    echo "| project | kernel | result | reason |"
    echo "| --- | --- | --- | --- |"
} >"$table"
nok=0 n=0
while read -r f; do
    p=$(basename "$(dirname "$f")")
    k=$(basename "$f" .py)
    k=${k#drive_}
    log=$CORPUS_LOGS/$p/$k.log
    rc=1
    [ -f "$log.status" ] && read -r rc _ <"$log.status"
    last=$(grep '^RESULT ' "$log" 2>/dev/null | tail -n 1)
    n=$((n + 1))
    case $last in
    "RESULT ok")
        result=ok reason= ;;
    "RESULT fail"*)
        result=fail reason=${last#RESULT fail}
        reason=${reason#:}
        reason=${reason# } ;;
    *)
        result=fail
        if [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$rc" = 143 ]; then
            reason="no RESULT line within $CORPUS_TIMEOUT s"
        else
            # tritsim: its first located error; Python: the exception's line
            reason=$(grep -m 1 'error: ' "$log" 2>/dev/null)
            [ -n "$reason" ] || reason=$(grep -E '^[A-Za-z_][A-Za-z0-9_.]*(Error|Exception|Interrupt)(:|$)' \
                "$log" 2>/dev/null | tail -n 1)
            [ -n "$reason" ] || reason="no RESULT line (exit status $rc)"
        fi ;;
    esac
    [ "$result" = ok ] && nok=$((nok + 1))
    # shorter paths, and no '|' to break the table
    reason=$(printf '%s' "$reason" | sed -e "s|$CORPUS_SRC/||g" -e 's/|/\\|/g' | cut -c 1-400)
    echo "| $p | $k | $result | $reason |" >>"$table"
done <"$list"
cat "$table"
echo
echo "$nok of $n ok (runner $runner; logs in $CORPUS_LOGS)"
[ "$nok" = "$n" ]
