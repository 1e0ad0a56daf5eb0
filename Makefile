# spvbuild developer and CI entry points.
#
#   make venv         create .venv and install the project with its dev extras
#   make system-deps  install the Debian packages the Vulkan tests and the demo run on
#                     (lavapipe: mesa-vulkan-drivers, libvulkan1), once, only if missing
#   make engines      compile the assembler's, the reader's and the layout engines with mypyc,
#                     the hot modules of the passes, and the reader's C allocation helpers (python -m
#                     spvbuild.accel.accelerate; skipped when current; without mypyc or a C
#                     compiler plain Python runs); then byte-compile src/ and generated/
#                     (python -m compileall; git-ignored __pycache__ folders, as an installed
#                     wheel has them): a process of the checkout then reads .pyc files even
#                     under PYTHONDONTWRITEBYTECODE=1, instead of compiling every module it
#                     imports (which costs it time and tens of MB of peak memory)
#   make corpus       download the assembly texts of other projects that
#                     tests/text/test_external_corpus.py reads (Debian source packages, into
#                     .cache/external-corpus/), once, only if missing
#   make test         venv + system-deps + corpus + engines, then lint, typecheck, regen-check
#                     and pytest; then test-wheels
#   make wheels       build the two wheels into build/wheels/: compiled (mypyc, when a C
#                     compiler is there) and pure (SPVBUILD_PURE_BUILD=1)
#   make test-wheels  wheels, then each installed in a fresh venv and the whole test suite
#                     run against it (tools/test_wheel.sh; not the source_tree tests)
#   make lint         ruff check
#   make typecheck    mypy --strict on the spvbuild package and on codegen/
#   make regen-check  fail if generated/ is not what grammars/ produce
#   make regen        render generated/ from grammars/
#   make docs         the documentation site, warnings as errors (Sphinx: the API from the
#                     docstrings, docs/api/; the SPIR-V reference, generated/docs/) into
#                     build/docs/html/ (open index.html); the tests build it too
#   make bench        system-deps, engines (and the .pyc files of src/), then run every
#                     bench/bench_*.py (one line each)
#   make demo         venv + system-deps, then run examples/demo.py (build, validate,
#                     disassemble and run a compute shader on lavapipe)
#   make clean        remove build artefacts and tool caches (keeps .venv)
#
# Everything runs through the venv interpreter (`.venv/bin/python -m ...`), no activation.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

SYSTEM_PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# lavapipe (Mesa's CPU Vulkan driver) and the Vulkan loader that PyPI's `vulkan` dlopens;
# GNU time, the small parent that the benches measure a child's peak memory under.
SYSTEM_PACKAGES := mesa-vulkan-drivers libvulkan1 spirv-cross time
# The stamp is named by a digest of the package list: a venv stamped for another list
# (a package added since) has no stamp for this one, and the packages are checked again.
SYSTEM_STAMP := $(VENV)/.system-deps-$(shell printf '%s' '$(SYSTEM_PACKAGES)' | sha256sum | cut -c1-16)

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: venv system-deps browser-deps corpus engines lint typecheck regen-check test bench demo regen docs clean wheels test-wheels

venv: $(STAMP)

