#!/usr/bin/env bash
# Hermes's approval tests and the differential against the pinned hermes-agent (installed by
# tests/e2e/install-harnesses.sh into DIR/hermes-venv), with the wheel built by
# build-and-test.sh and pytest installed next to it (integrations/hermes/suite/).
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: hermes-suite.sh HARNESS_DIR}
"$DIR/hermes-venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  target/wheels/shellgate-*.whl
"$DIR/hermes-venv/bin/pip" install --quiet --disable-pip-version-check "pytest==$PYTEST_VERSION"
python3 integrations/hermes/suite/run_hermes_suite.py --python "$DIR/hermes-venv/bin/python"
