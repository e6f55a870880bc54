"""The central table of rules: one code, one class (ruff's codes.rs, as a list)."""

from __future__ import annotations

from jitlint.rules.base import Rule
from jitlint.rules.calls import NoNumpy
from jitlint.rules.containers import (
    ModuleDictIndexVariable,
    ModuleListIndexVariable,
    ModuleListReversed,
    ModuleListSlice,
)
from jitlint.rules.files import CannotParse, CannotRead
from jitlint.rules.scripting import (
    IsScriptingOutsideCompiledCode,
    IsScriptingStoredInVariable,
    IsTracingGuardDoesNotPrune,
)
from jitlint.rules.syntax import (
    NoBuiltinSumOfTensors,
    NoComprehensionIf,
    NoLambda,
    NoMultiGeneratorComprehension,
    NoNestedDef,
    NoSetComprehension,
    NoTryExcept,
)
from jitlint.rules.types import (
    UnannotatedNoneDefaultOmitted,
    UnannotatedNonTensorDefault,
    UnannotatedNonTensorParam,
    UnsupportedAnnotation,
)

RULES: list[type[Rule]] = [
    CannotParse,
    CannotRead,
    NoBuiltinSumOfTensors,
    NoComprehensionIf,
    NoMultiGeneratorComprehension,
    NoSetComprehension,
    NoLambda,
    NoTryExcept,
    NoNestedDef,
    UnannotatedNonTensorDefault,
    UnannotatedNonTensorParam,
    UnsupportedAnnotation,
    UnannotatedNoneDefaultOmitted,
    ModuleListIndexVariable,
    ModuleDictIndexVariable,
    ModuleListReversed,
    ModuleListSlice,
    NoNumpy,
    IsTracingGuardDoesNotPrune,
    IsScriptingStoredInVariable,
    IsScriptingOutsideCompiledCode,
]
RULES_BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in RULES}
RULES_BY_NAME: dict[str, type[Rule]] = {rule.name: rule for rule in RULES}
assert len(RULES_BY_CODE) == len(RULES) == len(RULES_BY_NAME), "duplicate rule code or name"
