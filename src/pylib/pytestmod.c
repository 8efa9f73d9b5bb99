/* pytestmod.c - the pytest module as test files use it at import time and
 * in the functions they call themselves: pytest.mark.<name> decorators
 * that record marks on the function (pytestmark) and give it back
 * callable, pytest.skip / pytest.fail raising their outcome exceptions,
 * pytest.raises as a context manager, pytest.approx, pytest.fixture.
 * Running a file collects nothing, as `python file.py` does not. */
#include "builtins_impl.h"

#include <math.h>
#include <string.h>

/* ---- marks -------------------------------------------------------------------------------- */

/* pytest.mark.NAME(args, kwargs): a MarkDecorator.  Its attributes are
 * name, args (tuple) and kwargs (dict), as pytest's Mark has. */
static void pytest_mark_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "MarkDecorator(mark=Mark(name=");
    val_print_repr(h, val_object_get(self, "name"), out);
    strbuf_puts(out, ", args=");
    val_print_repr(h, val_object_get(self, "args"), out);
    strbuf_puts(out, ", kwargs=");
    val_print_repr(h, val_object_get(self, "kwargs"), out);
    strbuf_puts(out, "))");
}

static val pytest_mark_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at);

static const val_type pytest_mark_type = {
    .name = "MarkDecorator",
    .call = pytest_mark_call,
    .repr = pytest_mark_repr,
};

static val pytest_mark_new(val name, val args, val kwargs)
{
    val m = val_object_new(&pytest_mark_type);
    val_object_set(m, "name", name);
    val_object_set(m, "args", args);
    val_object_set(m, "kwargs", kwargs);
    return m;
}

static bool pytest_is_decoratable(val v)
{
    return v.kind == VAL_FUNC || v.kind == VAL_CLASS || v.kind == VAL_KERNEL;
}

/* Applied to a function (the only argument, no keywords): the mark goes
 * to the front of its pytestmark list and the function comes back; else
 * a new MarkDecorator with these arguments added. */
static val pytest_mark_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    val args = val_object_get(self, "args");
    if (argc == 1 && kw->n == 0 && pytest_is_decoratable(argv[0])) {
        val fn = argv[0];
        val marks = host_getattr_opt(h, fn, "pytestmark", at);
        if (marks.kind == VAL_ERR)
            return marks;
        /* decorators apply bottom-up: pytest keeps the list in that order */
        val list = val_list_new(0);
        if (marks.kind == VAL_LIST)
            for (size_t i = 0; i < val_as_seq(marks)->len; i++)
                val_list_push(list, val_ref(val_as_seq(marks)->items[i]));
        val_list_push(list, val_ref(self));
        val_unref(marks);
        bool ok = host_setattr(h, fn, "pytestmark", list, at);
        val_unref(list);
        return ok ? val_ref(fn) : val_err();
    }
    size_t n = val_as_seq(args)->len;
    val t = val_tuple_new(n + (size_t)argc);
    for (size_t i = 0; i < n; i++)
        val_seq_set(t, i, val_ref(val_as_seq(args)->items[i]));
    for (int i = 0; i < argc; i++)
        val_seq_set(t, n + (size_t)i, val_ref(argv[i]));
    val d = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(val_object_get(self, "kwargs"), &pos, &k, &v))
        val_dict_set(d, val_ref(k), val_ref(v));
    for (int i = 0; i < kw->n; i++)
        val_dict_set_str(d, kw->names[i], val_ref(kw->values[i]));
    return pytest_mark_new(val_ref(val_object_get(self, "name")), t, d);
}

/* pytest.mark: any attribute is a MarkDecorator of that name. */
static val pytest_markgen_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)self, (void)at;
    if (name[0] == '_')
        return val_missing();
    return pytest_mark_new(val_str_cstr(name), val_tuple_new(0), val_dict_new());
}

static const val_type pytest_markgen_type = {
    .name = "MarkGenerator",
    .getattr = pytest_markgen_getattr,
};

/* ---- outcomes: skip and fail ---------------------------------------------------------------- */

