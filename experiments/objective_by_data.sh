#!/bin/sh
# Which objective for which data, on CPU: the two recipes (configs/recipes/) on augmentation views only (`views`), NLI
# entailment pairs only (`nli`) and both (`both`), 3 seeds each, scored on STS-B dev (for choosing) and STS-B test,
# through experiments/compare_peers.py (datasets: compare_peers.py --build-datasets); `contrastive`: this trainer's
# contrastive objective on both, the supervised recipe's alternative, chosen against on STS-B dev; `st-views`:
# sentence-transformers' MNRL in its own trainer on the views (lr 2e-5, as the supervised recipe); `st-both`: the
# same on both kinds of data. Each part writes runs/objective_by_data/<part>/table.md and results.json; parts may
# run one after another or side by side.
# TASKS=all scores the seven STS test tasks and STS-B dev instead of STS-B dev and test (compare_peers.py --tasks);
# EXTRA passes further compare_peers.py arguments to every part (EXTRA="--set train.batch_size=64": batches of 64 pairs):
#   STEPS=50 WARMUP=18 SEEDS=42,43,44 sh experiments/objective_by_data.sh views nli both contrastive
# `views-small`: the views of an 800-sentence sample of runs/indomain.txt (drawn with random.Random(0), built on first
# use), so that the recipe's 140 steps of 64 pairs pass over them about as often as the GPU's 2000 steps over all of
# them; the two recipes and sentence-transformers' MNRL, all at 64 pairs; `st-views-small`: that MNRL alone on them
# (the same arguments), for when views-small's recipes ran apart from it.
set -e
STEPS=${STEPS:-50}
WARMUP=${WARMUP:-18}
SEEDS=${SEEDS:-42,43,44}
TASKS=${TASKS:-stsb}
OUT=${OUT:-runs/objective_by_data}
PY=${PY:-.venv/bin/python}
common="--steps $STEPS --predictor-warmup $WARMUP --seeds $SEEDS --tasks $TASKS --budget steps --threads 1"
common="$common --eval-max-tokens 8192 ${EXTRA:-}"
recipes=recipe:unsupervised,recipe:supervised
for part in "$@"; do
  case $part in
    views) $PY experiments/compare_peers.py --dataset runs/ds/indomain --methods $recipes $common --out $OUT/views ;;
    nli) $PY experiments/compare_peers.py --dataset runs/ds/snli-dev --methods $recipes $common --out $OUT/nli ;;
    both) $PY experiments/compare_peers.py --dataset runs/ds/indomain --dataset runs/ds/snli-dev --methods $recipes \
            $common --out $OUT/both ;;
    contrastive) $PY experiments/compare_peers.py --dataset runs/ds/indomain --dataset runs/ds/snli-dev \
                   --methods contrastive $common --out $OUT/both-contrastive ;;
    st-views) $PY experiments/compare_peers.py --dataset runs/ds/indomain --methods mnrl $common --out $OUT/st-views ;;
    st-both) $PY experiments/compare_peers.py --dataset runs/ds/indomain --dataset runs/ds/snli-dev --methods mnrl \
               $common --out $OUT/st-both ;;
    views-small)
      if [ ! -d runs/ds/indomain800 ]; then
        $PY -c 'import random, sys; lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
keep = sorted(random.Random(0).sample(range(len(lines)), 800))
open(sys.argv[2], "w", encoding="utf-8").write("".join(lines[i] + "\n" for i in keep))' runs/indomain.txt runs/indomain800.txt
        $(dirname $PY)/bsl augment runs/indomain800.txt --out runs/ds/indomain800 --methods synonyms,span-mask \
          -o corpus.min_words=4
      fi
      $PY experiments/compare_peers.py --dataset runs/ds/indomain800 --methods $recipes,mnrl $common --batch-size 64 \
        --set train.batch_size=64 --out $OUT/views-small ;;
    st-views-small) $PY experiments/compare_peers.py --dataset runs/ds/indomain800 --methods mnrl $common --batch-size 64 \
        --set train.batch_size=64 --out $OUT/st-views-small ;;
    *) echo "unknown part $part (views, nli, both, contrastive, st-views, st-both, views-small, st-views-small)" >&2
       exit 2 ;;
  esac
done
