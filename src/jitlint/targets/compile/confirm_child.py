"""What torch.compile does with a built model, observed: the child side of the compile confirmer (it runs in the
user's interpreter: standard library and torch only, never jitlint).

`observe(torch, model, calls, ...)` compiles the model with `backend="eager"` (Dynamo only: no code generation),
calls it with each argument tuple of `calls` (a few calls with varied inputs show the recompiles), and reads what
Dynamo logs (`torch._logging.set_logs(graph_breaks=True, recompiles=True)`):

- every graph break, not only the first: "Graph break in user code at FILE:LINE" and its "User code traceback",
  with the break id (gbNNNN) and whether Dynamo gave up the whole frame ("falling back to eager", a break in a loop);
- every recompile: the first failing guard and the user line its comment or stack names; the recompile limit;
- under `fullgraph=True`, the error, and the user line of its "from user code:" block.

Each observation names the user frames of its traceback (innermost last): for a break inside a call into the
standard library or torch, the innermost user frame is the call site in the user's file.

`run(target, inputs, ctx)` is the strategy's entry point for the confirmer host (`jitlint.confirm`).
"""

from __future__ import annotations

import logging
import os
import re

_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')
_BREAK_ID = re.compile(r"/gb/(gb\d+)\.html")
_HEAD = re.compile(r"in user code at (.+):(\d+)")


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append((record.levelname, record.getMessage()))
        except Exception:  # a record whose arguments do not format: not ours to judge
            pass


def _frames(text: str, is_user_file) -> list[tuple[str, int]]:
    return [(path, int(line)) for path, line, _name in _FRAME.findall(text) if is_user_file(path)]


def _first_reason(reason: str) -> str:
    """The break's own reason: its first line, past Dynamo's framing ("Encountered graph break when attempting to
    trace ...", "Failed to handle graph break gracefully. Skipping the function ...")."""
    if "Graph break encountered:" in reason:
        reason = reason.split("Graph break encountered:", 1)[1]
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    if lines and lines[0].startswith("Encountered graph break when attempting") and len(lines) > 1:
        return lines[1]
    return lines[0] if lines else ""


def _parse(records, is_user_file) -> dict:
    breaks, recompiles, limit = [], [], None
    for level, text in records:
        if "Graph break in user code at" in text or "Graph break (user stack suppressed" in text:
            head = _HEAD.search(text)
            reason = text.split("Graph Break Reason: ", 1)[1] if "Graph Break Reason: " in text else ""
            traceback = text.split("User code traceback:", 1)[1] if "User code traceback:" in text else ""
            frames = _frames(traceback, is_user_file)
            logged = (head.group(1), int(head.group(2))) if head else (None, None)
            if not frames and logged[0] is not None and is_user_file(logged[0]):
                frames = [logged]
            ids = list(dict.fromkeys(_BREAK_ID.findall(text)))
            breaks.append({
                "frames": frames, "logged": list(logged), "id": ids[0] if ids else None, "ids": ids,
                "reason": _first_reason(reason)[:300],
                "eager": "falling back to eager" in reason or "Skipping the frame" in reason,
                "repeat": "suppressed" in text,
            })
        elif text.startswith("Recompiling function"):
            guard = re.search(r"- \d+/\d+: (.+)", text)
            frames = _frames(text, is_user_file)
            commented = re.findall(r"#.*?(\S+\.py):(\d+) in ", guard.group(1)) if guard else []
            recompiles.append({"function": text.split()[2], "guard": guard.group(1).split("  #")[0].strip()[:300]
                               if guard else "", "frames": frames,
                               "commented": [(path, int(line)) for path, line in commented]})
        elif "hit config.recompile_limit" in text or "hit config.accumulated_recompile_limit" in text:
            limit = " ".join(line.strip() for line in text.splitlines()[:3])
    return {"breaks": breaks, "recompiles": recompiles, "limit": limit}


