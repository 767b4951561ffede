#!/bin/bash
# The value of the views for training: the demo's recipe (configs/demo.yaml) on sets of views, three training
# seeds each, seven STS test tasks (the demo's own evaluation) and STS-B dev / SICK trial (experiments/score_dev.py).
#   base:   synonyms + span-mask (the demo's views before rewrites)
#   rw:     synonyms + rewrites + span-mask
#   rwonly: synonyms + rewrites
#   rwm:    synonyms + rewrites without contractions (contract, expand) + span-mask
# Usage (from the repository root; about 3 minutes a run on 2 cores): bash experiments/views_round/value.sh OUT_DIR
# then: python experiments/views_round/value.py OUT_DIR
set -u
out=${1:?output directory}
mkdir -p "$out"
declare -A methods=([base]="[synonyms, span-mask]" [rw]="[synonyms, rewrites, span-mask]" [rwonly]="[synonyms, rewrites]"
                   [rwm]="[synonyms, rewrites, span-mask]")
rules=$(python -c "from bsl_pipeline.pipeline.augment.rewrite_rules import RULES
print(','.join(r for r in RULES if r not in ('contract', 'expand')))")
declare -A extra=([rwm]="method_params.rewrites.rules=[$rules]")
for cond in ${CONDS:-base rw rwonly}; do
  for seed in 42 43 44; do
    OMP_NUM_THREADS=1 BSL_NO_PROGRESS=1 bsl demo --data-dir ../shared/data --out "$out/$cond-$seed" \
      -o use_prefect=false -o "methods=${methods[$cond]}" -o training.train.seed=$seed ${extra[$cond]:+-o "${extra[$cond]}"} \
      -o evaluation.cache_dir="$out/cache" > "$out/$cond-$seed.log" 2>&1 || echo "$cond-$seed failed: $out/$cond-$seed.log"
  done
done
python experiments/score_dev.py "$out"/*-4?/runs/*/export --json "$out/dev.json"
