#!/bin/bash
# setup-sources.sh - lay out the corpus projects' code for the drivers.
#
#   tools/corpus/setup-sources.sh [--py-only] DEST [project...]
#
# For each row of tools/corpus/projects.tsv (or only the projects named),
# extracts the pinned commit of the project's git snapshot into DEST/<name>/,
# then applies the shims: each file tools/corpus/shims/<name>/<path> replaces
# DEST/<name>/<path>, whose original is kept as <path>.orig.
#
# The snapshots are bare git directories (or clones) found at
# $CORPUS_MIRROR/<owner>+<repo>/repo (default CORPUS_MIRROR=/work/.mirror);
# a plain `git clone https://github.com/<owner>/<repo> $CORPUS_MIRROR/<owner>+<repo>/repo`
# makes one.  Files whose objects the snapshot lacks (large assets a
# shallow snapshot leaves out) are skipped and counted.
#
# --py-only extracts only the *.py files (plus the shims): all the drivers
# import, and small enough to carry to another machine.
#
# The projects' code is theirs: DEST must stay out of the repository
# (corpus-src/ at the top is ignored by .gitignore).
set -u

py_only=
if [ "${1:-}" = --py-only ]; then
    py_only=1
    shift
fi
dest=${1:?usage: setup-sources.sh [--py-only] DEST [project...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
mirror=${CORPUS_MIRROR:-/work/.mirror}
mkdir -p "$dest" || exit 2
dest=$(cd "$dest" && pwd)

wanted() { # is project $1 among the arguments (or are there none)?
    [ $# -eq 1 ] && return 0
    p=$1
    shift
    for a in "$@"; do [ "$a" = "$p" ] && return 0; done
    return 1
}

status=0
found=0
while IFS="$(printf '\t')" read -r name repo commit syspath; do
    case $name in '' | '#'*) continue ;; esac
    wanted "$name" "$@" || continue
    found=$((found + 1))
    git_dir=$mirror/$(echo "$repo" | tr / +)/repo
    [ -d "$git_dir/.git" ] && git_dir=$git_dir/.git
    if ! full=$(git --git-dir="$git_dir" rev-parse --verify -q "$commit^{commit}" 2>/dev/null); then
        echo "setup-sources.sh: $name: no commit $commit in $git_dir;" \
            "clone https://github.com/$repo there (or set CORPUS_MIRROR)" >&2
        status=1
        continue
    fi
    out=$dest/$name
    rm -rf "$out"
    mkdir -p "$out"
    # paths whose blobs the snapshot does not hold are left out
    excludes=$(git --git-dir="$git_dir" ls-tree -r "$full" |
        awk -F '\t' '{ split($1, a, " "); if (a[2] == "blob") print a[3] }' |
        git --git-dir="$git_dir" cat-file --batch-check |
        awk '$2 == "missing" { print $1 }' | sort -u >"$out.missing"
        git --git-dir="$git_dir" ls-tree -r "$full" |
        awk -F '\t' 'NR == FNR { gone[$1] = 1; next }
            { split($1, a, " "); if (a[3] in gone) print ":(exclude,literal)" $2 }' "$out.missing" -)
    rm -f "$out.missing"
    if [ -n "$py_only" ]; then specs="*.py"; else specs=.; fi
    nmiss=0
    [ -n "$excludes" ] && nmiss=$(printf '%s\n' "$excludes" | wc -l | tr -d ' ')
    # one pathspec a line: literal paths may hold spaces
    if ! printf '%s\n%s\n' "$specs" "$excludes" | sed '/^$/d' |
        tr '\n' '\0' | xargs -0 git --git-dir="$git_dir" archive "$full" -- 2>"$out.err" |
        tar -x -C "$out"; then
        cat "$out.err" >&2
        rm -f "$out.err"
        echo "setup-sources.sh: $name: extracting $commit failed" >&2
        status=1
        continue
    fi
    # git archive names the missing objects even when they are excluded
    grep -v -e '^error: invalid object ' -e "^error: cannot read " "$out.err" >&2
    rm -f "$out.err"
    echo "$repo $full" >"$out/.corpus-commit"
    # shims
    nshim=0
    if [ -d "$here/shims/$name" ]; then
        while read -r f; do
            [ -n "$f" ] || continue
            mkdir -p "$(dirname "$out/$f")"
            [ -f "$out/$f" ] && mv "$out/$f" "$out/$f.orig"
            cp "$here/shims/$name/$f" "$out/$f"
            nshim=$((nshim + 1))
        done <<EOF2
$(cd "$here/shims/$name" && find . -type f | sed 's|^\./||')
EOF2
    fi
    [ -d "$out/$syspath" ] || {
        echo "setup-sources.sh: $name: no folder '$syspath' in $commit" >&2
        status=1
    }
    echo "$name: $repo $commit -> $out ($(find "$out" -type f | wc -l | tr -d ' ') files," \
        "$nshim shim(s), $nmiss missing from the snapshot)"
done <"$here/projects.tsv"
[ "$found" -gt 0 ] || {
    echo "setup-sources.sh: no such project in projects.tsv: $*" >&2
    exit 2
}
exit $status