def observe(torch, model, calls, *, fullgraph: bool = False, dynamic=None, capture_scalar_outputs: bool = False,
            capture_dynamic_output_shape_ops: bool = False, is_user_file=None, before_call=None) -> dict:
    """Compile `model` (backend "eager"), call it once per argument tuple in `calls`, and say what Dynamo did:
    {"graphs", "breaks", "recompiles", "limit", "error", "calls"} (see the module docstring)."""
    is_user_file = is_user_file or (lambda path: "site-packages" not in path and "/lib/python" not in path)
    torch._dynamo.reset()
    records = _Records()
    logger = logging.getLogger("torch._dynamo")
    torch._logging.set_logs(graph_breaks=True, recompiles=True)
    logger.addHandler(records)
    graphs = []

    def backend(graph_module, example_inputs):
        graphs.append(len(graph_module.graph.nodes))
        return graph_module.forward

    error, made = None, 0
    try:
        with torch._dynamo.config.patch(capture_scalar_outputs=capture_scalar_outputs,
                                        capture_dynamic_output_shape_ops=capture_dynamic_output_shape_ops):
            compiled = torch.compile(model, backend=backend, fullgraph=fullgraph, dynamic=dynamic)
            for index, args in enumerate(calls):
                if before_call is not None:
                    before_call(index, model)
                try:
                    compiled(*args)
                    made += 1
                except Exception as exception:  # the compile error (fullgraph), or the model's own
                    text = str(exception)
                    start = text.rfind("from user code:")
                    frames = _frames(text[start:], is_user_file) if start >= 0 else []
                    error = {"type": type(exception).__name__,
                             "message": text.strip().splitlines()[0] if text.strip() else type(exception).__name__,
                             "frames": frames, "id": (_BREAK_ID.findall(text) or [None])[0],
                             "dynamo": type(exception).__module__.startswith("torch._dynamo")
                             or "torch._dynamo" in text or type(exception).__name__ in ("Unsupported", "UserError")}
                    break
    finally:
        logger.removeHandler(records)
        torch._logging.set_logs()
        torch._dynamo.reset()
    found = _parse(records.records, is_user_file)
    found.update(graphs=len(graphs), error=error, calls=made)
    return found


def run(target, inputs, ctx) -> dict:
    """The confirmer host's entry (`jitlint.confirm`): compile the built root with its declared inputs (several
    calls: the declared set, then the sets its inputs function gives again), in the mode of `ctx.options`."""
    torch = ctx.torch
    options = ctx.options or {}
    if inputs is None:
        return {"passed": None, "observations": [], "why": "needs example inputs"}
    calls = [tuple(inputs.args)]
    for _ in range(max(0, int(options.get("calls", 3)) - 1)):
        again = ctx.example_inputs()
        calls.append(tuple(again.args) if again is not None else tuple(inputs.args))
    if hasattr(target, "eval"):
        target.eval()
    linted = set(options.get("user_files") or ())
    # The frames that count are those of the linted files (a break in a user helper nobody lints names its caller).
    is_linted = (lambda path: os.path.realpath(path) in linted) if linted else ctx.is_user_file
    seen = observe(torch, target, calls, fullgraph=bool(options.get("fullgraph")), dynamic=options.get("dynamic"),
                   capture_scalar_outputs=bool(options.get("capture_scalar_outputs")),
                   capture_dynamic_output_shape_ops=bool(options.get("capture_dynamic_output_shape_ops")),
                   is_user_file=is_linted)
    observations = []
    for item in seen["breaks"]:
        if item["repeat"]:
            continue
        file, line = item["frames"][-1] if item["frames"] else (item["logged"][0], item["logged"][1])
        observations.append({"file": file, "line": line, "kind": "break", "message": item["reason"],
                             "id": item["id"], "eager": item["eager"], "frames": item["frames"]})
    for item in seen["recompiles"]:
        where = item["frames"][-1] if item["frames"] else (item["commented"][-1] if item["commented"] else None)
        observations.append({"file": where[0] if where else None, "line": where[1] if where else None,
                             "kind": "recompile", "message": item["guard"], "frames": item["frames"]})
    if seen["limit"]:
        observations.append({"file": None, "line": None, "kind": "recompile-limit", "message": seen["limit"]})
    error = seen["error"]
    if error is not None:
        file, line = error["frames"][-1] if error["frames"] else (None, None)
        observations.append({"file": file, "line": line, "kind": "error" if error["dynamo"] else "model-error",
                             "message": f"{error['type']}: {error['message']}"[:400], "id": error["id"],
                             "frames": error["frames"]})
    return {"passed": not observations, "observations": observations, "graphs": seen["graphs"]}
