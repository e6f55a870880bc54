"""The `jitlint` command: ruff's conventions (exit 0 clean, 1 findings, 2 usage or configuration error)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import click

from jitlint import __version__, pages
from jitlint.codes import TARGET_OF
from jitlint.config import ConfigError, load_config
from jitlint.report import HUMAN_FORMATS, OUTPUT_FORMATS, Style, pieces, statistics, wants_color

# Nothing imported at the top of this module may import LibCST (or the rules, which do): a run served from the
# cache must start faster than `import libcst` alone. The engine is imported when a file has to be linted.


def _split(values: tuple[str, ...]) -> list[str]:
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _fail(message: str) -> "click.exceptions.Exit":
    click.echo(f"jitlint: error: {message}", err=True)
    return click.exceptions.Exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="jitlint")
def main() -> None:
    """Find what torch.jit.script, torch.fx and torch.export will reject, all at once, without importing torch."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@click.option("--target", "targets", multiple=True, metavar="TARGETS",
              help="Capture targets to check, comma-separated (default: script; replaces config `target`).")
@click.option("--select", multiple=True, metavar="CODES", help="Rule codes or prefixes to enable (replaces config).")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rule codes or prefixes to enable in addition.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rule codes or prefixes to disable.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default="text", show_default=True)
@click.option("--stdin-filename", type=click.Path(path_type=Path), help="The name to report for source read from stdin (`-`).")
@click.option("--statistics", "show_statistics", is_flag=True, help="Print the count of findings per rule instead.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are errors.")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to paths given explicitly too (for pre-commit).")
@click.option("--config", "config_path", type=click.Path(path_type=Path), help="A pyproject.toml to use instead of the nearest one.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("--dynamic/--no-dynamic", default=None,
              help="Also run torch.jit.script on the modules (EXECUTES YOUR CODE) and mark each finding.")
@click.option("--strict", is_flag=True, help="With --dynamic: errors torch did not reproduce still fail the run.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path), envvar="JITLINT_CACHE_DIR",
              help="Where the cache lives (default: .jitlint_cache/ next to pyproject.toml; env JITLINT_CACHE_DIR).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes for linting and for --dynamic (default: all cores).")
@click.option("--fix", is_flag=True, help="Apply safe fixes (atomically; only if the result parses).")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff: also apply fixes marked unsafe.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--show-fixes", is_flag=True, help="With --fix: list each finding that was fixed.")
@click.option("--baseline", "baseline_path", type=click.Path(path_type=Path), metavar="FILE",
              help="Report only findings not in this baseline (default: config `baseline`).")
@click.option("--write-baseline", "write_baseline", type=click.Path(path_type=Path), metavar="FILE",
              help="Write every current finding to FILE as the baseline, and exit 0.")
@click.option("--ignore-noqa", is_flag=True, help="Ignore every `# noqa` comment: report everything.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODE` to every line with findings (atomically), and exit.")
@click.option("--respect-gitignore/--no-respect-gitignore", default=None,
              help="Skip what `.gitignore` files ignore when walking directories (default: config, else on).")
