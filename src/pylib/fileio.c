/* fileio.c - files of the program: the open() built-in and the io module
 * (io.open, io.UnsupportedOperation), text files over stdio with Python's
 * behaviour: modes r, w, a, x and '+', UTF-8 only, universal newlines
 * when reading (\r\n and \r read as \n; newline='' or '\n' reads them as
 * they are, lines ending at \n), read/readline/readlines,
 * iteration, write/writelines, seek/tell, flush, close, `with`; OSErrors
 * of the right class with errno, strerror and filename
 * (FileNotFoundError: [Errno 2] No such file or directory: 'x').  Binary
 * mode ('rb', 'wb', ...) reads and writes bytes (host/bytesval.h) as they
 * are, lines ending at b'\n'.  At most FILEIO_MAX files are
 * open at once; those a program leaves open are closed (and flushed) at
 * exit. */
#include "builtins_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bytesval.h"

#define FILEIO_MAX 1024

typedef struct fileio {
    val_object o;
    FILE *fp;           /* NULL once closed */
    val name;           /* the path as given (a str) */
    char mode[8];       /* as given */
    val encoding;       /* as given, or the default 'UTF-8' */
    bool readable, writable;
    bool translate;     /* universal newlines when reading (newline=None) */
    bool binary;        /* mode 'b': bytes in and out, no encoding */
} fileio;

static const val_type fileio_type;
static int fileio_open_count;

static fileio *fio(val v) { return (fileio *)v.u.o; }

/* ---- errors ---------------------------------------------------------------------- */

/* Raise the OSError that errno err means (FileNotFoundError for ENOENT,
 * ...) with e.errno, e.strerror and e.filename (a str, or NULL). */
