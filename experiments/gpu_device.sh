#!/usr/bin/env bash
# The GPU measurements of docs/results/gpu.md, run on a GPU machine that has torch, transformers and
# sentence-transformers but not this project installed (nor prefect, datasets, nltk), from the repository root:
#
#   bash experiments/gpu_device.sh recipe|bench [extra arguments for that part]
#
# It expects what experiments/gpu_prepare.sh builds on the CPU machine: .gpu/ds/ (the recipe's view datasets),
# .gpu/minilm/ (all-MiniLM-L6-v2 packed by ../shared/tools/pack_minilm.py, with the tool beside it),
# .gpu/data.tar.xz (STS/SICK test sets, STS-B, SNLI dev) and .whl/ (datasets and its two missing needs, for
# sentence-transformers' trainer). Results go to $OUT (default out/gpu); PART_TIMEOUT (seconds) stops the part's
# Python there, keeping what it wrote.
#   recipe: experiments/gpu_recipe.py, BSL's GPU recipe and sentence-transformers' MNRL, 2000 steps, 3 seeds
#   bench:  benchmarks/bench_gpu.py --only train,fixed,eval
set -u
part=${1:?recipe or bench}
shift
OUT=${OUT:-out/gpu}
W=${GPU_WORK:-/tmp/bsl-gpu}
mkdir -p "$OUT" "$W/ns/bsl_pipeline" "$W/data"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false BSL_NO_PROGRESS=1
PY=${PYTHON:-python3}

# The project's packages under their installed namespace, without installing (no registry there).
for p in pipeline training flows configs; do ln -sfn "$PWD/$p" "$W/ns/bsl_pipeline/$p"; done
ln -sfn "$PWD/bsl" "$W/ns/bsl_pipeline/cli"
if [ ! -d "$W/site" ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$W/site" .whl/*.whl || exit 1
fi
export PYTHONPATH="$W/ns:$W/site"
[ -d "$W/data/sts" ] || tar -xJf .gpu/data.tar.xz -C "$W/data" || exit 1
export BSL_DATA_DIR="$W/data"
[ -f "$W/minilm/config.json" ] || $PY .gpu/pack_minilm.py unpack .gpu/minilm "$W/minilm" || exit 1
# the recipe's sources are runs/ds/...: linked to the carried datasets unless a runs/ds is there already (kept)
mkdir -p runs && { [ -e runs/ds ] || [ -L runs/ds ] || ln -s "$PWD/.gpu/ds" runs/ds; }

{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1
  $PY -c "import torch, transformers, sentence_transformers as st; print('python', __import__('sys').version.split()[0], 'torch', torch.__version__, 'transformers', transformers.__version__, 'sentence-transformers', st.__version__)"
  echo "cpus $(nproc)"; } | tee -a "$OUT/env.txt"

set -o pipefail
case "$part" in
  recipe)
    timeout "${PART_TIMEOUT:-0}" $PY experiments/gpu_recipe.py --minilm "$W/minilm" --out "$W/recipe" "$@" 2>&1 | tee "$OUT/recipe.log"
    rc=$?
    cp "$W/recipe/table.md" "$OUT/recipe-table.md"; cp "$W/recipe/results.json" "$OUT/recipe-results.json"
    tar -czf "$OUT/recipe-logs.tar.gz" -C "$W/recipe" $(cd "$W/recipe" && ls log-*.txt */metrics.csv 2>/dev/null)
    exit $rc ;;
  bench)
    timeout "${PART_TIMEOUT:-0}" $PY benchmarks/bench_gpu.py --minilm "$W/minilm" --data-dir "$W/data" --only train,fixed,eval \
      --json "$OUT/bench_gpu${BENCH_TAG:-}.json" "$@" 2>&1 | tee "$OUT/bench${BENCH_TAG:-}.log"
    exit $? ;;
  *) echo "unknown part: $part (recipe or bench)"; exit 2 ;;
esac
