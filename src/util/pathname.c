/* pathname.c - path strings read lexically as POSIX and os.path do: the
 * root, normpath and abspath (pathname.h). */
#define _POSIX_C_SOURCE 200809L   /* getcwd */
#include "pathname.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "strbuf.h"

size_t pathname_root_len(const char *p)
{
    size_t k = 0;
    while (p[k] == '/')
        k++;
    return k == 2 ? 2 : k ? 1 : 0;
}

char *pathname_normpath(const char *p)
{
    size_t r = pathname_root_len(p);
    strbuf b;
    strbuf_init(&b);
    strbuf_putn(&b, "//", r);
    int depth = 0;      /* components after the root that ".." may remove */
    while (*p) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.' && (depth > 0 || r)) {
            if (depth > 0) {
                char *slash = strrchr(b.data + r, '/');
                strbuf_truncate(&b, slash ? (size_t)(slash - b.data) : r);
                depth--;
            }
        } else if (len && !(len == 1 && p[0] == '.')) {
            if (b.len > r)
                strbuf_putc(&b, '/');
            strbuf_putn(&b, p, len);
            if (!(len == 2 && p[0] == '.' && p[1] == '.'))
                depth++;
        }
        p += len;
    }
    char *s = xstrdup(b.len ? strbuf_cstr(&b) : ".");
    strbuf_free(&b);
    return s;
}

char *pathname_abspath(const char *path)
{
    if (pathname_root_len(path))
        return pathname_normpath(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    strbuf b;
    strbuf_init(&b);
    strbuf_printf(&b, "%s/%s", cwd, path);
    char *s = pathname_normpath(strbuf_cstr(&b));
    strbuf_free(&b);
    return s;
}
