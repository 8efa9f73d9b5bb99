/* builtins.h - what registers Python's built-ins and the standard modules
 * of the built-ins' files (mathmod.c ... randommod.c) with a host.
 * src/modules.c's table calls each once, after host_new, builtin_init
 * first; each module's init registers the module it is named for (os: os
 * and os.path too). */
#ifndef TRITSIM_BUILTINS_H
#define TRITSIM_BUILTINS_H

#include "host.h"

/* Fill h->builtins (print, len, int, str, ...) and h->types (the built-in
 * types' methods and str % args, for the evaluator). */
void builtin_init(host *h);
void builtin_math_init(host *h);
void builtin_cmath_init(host *h);       /* cmathmod.c: cmath and complex */
void builtin_functools_init(host *h);
void builtin_contextlib_init(host *h);
void builtin_pytest_init(host *h);
void builtin_itertools_init(host *h);
void builtin_os_init(host *h);
void builtin_urllib_init(host *h);
void builtin_sys_init(host *h);
void builtin_platform_init(host *h);     /* sysmod.c */
void builtin_typing_init(host *h);
void builtin_future_init(host *h);       /* typingmod.c: __future__ */
void builtin_operator_init(host *h);     /* operatormod.c */
void builtin_importlib_init(host *h);    /* importlibmod.c */
void builtin_pkgutil_init(host *h);      /* importlibmod.c: pkgutil */
void builtin_filelock_init(host *h);     /* filelockmod.c: filelock (lock files) */
void builtin_subprocess_init(host *h);   /* subprocessmod.c: subprocess (refuses) */
void builtin_shutil_init(host *h);       /* shutilmod.c: shutil.which */
void builtin_ctypes_init(host *h);       /* ctypesmod.c */
void builtin_packaging_init(host *h);    /* packagingmod.c: packaging.version */
void builtin_time_init(host *h);
void builtin_random_init(host *h);
void builtin_logging_init(host *h);     /* loggingmod.c */
void builtin_warnings_init(host *h);    /* warningsmod.c */
void builtin_threading_init(host *h);   /* threadingmod.c */
void builtin_dataclasses_init(host *h); /* dataclassesmod.c */
void builtin_enum_init(host *h);        /* enummod.c */
void builtin_copy_init(host *h);        /* copymod.c */
void builtin_json_init(host *h);        /* jsonmod.c */
void builtin_re_init(host *h);          /* remod.c */
void builtin_fileio_init(host *h);      /* fileio.c: open() and io */
void builtin_tempfile_init(host *h);    /* osmod.c */
void builtin_collections_init(host *h); /* collectionsmod.c: and collections.abc */

#endif
