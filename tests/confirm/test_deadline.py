"""A request near its time limit answers what it saw: its child starts no new root and no new capture past a share
of the limit (`child.DEADLINE_SHARE`), rather than being killed with nothing said for the whole file."""

import os
import sys
import textwrap

import pytest

from .project import HEADER, write_project
from jitlint.confirm import FileRequest, Results, Root
from jitlint.confirm.pool import run_requests

pytestmark = pytest.mark.torch

SLOW_CHILD = '''
import time


def run(target, inputs, ctx):
    failing = [f"step {number}" for number in range(ctx.options.get("steps", 0))]

    def attempt():
        time.sleep(ctx.options.get("seconds", 0))
        for name in failing:
            raise ValueError(name)

    def explain(error, opaque):
        name = str(error)
        return {"file": None, "line": None, "message": name, "kind": "slow"}, lambda: failing.remove(name) or name

    return ctx.until_clean(attempt, explain)
'''


def test_a_request_near_its_limit_answers_what_it_saw(tmp_path):
    project = write_project(tmp_path / "project", {"pkg/__init__.py": "", "pkg/models.py": HEADER + textwrap.dedent("""
        class Quick(nn.Module):
            pass


        class Slow(nn.Module):
            pass


        class Late(nn.Module):
            pass
    """)})
    child = tmp_path / "slow_child.py"
    child.write_text(SLOW_CHILD)
    limit = 10.0
    request = FileRequest(project / "pkg" / "models.py", "pkg.models", str(project), [
        Root("Quick"),
        # each capture takes 1 s (less than the time left past the share), and there would be 100 of them
        Root("Slow", options={"steps": 100, "seconds": 1.0}),
        Root("Late"),
    ])
    answers = run_requests([request], strategy="slow", strategy_file=child, options={}, python=sys.executable,
                           torch_version="2.13.0", jitlint_version="test", timeout=limit, factories={}, jobs=1,
                           cache_dir=None, log_path=tmp_path / "log" / "user-output.log")
    roots = {name: outcome for (_path, name), outcome in Results(answers).roots.items()}
    assert not roots["Quick"].failure and roots["Quick"].passed
    slow = roots["Slow"]
    assert slow.built and not slow.passed and slow.details.get("out_of_time"), slow
    assert 3 <= len(slow.observations) < 100  # what it saw before the limit
    late = roots["Late"]
    assert not late.built and late.reason == f"not checked: the file's time limit ({limit:g} s) ran out before it"
    assert os.path.realpath(request.path) not in Results(answers).failures
