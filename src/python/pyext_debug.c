/* pyext_debug.c - tritsim's debugger (debug.h) for the kernels of the
 * user's own Python program: python3 -m tritsim --break SPEC, or a
 * breakpoint() in a kernel when stdin is a terminal.
 *
 * The debugger is made once (debug_start, from python3 -m tritsim or
 * tritsim.install) with the script as its program (for `list`, `break
 * LINE` and `break FUNCTION`) and attached (debug_attach): the program is
 * Python's, already running.  A launch it wants (debug_wants) goes to
 * debug_launch on the CPU backend, and its REPL opens on the terminal at
 * each stop; the host's PyTorch objects are untouched meanwhile.  On a
 * terminal the debugger's Ctrl-C handler is in place only while it runs a
 * launch: elsewhere Ctrl-C stays Python's KeyboardInterrupt. */
#define _POSIX_C_SOURCE 200809L
#include "pyext.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "parse.h"

static debug *pyext_dbg;
static src_file *pyext_dbg_file;
static arena pyext_dbg_mem;
static bool pyext_dbg_tty;
static struct sigaction pyext_dbg_sigint;   /* the debugger's handler (tty) */

/* The REPL's `run`: the program is Python's, and runs already. */
static int pyext_dbg_runner(void *ctx, debug *g, int argc, char **argv)
{
    (void)ctx, (void)g, (void)argc, (void)argv;
    printf("The program is your Python program, which is running; `continue` it.\n");
    return 0;
}

/* debug_start(script, break_spec): make the debugger (once). */
PyObject *pyext_debug_start(PyObject *self, PyObject *args)
{
    (void)self;
    const char *script = NULL, *spec = NULL;
    if (!PyArg_ParseTuple(args, "zz", &script, &spec))
        return NULL;
    if (pyext_dbg) {
        bool ok = !spec || debug_break(pyext_dbg, spec);
        fflush(stdout);
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "--break %s: see above", spec);
            return NULL;
        }
        Py_RETURN_NONE;
    }
    arena_init(&pyext_dbg_mem);
    const ast_node *module = NULL;
    if (script) {
        pyext_dbg_file = src_read(script);
        if (!pyext_dbg_file)
            return PyErr_SetFromErrnoWithFilename(PyExc_OSError, script);
        /* the script's kernels, for `break FUNCTION` and `list`; what
         * tritsim's parser cannot read is left out, quietly */
        FILE *null = fopen("/dev/null", "w");
        diag_sink d;
        diag_sink_init(&d, null ? null : stderr);
        d.max_errors = 1;
        module = parse_file(pyext_dbg_file, &d, &pyext_dbg_mem);
        if (null)
            fclose(null);
    }
    pyext_dbg_tty = isatty(STDIN_FILENO);
    struct sigaction python;
    sigaction(SIGINT, NULL, &python);
    debug_opts o = {.file = pyext_dbg_file, .module = module, .run = pyext_dbg_runner,
                    .no_break = pyext_opts.no_break, .tty = pyext_dbg_tty};
    pyext_dbg = debug_new(&o);
    if (pyext_dbg_tty) {        /* Python's Ctrl-C back until a launch */
        sigaction(SIGINT, NULL, &pyext_dbg_sigint);
        sigaction(SIGINT, &python, NULL);
    }
    debug_attach(pyext_dbg);
    if (spec) {
        fflush(stdout);
        bool ok = debug_break(pyext_dbg, spec);
        fflush(stdout);
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "--break %s: see above", spec);
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

bool pyext_debugging(void)
{
    return pyext_dbg != NULL;
}

bool pyext_debug_wants(const ir_kernel *ir)
{
    return pyext_dbg && debug_wants(pyext_dbg, ir);
}

bool pyext_debug_launch(backend_dev *dev, const ir_kernel *ir, const backend_launch *L,
                        bool *killed)
{
    struct sigaction python;
    if (pyext_dbg_tty)
        sigaction(SIGINT, &pyext_dbg_sigint, &python);
    bool ok = debug_launch(pyext_dbg, NULL, dev, ir, L, killed);
    if (pyext_dbg_tty)
        sigaction(SIGINT, &python, NULL);
    fflush(stdout);
    return ok;
}

void pyext_debug_end(void)
{
    if (!pyext_dbg)
        return;
    debug_free(pyext_dbg);     /* puts back the SIGINT handler it found: Python's */
    pyext_dbg = NULL;
    if (pyext_dbg_file)
        src_free(pyext_dbg_file);
    pyext_dbg_file = NULL;
    arena_free(&pyext_dbg_mem);
}
