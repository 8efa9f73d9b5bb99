/* packagingmod.c - packaging.version: Version and parse for the version
 * strings of PEP 440 (N!N.N...{a|b|rc}N.postN.devN+local, with the
 * spellings it allows: a leading v, alpha/beta/c/pre/preview, -N for a
 * post-release, any case, '.', '-' or '_' between parts), compared in
 * PEP 440's order; InvalidVersion (a ValueError) for anything else. */
#include "builtins_impl.h"

#include <ctype.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

enum { VERSION_MAX_PARTS = 16 };

/* Absent pre/post/dev: sort as the spec says (see version_cmp). */
typedef struct version_obj {
    val_object o;
    int64_t epoch;
    int nrel;
    int64_t rel[VERSION_MAX_PARTS];
    int pre_kind;       /* -1 none, 0 a, 1 b, 2 rc */
    int64_t pre;
    bool has_post, has_dev;
    int64_t post, dev;
    char *local;        /* normalized ("ubuntu.1"), malloc'd, or NULL */
} version_obj;

static version_obj *version_of(val v)
{
    return (version_obj *)v.u.o;
}

/* ---- parsing ---------------------------------------------------------------- */

static bool version_num(const char **p, int64_t *out)
{
    if (!isdigit((unsigned char)**p))
        return false;
    int64_t n = 0;
    while (isdigit((unsigned char)**p)) {
        if (n > (INT64_MAX - 9) / 10)
            return false;
        n = n * 10 + (**p - '0');
        (*p)++;
    }
    *out = n;
    return true;
}

/* Does the text at *p start (case-insensitively) with word?  Then skip it. */
static bool version_word(const char **p, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(*p, word, n))
        return false;
    *p += n;
    return true;
}

static void version_sep(const char **p)
{
    if (**p == '.' || **p == '-' || **p == '_')
        (*p)++;
}

/* A number after an optional separator, 0 when there is none. */
static bool version_implicit(const char **p, int64_t *out)
{
    const char *q = *p;
    version_sep(&q);
    if (version_num(&q, out)) {
        *p = q;
        return true;
    }
    *out = 0;
    return true;
}

static bool version_parse(const char *s, version_obj *v)
{
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == 'v' || *p == 'V')
        p++;
    int64_t n;
    if (!version_num(&p, &n))
        return false;
    if (*p == '!') {
        v->epoch = n;
        p++;
        if (!version_num(&p, &n))
            return false;
    }
    v->rel[v->nrel++] = n;
    while (*p == '.' && isdigit((unsigned char)p[1])) {
        p++;
        if (v->nrel == VERSION_MAX_PARTS || !version_num(&p, &n))
            return false;
        v->rel[v->nrel++] = n;
    }
    /* pre-release */
    const char *q = p;
    version_sep(&q);
    static const struct { const char *w; int kind; } pres[] = {
        {"alpha", 0}, {"beta", 1}, {"preview", 2}, {"pre", 2}, {"rc", 2}, {"a", 0}, {"b", 1},
        {"c", 2},
    };
    for (size_t i = 0; i < sizeof pres / sizeof pres[0]; i++)
        if (version_word(&q, pres[i].w)) {
            v->pre_kind = pres[i].kind;
            version_implicit(&q, &v->pre);
            p = q;
            break;
        }
    /* post-release: .postN, -N */
    q = p;
    if (*q == '-' && isdigit((unsigned char)q[1])) {
        q++;
        version_num(&q, &v->post);
        v->has_post = true;
        p = q;
    } else {
        version_sep(&q);
        if (version_word(&q, "post") || version_word(&q, "rev") || version_word(&q, "r")) {
            version_implicit(&q, &v->post);
            v->has_post = true;
            p = q;
        }
    }
    q = p;
    version_sep(&q);
    if (version_word(&q, "dev")) {
        version_implicit(&q, &v->dev);
        v->has_dev = true;
        p = q;
    }
    if (*p == '+') {
        p++;
        size_t len = 0;
        while (isalnum((unsigned char)p[len]) || p[len] == '.' || p[len] == '-' ||
               p[len] == '_')
            len++;
        if (!len || !isalnum((unsigned char)p[0]) || !isalnum((unsigned char)p[len - 1]))
            return false;
        v->local = malloc(len + 1);
        for (size_t i = 0; i < len; i++)
            v->local[i] = p[i] == '-' || p[i] == '_' ? '.' : (char)tolower((unsigned char)p[i]);
        v->local[len] = '\0';
        p += len;
    }
    while (isspace((unsigned char)*p))
        p++;
    return *p == '\0';
}

