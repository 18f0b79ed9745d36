"""A run's files are whole or absent (harness.atomic_write): a full disk is one line naming the path, with
nothing half-written, and the history and LATEST count a run only once its results.json is complete."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Project, stub_args

from harness.atomic_write import WriteFailed, write_atomic
from harness.testing import StubProcess

FULL_DISK = 4096  # bytes (one page): LATEST would fit, a run's results.json (over 4 KiB) does not


def _in_small_tmpfs(folder: str, size: int, script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `script` (sh) with `folder` a tmpfs of `size` bytes: a real full disk, without root's mount."""
    if shutil.which("bwrap") is None:
        pytest.skip("a disk of a given size is a bubblewrap tmpfs here: bwrap is not installed")
    argv = ["bwrap", "--dev-bind", "/", "/", "--size", str(size), "--tmpfs", folder, "--chdir", str(cwd)]
    done = subprocess.run([*argv, "/bin/sh", "-c", script], capture_output=True, text=True, timeout=300)
    if "Unknown option --size" in done.stderr or "Creating new namespace failed" in done.stderr:
        pytest.skip(f"bwrap cannot make a sized tmpfs here: {done.stderr.strip()[:200]}")
    return done


@pytest.mark.needs_bwrap
def test_a_full_report_disk_is_one_line_and_leaves_nothing_half_written(project: Project, stub: StubProcess) -> None:
    project.copy_sample()
    reports = "/run/harness-test-reports"
    command = project.command(
        "evals/sample", *stub_args(stub), "-k", "capital-france", "--no-html", "-p", "no:randomly"
    )
    command[command.index("--report-dir") + 1] = reports
    # After the run, every file left in the full folder and its size: a file cut short would show here.
    script = f"{shlex.join(command)}; echo \"exit=$?\"; cd {reports} && find . -type f -printf '%p %s\\n'"
    done = _in_small_tmpfs(reports, FULL_DISK, script, project.root)
    out = done.stdout
    assert "exit=3" in out, out[-3000:] + done.stderr[-2000:]
    (line,) = [x for x in out.splitlines() if "report was not written" in x]
    assert "No space left on device" in line and f"{reports}/" in line and "results.json" in line
    assert "Traceback" not in out + done.stderr
    files = dict(x.rsplit(" ", 1) for x in out.split("exit=3", 1)[1].split("\n") if x.strip())
    assert not any(name.endswith(("results.json", "summary.md")) for name in files), files
    assert not any("history" in name or "LATEST" in name or ".tmp" in name for name in files), files


@pytest.mark.needs_bwrap
def test_a_file_that_cannot_be_written_keeps_its_previous_version(tmp_path: Path) -> None:
    """The rename comes last: a write the disk refuses leaves what was there, and no temporary file."""
    folder = "/run/harness-test-atomic"
    script = (
        f"{shlex.quote(sys.executable)} -c 'import sys; from harness.atomic_write import write_atomic; "
        f'write_atomic(sys.argv[1], "old")\' {folder}/LATEST && '
        f"{shlex.quote(sys.executable)} -c 'import sys; from harness.atomic_write import write_atomic; "
        f'write_atomic(sys.argv[1], "x" * 100_000)\' {folder}/LATEST; '
        f'echo "exit=$?"; cat {folder}/LATEST; echo; ls -a {folder}'
    )
    done = _in_small_tmpfs(folder, 8192, script, Path(__file__).resolve().parent.parent)
    assert "exit=1" in done.stdout and "WriteFailed: cannot write" in done.stderr, done.stdout + done.stderr
    assert "No space left on device" in done.stderr
    listing = done.stdout.split("exit=1", 1)[1].split()
    assert listing[0] == "old" and sorted(listing[1:]) == [".", "..", "LATEST"], listing


def test_a_write_that_succeeds_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "results.json"
    write_atomic(target, "first")
    write_atomic(target, "second, longer")
    assert target.read_text() == "second, longer" and sorted(p.name for p in target.parent.iterdir()) == [
        "results.json"
    ]
    with pytest.raises(WriteFailed, match=r"cannot write .*results.json/inside"):
        write_atomic(target / "inside", "no: results.json is a file")


# Rewrites a run's results.json, summary.md and LATEST in a loop, the way the writer does, until killed.
REWRITER = """
import json, sys
from pathlib import Path
from harness.report import writer
folder = Path(sys.argv[1])
big = json.dumps({"results": [{"answer": "x" * 2000, "n": i} for i in range(3000)]})
writer.write_atomic(folder / "results.json", big)
print("ready", flush=True)
while True:
    writer.write_atomic(folder / "results.json", big)
    writer.write_atomic(folder / "LATEST", "run-id\\n")
"""


def test_sigkill_while_writing_never_leaves_a_file_cut_short(tmp_path: Path) -> None:
    """Killed at random moments while rewriting a 6 MB results.json: every time, the file is whole JSON."""
    import json
    import random
    import signal
    import time

    rng = random.Random(7)
    for trial in range(5):
        folder = tmp_path / f"trial-{trial}"
        folder.mkdir()
        process = subprocess.Popen([sys.executable, "-c", REWRITER, str(folder)], stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.6))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        assert len(json.loads((folder / "results.json").read_text())["results"]) == 3000
        latest = folder / "LATEST"  # killed before its first write, there is none; else it is whole
        assert not latest.exists() or latest.read_text() == "run-id\n"


@pytest.mark.needs_bwrap
def test_harness_merge_on_a_full_disk_is_one_line_and_writes_nothing(project: Project, stub: StubProcess) -> None:
    """The merged run goes through the same writer: a full output disk is exit 3 and one line."""
    project.copy_sample()
    files = []
    for k in (1, 2):
        out = project.pytest("evals/sample/facts.yaml", *stub_args(stub), "--shard", f"{k}/2", "--no-html")
        assert out.returncode in (0, 1), out.stdout[-2000:]
        files.append(project.report_dir / (project.report_dir / "LATEST").read_text().strip() / "results.json")
    merged = "/run/harness-test-merged"
    command = [sys.executable, "-m", "harness.cli", "merge", *map(str, files), "--no-html", "--output", merged]
    script = f'{shlex.join(command)}; echo "exit=$?"; find {merged} -type f'
    done = _in_small_tmpfs(merged, FULL_DISK, script, project.root)
    assert "exit=3" in done.stdout, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("harness merge: the merged run was not written: cannot write ") and merged in line
    assert "No space left on device" in line
    assert done.stdout.split("exit=3", 1)[1].split() == [], "nothing left in the full folder"
