/* typingmod.c - the typing module: names for annotations (Optional,
 * List, Callable, ...) that print as Python's, take subscripts
 * (Optional[int], Literal["a", "b"]) and cannot be instantiated;
 * TypeVar, cast and the decorators that return what they decorate;
 * TYPE_CHECKING.  Nothing is enforced, as in Python.  Also __future__,
 * whose features (annotations, ...) tritsim always has: annotations are
 * never evaluated. */
#include "builtins_impl.h"

/* ---- typing: names for annotations ---------------------------------------- */

/* repr of a typing name: "typing.Optional". */
static void builtin_typing_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "_name");
    strbuf_printf(out, "typing.%s", name.kind == VAL_STR ? val_as_str(name)->s : "?");
}

/* Optional[int], Dict[str, int]: the name itself (tritsim keeps no type
 * arguments; annotations are not checked, as in Python). */
static val builtin_typing_getitem(host *h, val self, val key, src_span at)
{
    (void)h, (void)key, (void)at;
    return val_ref(self);
}

static val builtin_typing_call(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    val name = val_object_get(self, "_name");
    return host_raise(h, HOST_EXC_TYPE, at, "TypeError: Cannot instantiate typing.%s",
                      name.kind == VAL_STR ? val_as_str(name)->s : "?");
}

static const val_type builtin_typing_type = {
    .name = "_SpecialForm",
    .call = builtin_typing_call,
    .getitem = builtin_typing_getitem,
    .repr = builtin_typing_repr,
};

/* TypeVar("T", ...) and ParamSpec("P"): an object printed ~T (bounds and
 * constraints are accepted, not checked). */
static void builtin_typevar_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "__name__");
    strbuf_printf(out, "~%s", name.kind == VAL_STR ? val_as_str(name)->s : "?");
}

static const val_type builtin_typevar_type = {
    .name = "TypeVar",
    .getitem = builtin_typing_getitem,
    .repr = builtin_typevar_repr,
};

BUILTIN_FN(builtin_typing_typevar)
{
    (void)self, (void)kw;
    const char *name;
    if (argc < 1) {
        return host_raise(h, HOST_EXC_TYPE, at, "TypeVar() missing required argument: "
                          "'name'");
    }
    if (!host_to_str(h, argv[0], at, "TypeVar() argument 'name'", &name))
        return val_err();
    val t = val_object_new(&builtin_typevar_type);
    val_object_set(t, "__name__", val_str_cstr(name));
    return t;
}

/* typing.cast(typ, value): value. */
BUILTIN_FN(builtin_typing_cast)
{
    (void)self;
    if (!builtin_nargs(h, "cast", argc, kw, 2, 2, at))
        return val_err();
    return val_ref(argv[1]);
}

/* @overload, @final, @no_type_check, @runtime_checkable: the function (or
 * class) unchanged. */
BUILTIN_FN(builtin_typing_identity)
{
    (void)self;
    if (!builtin_nargs(h, "decorator", argc, kw, 1, 1, at))
        return val_err();
    return val_ref(argv[0]);
}

/* typing: the common names, usable in annotations and subscripted. */
void builtin_typing_init(host *h)
{
    static const char *const names[] = {
        "Any", "Callable", "Dict", "Iterable", "List", "Optional", "Sequence", "Tuple",
        "Union", "Literal", "Final", "ClassVar", "Annotated", "Type", "Set", "FrozenSet",
        "Mapping", "MutableMapping", "MutableSequence", "Iterator", "Generator", "Hashable",
        "Sized", "Collection", "Container", "Awaitable", "Coroutine", "AsyncIterator",
        "DefaultDict", "OrderedDict", "Counter", "Deque", "ChainMap", "NoReturn", "Never",
        "Self", "TypeAlias", "AnyStr", "Concatenate", "TypeGuard", "Reversible", NULL,
    };
    val m = val_module_new("typing");
    for (int i = 0; names[i]; i++) {
        val t = val_object_new(&builtin_typing_type);
        val_object_set(t, "_name", val_str_cstr(names[i]));
        val_object_set(m, names[i], t);
    }
    val_object_set(m, "TYPE_CHECKING", val_bool(false));
    host_def(m, "typing.TypeVar", builtin_typing_typevar);
    host_def(m, "typing.ParamSpec", builtin_typing_typevar);
    host_def(m, "typing.cast", builtin_typing_cast);
    host_def(m, "typing.overload", builtin_typing_identity);
    host_def(m, "typing.final", builtin_typing_identity);
    host_def(m, "typing.no_type_check", builtin_typing_identity);
    host_def(m, "typing.runtime_checkable", builtin_typing_identity);
    host_register_module(h, "typing", m);
}

/* __future__: from __future__ import annotations: each feature is on
 * already. */
void builtin_future_init(host *h)
{
    static const char *const future[] = {
        "annotations", "division", "absolute_import", "print_function", "unicode_literals",
        "generator_stop", "nested_scopes", "generators", "with_statement", NULL,
    };
    val fut = val_module_new("__future__");
    for (int i = 0; future[i]; i++)
        val_object_set(fut, future[i], val_bool(true));
    val names_list = val_list_new(0);
    for (int i = 0; future[i]; i++)
        val_list_push(names_list, val_str_cstr(future[i]));
    val_object_set(fut, "all_feature_names", names_list);
    host_register_module(h, "__future__", fut);
}
