"""The sandbox holds in any layout (harness.sandbox_mounts): the project inside its own virtual environment,
under a mounted system folder (Docker's `/usr/src/app`), or reached through a symbolic link; and a harness
started through a linked virtual environment still serves `--agent-network gateway`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, SAMPLE, stub_args

from harness.sandbox_mounts import Mount, plan_mounts
from harness.testing import StubProcess

# Reports which of the paths it is given exist for it, and whether it could write to any of them.
SPY = """
import json, os, sys
paths = json.loads(sys.argv[1])
seen = {name: os.path.exists(path) for name, path in paths.items()}
seen["project"] = sorted(os.listdir(paths["project"])) if seen["project"] else False
print(json.dumps({"answer": json.dumps(seen)}))
"""


def _project(root: Path) -> Path:
    """A project at `root`: the sample tasks, a reports folder with an earlier run in it, and a cache."""
    for source in SAMPLE.glob("*.yaml"):
        target = root / "evals" / "sample" / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (root / "reports" / "earlier").mkdir(parents=True)
    (root / "reports" / "earlier" / "results.json").write_text("{}")
    (root / "fixtures").mkdir()
    (root / "fixtures" / "answers.txt").write_text("Paris\n")
    return root


def _spy_run(project: Path, python: str, stub: StubProcess, shown_as: Path | None = None) -> dict[str, Any]:
    """Run the spy on one item, started from `shown_as` (a link to the project) or the project itself."""
    where = shown_as or project
    spy = project.parent / f"spy-{uuid.uuid4().hex[:6]}" / "spy.py"
    spy.parent.mkdir()
    spy.write_text(SPY)
    paths = {
        "project": str(project), "evals": str(project / "evals" / "sample" / "facts.yaml"),
        "reports": str(project / "reports" / "earlier" / "results.json"), "cache": str(project / ".harness-cache"),
        "fixtures": str(project / "fixtures" / "answers.txt"), "pytest.ini": str(project / "pytest.ini"),
        "via link": str(where / "evals" / "sample" / "facts.yaml"),
    }  # fmt: skip
    command = [
        python, "-m", "pytest", "-p", "no:cacheprovider", "evals/sample", *stub_args(stub), "-k", "capital-france",
        "--sandbox", "bwrap", "--agent-cmd", f"{python} {spy} '{json.dumps(paths)}'",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(command, cwd=where, capture_output=True, text=True, env=env, timeout=300)
    run_id = (project / "reports" / "LATEST").read_text().strip() if (project / "reports" / "LATEST").exists() else None
    assert run_id, done.stdout[-3000:] + done.stderr[-3000:]
    (result,) = json.loads((project / "reports" / run_id / "results.json").read_text())["results"]
    assert result["error"] is None, result["error"]
    return json.loads(result["answer"])


def _nothing_of_the_project(seen: dict[str, Any], shown: list[str] | None = None) -> None:
    """Nothing of the project: only the folders the interpreter's own entries need (`shown`), when it is one."""
    assert seen == {name: False for name in seen} | ({"project": shown} if shown else {}), seen


@pytest.mark.needs_bwrap
def test_a_project_that_is_its_own_virtual_environment_stays_hidden(tmp_path: Path, stub: StubProcess) -> None:
    """The project folder is the virtual environment the harness runs from (sys.prefix): the sandbox shows
    the environment's own entries (bin, lib, pyvenv.cfg) and nothing else of it."""
    app = tmp_path / "app"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(app)], check=True, timeout=120)
    site = next(app.glob("lib/python*/site-packages"))
    import harness  # the harness's dependencies, from the environment running these tests

    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (site / "deps.pth").write_text("\n".join(deps) + "\n")
    _project(app)
    seen = _spy_run(app, str(app / "bin" / "python"), stub)
    _nothing_of_the_project(
        seen, shown=sorted(p.name for p in app.iterdir() if p.name in ("bin", "lib", "lib64", "include", "pyvenv.cfg"))
    )
    assert Path(harness.__file__).is_file()


@pytest.fixture
def under_usr() -> Iterator[Path]:
    """A project under /usr/src, as Docker's `/usr/src/app` layout puts it (root only: /usr is the system's)."""
    base = Path("/usr/src")
    if not os.access(base if base.is_dir() else Path("/usr"), os.W_OK):
        pytest.skip("a project under /usr/src needs a writable /usr/src (this test runs as root in CI)")
    folder = base / f"harness-test-{uuid.uuid4().hex[:8]}" / "app"
    folder.mkdir(parents=True)
    try:
        yield folder
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.mark.needs_bwrap
def test_a_project_under_usr_src_stays_hidden(under_usr: Path, stub: StubProcess) -> None:
    _project(under_usr)
    _nothing_of_the_project(_spy_run(under_usr, sys.executable, stub))


@pytest.mark.needs_bwrap
def test_a_project_under_usr_reached_through_a_link_stays_hidden(
    under_usr: Path, stub: StubProcess, tmp_path: Path
) -> None:
    _project(under_usr)
    link = tmp_path / "work" / "app"
    link.parent.mkdir()
    link.symlink_to(under_usr)
    _nothing_of_the_project(_spy_run(under_usr, sys.executable, stub, shown_as=link))


