/* typingmod.c - the typing module: names for annotations (Optional,
 * List, Callable, ...) that print as Python's, take subscripts
 * (Optional[int]) and cannot be instantiated; and TYPE_CHECKING. */
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

/* typing: the common names, usable in annotations and subscripted. */
void builtin_typing_init(host *h)
{
    static const char *const names[] = {
        "Any", "Callable", "Dict", "Iterable", "List", "Optional", "Sequence", "Tuple",
        "Union", NULL,
    };
    val m = val_module_new("typing");
    for (int i = 0; names[i]; i++) {
        val t = val_object_new(&builtin_typing_type);
        val_object_set(t, "_name", val_str_cstr(names[i]));
        val_object_set(m, names[i], t);
    }
    val_object_set(m, "TYPE_CHECKING", val_bool(false));
    host_register_module(h, "typing", m);
}