@click.option("-o", "--output-file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report to this file instead of stdout.")
@click.option("--show-settings", is_flag=True, help="Print the settings the run would use, and exit.")
@click.option("--show-files", is_flag=True, help="Print the files the run would lint, and exit.")
@click.option("--fix-only", is_flag=True, help="Apply fixes, report nothing else (exit 0 unless --exit-non-zero-on-fix).")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="With --fix: exit 1 when something was fixed.")
@click.option("-w", "--watch", is_flag=True, help="Lint again whenever a file changes (Ctrl-C stops).")
def check(paths, targets, select, extend_select, ignore, output_format, stdin_filename, show_statistics, exit_zero,
          force_exclude, config_path, quiet, dynamic, strict, no_cache, cache_dir, jobs, fix, unsafe_fixes,
          show_diff, show_fixes, baseline_path, write_baseline, ignore_noqa, add_noqa, respect_gitignore,
          output_file, show_settings, show_files, fix_only, exit_non_zero_on_fix, watch) -> None:
    """Lint PATHS (files or directories; `-` reads stdin; default: the current directory)."""
    if watch:
        if fix or fix_only or show_diff or add_noqa or write_baseline is not None or "-" in map(str, paths):
            raise _fail("--watch cannot be combined with --fix, --fix-only, --diff, --add-noqa, --write-baseline or `-`")
        params = dict(click.get_current_context().params, watch=False)
        _watch_loop(paths, config_path, stdin_filename, respect_gitignore, force_exclude, lambda: check.callback(**params))
        return
    fix = fix or fix_only
    paths = list(paths) or ([Path("-")] if stdin_filename else [Path(".")])
    stdin = None
    if Path("-") in paths:
        paths = [p for p in paths if p != Path("-")]
        try:
            data = sys.stdin.buffer.read() if sys.stdin is not None else b""
        except (OSError, ValueError):
            data = b""
        from jitlint.engine import StdinSource

        stdin = StdinSource(str(stdin_filename) if stdin_filename else "-", data)
    try:
        start = stdin_filename.parent if stdin_filename else (paths[0] if paths and paths[0].is_dir() else Path.cwd())
        config = load_config(config_path, start if start.exists() else Path.cwd())
        enabled = config.enabled_codes(TARGET_OF, _split(select), _split(extend_select), _split(ignore),
                                       _split(targets))
    except ConfigError as error:
        raise _fail(str(error))
    problem = pages.missing()
    if problem is not None:  # (found now, not after the run: every finding names its page)
        raise _fail(problem)
    config.ignore_noqa = ignore_noqa
    if respect_gitignore is not None:
        config.respect_gitignore = respect_gitignore
    if show_settings:
        click.echo(_settings_text(config, enabled), nl=False)
        sys.exit(0)
    if show_files:
        from jitlint.discovery import discover

        files, errors = discover(paths, config, force_exclude)
        for path in sorted({str(_resolved(path)) for path in files} | {str(_resolved(e.path)) for e in errors}):
            click.echo(path)
        sys.exit(0)
    if write_baseline is not None and (fix or show_diff):
        raise _fail("--write-baseline cannot be combined with --fix or --diff")
    if add_noqa and (fix or show_diff or write_baseline is not None or stdin is not None):
        raise _fail("--add-noqa cannot be combined with --fix, --diff, --write-baseline or `-`")
    baseline = None
    baseline_path = baseline_path or config.baseline
    if baseline_path is not None and write_baseline is None:
        from jitlint.baseline import Baseline, BaselineError

        try:
            baseline = Baseline.load(baseline_path)
        except BaselineError as error:
            raise _fail(str(error))
    if paths and force_exclude and stdin is None and not _any_included(paths, config):
        sys.exit(0)  # pre-commit passed only excluded files: nothing to do, nothing to say
    if stdin is None and paths and not _any_discovered(paths, config, force_exclude):
        click.echo("jitlint: warning: No Python files found under the given path(s)", err=True)
        sys.exit(0)
    if add_noqa:
        sys.exit(_add_noqa(paths, config, enabled, force_exclude, baseline, jobs=jobs or os.cpu_count() or 1))
    applied: list = []
    if fix or show_diff:
        outputs, applied = _fix(paths, stdin, config, enabled, force_exclude, unsafe_fixes, write=not show_diff,
                                jobs=jobs or os.cpu_count() or 1)
        if show_diff:  # the diffs, nothing written; exit 1 when there is something to fix
            click.echo("".join(outputs), nl=False)
            sys.exit(1 if any(outputs) and not exit_zero else 0)
        if stdin is not None:  # an editor asked to fix its buffer: the fixed source on stdout
            click.echo("".join(outputs), nl=False)
            sys.exit(1 if exit_non_zero_on_fix and applied else 0)
        if fix_only:  # what was fixed, nothing else
            if not quiet:
                _report_fixed(applied, show_fixes, always=True)
            sys.exit(1 if exit_non_zero_on_fix and applied else 0)
    cache_dir = cache_dir or config.root / ".jitlint_cache"
    # Inside a pre-commit hook, configuration alone never turns the (slow, code-executing) dynamic check on.
    in_pre_commit = os.environ.get("PRE_COMMIT") == "1"
    run_dynamic = dynamic or (dynamic is None and config.dynamic_enabled and not in_pre_commit)
    if run_dynamic:
        from jitlint.targets import confirmers as enabled_confirmers

        confirmers = enabled_confirmers(_split(targets) or config.targets)
    else:
        confirmers = []
    if dynamic and not confirmers:
        raise _fail("--dynamic: none of the enabled targets has a dynamic confirmer")
    run_dynamic = bool(confirmers)
    # The dynamic checker needs the engine's view of the code, and an editor's buffer changes on every keystroke:
    # neither is served from the static cache.
    cache = None
    findings = None
    if not (no_cache or run_dynamic or stdin is not None or fix):
        from jitlint.cache import StaticCache
        from jitlint.discovery import discover

        files, errors = discover(paths, config, force_exclude)
        cache = StaticCache(cache_dir, config, enabled)
        plan = cache.plan(files)
        if not plan.full and (plan.work or plan.changed):
            from jitlint.engine import enabled_policies, needs_one_process

            # fx-trace: a share alone cannot know its callers' taint, and a file that left the run may have been one
            if needs_one_process(enabled_policies(enabled)):
                plan.full = True
        if not plan.full:
            findings = [finding for path, cached in plan.findings.items() for finding in cached]
            if plan.work:  # the edited files and what they may change (see jitlint.cache): lint just those
                from jitlint.engine import lint_share

                progress = _Progress() if _wants_progress() else None
                part = lint_share(files, plan.stale, plan.records, config, enabled, also=plan.relint, progress=progress,
                                  summary_cache=cache.summaries)
                if progress is not None:
                    progress.finish()
                for note in part.notes:
                    click.echo(f"jitlint: {note}", err=True)
                cache.store(files, {path: str(path) for path in files}, part.findings, part.loaded, part.contrib,
                            part.graph, only=part.linted, plan=plan)
                again = set(part.linted)
                findings = [finding for path, cached in plan.findings.items() if path not in again
                            for finding in cached] + part.findings
            elif plan.changed:  # files left the run (or names moved) and nothing needs linting: just the manifest
                cache.store(files, {path: str(path) for path in files}, [], [], {}, {}, only=[], plan=plan)
            findings = sorted([error.finding() for error in errors if error.code in enabled] + findings,
                              key=lambda finding: finding.sort_key())
    if findings is None:
        from jitlint.engine import lint_run

        progress = _Progress() if _wants_progress() else None
        run = lint_run(paths, config, enabled, stdin=stdin, force_exclude=force_exclude, progress=progress,
                       jobs=jobs or os.cpu_count() or 1, keep_model=run_dynamic, record=cache is not None,
                       policies=tuple(policy for target in confirmers for policy in target.policies),
                       summary_cache=cache.summaries if cache is not None else None)
        if progress is not None:
            progress.finish()
        for note in run.notes:
            click.echo(f"jitlint: {note}", err=True)
        findings = run.findings
        if cache is not None:
            cache.store(files, {path: str(path) for path in files}, findings, run.loaded, run.contrib, run.graph,
                        interfaces=run.interfaces)
        if run_dynamic:
            if dynamic is None:
                click.echo(f"jitlint: running the dynamic checker, which executes your code (enabled by "
                           f"[tool.jitlint.dynamic] in {config.source})", err=True)
            for target in confirmers:  # each target's confirmer marks the findings of its target
                run.findings = findings = _run_dynamic(target, run, config, strict, no_cache, jobs, cache_dir)
    if write_baseline is not None:
        _write_baseline(write_baseline, findings, config, stdin)
        sys.exit(0)
    notes: list[str] = []
    if baseline is not None:
        findings, notes = _apply_baseline(baseline, findings, config, stdin, paths, force_exclude)
    human = output_format in HUMAN_FORMATS and not show_statistics
    style = Style(color=human and output_file is None and wants_color(sys.stdout), unsafe_fixes=unsafe_fixes)
    out = _Output(output_file, style.color)
    if show_statistics:
        out.write(statistics(findings, output_format, unsafe_fixes))
    else:
        for piece in pieces(findings, output_format, quiet=quiet, baselined=baseline is not None, style=style):
            out.write(piece)
    if notes and not quiet:
        for note in notes:
            if human and output_file is None:
                click.echo(note)
            else:
                click.echo(f"jitlint: {note}", err=True)
    if fix and human and output_file is None:
        _report_fixed(applied, show_fixes)
    out.close()
    if exit_non_zero_on_fix and applied:
        sys.exit(1)
    if exit_zero:
        sys.exit(0)
    if any(f.code == "JIT003" for f in findings):
        sys.exit(2)  # jitlint itself failed somewhere (ruff's convention): not a verdict on the code
    sys.exit(1 if any(f.severity == "error" for f in findings) else 0)


