# Two entry points do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test binary official bench typecheck clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

binary: $(STAMP)
	$(PY) scripts/fetch_binary.py

# The official claude-agent-sdk in build/official-venv, for the compatibility
# tests and the benchmark (a development tool, never a dependency).
official: $(STAMP)
	$(PY) scripts/official_venv.py

demo: binary
	$(PY) scripts/demo.py

test: binary official
	bash scripts/ci_services.sh
	$(PY) -m mypy
	$(PY) -m pytest

bench: binary
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) build dist
