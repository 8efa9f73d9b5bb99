/* pathname.h - path strings as POSIX and Python's os.path read them,
 * lexically (no file system but the current directory): the root of a
 * path, normpath, abspath.  The host gives a program's __file__ with
 * pathname_abspath; os.path, pathlib and inspect use them too. */
#ifndef TRITSIM_PATHNAME_H
#define TRITSIM_PATHNAME_H

#include <stddef.h>

/* The length of the root of path p: 0 (relative), 1 ("/") or 2 (exactly
 * two leading slashes, which POSIX lets mean something else). */
size_t pathname_root_len(const char *p);
/* os.path.normpath(p): one root slash (two when there are exactly two), no
 * empty or "." components, ".." removing the component before it (at the
 * root: nothing), "." for nothing.  Malloc'd. */
char *pathname_normpath(const char *p);
/* os.path.abspath(path): joined to the current directory when relative,
 * then normalized (".." taken lexically).  Malloc'd; NULL when the
 * current directory cannot be read. */
char *pathname_abspath(const char *path);

#endif