def _fix(paths, stdin, config, enabled, force_exclude, unsafe: bool, write: bool, jobs: int) -> tuple[list[str], list]:
    """Fix every file. Returns the unified diffs (--diff) or the fixed source (stdin), and the findings fixed.

    Each file is linted in the same run as `check` lints it (see `fix_sources`), with what the fixes made of the
    other files in place of them."""
    from jitlint.engine import StdinSource, discover, lint
    from jitlint.fixes import fix_sources, unified_diff, write_source
    from jitlint.source import decode

    outputs: list[str] = []
    applied: list = []
    if stdin is not None:
        name = stdin.display_name

        def lint_stdin(changed: dict[str, str]):
            data = changed[name].encode("utf-8") if name in changed else stdin.data
            return lint(paths, config, enabled, stdin=StdinSource(name, data), force_exclude=force_exclude)

        result = fix_sources({name: decode(stdin.data)}, lint_stdin, unsafe)[name]
        _report_refused(result)
        return ([unified_diff(result, name)] if not write else [result.fixed]), result.applied
    files, _errors = discover(paths, config, force_exclude)
    read: dict[str, tuple[Path, bytes, str]] = {}
    for path in files:
        try:
            data = path.read_bytes()
            read[str(path)] = (path, data, decode(data))
        except (OSError, UnicodeDecodeError, SyntaxError):
            continue  # reported as JIT002 by the lint that follows

    def lint_run_with(changed: dict[str, str]):
        buffers = [StdinSource(name, text.encode("utf-8")) for name, text in changed.items()]
        return lint(paths, config, enabled, buffers=buffers, force_exclude=force_exclude, jobs=jobs)

    results = fix_sources({name: text for name, (_path, _data, text) in read.items()}, lint_run_with, unsafe)
    for name, (path, data, _text) in read.items():
        result = results[name]
        _report_refused(result)
        if result.error:
            click.echo(f"jitlint: {path}: {result.error}", err=True)
            continue
        if result.fixed == result.original:
            continue
        if not write:
            outputs.append(unified_diff(result, str(path)))
            continue
        problem = write_source(path, result.fixed, data)
        if problem:
            click.echo(f"jitlint: {path}: not fixed: {problem}", err=True)
            continue
        applied.extend(result.applied)
    return outputs, applied


