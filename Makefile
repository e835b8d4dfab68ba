# Two entry points do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test binary bench typecheck clean official bump

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

binary: $(STAMP)
	$(PY) scripts/fetch_binary.py

demo: binary
	$(PY) scripts/demo.py

test: binary
	bash scripts/ci_services.sh
	$(PY) -m mypy
	$(PY) -m pytest

bench: binary
	$(PY) scripts/bench.py

# The official claude-agent-sdk in its own venv under build/: a dev-time tool
# for the surface record, the benchmark and the comparisons, never a dependency.
OFFICIAL ?= 0.2.189
OFFICIAL_VENV := build/official-venv
OFFICIAL_PY := $(OFFICIAL_VENV)/bin/python

official:
	test -x $(OFFICIAL_PY) || $(PYTHON) -m venv $(OFFICIAL_VENV)
	$(OFFICIAL_PY) -m pip install --quiet 'claude-agent-sdk==$(OFFICIAL)'

# Pin the Claude Code the official package bundles (or VERSION=x.y.z), fetch
# it, and rewrite both records; each prints what changed, and `make test`
# fails on what the code has not caught up with.
bump: $(STAMP) official
	$(PY) scripts/bump_version.py $${VERSION:-$$($(OFFICIAL_PY) -c 'from claude_agent_sdk._cli_version import __cli_version__; print(__cli_version__)')}
	$(PY) scripts/fetch_binary.py
	$(PY) scripts/binary_facts.py --write
	$(OFFICIAL_PY) scripts/official_surface.py

clean:
	rm -rf $(VENV) build dist
