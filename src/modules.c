/* modules.c - the one table of the modules tritsim provides to .tk
 * programs: Python's built-ins and standard modules (pylib/), torch and
 * torchvision (torch/), triton and the lecture's helpers (triton/).  Each
 * entry's init registers the module named (with its submodules, e.g.
 * os.path, torch.nn, triton.language) through host_register_module; no
 * init registers another entry's module.  The first entry, builtins, is
 * no module: it fills h->builtins (print, len, int, ...) and hands the
 * evaluator the built-in types' methods (h->types, host.h).
 *
 * It sits at the top of the layers, beside main.c, as the only file that
 * knows them all; main.c and the unit tests call modules_init after
 * host_new.  All are registered at start-up, in this order; `import`
 * finds only registered modules. */
#include "modules.h"

#include "argparsemod.h"
#include "builtins.h"
#include "inspectmod.h"
#include "pathlibmod.h"
#include "pyplotmod.h"
#include "tabulatemod.h"
#include "torchmod.h"
#include "tritonmod.h"
#include "visionmod.h"

static const struct modules_entry {
    const char *name;           /* the module init registers (for the reader) */
    void (*init)(host *h);
} modules_table[] = {
    {"builtins", builtin_init},     /* h->builtins, not a module: first */
    {"math", builtin_math_init},
    {"cmath", builtin_cmath_init},     /* and the built-in type complex */
    {"functools", builtin_functools_init},
    {"contextlib", builtin_contextlib_init},
    {"pytest", builtin_pytest_init},
    {"itertools", builtin_itertools_init},
    {"os", builtin_os_init},
    {"urllib", builtin_urllib_init},    /* and urllib.request */
    {"sys", builtin_sys_init},
    {"platform", builtin_platform_init},
    {"typing", builtin_typing_init},
    {"__future__", builtin_future_init},
    {"operator", builtin_operator_init},
    {"importlib", builtin_importlib_init},   /* and importlib.util, .metadata */
    {"pkgutil", builtin_pkgutil_init},
    {"shutil", builtin_shutil_init},
    {"filelock", builtin_filelock_init},
    {"subprocess", builtin_subprocess_init},
    {"ctypes", builtin_ctypes_init},
    {"packaging", builtin_packaging_init},   /* and packaging.version */
    {"time", builtin_time_init},
    {"random", builtin_random_init},
    {"logging", builtin_logging_init},
    {"warnings", builtin_warnings_init},
    {"threading", builtin_threading_init},
    {"dataclasses", builtin_dataclasses_init},
    {"enum", builtin_enum_init},
    {"copy", builtin_copy_init},
    {"json", builtin_json_init},
    {"re", builtin_re_init},
    {"io", builtin_fileio_init},     /* and the open() built-in */
    {"tempfile", builtin_tempfile_init},
    {"collections", builtin_collections_init},   /* and collections.abc */
    {"pathlib", pathlib_init},
    {"inspect", inspect_init},
    {"torch", torch_init},
    {"einops", torch_einops_init},
    {"torchvision", vision_init},
    {"matplotlib", pyplot_init},    /* and matplotlib.pyplot */
    {"argparse", argparse_init},
    {"tabulate", tabulate_init},
    {"triton", tritonmod_init},
    {"triton_util", tritonmod_util_init},
    {"pdb", tritonmod_pdb_init},     /* and IPython.core.debugger */
};

void modules_init(host *h)
{
    for (size_t i = 0; i < sizeof modules_table / sizeof modules_table[0]; i++)
        modules_table[i].init(h);
}
