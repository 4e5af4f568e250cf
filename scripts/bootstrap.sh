#!/usr/bin/env bash
# Prepare this machine for tablehub: Debian packages, then a virtual environment with the
# project installed in it.  Used by `make demo` and `make test`; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
mapfile -t wanted < <(grep -v '^\s*#' scripts/debian-packages.txt | sed '/^\s*$/d')

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for pkg in "${wanted[@]}"; do
        status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
        [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
    done
fi
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
        echo "bootstrap: installing Debian packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
            apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null
        }
    else
        echo "bootstrap: these Debian packages are missing: ${missing[*]}" >&2
        echo "bootstrap: install them, then run make again:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

if [[ ! -x "$VENV/bin/python" ]]; then
    echo "bootstrap: creating the virtual environment $VENV"
    "$PYTHON" -m venv "$VENV"
fi
echo "bootstrap: installing tablehub and its Python dependencies into $VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -c constraints.txt -e ".[dev]"
touch "$VENV/.installed"
