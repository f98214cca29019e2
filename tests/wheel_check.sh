#!/usr/bin/env bash
# The wheel as users get it: build it (pure Python), check that it holds every file of the
# source package (pages, scripts, styles, migrations), install it with its web extra into a
# fresh virtual environment, and have `ginrummy serve` from there answer /, a static script
# and the API. Catches files left out of the package data, which the tests (run from the
# source tree) cannot see.
#
#   PYTHON=.venv/bin/python tests/wheel_check.sh     (make wheel-check)
#
# PYTHON builds the wheel (it needs setuptools and mypy, as `make` installs them) and makes the
# fresh virtual environment; that one gets its packages from the configured index.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}

tmp=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# Build from a copy without build outputs, so that nothing stale in build/ or a compiled
# module gets into the wheel, and nothing lands in the working tree.
mkdir "$tmp/src"
tar -c --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude='*.so' --exclude=__pycache__ --exclude='./.*_cache' \
    --exclude=./.hypothesis --exclude=./test-artifacts . | tar -x -C "$tmp/src"
GINRUMMY_PURE=1 "$PYTHON" -m pip wheel -q --no-deps --no-build-isolation -w "$tmp/dist" "$tmp/src"
wheel=$(echo "$tmp"/dist/ginrummy-*.whl)

"$PYTHON" - "$wheel" "$tmp/src/src/ginrummy" <<'EOF'
import sys
import zipfile
from pathlib import Path

wheel, package = sys.argv[1], Path(sys.argv[2])
held = set(zipfile.ZipFile(wheel).namelist())
missing = [
    name
    for path in sorted(package.rglob("*"))
    if path.is_file() and "__pycache__" not in path.parts
    if (name := f"ginrummy/{path.relative_to(package).as_posix()}") not in held
]
if missing:
    sys.exit(f"wheel check: {Path(wheel).name} lacks {len(missing)} files: {', '.join(missing)}")
EOF

"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q "$wheel[web]"

# Serve from the new environment only: away from the sources, nothing on PYTHONPATH, its own
# data directory and a temporary SQLite file.
port=$("$tmp/venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(
    cd "$tmp"
    exec env -u PYTHONPATH -u GINRUMMY_DATABASE_URL XDG_DATA_HOME="$tmp/data" \
        "$tmp/venv/bin/ginrummy" serve --port "$port" --db "$tmp/check.db" --computer-delay 0
) >"$tmp/serve.log" 2>&1 &
server=$!

if ! (cd "$tmp" && env -u PYTHONPATH "$tmp/venv/bin/python" - "$port" "$tmp/venv" <<'EOF'
import sys
import time
import urllib.request
from pathlib import Path

import ginrummy

port, venv = sys.argv[1], Path(sys.argv[2]).resolve()
if venv not in Path(ginrummy.__file__).resolve().parents:
    sys.exit(f"wheel check: ginrummy came from {ginrummy.__file__}, not the new environment")
base = f"http://127.0.0.1:{port}"
urlopen = urllib.request.build_opener(urllib.request.ProxyHandler({})).open  # no proxy
deadline = time.monotonic() + 60
while True:
    try:
        with urlopen(f"{base}/api/presets", timeout=5):
            break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit("wheel check: the server did not answer within 60 s")
        time.sleep(0.2)
for path, text in (("/", b"<html"), ("/static/js/table.js", b""), ("/api/presets", b"presets")):
    with urlopen(base + path, timeout=10) as response:
        body = response.read()
        if response.status != 200 or not body or text not in body:
            sys.exit(f"wheel check: {path} answered {response.status} ({len(body)} bytes)")
    print(f"wheel check: {path} 200 ({len(body)} bytes)")
EOF
); then
    echo "wheel check: the server's output:" >&2
    cat "$tmp/serve.log" >&2
    exit 1
fi
echo "wheel check: $(basename "$wheel") installs with [web] and serves"