val fileio_raise_errno(host *h, int err, const char *filename, src_span at)
{
    host_exc k = HOST_EXC_OS;
    switch (err) {
    case ENOENT: k = HOST_EXC_FILE_NOT_FOUND; break;
    case EEXIST: k = HOST_EXC_FILE_EXISTS; break;
    case EACCES: case EPERM: k = HOST_EXC_PERMISSION; break;
    case EISDIR: k = HOST_EXC_IS_A_DIRECTORY; break;
    case ENOTDIR: k = HOST_EXC_NOT_A_DIRECTORY; break;
    default: break;
    }
    val args[3] = {val_int(err), val_str_cstr(strerror(err)),
                   filename ? val_str_cstr(filename) : val_none()};
    val e = host_call(h, host_exc_class(h, k), filename ? 3 : 2, args, NULL, at);
    for (int i = 0; i < 3; i++)
        val_unref(args[i]);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

static val fileio_unsupported(host *h, const char *what, src_span at)
{
    val m = host_module(h, "io");
    val cls = m.kind == VAL_MISSING ? host_exc_class(h, HOST_EXC_OS)
                                    : val_object_get(m, "UnsupportedOperation");
    val msg = val_str_cstr(what);
    val e = host_call(h, cls, 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

static bool fileio_check(host *h, val self, int need, src_span at)
{
    fileio *f = fio(self);
    if (!f->fp) {
        host_raise(h, HOST_EXC_VALUE, at, "I/O operation on closed file.");
        return false;
    }
    if (need == 1 && !f->readable) {
        fileio_unsupported(h, "not readable", at);
        return false;
    }
    if (need == 2 && !f->writable) {
        fileio_unsupported(h, "not writable", at);
        return false;
    }
    return true;
}

/* ---- opening ----------------------------------------------------------------------- */

/* open(path, mode) as Python does: a new file object, VAL_ERR after
 * raising. */
val fileio_open(host *h, val name, const char *mode, val encoding, bool translate,
                src_span at)
{
    const char *path = val_as_str(name)->s;
    int base = 0, plus = 0, text = 0, binary = 0;
    for (const char *m = mode; *m; m++) {
        if (strchr("rwax", *m) && !strchr(m + 1, *m))
            base = base ? -1 : *m;
        else if (*m == '+' && !plus)
            plus = 1;
        else if (*m == 't' && !text)
            text = 1;
        else if (*m == 'b' && !binary)
            binary = 1;
        else
            return host_raise(h, HOST_EXC_VALUE, at, "invalid mode: '%s'", mode);
    }
    if (base <= 0 || (text && binary) || strlen(mode) > 4)
        return host_raise(h, HOST_EXC_VALUE, at, base < 0 || (text && binary)
                          ? "must have exactly one of create/read/write/append mode"
                          : "Must have exactly one of create/read/write/append mode and at "
                            "most one plus%s", "");
    if (binary && encoding.kind != VAL_MISSING && encoding.kind != VAL_NONE)
        return host_raise(h, HOST_EXC_VALUE, at, "binary mode doesn't take an encoding argument");
    if (encoding.kind == VAL_STR) {
        const char *e = val_as_str(encoding)->s;
        if (strcasecmp(e, "utf-8") && strcasecmp(e, "utf8") && strcasecmp(e, "ascii") &&
            strcasecmp(e, "us-ascii"))
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "open(): encoding '%s' is not "
                              "supported: tritsim reads and writes UTF-8 only", e);
    }
    if (fileio_open_count >= FILEIO_MAX)
        return host_raise(h, HOST_EXC_OS, at, "[Errno 24] Too many open files: '%s' (tritsim "
                          "allows %d open files; close the others)", path, FILEIO_MAX);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return fileio_raise_errno(h, EISDIR, path, at);
    char cmode[4] = {0};
    cmode[0] = base == 'x' ? 'w' : (char)base;
    if (plus)
        cmode[1] = '+';
    if (base == 'x') {
        if (stat(path, &st) == 0 || errno != ENOENT)
            return fileio_raise_errno(h, EEXIST, path, at);
        strcat(cmode, "x");   /* glibc's O_EXCL */
    }
    FILE *fp = fopen(path, cmode);
    if (!fp)
        return fileio_raise_errno(h, errno, path, at);
    fileio *f = val_obj_new(sizeof *f, VAL_OBJECT, &fileio_type);
    f->fp = fp;
    f->name = val_ref(name);
    snprintf(f->mode, sizeof f->mode, "%s", mode);
    f->encoding = encoding.kind == VAL_STR ? val_ref(encoding) : val_str_cstr("UTF-8");
    f->readable = base == 'r' || plus;
    f->writable = base != 'r' || plus;
    f->translate = translate && !binary;
    f->binary = binary;
    fileio_open_count++;
    return val_of(f);
}

BUILTIN_FN(fileio_open_fn)
{
    (void)self;
    val a[8];
    if (!host_args(h, at, "open", "file, mode=, buffering=, encoding=, errors=, newline=, "
                   "closefd=, opener=", argc, argv, kw, a))
        return val_err();
    val name = a[0];
    val owned = val_missing();
    if (name.kind != VAL_STR) {
        val f = host_getattr_opt(h, name, "__fspath__", at);
        if (f.kind == VAL_ERR)
            return f;
        if (f.kind != VAL_MISSING) {
            owned = host_call(h, f, 0, NULL, NULL, at);
            val_unref(f);
            if (owned.kind == VAL_ERR)
                return owned;
            name = owned;
        }
        if (name.kind != VAL_STR) {
            val_unref(owned);
            return host_raise(h, HOST_EXC_TYPE, at, "expected str, bytes or os.PathLike "
                              "object, not %s", val_type_name(a[0]));
        }
    }
    const char *mode = "r";
    if (a[1].kind != VAL_MISSING && !host_to_str(h, a[1], at, "open() argument 'mode'", &mode)) {
        val_unref(owned);
        return val_err();
    }
    if (a[5].kind == VAL_STR && val_as_str(a[5])->len && strcmp(val_as_str(a[5])->s, "\n")) {
        val_unref(owned);
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "open(): newline=%s is not "
                          "supported (None, '' or '\\n' are)", val_as_str(a[5])->s);
    }
    val r = fileio_open(h, name, mode, a[3], a[5].kind != VAL_STR, at);
    val_unref(owned);
    return r;
}

/* ---- reading ---------------------------------------------------------------------- */

/* The next character, appended to out, with \r\n and \r read as \n when
 * translate (universal newlines); false at the end of the file. */
static bool fileio_getc(FILE *fp, bool translate, strbuf *out, bool *newline)
{
    int c = getc(fp);
    if (c == EOF)
        return false;
    *newline = false;
    if (c == '\r' && translate) {
        int d = getc(fp);
        if (d != '\n' && d != EOF)
            ungetc(d, fp);
        c = '\n';
    }
    if (c == '\n')
        *newline = true;
    strbuf_putc(out, (char)c);
    /* the rest of a UTF-8 sequence */
    int more = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
    for (int i = 0; i < more; i++) {
        int d = getc(fp);
        if (d == EOF)
            break;
        strbuf_putc(out, (char)d);
    }
    return true;
}

/* Up to max characters (max < 0: all), stopping after a newline when
 * line. */
/* Up to max bytes (all when negative) of a binary file, or one line (up
 * to and with its b'\n'), as bytes. */
static val fileio_read_bytes(host *h, val self, int64_t max, bool line, src_span at)
{
    FILE *fp = fio(self)->fp;
    strbuf b = {0};
    int c = 0;
    for (int64_t n = 0; (max < 0 || n < max) && !(line && c == '\n'); n++) {
        if ((c = getc(fp)) == EOF)
            break;
        strbuf_putc(&b, (char)c);
    }
    if (ferror(fp)) {
        int err = errno;
        clearerr(fp);
        strbuf_free(&b);
        return fileio_raise_errno(h, err, NULL, at);
    }
    val r = bytesval_new(b.data ? b.data : "", b.len);
    strbuf_free(&b);
    return r;
}

static val fileio_read_chars(host *h, val self, int64_t max, bool line, src_span at)
{
    if (fio(self)->binary)
        return fileio_read_bytes(h, self, max, line, at);
    FILE *fp = fio(self)->fp;
    strbuf b = {0};
    bool nl = false;
    for (int64_t n = 0; (max < 0 || n < max) && !(line && nl); n++)
        if (!fileio_getc(fp, fio(self)->translate, &b, &nl))
            break;
    if (ferror(fp)) {
        int err = errno;
        clearerr(fp);
        strbuf_free(&b);
        return fileio_raise_errno(h, err, NULL, at);
    }
    return val_str_from_buf(&b);
}

/* The length in bytes of what a read gave (a str or, binary, a bytes). */
static size_t fileio_chunk_len(val s)
{
    size_t n;
    if (bytesval_is(s)) {
        bytesval_data(s, &n);
        return n;
    }
    return val_as_str(s)->len;
}

static bool fileio_size_arg(host *h, int argc, const val *argv, const val_kwargs *kw,
                            const char *fname, src_span at, int64_t *size)
{
    val a[1];
    *size = -1;
    if (!host_args(h, at, fname, "size=", argc, argv, kw, a))
        return false;
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE &&
        !host_to_int(h, a[0], at, "size", size))
        return false;
    return true;
}