# The interpreter is the marker for "the venv exists". A fresh Debian python3 without
# python3-venv has no ensurepip, and `python3 -m venv` then fails: install it only then.
$(PY):
	@if ! $(SYSTEM_PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then \
		echo "venv: ensurepip/venv missing for $(SYSTEM_PYTHON); installing python3-venv"; \
		apt-get update && apt-get install -y python3-venv; \
	fi
	@if ! $(SYSTEM_PYTHON) -m venv --clear $(VENV); then \
		echo "venv: '$(SYSTEM_PYTHON) -m venv' failed; installing python3-venv and retrying"; \
		apt-get update && apt-get install -y python3-venv; \
		$(SYSTEM_PYTHON) -m venv --clear $(VENV); \
	fi

# Re-install whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[dev]'
	@touch $@

system-deps: $(SYSTEM_STAMP)

# Runs once per venv and package list (the stamp lives in .venv/, named by the list's
# digest, and holds the list); apt-get only for packages not installed.
# Needs root (or sudo) and apt-get, as on a fresh Debian machine.
$(SYSTEM_STAMP): | $(PY)
	@missing=""; \
	for pkg in $(SYSTEM_PACKAGES); do \
		dpkg -s "$$pkg" 2>/dev/null | grep -qx 'Status: install ok installed' \
			|| missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
		if ! command -v apt-get >/dev/null 2>&1; then \
			echo "system-deps: missing$$missing and no apt-get: install them (Debian names) by hand"; \
			exit 1; \
		fi; \
		sudo=""; \
		if [ "$$(id -u)" -ne 0 ]; then \
			if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else \
				echo "system-deps: missing$$missing; run as root: apt-get install$$missing"; \
				exit 1; \
			fi; \
		fi; \
		echo "system-deps: installing$$missing"; \
		$$sudo apt-get update; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else \
		echo "system-deps: $(SYSTEM_PACKAGES) already installed"; \
	fi
	@printf '%s\n' '$(SYSTEM_PACKAGES)' > $@

# A build problem is reported but does not stop the make: the plain-Python engine runs.
# Under CI=true the tests then fail, as they require the compiled engines there.
engines: venv
	@$(PY) -m spvbuild.accel.accelerate || echo "engines: not compiled (see above); plain Python runs"
	@$(PY) -m compileall -q src src/spvbuild/generated

lint: venv
	$(PY) -m ruff check codegen src/spvbuild tests bench examples

# Both runs always happen; the target fails if either fails.
typecheck: venv
	@status=0; \
	echo "$(PY) -m mypy --strict -p spvbuild"; \
	$(PY) -m mypy --strict -p spvbuild || status=1; \
	echo "$(PY) -m mypy --strict codegen"; \
	$(PY) -m mypy --strict codegen || status=1; \
	exit $$status

regen-check: venv
	$(PY) -m codegen check

regen: venv
	$(PY) -m codegen

DOCS_BUILD := build/docs

# From scratch every time, so that -W sees every page's warnings (tests/docs/ runs the same
# command into a temporary folder).
docs: venv
	rm -rf $(DOCS_BUILD)
	$(PY) -m sphinx -W --keep-going -q -j auto -b html -d $(DOCS_BUILD)/doctrees docs $(DOCS_BUILD)/html
	@echo "docs: $(DOCS_BUILD)/html/index.html"

# Sub-makes keep the order (and stop at the first failure) even under `make -j`.
# Debian's chromium + chromium-driver for tests/docs/test_browser.py (no-op when installed).
browser-deps:
	bash tests/browser/ensure_chromium.sh

# SPIRV-Cross's and SPIRV-Tools' test texts, from Debian's source packages (apt-get source
# with a private configuration); never committed here. No-op when already extracted.
corpus: venv
	$(PY) -m tests.external_corpus

test: venv system-deps browser-deps corpus engines
	@echo "==> [1/5] lint"
	@$(MAKE) --no-print-directory lint
	@echo "==> [2/5] typecheck"
	@$(MAKE) --no-print-directory typecheck
	@echo "==> [3/5] regen-check"
	@$(MAKE) --no-print-directory regen-check
	@echo "==> [4/5] pytest"
	$(PY) -m pytest -q
	@echo "==> [5/5] the wheels, compiled and pure, installed and tested"
	@$(MAKE) --no-print-directory test-wheels

WHEELS := build/wheels

# Built without isolation, with the venv's setuptools and mypy (no download).
wheels: venv
	rm -rf $(WHEELS) build/lib* build/temp*
	$(PY) -m build --wheel --no-isolation --outdir $(WHEELS)/compiled .
	rm -rf build/lib* build/temp*
	SPVBUILD_PURE_BUILD=1 $(PY) -m build --wheel --no-isolation --outdir $(WHEELS)/pure .

# The two wheels' runs go side by side (each is mostly one process; CI has two cores),
# each into its own log, printed when both are done.
test-wheels: wheels system-deps browser-deps corpus
	@mkdir -p build/logs
	@echo "test-wheels: the compiled and the pure wheel tested side by side (build/logs/wheel-*.log)"
	@SYSTEM_PYTHON=$(SYSTEM_PYTHON) bash tools/test_wheel.sh $(WHEELS)/compiled/*.whl mypyc \
		> build/logs/wheel-mypyc.log 2>&1 & compiled=$$!; \
	SPVBUILD_PURE_BUILD=1 SYSTEM_PYTHON=$(SYSTEM_PYTHON) bash tools/test_wheel.sh \
		$(WHEELS)/pure/*.whl python > build/logs/wheel-python.log 2>&1 & pure=$$!; \
	wait $$compiled; compiled_status=$$?; wait $$pure; pure_status=$$?; \
	cat build/logs/wheel-mypyc.log build/logs/wheel-python.log; \
	echo "test-wheels: compiled wheel exit $$compiled_status, pure wheel exit $$pure_status"; \
	test $$compiled_status = 0 && test $$pure_status = 0

bench: venv system-deps engines
	@found=0; \
	for f in bench/bench_*.py; do \
		[ -e "$$f" ] || continue; \
		found=1; \
		$(PY) "$$f"; \
	done; \
	if [ $$found -eq 0 ]; then echo "bench: no bench/bench_*.py found"; fi

# The end-to-end demo: spvbuild builds a compute shader, spirv-val checks it, it is
# disassembled and run on lavapipe, and the results are checked (exit 1 on mismatch).
demo: venv system-deps
	$(PY) examples/demo.py

clean:
	rm -rf build dist src/*.egg-info *.egg-info .mypy_cache .pytest_cache .ruff_cache .hypothesis
	rm -f src/spvbuild/accel/_*_mypyc* src/spvbuild/accel/_records.*.so
	find . -path ./$(VENV) -prune -o -path ./.git -prune -o -type d -name __pycache__ -print0 \
		| xargs -0 rm -rf
