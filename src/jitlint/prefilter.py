"""Which files of a run must be parsed with LibCST up front, decided from their summaries (`jitlint.summaries`).

A file's findings come from three places: the capture roots in it (for TorchScript: the module classes, whose
`forward`, exported methods and properties, own or inherited, are compiled, and whatever `torch.jit.script` is
applied to), the functions of it that compiled code elsewhere reaches (a helper called from another file's
`forward`), and the rules that look at code outside compiled functions. A file with none of the first and third
kinds need not be parsed before the capture maps are built: if compiled code reaches it, its worker parses it then
(`pipeline.Worker.promote`) and lints it. So a worker parses up front only the files this module cannot rule out:

- a file whose text holds a word that makes it a candidate: `script` (`@torch.jit.script`, `torch.jit.script(f)`,
  and any alias of them, which an import spells out), each `text_hints` word of the enabled rules that run outside
  compiled code, `noqa` when JIT900 is on;
- a file Python's own parser (`ast`) rejects, or that is not plain readable source (too large, generated, NUL
  bytes, undecodable, too deeply nested): it goes the usual way, so its JIT001-005 finding is the usual one;
- a file with a module-level function that returns a nested function taking a variable signature (the decorators
  JIT632 looks at);
- a file with a top-level class that is an `nn.Module` subclass (`ProjectIndex.is_module_class`, over the index of
  the summaries).

Every enabled rule must be accounted for, or the prefilter is off for the run (`Prefilter.for_run`, `why_off`), so
that a rule added later (on another branch) can cost speed but never findings:

- a rule whose scope is `compiled` or `signature` reports only in functions the capture map holds, and a file
  holding one is parsed (up front or when reached) and linted;
- a rule that runs outside compiled code (`anywhere`) and declares `text_hints`: the engine runs it only in files
  holding one of those words (`linting.Dispatcher`), with or without the prefilter, and such files are parsed;
- a rule that runs outside compiled code and declares no `text_hints` must declare where it reports
  (`Rule.reports_only_in`) and the exact handlers it had when that was checked (`Rule.checked_handlers`):
  "module-class" rules (their handlers return at once unless the class is a module class, which
  `tests/test_prefilter.py` checks in their source) and "wrapper-factory" rules (the decorator shape above). A
  rule that gains a handler, or a new rule of that kind, turns the prefilter off;
- a rule with its own `begin_file` or `end_file` (which could report anything) must declare, on the class that
  defines them, that they report only what its visits collected (`Rule.file_hooks_report_visits`);
- any capture policy whose roots are not all in module classes (`CapturePolicy.roots_in_module_classes`: script's
  and trace's are), any other scope, and runs that keep the model for the dynamic checker turn it off, as does the environment variable `JITLINT_PREFILTER=0` (for tests and benchmarks
  that compare a run with and without it).

Not exact in one case: a file `ast` accepts but LibCST's parser rejects would, parsed, get a JIT001 finding; left
unparsed (when nothing reaches it), it gets none.
"""

from __future__ import annotations

import os

from jitlint.paths import resolved

ENVIRONMENT = "JITLINT_PREFILTER"  # "0": no prefilter (tests and benchmarks compare runs with and without it)


class Prefilter:
    def __init__(self, words: tuple[str, ...], wrappers: bool, noqa: bool = False) -> None:
        self.words = words
        self.wrappers = wrappers
        self.noqa = noqa

    @classmethod
    def for_run(cls, rules, policies, enabled: set[str]) -> "Prefilter | None":
        """The prefilter for a run of these rule instances and capture policies, or None where it does not
        apply (see the module's docstring and `why_off`)."""
        if why_off(rules, policies) is not None:
            return None
        words = {"script"}
        wrappers = False
        for rule in rules:
            if rule.scope != "anywhere":
                continue
            if not _known(rule):
                words.update(rule.text_hints)  # (`why_off`: it has some)
            elif rule.reports_only_in == "wrapper-factory":
                wrappers = True
            # else: a module-class-only rule (JIT623's `__init__` hint would add nothing to that)
        return cls(tuple(sorted(words)), wrappers, noqa="JIT900" in enabled)

    def needs(self, summary, project, limits) -> bool:
        """Whether a file must be parsed up front (see the module's docstring), from its summary; `project` is the
        worker's index (which resolves the bases of the file's classes through the other files' summaries), `limits`
        the run's."""
        if not summary.plain or summary.module is None or summary.size > limits.max_file_size:
            return True
        if summary.generated and not limits.lint_generated:
            return True
        if summary.stars:  # what a star import binds is the project's to know (`ProjectIndex.bind_stars`)
            return True
        if any(word in summary.words for word in self.words):
            return True
        if self.noqa and summary.noqa:
            return True
        if self.wrappers and summary.wrappers:
            return True
        return any(cls.base_names and project.is_module_class(cls) for cls in summary.module.classes.values())

    def needs_parsed(self, source, module, project, limits) -> bool:
        """`needs` for a file parsed with LibCST already (a run in one process reads no summaries), from its text
        and its index; where the summary's answer is not read from them it says True (never fewer files)."""
        from jitlint.limits import generated_marker, structure_problem

        text = source.text
        if "\x00" in text or len(text.encode("utf-8", "surrogatepass")) > limits.max_file_size:
            return True
        if (not limits.lint_generated and generated_marker(text) is not None) or structure_problem(text) is not None:
            return True
        if "import *" in text or any(word in text for word in self.words):
            return True
        if self.noqa and "noqa" in text.lower():
            return True
        if self.wrappers and _returns_wrappers(source.tree):
            return True
        return any(cls.base_names and project.is_module_class(cls) for cls in module.classes.values())


