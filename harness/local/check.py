"""Can the embedded chat model run on this machine? One real completion, in the model's own process.

    python -m harness.local.check [--quiet]

Exit status 0 when it answered; 1 with the cause otherwise: the packages are missing, the llama.cpp build
uses instructions this CPU lacks (a build made for another machine, or a CPU without AVX2), or the process
crashed. scripts/install.sh runs it; so does the test suite, which fails (never skips) when it cannot run.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

# What the portable build (scripts/build_llama.sh) needs on x86-64: x86-64-v3.
REQUIRED_X86_FLAGS = ("avx", "avx2", "fma", "f16c", "bmi2")


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def native_library() -> Path | None:
    """The installed llama.cpp CPU backend (the library whose instructions matter)."""
    import importlib.util

    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "lib"
    for name in ("libggml-cpu.so", "libggml.so", "libllama.so"):
        if (folder / name).exists():
            return folder / name
    return None


def uses_avx512(library: Path) -> bool | None:
    """Whether the library holds AVX-512 code (zmm registers); None when objdump is not there to tell."""
    objdump = shutil.which("objdump")
    if objdump is None:
        return None
    try:
        listing = subprocess.run([objdump, "-d", str(library)], capture_output=True, text=True, timeout=120).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return "%zmm" in listing


def diagnose() -> list[str]:
    """Likely causes, for a model process that died."""
    lines = []
    if platform.machine() in ("x86_64", "AMD64"):
        missing = [f for f in REQUIRED_X86_FLAGS if f not in cpu_flags()]
        if missing:
            lines.append(
                f"this CPU lacks {', '.join(missing)}: the portable build targets x86-64-v3 (AVX2, FMA, F16C, "
                "BMI2); use --model and --judge-model with a provider instead"
            )
    library = native_library()
    if library is not None and uses_avx512(library):
        lines.append(
            f"{library} holds AVX-512 code: it was built for another machine's CPU (a wheel from pip's cache, or "
            "pip install llama-cpp-python); reinstall with bash scripts/install.sh, which builds a portable one"
        )
    return lines


def check() -> tuple[bool, str]:
    """(ok, what happened): one completion through a model process started for the purpose."""
    from harness.local.chat import LocalModelUnavailable, gguf_path
    from harness.local.service import LocalModelService

    try:
        import llama_cpp  # noqa: F401 - only whether it is installed
    except ImportError as exc:
        return False, f"llama-cpp-python is not installed ({exc}): bash scripts/install.sh"
    try:
        gguf_path()
    except LocalModelUnavailable as exc:
        return False, str(exc)
    import json
    import urllib.error
    import urllib.request

    service = LocalModelService(engines=1)
    try:
        endpoint = service.endpoint
        body = {"model": "smollm2", "messages": [{"role": "user", "content": "The capital of France is"}],
                "max_tokens": 16, "temperature": 0}  # fmt: skip
        request = urllib.request.Request(
            f"{endpoint.url}/v1/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {endpoint.token}", "Content-Type": "application/json"},
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                reply = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            detail = json.loads(exc.read() or b"{}").get("error", {}).get("message", str(exc))
            causes = diagnose()
            return False, "; ".join([f"the embedded model cannot run: {detail}", *causes])
        elapsed = time.perf_counter() - started
        tokens = reply["usage"]["completion_tokens"]
        return True, f"the embedded model answered: {tokens} tokens in {elapsed:.2f} s"
    finally:
        service.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.local.check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="print only a failure")
    args = parser.parse_args(argv)
    ok, message = check()
    if not ok or not args.quiet:
        print(f"harness.local.check: {message}", file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
