/* proton.h - triton.profiler (proton.c): the profile of launches that
 * launch.c feeds while a session records. */
#ifndef TRITSIM_PROTON_H
#define TRITSIM_PROTON_H

#include "host.h"

/* Register triton.profiler as triton's attribute and module. */
void proton_init(host *h, val triton);

/* A session is started and active: launches are to be recorded. */
bool proton_recording(void);
/* ... with hook="triton": a kernel's launch_metadata names its launches. */
bool proton_wants_metadata(void);
/* Record a launch of kernel_name that took ns nanoseconds; metadata is
 * launch_metadata's dict (name, flops<width>, bytes) or None.  False after
 * raising (a metadata that is not a dict). */
bool proton_kernel(host *h, const char *kernel_name, val metadata, double ns, src_span at);

#endif
