"""Does the embedded model run on this machine? A real completion, and the build's instruction set.

These tests fail (they never skip) when the model cannot run here: a green suite on a machine where every
README command would crash is what we must never ship again. The message names the cause.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_one_real_completion_runs_in_the_models_own_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "harness.local.check"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"the embedded model cannot run on this machine: {done.stderr or done.stdout}"
    assert "the embedded model answered" in done.stdout


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="the x86-64 build's instruction set")
def test_the_installed_build_is_portable() -> None:
    """The llama.cpp build must not use AVX-512 (a VM may advertise it and not run it): scripts/install.sh
    builds for x86-64-v3. A native build (a wheel from pip's cache, a plain pip install) fails here."""
    from harness.local.check import native_library, uses_avx512

    assert shutil.which("objdump"), "objdump (binutils) is needed to read the build's instructions"
    library = native_library()
    assert library is not None, "llama-cpp-python is not installed: bash scripts/install.sh"
    assert uses_avx512(library) is False, f"{library} holds AVX-512 code: reinstall with bash scripts/install.sh"


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 instructions")
def test_the_avx512_probe_tells_the_two_kinds_of_build_apart(tmp_path: Path) -> None:
    """The probe itself, on two libraries gcc builds from the same source with and without AVX-512."""
    from harness.local.check import uses_avx512

    gcc = shutil.which("gcc")
    assert gcc and shutil.which("objdump"), "gcc and objdump are needed (build-essential)"
    source = tmp_path / "add.c"
    source.write_text("void add(float *a, const float *b, int n) { for (int i = 0; i < n; i++) a[i] += b[i]; }\n")
    built = {}
    for name, flags in (("wide", ["-mavx512f", "-mprefer-vector-width=512"]), ("portable", ["-mavx2"])):
        library = tmp_path / f"lib{name}.so"
        subprocess.run([gcc, "-O3", "-shared", "-fPIC", *flags, str(source), "-o", str(library)], check=True)
        built[name] = uses_avx512(library)
    assert built == {"wide": True, "portable": False}


def test_the_causes_are_named_for_a_cpu_without_avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.local import check

    monkeypatch.setattr(check.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(check, "cpu_flags", lambda: {"sse4_2", "avx"})
    monkeypatch.setattr(check, "native_library", lambda: None)
    (cause,) = check.diagnose()
    assert "lacks avx2, fma, f16c, bmi2" in cause and "x86-64-v3" in cause