/* ---- order ------------------------------------------------------------------ */

static int version_cmp_int(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* Local parts: numbers above words, numbers by value, words by text; a
 * longer list after its prefix. */
static int version_cmp_local(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    while (*a && *b) {
        size_t la = strcspn(a, "."), lb = strcspn(b, ".");
        bool na = strspn(a, "0123456789") == la, nb = strspn(b, "0123456789") == lb;
        int c;
        if (na && nb)
            c = version_cmp_int(strtoll(a, NULL, 10), strtoll(b, NULL, 10));
        else if (na != nb)
            c = na ? 1 : -1;
        else {
            c = strncmp(a, b, la < lb ? la : lb);
            if (!c)
                c = version_cmp_int((int64_t)la, (int64_t)lb);
        }
        if (c)
            return c;
        a += la + (a[la] == '.');
        b += lb + (b[lb] == '.');
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* PEP 440's order: release with trailing zeros ignored; a dev release of
 * a final version before its pre-releases; no pre-release after any; no
 * post-release before any; no dev release after any. */
static int version_cmp(const version_obj *a, const version_obj *b)
{
    int c = version_cmp_int(a->epoch, b->epoch);
    if (c)
        return c;
    int n = a->nrel > b->nrel ? a->nrel : b->nrel;
    for (int i = 0; i < n; i++) {
        c = version_cmp_int(i < a->nrel ? a->rel[i] : 0, i < b->nrel ? b->rel[i] : 0);
        if (c)
            return c;
    }
    /* pre: (rank, number); rank -1 dev-only, 3 none */
    int ra = a->pre_kind >= 0 ? a->pre_kind : (!a->has_post && a->has_dev ? -1 : 3);
    int rb = b->pre_kind >= 0 ? b->pre_kind : (!b->has_post && b->has_dev ? -1 : 3);
    if ((c = version_cmp_int(ra, rb)) ||
        (a->pre_kind >= 0 && (c = version_cmp_int(a->pre, b->pre))))
        return c;
    if ((c = version_cmp_int(a->has_post ? a->post : -1, b->has_post ? b->post : -1)))
        return c;
    if ((c = version_cmp_int(a->has_dev ? a->dev : INT64_MAX, b->has_dev ? b->dev : INT64_MAX)))
        return c;
    return version_cmp_local(a->local, b->local);
}

/* ---- the type ---------------------------------------------------------------- */

/* The normalized text; public without the local part, base only epoch
 * and release. */
static void version_text(const version_obj *v, strbuf *out, bool public, bool base)
{
    if (v->epoch)
        strbuf_printf(out, "%lld!", (long long)v->epoch);
    for (int i = 0; i < v->nrel; i++)
        strbuf_printf(out, i ? ".%lld" : "%lld", (long long)v->rel[i]);
    if (base)
        return;
    static const char *const pre_names[] = {"a", "b", "rc"};
    if (v->pre_kind >= 0)
        strbuf_printf(out, "%s%lld", pre_names[v->pre_kind], (long long)v->pre);
    if (v->has_post)
        strbuf_printf(out, ".post%lld", (long long)v->post);
    if (v->has_dev)
        strbuf_printf(out, ".dev%lld", (long long)v->dev);
    if (v->local && !public)
        strbuf_printf(out, "+%s", v->local);
}

static void version_str(host *h, val self, strbuf *out)
{
    (void)h;
    version_text(version_of(self), out, false, false);
}

static void version_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_puts(out, "<Version('");
    version_text(version_of(self), out, false, false);
    strbuf_puts(out, "')>");
}

static const val_type version_type;

static val version_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)h, (void)inplace, (void)at;
    if (val_type_of(a) != &version_type || val_type_of(b) != &version_type)
        return val_missing();
    int c = version_cmp(version_of(a), version_of(b));
    switch (op) {
    case AST_OP_EQ: return val_bool(c == 0);
    case AST_OP_NE: return val_bool(c != 0);
    case AST_OP_LT: return val_bool(c < 0);
    case AST_OP_LE: return val_bool(c <= 0);
    case AST_OP_GT: return val_bool(c > 0);
    case AST_OP_GE: return val_bool(c >= 0);
    default: return val_missing();
    }
}

