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
