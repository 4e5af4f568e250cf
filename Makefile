# The two commands a newcomer needs: `make demo` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint check bench clean setup

$(STAMP): pyproject.toml constraints.txt scripts/bootstrap.sh scripts/debian-packages.txt
	VENV=$(VENV) scripts/bootstrap.sh

setup: $(STAMP)

## a whole game of Almost Got 'Im with the hub as Dealer at a simulated table (voice to WAV)
demo: $(STAMP)
	$(VENV)/bin/tablehub demo almost-got-im --transcript demo-transcript.txt

## every test
test: $(STAMP)
	$(PY) -m pytest || [ $$? -eq 5 ]  # 5: no tests collected

## ruff and mypy (strict on tablehub/)
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy tablehub

check: lint test

## benchmarks (print figures)
bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
