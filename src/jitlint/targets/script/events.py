"""How a script rule reports the flow events it owns (`rule.problem`): each event at its node with its message, and
the rule's fix of it (`ScriptRule.fix_event`), which sees the ancestors down to the event's node."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import path_to
from jitlint.rules.base import PendingFix, RuleContext
from jitlint.targets.script.facts import FlowEvents
from jitlint.targets.script.typeflow import Event


def report_events(rule, node: cst.FunctionDef, ctx: RuleContext, events: list[Event] | None = None) -> None:
    """Report the events of `node` that are the rule's `problem` (of `events`, default all its flow events)."""
    if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
        return
    for event in events if events is not None else ctx.fact(FlowEvents, node):
        if event.problem is rule.problem:
            fix = _event_fix(rule, node, event, ctx) if rule.fix is not None else None
            ctx.report(event.node, event.message, fix=fix)


def _event_fix(rule, function: cst.FunctionDef, event: Event, ctx: RuleContext) -> PendingFix | None:
    """The rule's fix of an event in `function` (the node whose visit reports it), seeing the path down to it."""
    if not ctx.ancestors or ctx.ancestors[-1] is not function:
        return None
    path = path_to(function, event.node)
    if path is None:
        return None
    saved = ctx.ancestors
    ctx.ancestors = saved + path[1:]
    try:
        return rule.fix_event(event.node, event.message, ctx)
    finally:
        ctx.ancestors = saved