def test_a_folder_holding_a_hidden_one_is_opened_entry_by_entry(tmp_path: Path) -> None:
    usr = tmp_path / "usr"
    for part in ("bin/python3", "lib/libc.so", "src/other/readme", "src/app/evals/t.yaml", "src/app/main.py"):
        (usr / part).parent.mkdir(parents=True, exist_ok=True)
        (usr / part).write_text("x")
    (usr / "lib64").symlink_to("lib")
    app = usr / "src" / "app"
    plan = plan_mounts([usr], [app], [], [app / "evals"])
    assert plan.mounts == [
        Mount(usr / "bin"),
        Mount(usr / "lib"),
        Mount(usr / "lib64", "lib"),
        Mount(usr / "src" / "other"),
    ]
    assert plan.shows(usr / "bin" / "python3") and not plan.shows(app / "main.py") and not plan.shows(app)
    # the project is the virtual environment: only its own entries
    venv = tmp_path / "venv"
    for part in ("bin/python", "lib/site.py", "pyvenv.cfg", "evals/t.yaml", "secrets.txt"):
        (venv / part).parent.mkdir(parents=True, exist_ok=True)
        (venv / part).write_text("x")
    plan = plan_mounts([venv], [venv], [venv], [venv / "evals"])
    assert plan.mounts == [Mount(venv / "bin"), Mount(venv / "lib"), Mount(venv / "pyvenv.cfg")]
    # an interpreter inside the reports cannot be shown: a problem, before any call
    assert plan_mounts([venv / "lib"], [], [], [venv]).problems == [
        f"{venv / 'lib'} lies inside {venv}, which an agent may not see"
    ]


GATEWAY_CALLER = """
import json, os, sys, urllib.request
task = json.load(sys.stdin)
body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                 headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                          "Content-Type": "application/json"})
reply = json.load(urllib.request.urlopen(request, timeout=60))
print(json.dumps({"answer": reply["choices"][0]["message"]["content"]}))
"""


@pytest.mark.needs_bwrap
def test_a_harness_started_through_a_linked_virtual_environment_serves_the_gateway(
    tmp_path: Path, fresh_stub: StubProcess
) -> None:
    """`/some/link/bin/python -m pytest ... --agent-network gateway`, the link pointing at the environment:
    the relay inside the sandbox runs (it exited 125 at the link's path, which the sandbox does not show).
    The agent's command names the base interpreter: a command naming the link would have it shown."""
    link = tmp_path / "env-link"
    link.symlink_to(Path(sys.prefix).resolve())
    project = _project(tmp_path / "project")
    agent = tmp_path / "agents" / "caller.py"
    agent.parent.mkdir()
    agent.write_text(GATEWAY_CALLER)
    fresh_stub.control(answers={"capital of France": "Paris"})
    python = str(link / "bin" / Path(sys.executable).name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | {"PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [python, "-m", "pytest", "-p", "no:cacheprovider", "evals/sample", *stub_args(fresh_stub), "-k",
         "capital-france", "--agent-network", "gateway", "--agent-cmd", f"{Path(sys.executable).resolve()} {agent}"],
        cwd=project, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    run_id = (project / "reports" / "LATEST").read_text().strip()
    (result,) = json.loads((project / "reports" / run_id / "results.json").read_text())["results"]
    assert result["error"] is None and result["answer"] == "Paris", (result["error"], done.stdout[-2000:])


@pytest.mark.needs_bwrap
def test_the_pre_run_check_runs_the_relay_as_items_will(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interpreter the sandbox does not show stops the run before any call, in one line, instead of every
    item scoring 0 as the agent's failure (exit 125)."""
    from harness import sandbox
    from harness.errors import ConfigError

    monkeypatch.setattr(sandbox, "interpreter", lambda: tmp_path / "nowhere" / "python")
    common: dict[str, Any] = {"named_files": [], "env_names": [], "protected": [], "limits": sandbox.Limits()}
    with pytest.raises(ConfigError, match="the relay to the gateway could not start inside the sandbox") as caught:
        sandbox.plan("bwrap", "true", tmp_path, network="gateway", **common)
    assert "\n" not in str(caught.value)
    assert sandbox.plan("bwrap", "true", tmp_path, network="shared", **common).mode == "bwrap"


@pytest.mark.needs_bwrap
def test_without_a_cgroup_the_private_tmp_has_a_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no cgroup caps an item's memory, the sandbox's /tmp (memory, as a tmpfs) is capped by its size."""
    from harness import sandbox

    monkeypatch.setattr(sandbox, "layout", lambda: None)
    common: dict[str, Any] = {"named_files": [], "env_names": [], "protected": []}
    chosen = sandbox.plan("bwrap", "true", tmp_path, limits=sandbox.Limits(max_memory_mb=2), probe=False, **common)
    assert chosen.cgroups is None and chosen.tmp_size_mb == 2
    folder = chosen.folder_for("item")
    try:
        done = subprocess.run(
            chosen.argv("dd if=/dev/zero of=/tmp/filler bs=1M count=8 2>&1; ls -l /tmp/filler", folder, None),
            env=chosen.environment(dict(os.environ), {}, folder), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        chosen.close()
    assert "No space left on device" in done.stdout, done.stdout + done.stderr
    size = int(next(line for line in done.stdout.splitlines() if line.endswith("/tmp/filler")).split()[4])
    assert size <= 2 * 2**20, done.stdout