BUILTIN_FN(fileio_read)
{
    int64_t size;
    if (!fileio_size_arg(h, argc, argv, kw, "read", at, &size) || !fileio_check(h, self, 1, at))
        return val_err();
    return fileio_read_chars(h, self, size, false, at);
}

BUILTIN_FN(fileio_readline)
{
    int64_t size;
    if (!fileio_size_arg(h, argc, argv, kw, "readline", at, &size) ||
        !fileio_check(h, self, 1, at))
        return val_err();
    return fileio_read_chars(h, self, size, true, at);
}

BUILTIN_FN(fileio_readlines)
{
    int64_t hint;
    if (!fileio_size_arg(h, argc, argv, kw, "readlines", at, &hint) ||
        !fileio_check(h, self, 1, at))
        return val_err();
    val l = val_list_new(8);
    int64_t total = 0;
    for (;;) {
        val s = fileio_read_chars(h, self, -1, true, at);
        if (s.kind == VAL_ERR) {
            val_unref(l);
            return s;
        }
        size_t len = fileio_chunk_len(s);
        if (!len) {
            val_unref(s);
            break;
        }
        total += fio(self)->binary ? (int64_t)len : (int64_t)val_str_chars(val_as_str(s));
        val_list_push(l, s);
        if (hint > 0 && total >= hint)
            break;
    }
    return l;
}