static val pytest_outcome(host *h, const char *cls_name, int argc, const val *argv,
                          const val_kwargs *kw, src_span at)
{
    val a[2];
    if (!host_args(h, at, cls_name, "reason=, *, allow_module_level=", argc, argv, kw, a))
        return val_err();
    val mod = host_module(h, "pytest");
    val fn = val_object_get(mod, !strcmp(cls_name, "skip") ? "skip" : "fail");
    val cls = fn.kind == VAL_OBJECT ? val_object_get(fn, "Exception") : val_missing();
    if (cls.kind != VAL_CLASS)
        return host_error(h, at, "internal error: pytest.%s.Exception is missing", cls_name);
    val msg = a[0].kind == VAL_MISSING ? val_str_cstr("") : val_ref(a[0]);
    val e = host_call(h, cls, 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

/* pytest.skip and pytest.fail are functions with an Exception attribute:
 * objects with a call hook. */
static val pytest_outcome_call(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    val name = val_object_get(self, "__name__");
    return pytest_outcome(h, val_as_str(name)->s, argc, argv, kw, at);
}

static void pytest_outcome_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<function %s at %p>", val_as_str(val_object_get(self, "__name__"))->s,
                  (void *)self.u.o);
}

static const val_type pytest_outcome_type = {
    .name = "function",
    .call = pytest_outcome_call,
    .repr = pytest_outcome_repr,
};

static val pytest_outcome_fn(host *h, const char *name, const char *cls_name)
{
    val f = val_object_new(&pytest_outcome_type);
    val_object_set(f, "__name__", val_str_cstr(name));
    val cls = class_new(cls_name, host_exc_class(h, HOST_EXC_BASE), true);
    ((val_class *)cls.u.o)->exception = true;
    val_object_set(cls, "__module__", val_str_cstr("_pytest.outcomes"));
    val_object_set(f, "Exception", cls);
    return f;
}

/* ---- pytest.raises ----------------------------------------------------------------------------- */

/* The context manager: expected (a class or tuple of classes), match (a
 * str or None), info (the ExceptionInfo __enter__ returned). */
static val pytest_raises_getattr(host *h, val self, const char *name, src_span at);

static const val_type pytest_raises_type = {
    .name = "RaisesContext",
    .getattr = pytest_raises_getattr,
};

static void pytest_info_repr(host *h, val self, strbuf *out)
{
    val v = val_object_get(self, "value");
    if (v.kind == VAL_MISSING) {
        strbuf_puts(out, "<ExceptionInfo for raises contextmanager>");
        return;
    }
    strbuf_puts(out, "<ExceptionInfo ");
    val_print_repr(h, v, out);
    strbuf_puts(out, " tblen=1>");
}

static const val_type pytest_info_type = {
    .name = "ExceptionInfo",
    .repr = pytest_info_repr,
};

BUILTIN_FN(pytest_raises)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "raises", "expected_exception, *, match=", argc, argv, kw, a))
        return val_err();
    val cm = val_object_new(&pytest_raises_type);
    val_object_set(cm, "expected", val_ref(a[0]));
    val_object_set(cm, "match", a[1].kind == VAL_MISSING ? val_none() : val_ref(a[1]));
    val_object_set(cm, "info", val_object_new(&pytest_info_type));
    return cm;
}

BUILTIN_FN(pytest_raises_enter)
{
    (void)argc, (void)argv, (void)kw, (void)h, (void)at;
    return val_ref(val_object_get(self, "info"));
}

/* Does text contain pattern?  pytest calls re.search; tritsim matches the
 * pattern's literal text (backslash escapes taken literally). */
static bool pytest_search(const char *text, const char *pattern)
{
    strbuf lit = {0};
    for (const char *p = pattern; *p; p++) {
        if (*p == '\\' && p[1])
            p++;
        strbuf_putc(&lit, *p);
    }
    bool r = strstr(text, lit.data ? lit.data : "") != NULL;
    strbuf_free(&lit);
    return r;
}

