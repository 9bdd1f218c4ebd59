#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtualenv and run the Python tests against the
# installed package: the API, the Hermes drop-in and plugin (in process), mini-swe-agent,
# the Dask fleet example and (in a Python 3.12 virtualenv) OpenHands. Versions come from
# .ci/run. Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${MATURIN_VERSION:?}" "${PYTEST_VERSION:?}" "${DASK_VERSION:?}" "${MINI_SWE_AGENT_VERSION:?}" "${OPENHANDS_SDK_VERSION:?}"
step() { echo "== $1 ($(( SECONDS - T0 )) s so far)"; }
T0=$SECONDS
PIP="--quiet --disable-pip-version-check"
rm -rf target/wheels target/py-build target/py-venv target/py312-venv
# The binary in the wheel: the static release binary when .ci/run built it, else the
# backend builds one itself (python/build_backend.py).
STATIC=target/x86_64-unknown-linux-gnu/release/shellgate
if [ -x "$STATIC" ]; then export SHELLGATE_WHEEL_BIN="$PWD/$STATIC"; fi

step "build the wheel (maturin $MATURIN_VERSION, profile wheel-ci)"
python3 -m venv target/py-build
target/py-build/bin/pip install $PIP "maturin==$MATURIN_VERSION"
PATH="$PWD/target/py-build/bin:$PATH" MATURIN_PEP517_ARGS="--profile wheel-ci" \
  target/py-build/bin/pip wheel $PIP --no-build-isolation --no-deps -w target/wheels .
WHEEL=$(ls target/wheels/shellgate-*.whl)

step "install it into a fresh virtualenv"
python3 -m venv target/py-venv
PY=target/py-venv/bin/python
target/py-venv/bin/pip install $PIP "$WHEEL" "pytest==$PYTEST_VERSION" "dask[distributed]==$DASK_VERSION" \
  "mini-swe-agent==$MINI_SWE_AGENT_VERSION"
# `shellgate` on the virtualenv's PATH is the native binary, byte for byte the one built.
if [ -n "${SHELLGATE_WHEEL_BIN:-}" ]; then cmp "$SHELLGATE_WHEEL_BIN" target/py-venv/bin/shellgate; fi

step "Python tests against the installed package"
(cd target && ../$PY -m pytest -q -p no:cacheprovider ../tests/python ../examples/fleet \
  ../integrations/mini-swe-agent/tests)
# The Hermes plugin's tests once more, now asking in process (the package is installed).
SHELLGATE_PLUGIN_TESTS_INPROCESS=1 SHELLGATE_BIN="$PWD/target/py-venv/bin/shellgate" \
  $PY -m unittest discover -s integrations/hermes/tests

step "OpenHands (openhands-sdk $OPENHANDS_SDK_VERSION needs Python 3.12+)"
# A candidate must run (pyenv's shims exist for versions that are not selected).
PY312=
for c in python3.12 python3.13 "$HOME"/.pyenv/versions/3.1[23]*/bin/python3; do
  if "$c" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then PY312=$c; break; fi
done
if [ -z "$PY312" ]; then
  echo "no Python 3.12 or newer found (python3.12 on PATH or under ~/.pyenv); OpenHands's tests cannot run" >&2
  exit 1
fi
"$PY312" -m venv target/py312-venv
target/py312-venv/bin/pip install $PIP "$WHEEL" "pytest==$PYTEST_VERSION" "openhands-sdk==$OPENHANDS_SDK_VERSION"
(cd target && ../target/py312-venv/bin/python -m pytest -q -p no:cacheprovider ../integrations/openhands/tests)
step "done"