static int fileio_next(host *h, val self, val *out, src_span at)
{
    if (!fileio_check(h, self, 1, at))
        return -1;
    val s = fileio_read_chars(h, self, -1, true, at);
    if (s.kind == VAL_ERR)
        return -1;
    if (!fileio_chunk_len(s)) {
        val_unref(s);
        return 0;
    }
    *out = s;
    return 1;
}

static val fileio_iter(host *h, val self, src_span at)
{
    if (!fileio_check(h, self, 0, at))
        return val_err();
    return val_ref(self);
}

/* ---- writing ------------------------------------------------------------------------ */

static bool fileio_put(host *h, val self, val s, src_span at)
{
    fileio *f = fio(self);
    if (f->binary ? !bytesval_is(s) : s.kind != VAL_STR) {
        if (f->binary)
            host_raise(h, HOST_EXC_TYPE, at, "a bytes-like object is required, not '%s'",
                       val_type_name(s));
        else
            host_raise(h, HOST_EXC_TYPE, at, "write() argument must be str, not %s",
                       val_type_name(s));
        return false;
    }
    size_t n;
    const void *data = f->binary ? (const void *)bytesval_data(s, &n) : val_as_str(s)->s;
    if (!f->binary)
        n = val_as_str(s)->len;
    if (fwrite(data, 1, n, f->fp) != n) {
        int err = errno;
        clearerr(f->fp);
        fileio_raise_errno(h, err, NULL, at);
        return false;
    }
    return true;
}

BUILTIN_FN(fileio_write)
{
    if (!builtin_nargs(h, "write", argc, kw, 1, 1, at) || !fileio_check(h, self, 2, at) ||
        !fileio_put(h, self, argv[0], at))
        return val_err();
    if (fio(self)->binary)
        return val_int((int64_t)fileio_chunk_len(argv[0]));
    return val_int((int64_t)val_str_chars(val_as_str(argv[0])));
}

BUILTIN_FN(fileio_writelines)
{
    if (!builtin_nargs(h, "writelines", argc, kw, 1, 1, at) || !fileio_check(h, self, 2, at))
        return val_err();
    host_iter it;
    if (!host_iter_begin(h, argv[0], at, &it))
        return val_err();
    val x;
    int r;
    while ((r = host_iter_next(h, &it, &x)) > 0) {
        bool ok = fileio_put(h, self, x, at);
        val_unref(x);
        if (!ok) {
            r = -1;
            break;
        }
    }
    host_iter_end(&it);
    return r < 0 ? val_err() : val_none();
}

BUILTIN_FN(fileio_flush)
{
    (void)argv;
    if (!builtin_nargs(h, "flush", argc, kw, 0, 0, at) || !fileio_check(h, self, 0, at))
        return val_err();
    if (fflush(fio(self)->fp) != 0)
        return fileio_raise_errno(h, errno, NULL, at);
    return val_none();
}

