#!/usr/bin/env bash
# The whole test suite, as the README and CI run it: installs the project and
# its test tools into .venv (unless a virtual environment is already active),
# then lints, type-checks, builds the API reference and runs pytest.  Extra arguments go
# to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${VIRTUAL_ENV:-}" ]; then
    [ -x .venv/bin/python ] || python3 -m venv .venv
    # shellcheck disable=SC1091
    . .venv/bin/activate
fi
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e '.[test]'
# Kaggle's ConnectX environment for the integration test: without its dependencies (about
# 1.8 GB); what ConnectX needs of them (jsonschema, requests, numpy) comes with the test extra.
python -m pip install --quiet --no-deps kaggle-environments

# The browser tests drive Debian's Chromium (Playwright's own browser download
# is not used).  CI runs as root without a terminal: install it there.
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing chromium (browser tests)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null
    else
        echo "note: chromium is not installed and this is not root: the browser tests will be skipped" >&2
        echo "      (sudo apt-get install chromium)" >&2
    fi
fi

# One command a line: under set -e a failure inside an && list does not stop the script.
echo "== ruff"; ruff check .; ruff format --check --quiet src tests
echo "== mypy"; mypy
# Warnings (a broken cross-reference, a docstring mkdocstrings cannot read) fail the build.
echo "== docs"; mkdocs build --strict --quiet
echo "== pytest"; python -m pytest -n 2 -q "$@"