def _report_refused(result) -> None:
    """The fixes a check refused (`jitlint.fixes.fix_sources`): their findings stay, and stderr says why."""
    for finding, why in result.refused:
        click.echo(f"jitlint: {finding.filename}:{finding.location.row}:{finding.location.column}: {finding.code} "
                   f"not fixed: {why}", err=True)


# Codes a `# noqa` cannot or should not answer: a file that cannot be read or parsed has no line for it, an
# internal error is jitlint's bug, and a `# noqa` for an unused `# noqa` would be absurd.
_NO_NOQA = frozenset({"JIT001", "JIT002", "JIT003", "JIT004", "JIT005", "JIT900"})


def _add_noqa(paths, config, enabled, force_exclude, baseline, jobs: int) -> int:
    """`--add-noqa`: a `# noqa: CODES` on every line with findings (those a baseline does not already cover),
    merged into an existing one. A file is written only if it still parses and a re-lint no longer reports
    those findings; otherwise it is left as it is and named on stderr. Exit 0, or 1 if a file was refused."""
    import libcst as cst

    from jitlint.engine import StdinSource, lint
    from jitlint.fixes import write_source
    from jitlint.noqa import add_noqa
    from jitlint.source import decode

    findings = lint(paths, config, enabled, force_exclude=force_exclude, jobs=jobs)
    if baseline is not None:
        findings, _notes = _apply_baseline(baseline, findings, config, None, paths, force_exclude)
    wanted: dict[str, dict[int, set[str]]] = {}
    for finding in findings:
        if finding.code not in _NO_NOQA:
            wanted.setdefault(finding.filename, {}).setdefault(finding.location.row, set()).add(finding.code)
    refused = 0
    planned: dict[str, tuple[Path, bytes, str, int]] = {}
    for name, rows in sorted(wanted.items()):
        path = Path(name)
        try:
            data = path.read_bytes()
            text = decode(data)
        except (OSError, UnicodeDecodeError, SyntaxError) as error:
            click.echo(f"jitlint: {name}: cannot add noqa: {error}", err=True)
            refused += 1
            continue
        new_text, changed, skipped = add_noqa(text, rows)
        for row, reason in sorted(skipped.items()):
            click.echo(f"jitlint: {name}:{row}: cannot add a `# noqa` comment there: {reason}", err=True)
        if skipped:
            refused += 1
            continue  # a run afterwards would not be clean: leave the file for a person (or the baseline)
        try:
            cst.parse_module(new_text)
        except Exception as error:
            click.echo(f"jitlint: {name}: not changed: adding noqa comments would not parse ({type(error).__name__})",
                       err=True)
            refused += 1
            continue
        if changed:
            planned[name] = (path, data, new_text, changed)
    # One re-lint of the run with the new text in place: every finding asked for must be gone.
    if planned:
        buffers = [StdinSource(name, text.encode("utf-8")) for name, (_p, _d, text, _c) in planned.items()]
        still = lint(paths, config, enabled, buffers=buffers, force_exclude=force_exclude, jobs=jobs)
        for finding in still:
            rows = wanted.get(finding.filename, {})
            if finding.filename in planned and finding.code in rows.get(finding.location.row, ()):
                click.echo(f"jitlint: {finding.filename}: not changed: {finding.code} at line "
                           f"{finding.location.row} is still reported with the comment", err=True)
                planned.pop(finding.filename)
                refused += 1
    added = 0
    for name, (path, data, text, changed) in sorted(planned.items()):
        problem = write_source(path, text, data)
        if problem:
            click.echo(f"jitlint: {name}: not changed: {problem}", err=True)
            refused += 1
            continue
        added += changed
    click.echo(f"Added {added} noqa directive{'' if added == 1 else 's'}.", err=True)
    return 1 if refused else 0


