/* cpu_backend.h - the CPU executor as a backend (backend.h): the first
 * entry of the registry.  Its kernel object is the IR itself (compiling
 * costs nothing; exec_run plans each launch, fastpath.h), its state for a
 * run is the thread pool (pool.h), made at the first launch with
 * backend_config.threads workers. */
#ifndef TRITSIM_CPU_BACKEND_H
#define TRITSIM_CPU_BACKEND_H

#include "backend.h"
#include "exec.h"

extern const backend cpu_backend;

/* For the debugger, which drives the CPU executor itself (exec_sess_*):
 * the exec_launch the CPU backend would run for ir and L, on d's thread
 * pool (made now if need be).  d must be the CPU backend's; the arguments
 * are L's (not copied). */
void cpu_backend_exec_launch(backend_dev *d, const ir_kernel *ir, const backend_launch *L,
                             exec_launch *out);

#endif
