#!/bin/sh
# check-seeds.sh - parse every Python code block of the lecture texts with
# `tritsim parse` and report the ones that fail.  A developer's check, not a
# test (the lecture texts live outside the repository, in ../shared/seeds).
#
#   tools/check-seeds.sh [TRITSIM] [SEEDS-DIR]
#
# Blocks that are not Python are skipped, and listed: ```shell blocks and
# plain blocks of shell commands (pip, git, export, numbered steps) or
# printed output (tensor(...), pid = [0] |, benchmark tables).  A block that
# is only a decorator continues in the next block: the two are joined.
tritsim=${1:-./tritsim}
seeds=${2:-../shared/seeds}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

for md in "$seeds"/*.md; do
    awk -v dir="$tmp" -v base="$(basename "$md" .md)" '
        /^```/ { if (open) { open = 0; close(out); next }
                 open = 1; n++; lang = substr($0, 4)
                 out = sprintf("%s/%s-%03d-line%d.%s", dir, base, n, NR + 1,
                               lang == "shell" ? "shell" : "py"); next }
        open   { print > out }' "$md"
done

ok=0 bad=0 skipped=0
carry=
for f in "$tmp"/*; do
    first=$(grep -v '^[[:space:]]*$' "$f" | head -n 1)
    case $f in *.shell) first="(shell block) $first" ;; esac
    case $first in
    "(shell block)"*|[0-9]*.\ *|pip*|export\ *|dpkg\ *|git\ *|"pid = ["*|tensor\(*|\(tensor*|torch.Size*|"(3, 150"*|*-performance:)
        skipped=$((skipped + 1)); echo "skip  $(basename "$f"): $first"; continue ;;
    esac
    if [ -n "$carry" ]; then
        cat "$carry" "$f" >"$f.joined" && mv "$f.joined" "$f"
        carry=
    fi
    case $first in
    @*) grep -q '^[[:space:]]*def ' "$f" || { carry=$f; echo "join  $(basename "$f") with the next block"; continue; } ;;
    esac
    if "$tritsim" parse "$f" >"$tmp/out" 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1)); echo "FAIL  $(basename "$f")"; sed 's/^/      /' "$tmp/out"
    fi
done
echo "$ok parsed, $bad failed, $skipped skipped (not Python)"
[ "$bad" -eq 0 ]