def _returns_wrappers(tree) -> bool:
    """A module-level function with a nested function (directly in its body) taking a variable signature: what
    `summaries._returns_wrapper` finds with `ast`, read from LibCST's tree."""
    import libcst as cst

    for statement in tree.body:
        if not isinstance(statement, cst.FunctionDef) or not isinstance(statement.body, cst.IndentedBlock):
            continue
        for inner in statement.body.body:
            if isinstance(inner, cst.FunctionDef):
                params = inner.params
                if (isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None
                        or any(param.default is not None for param in params.kwonly_params)):
                    return True
    return False


def _known(rule) -> bool:
    """A rule outside compiled code that declares where it reports, with the handlers it had when that was
    checked."""
    handlers = frozenset((kind, node_type) for kind, node_type, _method in rule.handlers())
    return rule.reports_only_in is not None and rule.checked_handlers == handlers


def _hooks_known(rule) -> bool:
    """Whether the class that defines the rule's `begin_file`/`end_file` declares they report only its visits."""
    from jitlint.rules.base import Rule

    for hook in ("begin_file", "end_file"):
        owner = next(klass for klass in type(rule).__mro__ if hook in klass.__dict__)
        if owner is not Rule and not owner.__dict__.get("file_hooks_report_visits", False):
            return False
    return True


def why_off(rules, policies) -> str | None:
    """Why the prefilter cannot apply to a run of these rule instances and capture policies (None: it can)."""
    if os.environ.get(ENVIRONMENT, "1") == "0":
        return f"{ENVIRONMENT}=0"
    from jitlint.targets import policy_class

    rooted = {name for name in policies if getattr(policy_class(name), "roots_in_module_classes", False)}
    if set(policies) - rooted:
        return (f"capture policies {sorted(set(policies) - rooted)} (the prefilter knows only roots in module "
                "classes and `script`)")
    for rule in rules:
        code = rule.code
        if rule.policy not in rooted:
            return f"{code}: capture policy {rule.policy!r}"
        if not _hooks_known(rule):
            return f"{code}: its own begin_file/end_file, not known to the prefilter"
        if rule.scope in ("compiled", "signature"):
            continue
        if rule.scope != "anywhere":
            return f"{code}: scope {rule.scope!r}"
        if rule.text_hints:
            continue
        if not _known(rule):
            return f"{code}: runs outside compiled code with no text_hints and is not known to the prefilter"
    return None


class PerTarget:
    """In a run whose own prefilter is off because one of its capture policies is not rooted in module classes
    (compile's follows values across files, so the run is one process that parses every file), the prefilter of
    each other policy's rules, which says on which files those rules run: the files a run of that target alone
    would lint, those its prefilter parses up front and those its capture map reaches (`noting`). Every other file
    is parsed for the other targets only; running a rooted target's rules there would find nothing (what the
    prefilter's exactness says), at the cost of a traversal per file."""

    def __init__(self, prefilters: dict[str, Prefilter]) -> None:
        self.prefilters = prefilters
        self.reached: dict[str, set] = {}  # per policy, the run's files its capture map reached (resolved paths)
        self._groups: dict[frozenset[str], list] = {}

    @classmethod
    def for_run(cls, rules, policies, enabled: set[str]) -> "PerTarget | None":
        """None when no policy of the run has rules the prefilter applies to (or the run has one policy: its own
        prefilter is then the run's)."""
        found = {}
        for policy in policies:
            group = [rule for rule in rules if rule.policy == policy]
            prefilter = Prefilter.for_run(group, (policy,), enabled) if group and len(policies) > 1 else None
            if prefilter is not None:
                found[policy] = prefilter
        return cls(found) if found else None

    def noting(self, policy: str, route):
        """`route` (`pipeline.Worker.route`) for the map of `policy`, noting the run's files it reaches (the files
        a run of that target alone would parse when reached, and lint)."""
        reached = self.reached.setdefault(policy, set())

        def routed(function):
            module = function.module
            if getattr(module, "worker", None) is not None:  # (a file of the run)
                reached.add(resolved(module.path))
            return route(function)

        return routed

    def rules_for(self, key, source, module, summary, project, limits, rules: list) -> list:
        """The rules that run on the file `key` (resolved), parsed as `source` and indexed as `module`, of summary
        `summary` (read where it holds the file's index; else the file's text and index are)."""

        def needed(prefilter) -> bool:
            if summary is not None and summary.module is not None:
                return prefilter.needs(summary, project, limits)
            return prefilter.needs_parsed(source, module, project, limits)

        skipped = frozenset(policy for policy, prefilter in self.prefilters.items()
                            if key not in self.reached.get(policy, ()) and not needed(prefilter))
        if not skipped:
            return rules
        group = self._groups.get(skipped)
        if group is None:
            group = self._groups[skipped] = [rule for rule in rules if rule.policy not in skipped]
        return group
