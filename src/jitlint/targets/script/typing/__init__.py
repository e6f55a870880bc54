"""The TorchScript typer: compiled code typed the way `torch.jit.script`'s frontend types it.

- `types`: the type lattice (one subtype relation, the frontend's conversions, one join, one printer);
- `annotations`: annotations, type comments and signatures as torch reads them;
- `modules`: what `self.<name>` is in a module's compiled code (the concrete module type);
- `calls`: call matching against operator schemas and signatures (`schema_matching.cpp`);
- `checkexpr`: expression typing; `binder`: what conditions decide and refine; `checker`: statements;
- `results`: what the typer finds, as data the rules word.

`analysis.function_types(ctx, node)` is the one entry: the typer's results for one compiled function, computed once per lint
of a file and read by every rule that needs types.
"""
