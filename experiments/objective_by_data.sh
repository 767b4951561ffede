#!/bin/sh
# Which objective for which data, on CPU: the two recipes (configs/recipes/) on augmentation views only, NLI
# entailment pairs only, and both, 3 seeds each, scored on STS-B dev (for choosing) and STS-B test
# (experiments/compare_peers.py; datasets: compare_peers.py --build-datasets). `contrastive` on both: the supervised
# recipe's alternative, chosen against on STS-B dev. Results: runs/objective_by_data/<data>/table.md and results.json.
#   STEPS=50 WARMUP=18 SEEDS=42,43,44 sh experiments/objective_by_data.sh
set -e
STEPS=${STEPS:-50}
WARMUP=${WARMUP:-18}
SEEDS=${SEEDS:-42,43,44}
OUT=${OUT:-runs/objective_by_data}
PY=${PY:-.venv/bin/python}
common="--steps $STEPS --predictor-warmup $WARMUP --seeds $SEEDS --tasks stsb --budget steps --threads 1 --eval-max-tokens 8192"
$PY experiments/compare_peers.py --dataset runs/ds/indomain --methods recipe:unsupervised,recipe:supervised $common \
  --out $OUT/views
$PY experiments/compare_peers.py --dataset runs/ds/snli-dev --methods recipe:unsupervised,recipe:supervised $common \
  --out $OUT/nli
$PY experiments/compare_peers.py --dataset runs/ds/indomain --dataset runs/ds/snli-dev \
  --methods recipe:unsupervised,recipe:supervised,contrastive $common --out $OUT/both
