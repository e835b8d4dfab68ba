# Two entry points do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test check e2e compat docs binary official bump bench wheels clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e . --group dev --group docs
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
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	# Two workers per core (at most 8): most of a test's time is spent
	# waiting on a binary, a model reply or a tool. Each test file stays in
	# one worker, so a file's module fixtures (the Ray cluster, servers)
	# start once.
	$(PY) -m pytest -n $(WORKERS) --dist loadfile --durations=30

# The fast lane, for people who change the code: lint, types, generated
# files and every test that starts no binary, server or cluster (no binary
# to fetch, nothing to install).
WORKERS := $(shell $(PYTHON) -c "import os; print(min(8, 2 * (os.cpu_count() or 1)))")
FAST := not e2e and not compat and not stores and not ray and not slow
check: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n auto --dist loadfile -m "$(FAST)"

# The other lanes: against the real binary (and the servers the store tests
# start), and the programs run on both packages.
e2e: binary
	bash scripts/ci_services.sh
	$(PY) -m pytest -n auto --dist loadfile -m "(e2e or stores or ray or slow) and not compat"

compat: binary official
	bash scripts/ci_services.sh
	$(PY) -m pytest -n auto --dist loadfile -m compat

# The documentation site (mkdocs.yml, docs/) into build/site; `make test`
# builds it too, strictly, and runs the code on its pages.
docs: $(STAMP)
	$(PY) -m mkdocs build --strict --site-dir build/site

bench: binary
	$(PY) scripts/bench.py

# The release artifacts into dist/: the pure wheel, the sdist and one wheel
# per platform with its binary inside (PLATFORM=linux-x64: that one only).
wheels: $(STAMP)
	$(PY) scripts/build_wheels.py $(if $(PLATFORM),--platform $(PLATFORM))

OFFICIAL_PY := build/official-venv/bin/python

# Pin the Claude Code the official package bundles (or VERSION=x.y.z), fetch
# it, and rewrite both records; each prints what changed, and `make test`
# fails on what the code has not caught up with. OFFICIAL=x.y.z moves the
# official package's pin first (scripts/official_venv.py holds it).
bump: $(STAMP)
	$(if $(OFFICIAL),$(PY) scripts/official_venv.py --pin $(OFFICIAL))
	$(PY) scripts/official_venv.py
	$(PY) scripts/bump_version.py $${VERSION:-$$($(OFFICIAL_PY) -c 'from claude_agent_sdk._cli_version import __cli_version__; print(__cli_version__)')}
	$(PY) scripts/fetch_binary.py
	$(PY) scripts/binary_facts.py --write
	$(OFFICIAL_PY) scripts/official_surface.py
	$(PY) scripts/ts_surface.py --write
	$(PY) scripts/ts_types.py

clean:
	rm -rf $(VENV) build dist