/* Close f: false with errno set when writing its last data failed. */
static bool fileio_close_fp(fileio *f)
{
    if (!f->fp)
        return true;
    int r = fclose(f->fp);
    f->fp = NULL;
    fileio_open_count--;
    return r == 0;
}

BUILTIN_FN(fileio_close)
{
    (void)argv;
    if (!builtin_nargs(h, "close", argc, kw, 0, 0, at))
        return val_err();
    if (!fileio_close_fp(fio(self)))
        return fileio_raise_errno(h, errno, NULL, at);
    return val_none();
}

BUILTIN_FN(fileio_enter)
{
    (void)argv, (void)kw, (void)argc;
    if (!fileio_check(h, self, 0, at))
        return val_err();
    return val_ref(self);
}

BUILTIN_FN(fileio_exit)
{
    (void)argc, (void)argv, (void)kw;
    if (!fileio_close_fp(fio(self)))
        return fileio_raise_errno(h, errno, NULL, at);
    return val_bool(false);
}

BUILTIN_FN(fileio_seek)
{
    val a[2];
    int64_t off, whence = 0;
    if (!host_args(h, at, "seek", "cookie, whence=", argc, argv, kw, a) ||
        !host_to_int(h, a[0], at, "seek() offset", &off) ||
        (a[1].kind != VAL_MISSING && !host_to_int(h, a[1], at, "whence", &whence)) ||
        !fileio_check(h, self, 0, at))
        return val_err();
    if (whence < 0 || whence > 2)
        return host_raise(h, HOST_EXC_VALUE, at, "invalid whence (%lld, should be 0, 1 or 2)",
                          (long long)whence);
    if (whence != 0 && off != 0 && !fio(self)->binary)
        return fileio_unsupported(h, whence == 1 ? "can't do nonzero cur-relative seeks"
                                                 : "can't do nonzero end-relative seeks", at);
    if (off < 0 && whence == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "negative seek position %lld",
                          (long long)off);
    FILE *fp = fio(self)->fp;
    if (fseek(fp, (long)off, whence == 0 ? SEEK_SET : whence == 1 ? SEEK_CUR : SEEK_END) != 0)
        return fileio_raise_errno(h, errno, NULL, at);
    return val_int((int64_t)ftell(fp));
}

BUILTIN_FN(fileio_tell)
{
    (void)argv;
    if (!builtin_nargs(h, "tell", argc, kw, 0, 0, at) || !fileio_check(h, self, 0, at))
        return val_err();
    return val_int((int64_t)ftell(fio(self)->fp));
}

static val fileio_can(host *h, val self, int argc, const val_kwargs *kw, src_span at,
                      const char *fname, int what)
{
    if (!builtin_nargs(h, fname, argc, kw, 0, 0, at) || !fileio_check(h, self, 0, at))
        return val_err();
    fileio *f = fio(self);
    return val_bool(what == 0 ? f->readable : what == 1 ? f->writable : true);
}

static val fileio_readable(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)argv;
    return fileio_can(h, self, argc, kw, at, "readable", 0);
}
static val fileio_writable(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)argv;
    return fileio_can(h, self, argc, kw, at, "writable", 1);
}
static val fileio_seekable(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)argv;
    return fileio_can(h, self, argc, kw, at, "seekable", 2);
}

/* ---- the type --------------------------------------------------------------------- */

static const val_method fileio_methods[] = {
    {"read", "TextIOWrapper.read", fileio_read},
    {"readline", "TextIOWrapper.readline", fileio_readline},
    {"readlines", "TextIOWrapper.readlines", fileio_readlines},
    {"write", "TextIOWrapper.write", fileio_write},
    {"writelines", "TextIOWrapper.writelines", fileio_writelines},
    {"flush", "TextIOWrapper.flush", fileio_flush},
    {"close", "TextIOWrapper.close", fileio_close},
    {"seek", "TextIOWrapper.seek", fileio_seek},
    {"tell", "TextIOWrapper.tell", fileio_tell},
    {"readable", "TextIOWrapper.readable", fileio_readable},
    {"writable", "TextIOWrapper.writable", fileio_writable},
    {"seekable", "TextIOWrapper.seekable", fileio_seekable},
    {"__enter__", "TextIOWrapper.__enter__", fileio_enter},
    {"__exit__", "TextIOWrapper.__exit__", fileio_exit},
};

