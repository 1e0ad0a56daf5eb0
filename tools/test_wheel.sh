#!/usr/bin/env bash
# Test an installed spvbuild wheel: a fresh venv, `pip install <wheel>[dev]`, the engine
# form checked, the whole test suite run against the installed package (not src/), and
# the installed package folder checked unchanged after use.
#
#   tools/test_wheel.sh WHEEL EXPECTED_ENGINE [VENV]    (EXPECTED_ENGINE: mypyc | python)
#
# Run from the repository root (make test-wheels does). A pure wheel is tested with
# SPVBUILD_PURE_BUILD=1 set, so the tests know there is one engine form.
set -euo pipefail
wheel=$1
expected=$2
venv=$(realpath -m "${3:-build/venv-$expected}")
python=${SYSTEM_PYTHON:-python3}

rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q "$wheel[dev]"

# From outside the checkout, so that nothing but the installed package can be imported.
cd /
package=$("$venv/bin/python" -c 'import spvbuild, os; print(os.path.dirname(spvbuild.__file__))')
engine=$("$venv/bin/python" -c 'import spvbuild.text.assembler as a, spvbuild.binary.reader as r; print(a.ENGINE, r.engine_kind())')
passes=$("$venv/bin/python" -c 'from spvbuild.accel import compiled_passes as c; print(c.kind())')
cd - >/dev/null
echo "wheel $(basename "$wheel"): installed in $package, engines: $engine, passes: $passes"
if [ "$engine" != "$expected $expected" ]; then
	echo "test_wheel: expected both engines to be '$expected', got '$engine'" >&2
	exit 1
fi
if [ "$passes" != "$expected" ]; then
	echo "test_wheel: expected the passes to be '$expected', got '$passes'" >&2
	exit 1
fi
case "$package" in
	"$PWD"/src/*) echo "test_wheel: spvbuild was imported from the checkout, not the wheel" >&2; exit 1 ;;
esac

listing() { (cd "$package" && find . -print0 | sort -z | xargs -0 ls -ld --time-style=+%s | sha256sum); }
before=$(listing)
# The installed Python files are the checkout's, byte for byte (the compiled engines and
# passes aside, which are extension modules beside their sources and in passes/_mypyc/): what the checkout's run
# tested of them by the tests marked corpus holds here too.
"$venv/bin/python" - "$package" "$PWD/src/spvbuild" <<'PY'
import hashlib, sys
from pathlib import Path
installed, checkout = (Path(p) for p in sys.argv[1:3])
differ = [
    str(path.relative_to(installed))
    for path in sorted(installed.rglob("*.py"))
    if hashlib.sha256(path.read_bytes()).digest()
    != hashlib.sha256((checkout / path.relative_to(installed)).read_bytes()).digest()
]
if differ:
    sys.exit("test_wheel: installed files differ from the checkout's: " + ", ".join(differ[:10]))
print(f"wheel: {sum(1 for _ in installed.rglob('*.py'))} installed .py files equal the checkout's")
PY
# The tests run against the installed package; PYTHONPATH stays unset.  Left out here:
# the tests marked source_tree test the checkout's own files (the generator and its
# grammars, the packaging, the docs site: nothing of the installed wheel), and the tests
# marked corpus run corpus-wide differentials through pure-Python code that the check
# above shows is the same files the checkout's run tested (the engines, which a wheel
# compiles, are tested here by their own tests, and the compiled passes against the plain
# ones over the corpus by tests/passes/test_compiled_form.py).
env -u PYTHONPATH "$venv/bin/python" -m pytest -q -p no:cacheprovider -m "not source_tree and not corpus"
after=$(listing)
if [ "$before" != "$after" ]; then
	echo "test_wheel: the installed package folder changed while it was used" >&2
	exit 1
fi
echo "wheel $(basename "$wheel"): tests passed; installed package folder unchanged"