BUILTIN_FN(pytest_raises_exit)
{
    if (!builtin_nargs(h, "__exit__", argc, kw, 3, 3, at))
        return val_err();
    val expected = val_object_get(self, "expected");
    if (argv[0].kind == VAL_NONE) {
        val r = host_repr(h, expected);
        val fail = val_object_get(host_module(h, "pytest"), "fail");
        val msg = val_str_fmt("DID NOT RAISE %s", r.kind == VAL_STR ? val_as_str(r)->s : "?");
        val_unref(r);
        val e = host_call(h, val_object_get(fail, "Exception"), 1, &msg, NULL, at);
        val_unref(msg);
        if (e.kind != VAL_ERR) {
            host_raise_value(h, e, at);
            val_unref(e);
        }
        return val_err();
    }
    val args[2] = {argv[1], expected};
    val isinst = val_dict_get_str(h->builtins, "isinstance");
    val m = host_call(h, isinst, 2, args, NULL, at);
    if (m.kind == VAL_ERR)
        return m;
    int t = host_truth(h, m, at);
    val_unref(m);
    if (t <= 0)
        return t < 0 ? val_err() : val_bool(false);   /* not ours: it goes on */
    val pattern = val_object_get(self, "match");
    if (pattern.kind == VAL_STR) {
        val s = host_str(h, argv[1]);
        if (s.kind == VAL_ERR)
            return s;
        bool ok = pytest_search(val_as_str(s)->s, val_as_str(pattern)->s);
        if (!ok) {
            val fail = val_object_get(host_module(h, "pytest"), "fail");
            val msg = val_str_fmt("Regex pattern did not match.\n Regex: '%s'\n Input: '%s'",
                                  val_as_str(pattern)->s, val_as_str(s)->s);
            val e = host_call(h, val_object_get(fail, "Exception"), 1, &msg, NULL, at);
            val_unref(msg);
            val_unref(s);
            if (e.kind != VAL_ERR) {
                host_raise_value(h, e, at);
                val_unref(e);
            }
            return val_err();
        }
        val_unref(s);
    }
    val info = val_object_get(self, "info");
    val_object_set(info, "type", val_ref(argv[0]));
    val_object_set(info, "value", val_ref(argv[1]));
    val_object_set(info, "tb", val_ref(argv[2]));
    return val_bool(true);
}

static val pytest_raises_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("__enter__", pytest_raises_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("__exit__", pytest_raises_exit, val_ref(self));
    return val_missing();
}

/* ---- pytest.approx --------------------------------------------------------------------------- */

/* expected (a number, or a list/tuple of numbers), rel, abs. */
static bool pytest_close(double actual, double expected, double rel, double abs_tol)
{
    if (actual == expected)
        return true;
    if (isinf(expected) || isnan(expected) || isnan(actual))
        return false;
    double tol = fmax(rel * fabs(expected), abs_tol);
    return fabs(actual - expected) <= tol;
}

static int pytest_approx_eq(host *h, val self, val other)
{
    val exp = val_object_get(self, "expected");
    double rel = val_object_get(self, "rel").u.f, abs_tol = val_object_get(self, "abs").u.f;
    if (exp.kind == VAL_LIST || exp.kind == VAL_TUPLE) {
        if (other.kind != VAL_LIST && other.kind != VAL_TUPLE)
            return 0;
        const val_seq *e = val_as_seq(exp), *o = val_as_seq(other);
        if (e->len != o->len)
            return 0;
        for (size_t i = 0; i < e->len; i++) {
            double x, y;
            if (!host_to_float(h, o->items[i], (src_span){0}, "approx", &x) ||
                !host_to_float(h, e->items[i], (src_span){0}, "approx", &y))
                return -1;
            if (!pytest_close(x, y, rel, abs_tol))
                return 0;
        }
        return 1;
    }
    if (other.kind != VAL_INT && other.kind != VAL_FLOAT && other.kind != VAL_BOOL)
        return 0;
    double x = other.kind == VAL_FLOAT ? other.u.f : (double)(other.kind == VAL_BOOL ? other.u.b
                                                                                       : other.u.i);
    double y = exp.kind == VAL_FLOAT ? exp.u.f : (double)(exp.kind == VAL_BOOL ? exp.u.b
                                                                                : exp.u.i);
    return pytest_close(x, y, rel, abs_tol);
}

