"""Capture maps: which functions of the project a capture target captures, modelled once for every rule.

This is the target-neutral mechanism: a worklist from the roots over what captured code calls (`self.method(...)`
through project base classes, free functions by name across files, functions stored in module attributes,
`Cls.static(...)`), the call sites of project functions, the addresses that name a function or class across
processes, and the exchange between workers that each parse a share of the run. A `CapturePolicy` (one per way of
capturing: `jitlint.targets.script.policy.ScriptPolicy` for torch.jit.script) says where capture starts, where it
stops (a body that is not captured, whose signature still is), which branches are pruned while capturing, and what
using a project class in captured code captures.

Inside a captured function, *pruned* branches are those the capture never sees (for TorchScript, `if
torch.jit.is_scripting():` folded to a constant): semantic rules are silent there; rules that declare
`fires_in_pruned` are not, because torch's frontend converts the whole function before pruning. How a policy folds
its tests and walks the live code is `jitlint.pruning`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, ClassVar, Iterable

import libcst as cst

from jitlint.capture_chains import Chains  # noqa: F401 (the chains of a map: importable with it)
from jitlint.methods import class_address, function_address
from jitlint.names import first_param_name
from jitlint.pruning import FunctionScan, PruningScanner
from jitlint.project import ClassInfo, FunctionInfo, ProjectIndex
from jitlint.settings import TargetSettings
from jitlint.walk import walk

# (function, the class it is captured for or None, why): what a policy adds to the worklist.
Capture = tuple[FunctionInfo, "ClassInfo | None", str]


class CapturePolicy:
    """What one way of capturing a model captures. Subclasses say the roots, the stops, the pruning and what a
    project class used in captured code brings in; `CaptureMap` does the walking."""

    name: ClassVar[str]
    # Reasons a function keeps over any other it is captured for: a root the capture compiles by itself, whatever
    # else reaches it (a rule may read it). See `CaptureMap.better_reason` for the order of the others.
    primary_reasons: ClassVar[frozenset[str]] = frozenset()
    # What the capture makes of values, for the shared data-dependence fact (`jitlint.facts.datadep`): a
    # `DatadepPolicy` subclass, for the targets that record tensor operations by running the Python (None: not read).
    datadep: ClassVar[type | None] = None
    # Its roots are methods of nn.Module classes, and what the word `script` marks (`torch.jit.script`): the files
    # that hold one are those `jitlint.prefilter` parses up front, and a run of such policies may leave the others
    # unparsed until captured code reaches them.
    roots_in_module_classes: ClassVar[bool] = False

    def __init__(self, project: ProjectIndex, captured: "CaptureMap", settings: TargetSettings | None = None) -> None:
        self.project = project
        self.captured = captured
        # The typed settings of the policy's target (`[tool.jitlint.<target>]`), as the run configured them.
        self.settings = settings if settings is not None else TargetSettings()

    def roots(self) -> Iterable[Capture]:
        """Where capture starts, in the linted modules of this process (`project.linted`)."""
        return ()

    def forwards(self, module, skip: Callable[[ClassInfo], bool] | None = None) -> Iterable[Capture]:
        """The `forward` (its own or a base's) of each module class `module` defines: where a tracer starts on a
        built model. `skip`: the classes this target does not start from."""
        for cls in module.classes.values():
            if self.project.is_module_class(cls) and (skip is None or not skip(cls)):
                forward = self.project.find_method(cls, "forward")
                if forward is not None:
                    yield forward, cls, f"forward of {cls.name}"

    def body_captured(self, function: FunctionInfo) -> bool:
        """False where the walk stops: the body is not captured (its signature, as called, still is)."""
        return True

    def params_captured(self, function: FunctionInfo) -> bool:
        """Of a function whose body is not captured: are its parameters (their annotations, defaults, `*args`)
        still captured, or only its return annotation?"""
        return True

    def scanner(self, function: FunctionInfo) -> PruningScanner:
        """The scanner that finds a captured function's pruned branches and live calls."""
        return PruningScanner(function.node)

    def class_used(self, cls: ClassInfo, caller: FunctionInfo) -> Iterable[Capture]:
        """What calling a project class that is not a module in captured code captures."""
        return ()

    def constructor(self, cls: ClassInfo) -> FunctionInfo | None:
        """The `__init__` that calling a project class that is not a module runs *as a call* of captured code: its
        parameters take what the call passes (bound to the new object), and the capture explores it."""
        return None

    def types_tested(self, call: cst.Call, caller: FunctionInfo) -> Iterable[Capture]:
        """What the classes an `isinstance(x, T)` call in captured code tests against capture."""
        return ()

    def applied(self, call: cst.Call, caller: FunctionInfo) -> Iterable[Capture]:
        """What a builtin that calls the function it is given (`map(f, items)`, `filter(f, items)`) captures."""
        return ()

    def dispatched(self, func: cst.BaseExpression, caller: FunctionInfo) -> Iterable[tuple[FunctionInfo, ClassInfo]]:
        """What a call of a value (`REGISTRY[key](x)`, `obj.method(x)`) may reach: (function, class it runs for)."""
        return ()

    def runs_instead(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        """The method (bound to one argument) that `Cls.<name>(...)`, inherited from outside the project, runs."""

    def decorated_by(self, function: FunctionInfo, owner: ClassInfo | None) -> FunctionInfo | None:
        """The project function whose result stands in for a captured function (the decorator the capture sees
        first), if the capture compiles what that decorator returns; recorded as a call site of the decorator
        (`CaptureMap.decorations`), so that a rule in the decorator's file learns of uses in other files."""
        return None


class CapturedFunction:
    """A function a capture policy captures: why, whether its body and parameters are, the classes it is captured
    for (sorted by file, then name: see `CaptureMap.finalize`) and its pruned branches (ids of its nodes).

    A run split across workers explores each function in the worker that lints its file; another worker whose code
    reaches it keeps an entry too (`remote`), with the classes it reached it for, and finds its pruned branches the
    first time a rule asks (parsing the function)."""

    __slots__ = ("info", "reason", "body_captured", "params_captured", "owners", "_pruned", "_scan")

    def __init__(self, info: FunctionInfo, reason: str, body_captured: bool, params_captured: bool = True,
                 owners: list[ClassInfo] | None = None, pruned: set[int] | None = None) -> None:
        self.info = info
        self.reason = reason
        self.body_captured = body_captured
        self.params_captured = params_captured  # False: of the signature, only the return annotation is captured
        self.owners: list[ClassInfo] = owners if owners is not None else []
        self._pruned = pruned if pruned is not None else set()
        self._scan: Callable[[], set[int]] | None = None  # finds `pruned` when first asked (a remote entry)

    @property
    def pruned(self) -> set[int]:
        if self._scan is not None:
            scan, self._scan = self._scan, None
            self._pruned = scan()
        return self._pruned

    @pruned.setter
    def pruned(self, value: set[int]) -> None:
        self._scan = None
        self._pruned = value

    def with_owners(self, owners: list[ClassInfo]) -> "CapturedFunction":
        """The same entry, captured for `owners`."""
        copy = CapturedFunction(self.info, self.reason, self.body_captured, self.params_captured, owners, self._pruned)
        copy._scan = self._scan
        return copy

    def __repr__(self) -> str:
        return f"CapturedFunction({self.info!r}, {self.reason!r})"


@dataclass(frozen=True)
class CallSite:
    """A call from captured code to a project function: who calls it, and what the call passes.

    Call sites are listed by caller (file, then name) and by the call's place among the caller's calls, so the
    order does not depend on the order the map was explored in, nor on which worker explored it."""

    caller_key: tuple[str, str]  # (file, display name) of the caller
    ordinal: int  # the call's place among its caller's calls; -1: the caller is decorated by the callee
    bound: bool  # the callee's first parameter is bound (`self.method(...)`, `self.submodule(...)`)
    positional: int  # positional arguments passed
    keywords: frozenset[str]  # keyword arguments passed
    star: bool  # `*args` or `**kwargs` in the call: what it passes is unknown
    # In the process that explored the caller; None when another worker reported the call.
    caller: FunctionInfo | None = field(default=None, compare=False, hash=False)
    call: cst.Call | None = field(default=None, compare=False, hash=False)

    @property
    def caller_name(self) -> str:
        return self.caller_key[1]

    def omits(self, index: int | None, name: str) -> bool:
        """Whether the call certainly passes nothing for a parameter (positional `index`, or keyword `name`)."""
        if self.star or name in self.keywords:
            return False
        return index is None or self.positional <= index

    def detached(self) -> "CallSite":
        """The site without its trees, to send to another worker."""
        return replace(self, caller=None, call=None)


def _call_site(call: cst.Call, caller: FunctionInfo, bound: bool, ordinal: int) -> CallSite:
    return CallSite(
        (str(caller.module.path), caller.display_name),
        ordinal,
        bound,
        sum(1 for arg in call.args if arg.keyword is None and not arg.star),
        frozenset(arg.keyword.value for arg in call.args if arg.keyword is not None),
        any(arg.star for arg in call.args),
        caller,
        call,
    )


def _class_key(cls: ClassInfo | None) -> tuple[str, str]:
    return ("", "") if cls is None else (str(cls.module.path), cls.name)


_CALLED = ("called from ", "stored in ")


def reached_by_call(reason: str) -> bool:
    """Whether a capture reason is a call's (the function is reached from captured code), not a root's."""
    return reason.startswith(_CALLED)


def reason_order(reason: str, primary: frozenset[str]) -> tuple[int, str]:
    """The order in which a function's reasons compete (the least is kept): the policy's primary reasons, then the
    reasons of roots (a forward, a property, a method of a TorchScript class: what the capture chain starts from),
    then calls, then what the cache's records say of a function a root file reaches; the text within each. Every
    reason a function is enqueued with follows from one edge of the capture (a root, or a caller and how it
    reaches the function), and the edges do not depend on the order they are explored in, nor on the processes that
    explore them: so the least of them does not either."""
    if reason in primary:
        rank = 0
    elif reason.startswith(_CALLED):
        rank = 2
    elif reason.startswith("captured from "):
        rank = 3
    else:
        rank = 1
    return rank, reason


def captured_from(root_file: str) -> str:
    """The reason the cache's records give what a root file's roots reach, other than those roots themselves
    (`CaptureMap.contributions`)."""
    return "captured from " + root_file


Key = tuple[int, int]  # (id of the function's FunctionInfo, id of the class it is captured for, or of None)


class CaptureMap:
    """Which functions of the project one capture policy captures, why, and their pruned branches.

    `build` explores from the policy's roots in the linted modules parsed in this process. In a run split across
    workers (`route`), each function is explored by the worker that lints its file: a call into another worker's
    file goes to it as a message (`outbox`, taken in with `take`), so that each worker ends with the map one process
    would have built for its files, without parsing theirs. A partial run `receive`s what the last run found in its
    files instead of exploring the other files."""

    def __init__(self, project: ProjectIndex, policy: type[CapturePolicy],
                 settings: TargetSettings | None = None, route: Callable[[FunctionInfo], "int | None"] | None = None,
                 ) -> None:
        self.project = project
        self.policy = policy(project, self, settings)
        # By the id of each function's FunctionInfo (a function of a module read from its summary is not parsed to
        # be captured); `get` finds them by node.
        self.functions: dict[int, CapturedFunction] = {}
        self._by_node: dict[int, CapturedFunction] = {}
        self._unindexed: list[CapturedFunction] = []  # entries whose function was not parsed when they were made
        self._scans: dict[int, FunctionScan] = {}
        self._queue: deque[tuple[FunctionInfo, ClassInfo | None, str]] = deque()
        self._seen: set[Key] = set()
        self._infos: dict[int, FunctionInfo] = {}  # callee id -> callee
        # Calls from captured code to project functions, by callee.
        self._sites: dict[int, list[CallSite]] = {}
        self.site_calls: set[int] = set()  # the ids of the calls recorded as call sites in this process
        # The project function a call resolves to, per owner the caller was captured for: one call in an
        # inherited method may reach different overrides; `finalize` keeps the one of the first owner.
        self._callee_candidates: dict[int, dict[tuple[str, str], tuple[FunctionInfo, bool]]] = {}
        self._callees: dict[int, tuple[FunctionInfo, bool]] = {}
        self._follow: Callable[[FunctionInfo], bool] | None = None  # while receiving: explore only these
        self._best: dict[int, str] = {}  # function id -> the least reason it was enqueued with (`reason_order`)
        # Which worker explores a function (None: this process); what goes to each other worker.
        self.route = route
        self.outbox: dict[int, list] = {}
        self._sent_reason: dict[int, str] = {}  # function id -> the least reason sent to its worker
        # Who led where (for the cache's per-file records, `contributions`): the file whose roots enqueued each
        # root, and for each (function, owner) explored, what it enqueued and the call sites it recorded.
        self._current: Key | None = None
        self._root_keys: dict[Path, list[Key]] = {}
        # Why each root file made each of its roots a root (`torch.jit.script(f)`, `@torch.jit.script`, ...): the
        # records keep it, where the rest of what a root file reaches is just "captured from" it.
        self._root_reasons: dict[tuple[str, Key], str] = {}
        self._edges: dict[Key, list[Key]] = {}
        self._key_of: dict[Key, tuple[FunctionInfo, ClassInfo | None]] = {}
        self._sites_of: dict[Key, list[tuple[FunctionInfo, CallSite]]] = {}
        self._explored: set[Key] = set()  # the keys this process explored (the others went to their workers)
        self._labels: dict[Key, set[str]] = {}  # per key, the root files whose roots reach it (`label`)

    @classmethod
    def build(cls, project: ProjectIndex, policy: type[CapturePolicy], finalize: bool = True,
              settings: TargetSettings | None = None,
              route: Callable[[FunctionInfo], "int | None"] | None = None) -> "CaptureMap":
        captured = cls(project, policy, settings, route)
        linted = project.linted
        try:
            for module in list(linted):  # one module at a time, to know which file each root comes from
                project.linted = [module]
                roots = list(captured.policy.roots())
                project.linted = linted
                for function, owner, reason in roots:
                    key = (id(function), id(owner))
                    captured._root_keys.setdefault(module.path, []).append(key)
                    captured._root_reasons.setdefault((str(module.path), key), reason)
                    captured._enqueue(function, owner, reason)
        finally:
            project.linted = linted
        captured._drain()
        if finalize:
            captured.finalize()
        return captured

    # -- queries ----------------------------------------------------------------------------------------------
    def get(self, node: cst.FunctionDef) -> CapturedFunction | None:
        found = self._by_node.get(id(node))
        if found is None and self._unindexed:
            self._index_parsed()
            found = self._by_node.get(id(node))
        return found if found is not None and found.info.node is node else None

    def entry(self, function: FunctionInfo) -> CapturedFunction | None:
        """The entry of a function, by its index (without parsing it)."""
        return self.functions.get(id(function))

    def _index_parsed(self) -> None:
        waiting = []
        for entry in self._unindexed:
            if entry.info.parsed:
                self._by_node[id(entry.info.node)] = entry
            else:
                waiting.append(entry)
        self._unindexed = waiting

    @property
    def call_sites(self) -> dict[int, list[CallSite]]:
        """Call sites by the id of the callee's node (of the callees parsed in this process)."""
        return {id(self._infos[key].node): sites for key, sites in self._sites.items() if self._infos[key].parsed}

    def _sites_to(self, node: cst.FunctionDef) -> list[CallSite]:
        entry = self.get(node)
        key = id(entry.info) if entry is not None else None
        if key is None:
            key = next((key for key, info in self._infos.items() if info.parsed and info.node is node), None)
        return self._sites.get(key, []) if key is not None else []

    def calls_to(self, node: cst.FunctionDef) -> list[CallSite]:
        sites = self._sites_to(node)
        return [site for site in sites if site.ordinal >= 0] if any(site.ordinal < 0 for site in sites) else sites

    def decorations(self, node: cst.FunctionDef) -> list[CallSite]:
        """The captured functions this function decorates (`CapturePolicy.decorated_by`), as call sites with
        ordinal -1 and the decorated function as the caller, in the order of `finalize`."""
        return [site for site in self._sites_to(node) if site.ordinal < 0]

    def upstream(self, function: FunctionInfo) -> Iterable[FunctionInfo]:
        """`function` and every function of this process whose captured code calls it, directly or not (each once):
        what a dynamic confirmer walks to find the roots whose capture reaches a finding."""
        seen: set[int] = set()
        todo = [function]
        while todo:
            current = todo.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            yield current
            sites = self._sites.get(id(current), [])
            if any(site.ordinal < 0 for site in sites):
                sites = [site for site in sites if site.ordinal >= 0]
            todo.extend(site.caller for site in sites if site.caller is not None)

    def callee_of(self, call: cst.Call) -> tuple[FunctionInfo, bool] | None:
        """The project function a call in captured code resolves to, and whether its first parameter is bound."""
        return self._callees.get(id(call))

    # -- recording --------------------------------------------------------------------------------------------
    def _send(self, function: FunctionInfo, message: tuple) -> bool:
        """Queue `message` for the worker that explores `function`; False when this process explores it."""
        worker = self.route(function) if self.route is not None else None
        if worker is None:
            return False
        self.outbox.setdefault(worker, []).append(message)
        return True

    def _record_call(self, callee: FunctionInfo, call: cst.Call, caller: FunctionInfo, bound: bool,
                     owner: ClassInfo | None, ordinal: int) -> None:
        site = _call_site(call, caller, bound, ordinal)
        self.site_calls.add(id(call))
        self._add_site(callee, site)
        self._callee_candidates.setdefault(id(call), {}).setdefault(_class_key(owner), (callee, bound))

    def _record_decoration(self, decorator: FunctionInfo, function: FunctionInfo) -> None:
        site = CallSite((str(function.module.path), function.display_name), -1, False, 1, frozenset(), False,
                        function, None)
        self._add_site(decorator, site)

    def _add_site(self, callee: FunctionInfo, site: CallSite) -> None:
        self._infos[id(callee)] = callee
        self._sites.setdefault(id(callee), []).append(site)
        if self._current is not None:
            self._sites_of.setdefault(self._current, []).append((callee, site))
        self._send(callee, ("site", function_address(callee), site.detached()))

    def finalize(self) -> None:
        """Put what exploration order decided into a canonical order: owners by file and name, call sites by
        caller and place (each once), and for a call that reaches different overrides, the first owner's."""
        for entry in self.functions.values():
            entry.owners.sort(key=_class_key)
        for key, sites in self._sites.items():
            self._sites[key] = sorted(set(sites), key=lambda site: (site.caller_key, site.ordinal, site.bound))
        self._callees = {call: candidates[min(candidates)] for call, candidates in self._callee_candidates.items()}
        # What only exploring, labelling and the records read (the records are made before this), a few objects per
        # function and class it is captured for, goes: the lint does not read it, and reuses its memory.
        for name in ("_queue", "_seen", "_key_of", "_edges", "_sites_of", "_explored", "_labels", "_root_keys",
                     "_root_reasons", "_sent_reason", "_best", "_callee_candidates"):
            setattr(self, name, None)

    # -- across workers ---------------------------------------------------------------------------------------
    def take(self, messages: list) -> None:
        """Take in what other workers sent (`outbox`): functions to explore here (with the class each is captured
        for, and why) and calls into this worker's functions; then explore."""
        project = self.project
        for message in messages:
            kind = message[0]
            if kind == "enqueue":
                _kind, address, owner_address, reason = message
                function = project.function_at(address)
                owner = project.class_at(owner_address) if owner_address is not None else None
                if function is not None and (owner_address is None or owner is not None):
                    self._enqueue(function, owner, reason)
            elif kind == "site":
                callee = project.function_at(message[1])
                if callee is not None:
                    self._infos[id(callee)] = callee
                    self._sites.setdefault(id(callee), []).append(message[2])
            elif kind == "labels":
                _kind, address, owner_address, labels, roots = message
                key = self._key_at(address, owner_address)
                if key is not None:
                    for root_file, reason in roots:
                        self._root_reasons.setdefault((root_file, key), reason)
                    self._label(key, labels)
        self._drain()

    def _key_at(self, address, owner_address) -> Key | None:
        function = self.project.function_at(address)
        owner = self.project.class_at(owner_address) if owner_address is not None else None
        if function is None or (owner_address is not None and owner is None):
            return None
        return (id(function), id(owner))

    def export(self, elsewhere: Callable[[Path], "int | None"]) -> dict[int, tuple[list, list]]:
        """What this map found in files `elsewhere` names (by a number), as `receive` takes it: the captured
        functions there (with the class each was captured for), and the calls to them."""
        out: dict[int, tuple[list, list]] = {}
        for entry in self.functions.values():
            worker = elsewhere(entry.info.module.path)
            if worker is None:
                continue
            entries = out.setdefault(worker, ([], []))[0]
            address = function_address(entry.info)
            if not entry.owners:
                entries.append((address, None, entry.reason))
            for owner in entry.owners:
                entries.append((address, class_address(owner), entry.reason))
        for key, sites in self._sites.items():
            callee = self._infos[key]
            worker = elsewhere(callee.module.path)
            if worker is not None:
                address = function_address(callee)
                out.setdefault(worker, ([], []))[1].extend((address, site.detached()) for site in sites)
        return out

    def receive(self, entries: list, sites: list, local: Callable[[FunctionInfo], bool]) -> None:
        """Take in what the last run found in this process's files (a partial run: the cache's records), and follow
        the calls those functions make, as far as this process's own files."""
        for address, owner_address, reason in entries:
            function = self.project.function_at(address)
            owner = self.project.class_at(owner_address) if owner_address is not None else None
            if function is not None and (owner_address is None or owner is not None):
                self._enqueue(function, owner, reason)
        self._follow = local
        try:
            self._drain()
        finally:
            self._follow = None
        for address, site in sites:
            callee = self.project.function_at(address)
            if callee is not None:
                self._infos[id(callee)] = callee
                self._sites.setdefault(id(callee), []).append(site)

    # -- the cache's records ----------------------------------------------------------------------------------
    def label(self) -> None:
        """Mark each key with the root files whose roots reach it (after exploring). A key another worker explores
        gets its marks as a message (taken with `take`), with the reasons of the roots among them."""
        for root_file, keys in self._root_keys.items():
            source = str(root_file)
            for key in keys:
                self._label(key, {source})

    def _label(self, key: Key, labels) -> None:
        todo = [(key, labels)]
        while todo:
            key, labels = todo.pop()
            held = self._labels.setdefault(key, set())
            new = set(labels) - held
            if not new:
                continue
            held |= new
            if key in self._explored:
                todo.extend((following, new) for following in self._edges.get(key, ()))
                continue
            function, owner = self._key_of[key]
            roots = [(source, self._root_reasons[(source, key)]) for source in new
                     if (source, key) in self._root_reasons]
            self._send(function, ("labels", function_address(function),
                                  class_address(owner) if owner is not None else None, sorted(new), roots))

    def contributions(self, target: Callable[[Path], "str | None"]) -> dict[str, dict[str, tuple[list, list]]]:
        """What the roots of each root file capture in each file `target` names (a key, or None for a file that is
        not wanted), of what this process explored: {target key: {root file: (entries, sites)}}, entries and sites
        as `export` gives them. Capture is reachability from the roots, so a file's part of the map is the union of
        what each root file reaches in it: the cache keeps these parts, and after an edit explores again only the
        root files whose reach may have changed (see `jitlint.cache`). Call `label` first (and, across workers,
        exchange its messages)."""
        out: dict[str, dict[str, tuple[list, list]]] = {}
        addresses: dict[int, tuple] = {}  # one address per function and class (each root file repeats them)

        def address_of(item: FunctionInfo | ClassInfo) -> tuple:
            found = addresses.get(id(item))
            if found is None:
                found = addresses[id(item)] = (function_address(item) if isinstance(item, FunctionInfo)
                                               else class_address(item))
            return found

        for key, sources in self._labels.items():
            if key not in self._explored:
                continue
            function, owner = self._key_of[key]
            where = target(function.module.path)
            for source in sources:
                if where is not None:
                    part = out.setdefault(where, {}).setdefault(source, ([], []))
                    # (why it was first captured depends on the order explored)
                    part[0].append((address_of(function), address_of(owner) if owner is not None else None,
                                    self._root_reasons.get((source, key)) or captured_from(source)))
            for callee, site in self._sites_of.get(key, ()):
                where = target(callee.module.path)
                if where is not None:
                    row = (address_of(callee), site.detached())
                    for source in sources:
                        out.setdefault(where, {}).setdefault(source, ([], []))[1].append(row)
        return out

    # -- reachability -----------------------------------------------------------------------------------------
    def better_reason(self, reason: str, than: str | None) -> bool:
        """Whether `reason` comes before `than` (None: nothing yet) among a function's reasons (`reason_order`)."""
        primary = self.policy.primary_reasons
        return than is None or reason_order(reason, primary) < reason_order(than, primary)

    def _entry(self, function: FunctionInfo, reason: str) -> CapturedFunction:
        entry = self.functions.get(id(function))
        if entry is None:
            reason = self._best.get(id(function), reason)
            entry = CapturedFunction(function, reason, body_captured=self.policy.body_captured(function),
                                     params_captured=self.policy.params_captured(function))
            self.functions[id(function)] = entry
            if function.parsed:
                self._by_node[id(function.node)] = entry
            else:
                self._unindexed.append(entry)
        return entry

    def _enqueue(self, function: FunctionInfo, owner: ClassInfo | None, reason: str) -> None:
        if self._follow is not None and not self._follow(function):
            return
        key = (id(function), id(owner))
        self._key_of[key] = (function, owner)
        if self._current is not None:
            self._edges.setdefault(self._current, []).append(key)
        if self.better_reason(reason, self._best.get(id(function))):
            self._best[id(function)] = reason
            entry = self.functions.get(id(function))
            if entry is not None:
                entry.reason = reason
        if key in self._seen:
            if self.better_reason(reason, self._sent_reason.get(id(function))):  # its worker keeps the least too
                if self._send(function, ("enqueue", function_address(function),
                                         class_address(owner) if owner is not None else None, reason)):
                    self._sent_reason[id(function)] = reason
            return
        self._seen.add(key)
        if self._send(function, ("enqueue", function_address(function),
                                 class_address(owner) if owner is not None else None, reason)):
            if self.better_reason(reason, self._sent_reason.get(id(function))):
                self._sent_reason[id(function)] = reason
            entry = self._entry(function, reason)  # what this process knows of it (see `CapturedFunction`)
            if owner is not None and owner not in entry.owners:
                entry.owners.append(owner)
            if entry.body_captured and entry._scan is None and not self._scans.get(id(function)):
                entry._scan = lambda function=function: self._scan(function).pruned
            return
        self._queue.append((function, owner, reason))

    def _scan(self, function: FunctionInfo) -> FunctionScan:
        scan = self._scans.get(id(function))
        if scan is None:
            scanner = self.policy.scanner(function)
            walk(function.node, scanner)
            scan = self._scans[id(function)] = scanner.scan
        return scan

    def _drain(self) -> None:
        while self._queue:
            function, owner, reason = self._queue.popleft()
            key = (id(function), id(owner))
            self._explored.add(key)
            entry = self._entry(function, reason)
            if owner is not None and owner not in entry.owners:
                entry.owners.append(owner)
            if not entry.body_captured:
                continue
            self._current = key
            decorator = self.policy.decorated_by(function, owner)
            if decorator is not None:
                self._record_decoration(decorator, function)
            scan = self._scan(function)
            entry.pruned = scan.pruned
            for ordinal, call in enumerate(scan.calls):
                self._follow_call(call, function, owner, ordinal)
            self._current = None

    def _follow_call(self, call: cst.Call, caller: FunctionInfo, owner: ClassInfo | None, ordinal: int) -> None:
        project = self.project
        imports = caller.module.imports
        reason = f"called from {caller.display_name}"
        func = call.func
        self_name = first_param_name(caller.node)
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and owner is not None
            and func.value.value in (self_name, owner.name)
        ):
            name = func.attr.value
            method = project.find_method(owner, name)
            if method is not None:
                bound = method.bound_first_param is not None
                self._record_call(method, call, caller, bound=bound, owner=owner, ordinal=ordinal)
                self._enqueue(method, owner, reason)
                return
            attribute = project.attributes(owner).get(name)
            if attribute is None:
                return
            if attribute.function:
                target = project.resolve_function(attribute.function)
                if target is not None:
                    self._record_call(target, call, caller, bound=False, owner=owner, ordinal=ordinal)
                    self._enqueue(target, target.cls, f"stored in {owner.name}.{name}, {reason}")
            for constructor in sorted(attribute.constructors):
                submodule = project.resolve_class(constructor)
                if submodule is not None and project.is_module_class(submodule):
                    forward = project.find_method(submodule, "forward")
                    if forward is not None:
                        self._record_call(forward, call, caller, bound=True, owner=owner, ordinal=ordinal)
            return
        qualified = imports.qualify(func)
        if qualified is None:  # a call through a value: what the policy knows it may hold
            callees = list(self.policy.dispatched(func, caller))
            for target, cls in callees:
                # `obj.method(...)`: a method looked up on an instance gets it as its first argument.
                bound = (target.bound_first_param == "instance" and isinstance(func, cst.Attribute)
                         and func.attr.value == target.name)
                self._record_call(target, call, caller, bound=bound, owner=owner, ordinal=ordinal)
                self._enqueue(target, cls, reason)
            if len(callees) > 1:  # no one callee stands for the call
                self._callee_candidates.pop(id(call), None)
            return
        if qualified == "builtins.isinstance":
            for function, cls, why in self.policy.types_tested(call, caller):
                self._enqueue(function, cls, why)
            return
        if qualified in ("builtins.map", "builtins.filter"):
            for function, cls, why in self.policy.applied(call, caller):
                self._enqueue(function, cls, why)
            return
        target = project.resolve(qualified)
        if isinstance(target, FunctionInfo):
            self._record_call(target, call, caller, bound=False, owner=owner, ordinal=ordinal)
            self._enqueue(target, target.cls, reason)
        elif isinstance(target, ClassInfo):
            if not project.is_module_class(target):
                if (init := self.policy.constructor(target)) is not None:
                    self._record_call(init, call, caller, bound=True, owner=owner, ordinal=ordinal)
                    self._enqueue(init, target, f"constructed in {caller.display_name}")
                for function, cls, why in self.policy.class_used(target, caller):
                    self._enqueue(function, cls, why)
        else:
            # `Cls.static_method(...)`
            prefix, _, name = qualified.rpartition(".")
            cls = project.resolve_class(prefix)
            if cls is not None:
                method = project.find_method(cls, name) or self.policy.runs_instead(cls, name)
                if method is not None:
                    bound = method.bound_first_param == "class" or method.name != name
                    self._record_call(method, call, caller, bound=bound, owner=owner, ordinal=ordinal)
                    self._enqueue(method, cls, reason)