def _reader(stdin):
    """The bytes of a linted file by its display name (the buffer for source from stdin)."""
    from jitlint.baseline import read_file_bytes

    def read(filename: str) -> bytes | None:
        if stdin is not None and filename == stdin.display_name:
            return stdin.data
        return read_file_bytes(filename)

    return read


def _write_baseline(path: Path, findings, config, stdin) -> None:
    from jitlint.baseline import Baseline, BaselineError

    baseline = Baseline.from_findings(findings, config.root, _reader(stdin))
    previous = None
    if path.exists():
        try:
            previous = Baseline.load(path)
        except BaselineError:
            previous = None  # replaced by a good one
    try:
        baseline.write(path)
    except BaselineError as error:
        raise _fail(str(error))
    count = len(baseline)
    files = len(baseline.files)
    message = (f"Wrote {count} finding{'' if count == 1 else 's'} in {files} file{'' if files == 1 else 's'} "
               f"to the baseline {path}.")
    if previous is not None:
        result = previous.filter(findings, config.root, sorted({f.filename for f in findings}), _reader(stdin))
        dropped = len(previous) - result.matched
        message += f" {dropped} entr{'y' if dropped == 1 else 'ies'} of the previous baseline no longer matched."
    click.echo(message, err=True)


def _apply_baseline(baseline, findings, config, stdin, paths, force_exclude) -> tuple[list, list[str]]:
    """The findings the baseline does not cover, and what to tell about it (the summary's notes)."""
    from jitlint.baseline import stale_note
    from jitlint.discovery import discover

    files, errors = discover(paths, config, force_exclude) if paths else ([], [])
    linted = [str(path) for path in files] + [error.display_name for error in errors]
    if stdin is not None:
        linted.append(stdin.display_name)
    result = baseline.filter(findings, config.root, linted, _reader(stdin))
    notes = []
    if result.matched:
        notes.append(f"{result.matched} finding{'' if result.matched == 1 else 's'} in the baseline "
                     f"{'is' if result.matched == 1 else 'are'} not shown.")
    if result.stale:
        notes.append(stale_note(result.stale))
    return result.new, notes


