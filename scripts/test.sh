#!/usr/bin/env bash
# The whole test suite, as the README and CI run it: installs the project and
# its test tools into .venv (unless a virtual environment is already active),
# then lints, type-checks and runs pytest.  Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${VIRTUAL_ENV:-}" ]; then
    [ -x .venv/bin/python ] || python3 -m venv .venv
    # shellcheck disable=SC1091
    . .venv/bin/activate
fi
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e '.[test]'

echo "== ruff"; ruff check . && ruff format --check --quiet src tests
echo "== mypy"; mypy
echo "== pytest"; python -m pytest -n 2 -q "$@"
