#!/usr/bin/env bash
# On the CPU machine, from the repository root with the project's venv active: build what
# experiments/gpu_device.sh needs into .gpu/ and .whl/ (both ignored by git; together with the checkout they stay
# under the device tool's 64 MiB). DATA defaults to ../shared/data.
set -eu
DATA=${DATA:-../shared/data}
bsl corpus sts-sick-train runs/indomain.txt
bsl augment runs/indomain.txt --out runs/ds/indomain --methods synonyms,span-mask -o corpus.min_words=4
bsl augment "$DATA/nli/snli/senteval_tok/s1.dev" --out runs/ds/nli-snli-dev --methods nli-entailment
bsl augment "$DATA/nli/snli/senteval_tok/s1.test" --out runs/ds/nli-snli-test --methods nli-entailment
bsl augment "$DATA/nli/mnli/dev_matched_plus_mismatched.csv" --out runs/ds/nli-mnli-dev --methods nli-entailment
mkdir -p .gpu/ds
for d in runs/ds/indomain runs/ds/nli-snli-dev runs/ds/nli-snli-test runs/ds/nli-mnli-dev; do
  mkdir -p ".gpu/ds/$(basename "$d")"
  cp -r "$d/data" "$d/rejects" "$d/manifest.json" "$d/README.md" ".gpu/ds/$(basename "$d")/"
done
(cd "$DATA" && tar -cJf "$OLDPWD/.gpu/data.tar.xz" sts/sts1[2-6]/STS.* stsbenchmark/*.csv \
  sick/SICK_test_annotated.txt sick/SICK_train.txt sick/SICK_trial.txt nli/snli/dev.csv)
# MiniLM keeps the embedding rows of every text it will see (training views and evaluation sets).
python - <<'EOF'
import sys
sys.path.insert(0, "experiments")
from compare_peers import load_pairs
from gpu_recipe import recipe_sources
with open("runs/gpu-texts.txt", "w", encoding="utf-8") as f:
    for a, b in load_pairs(recipe_sources()):
        f.write(f"{a}\n{b}\n")
EOF
python ../shared/tools/pack_minilm.py pack .gpu/minilm runs/gpu-texts.txt "$DATA"/sts/sts1[2-6]/STS.input.* \
  "$DATA"/stsbenchmark/*.csv "$DATA"/sick/*.txt "$DATA"/nli/snli/dev.csv
cp ../shared/tools/pack_minilm.py .gpu/
python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .whl \
  datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19
du -sh .gpu .whl