def _report_fixed(applied, show: bool, always: bool = False) -> None:
    if not applied:
        if always:
            click.echo("No findings fixed.")
        return
    if show:
        for finding in applied:
            click.echo(f"Fixed {finding.filename}:{finding.location.row}:{finding.location.column}: "
                       f"{finding.code} {finding.fix.message}")
    files = len({finding.filename for finding in applied})
    click.echo(f"Fixed {len(applied)} finding{'' if len(applied) == 1 else 's'} in {files} file{'' if files == 1 else 's'}.")


PROGRESS_MIN_FILES = 20


def _wants_progress() -> bool:
    """A progress line only for a person watching a terminal; never in pipes, files or CI logs."""
    return sys.stderr is not None and sys.stderr.isatty() and os.environ.get("CI") != "true"


class _Progress:
    """One line on the terminal, redrawn a few times a second: files done out of the run's work (each file is
    parsed, then linted) and what each worker is doing."""

    def __init__(self) -> None:
        import time

        self.shown = False
        self.clock = time.monotonic
        self.last = 0.0
        self.width = 0

    def __call__(self, done: int, total: int, phase: str = "") -> None:
        if total < 2 * PROGRESS_MIN_FILES:
            return
        now = self.clock()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        line = f"jitlint [{'#' * filled}{'.' * (width - filled)}] {100 * done // max(total, 1):3d}%  {phase}"
        columns = shutil.get_terminal_size((100, 20)).columns - 1
        line = line[:columns]
        sys.stderr.write("\r" + line + " " * max(0, self.width - len(line)))
        sys.stderr.flush()
        self.width = len(line)
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


class _Output:
    """Where the report goes: stdout (in batches of about a MiB, coloured if `color`), or `--output-file`."""

    def __init__(self, path: Path | None, color: bool, batch_chars: int = 1 << 20) -> None:
        self.path = path
        self.color = color
        self.batch: list[str] = []
        self.size = 0
        self.batch_chars = batch_chars
        self.file = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self.file = open(path, "w", encoding="utf-8")
            except OSError as error:
                raise _fail(f"cannot write --output-file {path}: {error.strerror or error}")

    def write(self, text: str) -> None:
        if self.file is not None:
            self.file.write(text)
            return
        self.batch.append(text)
        self.size += len(text)
        if self.size >= self.batch_chars:
            self.flush()

    def flush(self) -> None:
        if self.batch:
            click.echo("".join(self.batch), nl=False, color=self.color or None)
            self.batch, self.size = [], 0

    def close(self) -> None:
        self.flush()
        if self.file is not None:
            self.file.close()
            self.file = None


