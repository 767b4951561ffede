# Two commands on a fresh Debian machine with Python 3.11 (see README):
#   make demo   — set up, then run the main job (in-domain STS-B/SICK train sentences + SNLI dev, BSL, STS before/after)
#   make test   — set up, then run the test suite
# Both create .venv, install the pinned stack, remove torchaudio (it breaks transformers beside the CPU torch) and
# install the OS packages (WordNet, Chromium) with apt-get when run as root, else print the command to run.

PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
APT_PACKAGES := wordnet-base wordnet-sense-index wordnet chromium
PYTEST_ARGS ?= -q -n 2 --dist loadgroup
# The demo finds the public STS/NLI files as every command does (README 'Data': BSL_DATA_DIR, ~/.cache/bsl/data
# filled by `bsl data fetch`, ../shared/data); without them it trains and says the evaluation was skipped.
# Extra arguments: make demo DEMO_ARGS="--data-dir D -o training.train.max_steps=50".
DEMO_ARGS ?=

export HF_HUB_OFFLINE := 1
export DO_NOT_TRACK := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: setup os-packages demo test bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=/path/to/python3.11)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
	$(PY) -m pip install -q -e ".[test]" 2>&1 | grep -v "^WARNING: Location" || true
	$(PY) -c "import torch, transformers, fairseq, prefect, pyarrow, nltk" >/dev/null 2>&1 || \
	    { $(PY) -m pip uninstall -y -q torchaudio >/dev/null 2>&1; \
	      $(PY) -c "import torch, transformers, fairseq, prefect, pyarrow, nltk" || { echo "install failed"; exit 1; }; }
	$(PY) -m pip uninstall -y -q torchaudio >/dev/null 2>&1 || true
	$(PY) -m compileall -q $(VENV)/lib >/dev/null 2>&1 || true
	touch $(STAMP)

setup: $(STAMP) os-packages

os-packages:
	@missing=""; \
	  test -f /usr/share/wordnet/data.noun || missing="$$missing wordnet"; \
	  command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	  if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	      echo "installing OS packages: $(APT_PACKAGES)"; \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(APT_PACKAGES) >/dev/null; \
	    else \
	      echo "missing OS packages:$$missing; run: sudo apt-get install -y --no-install-recommends $(APT_PACKAGES)"; exit 1; \
	    fi; \
	  fi

demo: setup
	$(VENV)/bin/bsl demo --config configs/demo.yaml $(DEMO_ARGS)

test: setup
	$(PY) -m pytest $(PYTEST_ARGS) $(TEST_ARGS)

bench: setup
	for f in benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done
	@# The peers on the demo's views (built into runs/ds/ first when missing), CPU-short: a few steps, STS-B dev.
	echo "== experiments/compare_peers.py"; $(PY) experiments/compare_peers.py --build-datasets

clean:
	rm -rf $(VENV) .pytest_cache demo_out