static val pytest_approx_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op != AST_OP_EQ && op != AST_OP_NE)
        return val_missing();
    bool self_left = a.kind == VAL_OBJECT && a.u.o->type && !strcmp(a.u.o->type->name, "ApproxScalar");
    int r = pytest_approx_eq(h, self_left ? a : b, self_left ? b : a);
    if (r < 0)
        return host_error(h, at, "pytest.approx compares numbers only");
    return val_bool(op == AST_OP_EQ ? r : !r);
}

static void pytest_approx_repr(host *h, val self, strbuf *out)
{
    val exp = val_object_get(self, "expected");
    double rel = val_object_get(self, "rel").u.f, abs_tol = val_object_get(self, "abs").u.f;
    if (exp.kind == VAL_LIST || exp.kind == VAL_TUPLE) {
        strbuf_puts(out, "approx(");
        val_print_repr(h, exp, out);
        strbuf_puts(out, ")");
        return;
    }
    double y = exp.kind == VAL_FLOAT ? exp.u.f : (double)exp.u.i;
    val_print_repr(h, exp, out);
    strbuf_printf(out, " \xc2\xb1 %.1e", fmax(rel * fabs(y), abs_tol));
}

static const val_type pytest_approx_type = {
    .name = "ApproxScalar",
    .binop = pytest_approx_binop,
    .repr = pytest_approx_repr,
};

BUILTIN_FN(pytest_approx)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "approx", "expected, rel=, abs=", argc, argv, kw, a))
        return val_err();
    double rel = 1e-6, abs_tol = 1e-12;
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
        !host_to_float(h, a[1], at, "approx() rel", &rel))
        return val_err();
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
        !host_to_float(h, a[2], at, "approx() abs", &abs_tol))
        return val_err();
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
        (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE))
        rel = 0;   /* only abs given: pytest then ignores the default rel */
    val x = val_object_new(&pytest_approx_type);
    val_object_set(x, "expected", val_ref(a[0]));
    val_object_set(x, "rel", val_float(rel));
    val_object_set(x, "abs", val_float(abs_tol));
    return x;
}

/* ---- fixture and the module ----------------------------------------------------------------- */

/* A fixture: pytest refuses to call one directly, and so does tritsim
 * (self is the function). */
BUILTIN_FN(pytest_fixture_called)
{
    (void)argc, (void)argv, (void)kw;
    val name = host_getattr_opt(h, self, "__name__", at);
    val fail = val_object_get(host_module(h, "pytest"), "fail");
    val msg = val_str_fmt("Fixture \"%s\" called directly. Fixtures are not meant to be called "
                          "directly,\nbut are created automatically when test functions request "
                          "them as parameters.", name.kind == VAL_STR ? val_as_str(name)->s : "?");
    val_unref(name);
    val e = host_call(h, val_object_get(fail, "Exception"), 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind != VAL_ERR) {
        host_raise_value(h, e, at);
        val_unref(e);
    }
    return val_err();
}

BUILTIN_FN(pytest_fixture_wrap)
{
    (void)self, (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "a fixture decorator takes the function");
    return val_builtin_new("fixture", pytest_fixture_called, val_ref(argv[0]));
}

/* @pytest.fixture or @pytest.fixture(scope=...) */
BUILTIN_FN(pytest_fixture)
{
    if (argc == 1 && kw->n == 0 && argv[0].kind == VAL_FUNC)
        return pytest_fixture_wrap(h, self, argc, argv, kw, at);
    return val_builtin_new("pytest.fixture", pytest_fixture_wrap, val_none());
}

BUILTIN_FN(pytest_main)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "pytest.main is not supported by tritsim: it collects no tests (call the "
                      "test functions yourself)");
}

void builtin_pytest_init(host *h)
{
    val m = val_module_new("pytest");
    val_object_set(m, "mark", val_object_new(&pytest_markgen_type));
    val_object_set(m, "skip", pytest_outcome_fn(h, "skip", "Skipped"));
    val_object_set(m, "fail", pytest_outcome_fn(h, "fail", "Failed"));
    host_def(m, "pytest.raises", pytest_raises);
    host_def(m, "pytest.approx", pytest_approx);
    host_def(m, "pytest.fixture", pytest_fixture);
    host_def(m, "pytest.main", pytest_main);
    host_register_module(h, "pytest", m);
}