def _resolved(path: Path) -> Path:
    from jitlint.paths import resolved

    return resolved(path)


def _any_discovered(paths: list[Path], config, force_exclude: bool) -> bool:
    from jitlint.discovery import any_file

    return any_file(paths, config, force_exclude)


def _settings_text(config, enabled: set[str]) -> str:
    """`--show-settings`: where the settings come from and every value the run uses, as TOML-like lines."""
    def toml(value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(toml(item) for item in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{toml(str(key))} = {toml(item)}" for key, item in value.items()) + "}"
        if isinstance(value, Path):
            return toml(str(value))
        if value is None:
            return "(none)"
        return json.dumps(value) if isinstance(value, str) else str(value)

    rows = [
        ("targets", config.targets), ("enabled", sorted(enabled)), ("select", config.select),
        ("extend-select", config.extend_select), ("ignore", config.ignore),
        ("per-file-ignores", config.per_file_ignores), ("exclude", config.exclude),
        ("respect-gitignore", config.respect_gitignore), ("baseline", config.baseline),
        ("max-file-size", config.max_file_size), ("lint-generated", config.lint_generated),
        ("module-bases", sorted(config.module_bases)),
        ("dynamic.enabled", config.dynamic_enabled), ("dynamic.timeout", config.dynamic_timeout),
        ("dynamic.python", config.dynamic_python), ("dynamic.factories", config.dynamic_factories),
        ("dynamic.inputs", config.dynamic_inputs),
    ]
    from jitlint.settings import TargetSettings
    from jitlint.targets import all_targets

    for name in all_targets():  # each target's typed `[tool.jitlint.<target>]`, defaults included
        settings = config.settings(name)
        if type(settings) is not TargetSettings:
            rows += [(f"{name}.{key.replace('_', '-')}", value) for key, value in settings.key().items()]
    lines = [f"Settings path: {config.source if config.source is not None else '(none: the defaults)'}",
             f"Project root: {config.root}"]
    lines += [f"{key} = {toml(value)}" for key, value in rows]
    return "\n".join(lines) + "\n"


def _watch_loop(paths, config_path, stdin_filename, respect_gitignore, force_exclude, run) -> None:
    """`--watch`: run, then run again after any Python file (or the configuration) under PATHS changes."""
    import time

    from jitlint.discovery import discover

    chosen = list(paths) or [Path(".")]

    def snapshot() -> dict:
        try:
            config = load_config(config_path, chosen[0] if chosen[0].is_dir() else Path.cwd())
        except ConfigError:
            config = None
        if config is not None and respect_gitignore is not None:
            config.respect_gitignore = respect_gitignore
        files = discover(chosen, config, force_exclude)[0] if config is not None else []
        state = {}
        for path in [*files, *([config.source] if config is not None and config.source else [])]:
            try:
                status = os.stat(path)
                state[str(path)] = (status.st_mtime_ns, status.st_size)
            except OSError:
                state[str(path)] = None
        return state

    try:
        while True:
            before = snapshot()
            try:
                run()
            except (SystemExit, click.exceptions.Exit):
                pass
            click.echo("jitlint: watching for file changes (Ctrl-C stops).", err=True)
            sys.stdout.flush()
            while snapshot() == before:
                time.sleep(0.3)
            click.echo(f"\njitlint: a file changed; checking again ({time.strftime('%H:%M:%S')}).", err=True)
    except KeyboardInterrupt:
        sys.exit(0)


def _any_included(paths: list[Path], config) -> bool:
    from jitlint.discovery import discover

    files, errors = discover(paths, config, force_exclude=True)
    return bool(files or errors)


def _run_dynamic(target, run, config, strict: bool, no_cache: bool, jobs: int | None, cache_dir: Path):
    from jitlint.confirm import ConfirmError, ConfirmSettings
    from jitlint.targets import confirm

    settings = ConfirmSettings.from_config(config, jobs=jobs or os.cpu_count() or 1, cache_dir=cache_dir,
                                           no_cache=no_cache, strict=strict)
    try:
        return confirm(target, run, settings)
    except ConfirmError as error:
        raise _fail(str(error))


@main.command()
@click.argument("code")
def rule(code: str) -> None:
    """Print the page of rule CODE (a code such as JIT301, or a name such as modulelist-index-variable)."""
    from jitlint.rules import RULES_BY_CODE, RULES_BY_NAME

    found = RULES_BY_CODE.get(code.upper()) or RULES_BY_NAME.get(code)
    if found is None:
        raise _fail(f"unknown rule: `{code}` (see `jitlint rules`)")
    text = pages.read(found.code)
    if text is None:
        raise _fail(f"the page of {found.code} is missing from this installation")
    click.echo(text, nl=False)


@main.command()
def server() -> None:
    """Run the Language Server (LSP over stdio) for editors."""
    from jitlint.server import ServerUnavailable, serve

    try:
        serve()
    except ServerUnavailable as error:
        raise _fail(f"`jitlint server` needs the package `pygls` (pip install 'jitlint[server]'): {error}")


@main.command(name="rules")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--target", "targets", multiple=True, metavar="TARGETS", help="Only the rules of these targets.")
def list_rules(output_format: str, targets: tuple[str, ...]) -> None:
    """List every rule: code, name, target, severity, fix and summary."""
    from jitlint.config import validate_targets
    from jitlint.rules import RULES
    from jitlint.targets import all_targets

    chosen = _split(targets)
    try:
        validate_targets(chosen or list(all_targets()), set(all_targets()))
    except ConfigError as error:
        raise _fail(str(error))
    rules = [r for r in RULES if not chosen or r.target is None or r.target in chosen]
    if output_format == "json":
        click.echo(json.dumps([
            {"code": r.code, "name": r.name, "target": r.target, "severity": r.severity, "fix": r.fix,
             "policy": r.policy, "fires_in_pruned": r.fires_in_pruned, "summary": r.summary, "url": pages.url(r.code)}
            for r in rules
        ], indent=2))
        return
    for r in rules:
        fix = {"safe": "[*]", "unsafe": "[-]"}.get(r.fix, "   ")
        click.echo(f"{r.code}  {r.name:<36} {r.target or 'all':<7} {r.severity:<8} {fix} {r.message}")


@main.command()
@click.option("--cache-dir", type=click.Path(path_type=Path), envvar="JITLINT_CACHE_DIR",
              help="The cache to remove (default: .jitlint_cache/ next to pyproject.toml; env JITLINT_CACHE_DIR).")
def clean(cache_dir: Path | None) -> None:
    """Remove the cache (static findings and dynamic results)."""
    from jitlint.cache import clean as remove

    try:
        directory = cache_dir or load_config(None, Path.cwd()).root / ".jitlint_cache"
        removed = remove(directory)
    except (ConfigError, ValueError, OSError) as error:
        raise _fail(str(error))
    click.echo(f"Removed {directory}" if removed else f"No cache at {directory}", err=True)


def entry() -> None:
    """The console script: run, flush, and leave without tearing the heap down. Freeing a big run's trees one
    object at a time at interpreter exit took longer than linting them."""
    try:
        main()
        code = 0
    except SystemExit as exit:
        code = exit.code
    if code is not None and not isinstance(code, int):
        click.echo(str(code), err=True)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # closed by the other end (a pipe to `head`, an editor that went away): nothing left to say
    os._exit(code or 0)
