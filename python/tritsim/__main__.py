"""python3 -m tritsim [OPTIONS] SCRIPT [ARGS]: run SCRIPT with its kernels on tritsim.

Options are the tritsim binary's: --backend NAME, --threads N, --break SPEC,
--no-break, --dump-ir[=KERNEL], --unchecked.  SCRIPT runs as __main__ with
sys.argv = [SCRIPT, ARGS...], as ``python3 SCRIPT ARGS`` would run it.
"""

import os
import runpy
import sys

USAGE = """usage: python3 -m tritsim [OPTIONS] SCRIPT [ARGS...]

Runs SCRIPT with your Python and PyTorch; `import triton` is answered by
tritsim, which runs the kernels.

options:
  --backend NAME     where kernels run: cpu (default) or cuda
  --threads N        CPU worker threads (0: one per core)
  --break SPEC       stop in the debugger at SPEC: LINE, FILE:LINE or a kernel's name
  --no-break         breakpoint() and breakpoint_if() in kernels do nothing
  --dump-ir[=NAME]   print each specialization's IR (or only NAME's) on stderr
  --unchecked        GPU kernels without bounds checks
  -h, --help         this text
"""


def _parse(argv):
    opts = {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        if a == "--":
            i += 1
            break
        if not a.startswith("--") or a == "-":
            break
        name, eq, value = a[2:].partition("=")
        if name in ("backend", "threads", "break"):
            if not eq:
                i += 1
                if i >= len(argv):
                    sys.exit("python3 -m tritsim: --%s needs a value" % name)
                value = argv[i]
            if name == "threads":
                try:
                    opts["threads"] = int(value)
                except ValueError:
                    sys.exit("python3 -m tritsim: --threads takes a number, not %r" % value)
            elif name == "break":
                opts["break_spec"] = value
            else:
                opts["backend"] = value
        elif name == "dump-ir":
            opts["dump_ir"] = value if eq else True
        elif name == "unchecked" and not eq:
            opts["unchecked"] = True
        elif name == "no-break" and not eq:
            opts["no_break"] = True
        else:
            sys.exit("python3 -m tritsim: unknown option %s (see --help)" % a)
        i += 1
    if i >= len(argv):
        sys.stderr.write(USAGE)
        sys.exit(2)
    return opts, argv[i], argv[i + 1:]


def main():
    opts, script, args = _parse(sys.argv[1:])
    import tritsim

    brk = opts.pop("break_spec", None)
    try:
        tritsim.install(**opts)
        # tritsim's debugger: asked for, or for a breakpoint() in a kernel
        # when someone is at the terminal to answer (as tritsim run does)
        on_cpu = opts.get("backend", "cpu") == "cpu"
        if brk is not None or (on_cpu and not opts.get("no_break") and sys.stdin.isatty()):
            import _tritsim
            _tritsim.debug_start(script, brk)
    except (ValueError, RuntimeError, OSError) as e:
        sys.exit("python3 -m tritsim: %s" % e)
    sys.argv = [script] + args
    # the script's folder first on the path, as `python3 SCRIPT` has it
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
