#!/bin/sh
# setup.sh - quick start, step 1 (README): install the build dependencies that
# are missing (Debian/Ubuntu, as root or through sudo), configure, build, and
# run the copy sample.  Safe to run again: it only does what is not yet done.
# Arguments go to ./configure (e.g. ./setup.sh --enable-asan --enable-ubsan);
# giving any forces a fresh configure.
set -e
cd "$(dirname "$0")"

packages="gcc make autoconf automake autoconf-archive pkg-config \
libopenblas-dev libreadline-dev libpcre2-dev libpng-dev libjpeg-dev libcairo2-dev"
# Optional, where the distribution has them: Debian's HIP compiler, with
# which `make check` compiles the HIP backend's code (tests/cgen-hip.test;
# skipped without it) and its hiprtc (tests/hip-runtime.test); Python's
# headers, Debian's PyTorch and NumPy for the Python extension (python3 -m
# tritsim, doc/python.md) and its tests (tests/pyext.test skips without them).
optional="hipcc python3-dev python3-torch python3-numpy"
missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        missing="$missing $p"
done
for p in $optional; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' &&
       apt-cache show "$p" >/dev/null 2>&1; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
    autoreconf -fi
fi
if [ ! -f Makefile ] || [ $# -gt 0 ] || [ configure -nt config.status ]; then
    ./configure "$@"
fi
make -j"$(nproc 2>/dev/null || echo 2)"
./tritsim run samples/copy.tk
