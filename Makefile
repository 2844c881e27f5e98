# Every target sets up what it needs: a virtual environment with the package and its dev
# extras, a Chromium (Playwright's own if installed, else the system's; Debian's `chromium` is
# installed with apt-get when possible) and the web fonts (from the npm registry, optional).

# the Python .venv is made with: dev/python-for-venv says which and why (PYTHON=... chooses)
PYTHON ?= $(shell dev/python-for-venv)
VENV   := .venv
BIN    := $(VENV)/bin
# installs into .venv with uv, or pip when uv cannot be had (dev/pip-install; INSTALLER=pip)
PIP    := dev/pip-install $(VENV)
STAMP  := $(VENV)/.installed-stamp
RAY_STAMP := $(VENV)/.ray-stamp
AGENTLAB_STAMP := $(VENV)/.agentlab-stamp
AGENTLAB_REQS := dev/agentlab-test-requirements.txt
OPENENV_STAMP := $(VENV)/.openenv-stamp
OPENENV_REQS := dev/openenv-test-requirements.txt
# verifiers (Prime Intellect) and the environment environments/openapps live in a venv of their
# own: verifiers 0.4 pins mcp==2.0.0, which the project's MCP server (mcp 1.x) cannot import.
VF_VENV := .venv-verifiers
VF_STAMP := $(VF_VENV)/.installed-stamp
VF_VERSION := 0.4.0
VF_LOG := $(VF_VENV).log
# 4 test processes on 2 cores: the suite waits a lot (watchdog time-outs, Ray, servers, vf-eval), and
# tests/conftest.py starts the waiting modules on two of the four while the other two compute
PYTEST_WORKERS ?= 3
PYTEST := $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal

.PHONY: setup demo test test-all test-deps bench mutants lint format gallery clean

$(BIN)/python:
	@echo "openapps: making $(VENV) with $(PYTHON) ($$($(PYTHON) -V 2>&1)); PYTHON=... picks another"
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(BIN)/python
	$(PIP) -e ".[dev]"
	touch $(STAMP)

# The tests also run the Ray executor against a local Ray instance; demo does not need Ray. This
# is the `ray` extra of pyproject.toml, named directly: `-e ".[ray]"` would rebuild the editable
# install of this package first (6 s).
$(RAY_STAMP): $(STAMP)
	$(PIP) "ray>=2.9" || echo "openapps: ray could not be installed; the Ray executor test will be skipped"
	touch $(RAY_STAMP)

# The tests run a real AgentLab Study (joblib and Ray). They get AgentLab without PyTorch and its
# CUDA libraries (5.4 GB) or the benchmark packages, none of which the study's path imports: the
# dependencies it does import come from $(AGENTLAB_REQS), which says why, then agentlab,
# browsergym and browsergym-webarena come without theirs.
# `pip install -e ".[agentlab-study]"` stays the complete install. A failed install is retried by
# the next `make test`, and tests/test_agentlab_study.py fails saying why (it never skips).
$(AGENTLAB_STAMP): $(RAY_STAMP) $(AGENTLAB_REQS)
	$(PIP) -r $(AGENTLAB_REQS) \
	  && $(PIP) --no-deps agentlab==0.4.2 browsergym==0.14.2 browsergym-webarena==0.14.2 \
	  && touch $(AGENTLAB_STAMP) || echo "openapps: AgentLab could not be installed; tests/test_agentlab_study.py will fail"

# The tests drive `openapps openenv` with OpenEnv's own clients: the `openenv` extra's
# openenv-core, installed without its dependencies, which come from $(OPENENV_REQS) (all but
# openai, whose 2.x AgentLab refuses; the file says why). A failed install is retried by the next
# `make test`, and tests/test_openenv.py fails saying why (it never skips). It comes after
# AgentLab's install (order-only): one installer at a time in $(VENV) when test-deps runs with -j.
$(OPENENV_STAMP): $(STAMP) $(OPENENV_REQS) | $(AGENTLAB_STAMP)
	$(PIP) -r $(OPENENV_REQS) \
	  && $(PIP) --no-deps "openenv-core>=0.3,<0.4" \
	  && touch $(OPENENV_STAMP) || echo "openapps: openenv-core could not be installed; tests/test_openenv.py will fail"

# tests/test_verifiers_env.py runs verifiers' own `vf-eval` from $(VF_VENV): verifiers, this
# package and the environment package, installed together by uv with one pin overridden
# (dev/verifiers-overrides.txt says why). A failed install is retried by the next `make test`,
# and the test fails quoting $(VF_LOG) (it never skips).
$(VF_STAMP): $(STAMP) environments/openapps/pyproject.toml dev/verifiers-overrides.txt
	rm -rf $(VF_VENV)
	{ { [ -x $(BIN)/uv ] || $(BIN)/python -m pip install -q uv; } \
	  && $(PYTHON) -m venv $(VF_VENV) \
	  && $(BIN)/uv pip install -q --compile-bytecode --python $(VF_VENV)/bin/python \
	     --override dev/verifiers-overrides.txt "verifiers==$(VF_VERSION)" -e . -e environments/openapps \
	  && touch $(VF_STAMP); } > $(VF_LOG) 2>&1 \
	  || echo "openapps: verifiers could not be installed (see $(VF_LOG)); tests/test_verifiers_env.py will fail"

# The bytecode of the project's own modules, written once: where PYTHONDONTWRITEBYTECODE is set,
# every process (test workers, sweep workers, app servers) would compile them again at import.
setup: $(STAMP)
	@$(BIN)/python -m compileall -q openapps_sim apps tasks agents variations experiments tests >/dev/null || true
	@$(BIN)/python -m openapps_sim.envs.browser
	@$(BIN)/openapps fonts --quiet >/dev/null 2>&1 || echo "openapps: web fonts unavailable; pages use generic fonts"

demo: setup
	rm -rf runs/demo
	$(BIN)/openapps sweep demo --out runs/demo

# What the tests need, made with -j3 by `make test`: $(VF_VENV) (its own venv, about 37 s with
# uv's cache warm and 3.5 min cold) is installed beside the setup and the installs into $(VENV),
# which run one after another (RAY_STAMP, AGENTLAB_STAMP, OPENENV_STAMP: each waits for the one
# before).
test-deps: setup $(RAY_STAMP) $(AGENTLAB_STAMP) $(OPENENV_STAMP) $(VF_STAMP)

test:
	@$(MAKE) --no-print-directory -j3 test-deps
	$(PYTEST) -m "not slow"

test-all:
	@$(MAKE) --no-print-directory -j3 test-deps
	$(PYTEST)

bench: setup
	$(BIN)/python bench/bench.py --out bench/results.json

# Mutation testing of the scoring and metric code against its fast tests (dev/mutants.py says
# how; docs/mutants.md lists the equivalent mutants). mutmut is a dev tool installed here only,
# not by `make test`; GROUPS="normalise metrics" runs some groups, MUTANTS_JOBS=2 two at once.
MUTMUT_STAMP := $(VENV)/.mutmut-stamp
$(MUTMUT_STAMP): $(STAMP)
	$(PIP) "mutmut>=3.8,<3.9"
	touch $(MUTMUT_STAMP)

mutants: setup $(MUTMUT_STAMP)
	$(BIN)/python dev/mutants.py $(GROUPS)

gallery: setup
	$(BIN)/openapps gallery --out gallery

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) $(VF_VENV) $(VF_LOG) runs gallery bench/out .pytest_cache
