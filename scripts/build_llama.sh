#!/usr/bin/env bash
# Build llama-cpp-python (the embedded model's binding) for a portable target, once per machine, and print
# the wheel's path. Usage: scripts/build_llama.sh PYTHON
#
# Why not `pip install llama-cpp-python`: PyPI has only its source, and pip builds it for the build machine's
# own CPU (GGML_NATIVE). On a virtual machine that advertises AVX-512 or AMX that build dies with SIGSEGV or
# SIGILL in llama_decode, and pip caches the broken wheel for every later install. Here the target is fixed:
# x86-64 with AVX2, FMA, F16C and BMI2 (x86-64-v3: Intel Haswell 2013 and AMD Zen 2015 onwards), no
# AVX-512, no AMX. The wheel never enters pip's cache: it is kept in a wheelhouse named by the release, the
# target and the flags (HARNESS_WHEELHOUSE, default ~/.cache/harness/wheels), so a wheel built any other way
# is never picked up. The source is checked against the hash in requirements/native.txt, and the build
# tools come from requirements/build.txt (installed by scripts/install.sh beforehand).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:?usage: scripts/build_llama.sh PYTHON}
spec=$(grep -m1 '^llama-cpp-python==' requirements/native.txt | cut -d' ' -f1)
version=${spec#*==}
common="-DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DLLAMA_CURL=OFF"
case "$(uname -m)" in
    x86_64 | amd64)
        target=x86-64-v3
        flags="$common -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
        flags="$flags -DGGML_AVX_VNNI=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF"
        flags="$flags -DGGML_AVX512_BF16=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
        ;;
    *)
        target="$(uname -m)-generic"
        flags="$common"
        ;;
esac
tag=$("$python" -c 'import sys; print(sys.implementation.cache_tag)')
key=$(printf '%s|%s|%s' "$version" "$flags" "$tag" | sha256sum | cut -c1-12)
house="${HARNESS_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/harness/wheels}/llama-cpp-python-$version-$target-$key"
shopt -s nullglob
built=("$house"/*.whl)
if [ ${#built[@]} -eq 0 ]; then
    echo "install: building llama-cpp-python $version for $target (once per machine: 4 to 12 minutes on 2 cores)" >&2
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: --require-hashes \
        -r requirements/native.txt -d "$work/src" >&2
    CMAKE_ARGS="$flags" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
        "$python" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation --no-cache-dir \
        "$work"/src/*.tar.gz -w "$work/wheel" >&2
    mkdir -p "$house"
    mv "$work"/wheel/*.whl "$house/"
    built=("$house"/*.whl)
fi
echo "${built[0]}"
