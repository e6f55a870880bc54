"""A request near its time limit answers what it saw: its child starts no new root, no new capture and no new way of
building a class past a share of the limit (`child.DEADLINE_SHARE`), rather than being killed with nothing said for
the whole file. The limit is the child's CPU seconds: time it spends waiting costs nothing of it."""

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
        time.sleep(ctx.options.get("sleep", 0))
        end = time.process_time() + ctx.options.get("cpu", 0)
        while time.process_time() < end:
            pass
        for name in failing:
            raise ValueError(name)

    def explain(error, opaque):
        name = str(error)
        return {"file": None, "line": None, "message": name, "kind": "slow"}, lambda: failing.remove(name) or name

    return ctx.until_clean(attempt, explain)
'''


BUSY = """
import time


def busy(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
"""


def test_a_request_near_its_limit_answers_what_it_saw(tmp_path):
    project = write_project(tmp_path / "project", {"pkg/__init__.py": "", "pkg/models.py": HEADER + textwrap.dedent("""
        class Quick(nn.Module):
            pass


        class Sleepy(nn.Module):
            pass


        class Slow(nn.Module):
            pass


        class Late(nn.Module):
            pass
    """), "pkg/needs.py": HEADER + textwrap.dedent("""
        class Needs(nn.Module):
            def __init__(self, dim):
                super().__init__()
    """), "pkg/hosts.py": HEADER + BUSY + "".join(textwrap.dedent(f"""

        class Host{number}(nn.Module):
            def __init__(self):
                super().__init__()
                busy(0.5)
    """) for number in range(6))})
    child = tmp_path / "slow_child.py"
    child.write_text(SLOW_CHILD)
    limit = 2.0
    request = FileRequest(project / "pkg" / "models.py", "pkg.models", str(project), [
        Root("Quick"),
        # waits 3 s in all, more than the limit in wall seconds, with next to no CPU time: all of it is done
        Root("Sleepy", options={"steps": 3, "sleep": 1.0}),
        # each capture spends 0.2 s of CPU time (less than the time left past the share), and there would be 100
        Root("Slow", options={"steps": 100, "cpu": 0.2}),
        Root("Late"),
    ])
    # six classes that might hold a `Needs`, each spending 0.5 s of CPU time to build: past the share, no more
    # are built, and the file is answered rather than stopped at its limit
    hosts = [{"class": f"pkg.hosts.Host{number}", "constructions": []} for number in range(6)]
    building = FileRequest(project / "pkg" / "needs.py", "pkg.needs", str(project), [Root("Needs", hosts=hosts)])
    answers = run_requests([request, building], strategy="slow", strategy_file=child, options={},
                           python=sys.executable, torch_version="2.13.0", jitlint_version="test", timeout=limit,
                           factories={}, jobs=1, cache_dir=None, log_path=tmp_path / "log" / "user-output.log")
    results = Results(answers)
    roots = {name: outcome for (_path, name), outcome in results.roots.items()}
    assert not roots["Quick"].failure and roots["Quick"].passed
    sleepy = roots["Sleepy"]
    assert sleepy.built and sleepy.passed and not sleepy.details.get("out_of_time"), sleepy
    assert len(sleepy.observations) == 3
    slow = roots["Slow"]
    assert slow.built and not slow.passed and slow.details.get("out_of_time"), slow
    assert 3 <= len(slow.observations) < 100  # what it saw before the limit
    late = roots["Late"]
    assert not late.built and late.reason == \
        f"not checked: the file's time limit ({limit:g} s of CPU time) ran out before it"
    needs = roots["Needs"]
    assert not needs.built and needs.reason.startswith("not built: the file's time limit ran out"), needs
    assert not results.failures
