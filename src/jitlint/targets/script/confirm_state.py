"""The script strategy's child side: torch's compilation state, reset between captures. Loaded by
`confirm_child.py` by its path; the standard library and torch only."""

from __future__ import annotations

# Overload declarations torch forgot once it compiled them, by qualified name, until the next reset.
_SPENT_OVERLOADS: dict[str, list] = {}


def reset_torch_state(torch) -> None:
    """Forget what earlier attempts compiled, or torch refuses to redefine methods."""
    from torch.jit import _recursive

    _recursive.concrete_type_store = _recursive.ConcreteTypeStore()
    torch.jit._state._python_cu = torch._C.CompilationUnit()
    torch.jit._state._clear_class_state()
    _UNPLACED.clear()
    # The function caches name functions of the compilation unit just dropped: a cached overload would resolve to
    # None ("_create_methods_and_properties(): incompatible function arguments" when a class that calls an
    # `@torch.jit._overload` function is scripted a second time). Torch forgets an overload's declarations once it
    # compiled them, so they are kept aside (`keep_overloads`) and registered again with the new unit.
    torch.jit._state._jit_caching_layer.clear()
    torch.jit._state._jit_function_overload_caching.clear()
    for qual_name, overloads in _SPENT_OVERLOADS.items():
        torch._jit_internal._overloaded_fns.setdefault(qual_name, overloads)
    _SPENT_OVERLOADS.clear()


def keep_overloads(torch) -> None:
    """Keep each overload's declarations aside when torch forgets them (see `reset_torch_state`)."""
    internal = torch._jit_internal
    clear = internal._clear_fn_overloads

    def keeping(qual_name):
        _SPENT_OVERLOADS[qual_name] = internal._overloaded_fns.get(qual_name)
        clear(qual_name)

    internal._clear_fn_overloads = keeping


# Objects torch's resolver failed on with a Python error of its own and no place (numpy 2's functions and ufuncs
# cannot be weakly referenced, which `_try_get_dispatched_fn` does to every callable it resolves), by id, with that
# error's message; cleared with each reset.
_UNPLACED: dict[int, tuple[object, str]] = {}


class ResolverError(RuntimeError):
    """A Python error torch's resolver raised on an object the user's code names, placed at the call torch was
    compiling it for (torch's own message, then the call's source range, as torch formats its errors)."""


def place_resolver_errors(torch) -> None:
    """Make an error torch's resolver raises with no place (`_try_get_dispatched_fn(obj)` raising TypeError: "cannot
    create weak reference to 'numpy._ArrayFunctionDispatcher' object") an error at the call that names the object.
    The resolver's lookup is let through (the object is not a boolean-dispatched function, which is all it asks), so
    torch goes on as for any opaque Python callable: a call of it is checked by `torch.jit.annotations.check_fn(fn,
    loc)`, handed the call's range, which then raises the resolver's message there. An object resolved that way but
    never placed (not called: `raise_unplaced` after a compile that passed) raises the resolver's error as torch
    did, with no place: nothing is accepted that torch refuses."""
    internal, annotations = torch._jit_internal, torch.jit.annotations
    dispatched, check_fn = internal._try_get_dispatched_fn, annotations.check_fn

    def tolerant_dispatched(fn):
        try:
            return dispatched(fn)
        except TypeError as error:
            _UNPLACED[id(fn)] = (fn, str(error))
            return None

    def placing_check_fn(fn, loc):
        unplaced = _UNPLACED.get(id(fn))
        if unplaced is not None and unplaced[0] is fn:
            del _UNPLACED[id(fn)]
            raise ResolverError(f"{unplaced[1]}:\n{loc.highlight()}")
        return check_fn(fn, loc)

    internal._try_get_dispatched_fn = tolerant_dispatched
    annotations.check_fn = placing_check_fn


def raise_unplaced() -> None:
    """After a compile that passed: the resolver's error on an object no call placed, as torch raised it."""
    if _UNPLACED:
        message = next(iter(_UNPLACED.values()))[1]
        _UNPLACED.clear()
        raise TypeError(message)


def failing_submodule_methods(torch, instance, own, root_ignored) -> list[tuple[object, str, object]]:
    """Of `root_ignored` (the module methods the model's run ignored for the user's code: (class, name, method)),
    those scripting a method unit on `instance` compiles whatever the unit's own code calls: torch compiles the
    `forward` (and `@torch.jit.export` methods) of every submodule of that instance (`infer_methods_to_compile`), so
    each one that failed in the model's run fails again the same way. The unit's own function (`own`) is never one."""
    import inspect

    if instance is None:
        return []
    try:
        submodules = [module for module in instance.modules() if module is not instance]
    except AttributeError:  # a module class whose __init__ never called nn.Module's: it has no submodules
        return []
    own_function = getattr(own, "__func__", own)
    found = []
    for owner, name, member in root_ignored:
        if getattr(member, "__func__", member) is own_function:
            continue
        compiled = name == "forward" or getattr(member, "_torchscript_modifier", None) is \
            torch._jit_internal.FunctionModifiers.EXPORT
        if compiled and any(isinstance(module, owner) and inspect.getattr_static(type(module), name, None) is member
                            for module in submodules):
            found.append((owner, name, member))
    return found