static const char *const fileio_attrs[] = {
    "read", "readline", "readlines", "write", "writelines", "flush", "close", "seek", "tell",
    "readable", "writable", "seekable", "closed", "name", "mode", "encoding", NULL,
};

static val fileio_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    fileio *f = fio(self);
    val bound = val_method_bind(fileio_methods, sizeof fileio_methods / sizeof fileio_methods[0],
                                name, self);
    if (bound.kind != VAL_MISSING)
        return bound;
    if (!strcmp(name, "closed"))
        return val_bool(!f->fp);
    if (!strcmp(name, "name"))
        return val_ref(f->name);
    if (!strcmp(name, "mode"))
        return val_str_cstr(f->mode);
    if (!strcmp(name, "encoding") && !f->binary)
        return val_ref(f->encoding);
    if (!strcmp(name, "newlines") || !strcmp(name, "errors"))
        return name[0] == 'e' ? val_str_cstr("strict") : val_none();
    return val_missing();
}

static void fileio_repr(host *h, val self, strbuf *out)
{
    fileio *f = fio(self);
    if (f->binary) {
        /* CPython's buffered binary files: reader, writer or random */
        const char *cls = f->readable && f->writable ? "BufferedRandom"
                          : f->readable ? "BufferedReader" : "BufferedWriter";
        val n = host_repr(h, f->name);
        strbuf_printf(out, "<_io.%s name=%s>", cls, n.kind == VAL_STR ? val_as_str(n)->s : "?");
        val_unref(n);
        return;
    }
    if (!f->fp) {
        strbuf_puts(out, "<_io.TextIOWrapper [closed]>");
        return;
    }
    val n = host_repr(h, f->name), e = host_repr(h, f->encoding);
    strbuf_printf(out, "<_io.TextIOWrapper name=%s mode='%s' encoding=%s>",
                  n.kind == VAL_STR ? val_as_str(n)->s : "?", f->mode,
                  e.kind == VAL_STR ? val_as_str(e)->s : "?");
    val_unref(n);
    val_unref(e);
}

static void fileio_free(val_obj *o)
{
    fileio *f = (fileio *)o;
    fileio_close_fp(f);     /* a file left open: flushed and closed */
    val_unref(f->name);
    val_unref(f->encoding);
}

static const val_type fileio_type = {
    .name = "TextIOWrapper",
    .getattr = fileio_getattr,
    .iter = fileio_iter,
    .next = fileio_next,
    .repr = fileio_repr,
    .free = fileio_free,
    .attr_names = fileio_attrs,
};

BUILTIN_FN(fileio_type_refuse)
{
    (void)self, (void)argc, (void)argv, (void)kw;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "io.TextIOWrapper(...) is not "
                      "supported: open files with open()");
}

void builtin_fileio_init(host *h)
{
    val_dict_set_str(h->builtins, "open", val_builtin_new("open", fileio_open_fn, val_none()));
    val io = val_module_new("io");
    host_def(io, "io.open", fileio_open_fn);
    val uo = class_new("UnsupportedOperation", host_exc_class(h, HOST_EXC_OS), false);
    val_object_set(uo, "__module__", val_str_cstr("io"));
    val_object_set(io, "UnsupportedOperation", uo);
    val t = val_builtin_new("io.TextIOWrapper", fileio_type_refuse, val_none());
    ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)t.u.o)->inst_type = &fileio_type;
    val_object_set(io, "TextIOWrapper", t);
    host_register_module(h, "io", io);
}
