#!/usr/bin/env bash
# The virtual environment of real client libraries (Tests/Clients/requirements.txt) under
# .build/clients/venv: made once, remade only when the requirements change. Prints its python.
# Installs nothing outside .build/.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/clients/venv
requirements=Tests/Clients/requirements.txt
stamp="$venv/.requirements.sha256"
# Test targets that start at once (IO and end-to-end tests run in one process) wait for one install.
mkdir -p "$(dirname "$venv")"
exec 9>"$(dirname "$venv")/.lock"
flock 9
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "client-venv: installing $requirements into $venv (PyPI)" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  if grep -qvE '^\s*(#|$)' "$requirements"; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
  fi
  echo "$want" > "$stamp"
fi
echo "$PWD/$venv/bin/python"