static uint64_t version_hash(val self)
{
    /* equal versions (1.0 == 1.0.0) hash alike: trailing zeros skipped */
    const version_obj *v = version_of(self);
    int n = v->nrel;
    while (n > 1 && v->rel[n - 1] == 0)
        n--;
    uint64_t x = (uint64_t)v->epoch * 31u;
    for (int i = 0; i < n; i++)
        x = x * 1000003u + (uint64_t)v->rel[i];
    return x ^ (uint64_t)(v->pre_kind + 7) ^ ((uint64_t)v->has_post << 5);
}

static bool version_equal(val self, val other)
{
    return val_type_of(other) == &version_type &&
           version_cmp(version_of(self), version_of(other)) == 0;
}

static val version_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const version_obj *v = version_of(self);
    if (!strcmp(name, "epoch"))
        return val_int(v->epoch);
    if (!strcmp(name, "release")) {
        val t = val_tuple_new((size_t)v->nrel);
        for (int i = 0; i < v->nrel; i++)
            val_seq_set(t, (size_t)i, val_int(v->rel[i]));
        return t;
    }
    if (!strcmp(name, "major") || !strcmp(name, "minor") || !strcmp(name, "micro")) {
        int i = name[1] == 'a' ? 0 : name[1] == 'i' && name[2] == 'n' ? 1 : 2;
        return val_int(i < v->nrel ? v->rel[i] : 0);
    }
    if (!strcmp(name, "pre")) {
        if (v->pre_kind < 0)
            return val_none();
        static const char *const pre_names[] = {"a", "b", "rc"};
        val items[2] = {val_str_cstr(pre_names[v->pre_kind]), val_int(v->pre)};
        return val_tuple_of(2, items);
    }
    if (!strcmp(name, "post"))
        return v->has_post ? val_int(v->post) : val_none();
    if (!strcmp(name, "dev"))
        return v->has_dev ? val_int(v->dev) : val_none();
    if (!strcmp(name, "local"))
        return v->local ? val_str_cstr(v->local) : val_none();
    if (!strcmp(name, "public") || !strcmp(name, "base_version")) {
        strbuf b = {0};
        version_text(v, &b, true, name[0] == 'b');
        return val_str_from_buf(&b);
    }
    if (!strcmp(name, "is_prerelease"))
        return val_bool(v->pre_kind >= 0 || v->has_dev);
    if (!strcmp(name, "is_postrelease"))
        return val_bool(v->has_post);
    if (!strcmp(name, "is_devrelease"))
        return val_bool(v->has_dev);
    return val_missing();
}

static void version_free(val_obj *o)
{
    free(((version_obj *)o)->local);
}

static const char *const version_attr_names[] = {
    "epoch", "release", "major", "minor", "micro", "pre", "post", "dev", "local", "public",
    "base_version", "is_prerelease", "is_postrelease", "is_devrelease", NULL,
};

static const val_type version_type = {
    .name = "Version",
    .getattr = version_getattr,
    .binop = version_binop,
    .repr = version_repr,
    .str = version_str,
    .free = version_free,
    .attr_names = version_attr_names,
    .hash = version_hash,
    .equal = version_equal,
};

/* Version(text), parse(text): the version, or InvalidVersion. */
BUILTIN_FN(packaging_version)
{
    (void)self;
    val p[1];
    const char *s;
    if (!host_args(h, at, "Version", "version", argc, argv, kw, p) ||
        !host_to_str(h, p[0], at, "Version() argument", &s))
        return val_err();
    version_obj *v = val_obj_new(sizeof *v, VAL_OBJECT, &version_type);
    v->o.attrs = val_none();
    v->pre_kind = -1;
    if (version_parse(s, v))
        return val_of(v);
    val_unref(val_of(v));
    val mod = host_module(h, "packaging.version");
    val cls = mod.kind == VAL_MODULE ? val_object_get(mod, "InvalidVersion") : val_missing();
    val msg = val_str_fmt("Invalid version: '%s'", s);
    val e = host_call(h, cls, 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

void builtin_packaging_init(host *h)
{
    val pkg = val_module_new("packaging");
    val m = val_module_new("packaging.version");
    val t = val_builtin_new("packaging.version.Version", packaging_version, val_none());
    ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)t.u.o)->inst_type = &version_type;
    val_object_set(m, "Version", t);
    host_def(m, "packaging.version.parse", packaging_version);
    val inv = class_new("InvalidVersion", h->exc_classes[HOST_EXC_VALUE], true);
    val_object_set(inv, "__module__", val_str_cstr("packaging.version"));
    val_object_set(m, "InvalidVersion", inv);
    val_object_set(pkg, "version", val_ref(m));
    host_register_module(h, "packaging", pkg);
    host_register_module(h, "packaging.version", m);
}
