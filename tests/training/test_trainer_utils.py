"""Helpers shared by the trainer tests: small view-pair datasets in the real on-disk format (PAIR_SCHEMA shards +
a checksummed manifest that `pipeline.dataset.store.verify_dataset` accepts) and a compact training config."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tiny_models import WORDS

SUBJECTS = ["the man", "a woman", "the child", "the dog", "a cat", "the people", "two men", "the children"]
VERBS = ["runs", "walks", "plays", "is sitting", "is eating", "stands", "ran", "is playing"]
PLACES = ["in the park", "on the street", "in the house", "outside", "inside the car", "by the tree",
          "in the city", "with the ball"]


def make_sentences(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        extra = " ".join(rng.choice(WORDS[:40]) for _ in range(rng.randint(0, 4)))
        out.append(f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(PLACES)} {extra}".strip())
    return out


def perturb(sentence: str, rng: random.Random) -> str:
    words = sentence.split()
    if len(words) > 3:
        del words[rng.randrange(len(words))]
    i = rng.randrange(len(words))
    words.insert(i, rng.choice(["quickly", "slowly", "big", "small", "happy", "old"]))
    return " ".join(words)


def write_dataset(root: Path, n_pairs: int = 64, *, method: str = "noise", seed: int = 0, shards: int = 2,
                  extra_methods: dict[str, int] | None = None) -> Path:
    """A dataset dir laid out as `bsl augment` writes it: data/train-*.parquet + manifest.json (checksummed) + the
    dataset card's front matter."""
    import pyarrow as pa
    import yaml

    from bsl_pipeline.pipeline.base.atomic import write_parquet_atomic
    from bsl_pipeline.pipeline.base.provenance import sha256_file
    from bsl_pipeline.pipeline.dataset.card import card_front_matter
    from bsl_pipeline.pipeline.dataset.manifest import Manifest, write_manifest
    from bsl_pipeline.pipeline.dataset.schema import PAIR_SCHEMA

    root = Path(root)
    (root / "data").mkdir(parents=True, exist_ok=True)
    plan = [(method, n_pairs)] + list((extra_methods or {}).items())
    rng = random.Random(seed)
    pieces = []
    for m_index, (m, count) in enumerate(plan):
        sents = make_sentences(count, seed=seed * 100 + m_index)
        per = -(-count // shards)
        for s in range(shards):
            part = sents[s * per:(s + 1) * per]
            if part:
                pieces.append((m, part))
    total = len(pieces)
    shard_entries = []
    for i, (m, sents) in enumerate(pieces):
        rows = []
        for j, s in enumerate(sents):
            v2 = perturb(s, rng)
            rows.append({"pair_id": f"{m}-{i}-{j}", "source_id": f"s{i}-{j}", "source": s, "view1": s, "view2": v2,
                         "method": m, "params": json.dumps({}), "seed": seed, "label": None, "origin": f"corpus:{j}",
                         "n_words_source": len(s.split()), "n_words_view1": len(s.split()),
                         "n_words_view2": len(v2.split()), "edit_ratio_views": 0.1, "edit_ratio_view1": 0.0,
                         "edit_ratio_view2": 0.1, "length_ratio": 1.0, "identical": s == v2})
        rel = f"data/train-{i:05d}-of-{total:05d}.parquet"
        write_parquet_atomic(pa.Table.from_pylist(rows, schema=PAIR_SCHEMA), root / rel)
        shard_entries.append({"path": rel, "kind": "pairs", "method": m, "chunk": f"chunk-{i}", "rows": len(rows),
                              "sha256": sha256_file(root / rel)})
    manifest = {"format_version": 1, "name": root.name, "dataset_dir": str(root.resolve()), "shards": shard_entries}
    write_manifest(manifest, root / "manifest.json")
    card = yaml.safe_dump(card_front_matter(Manifest.from_json(manifest, root / "manifest.json")),
                          sort_keys=False)  # `bsl verify` checks the card too
    (root / "README.md").write_text(f"---\n{card}---\n", encoding="utf-8")
    return root


def tiny_config(model_dir: Path, datasets: list[Path], output_dir: Path, *, objective: str = "bsl",
                overrides: list[str] | None = None):
    """A fast config on the tiny BERT: batch 8, no dropout (deterministic numbers), lr 1e-3, no warmup, and BSL as
    the paper has it (no predictor warm-up; the warm-up tests turn it on)."""
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    base = {
        "model": {"name_or_path": str(model_dir), "max_length": 32, "dropout": 0.0},
        "data": {"sources": [{"path": str(d)} for d in datasets], "shuffle_buffer": 16},
        "objective": {"name": objective,
                      "bsl": {"predictor_k": 2, "predictor_warmup_steps": 0, "predictor_lr": None},
                      "sg_opt": {"projection_hidden": 64}},
        "optim": {"lr": 1e-3, "warmup_ratio": 0.0, "schedule": "constant"},
        "train": {"output_dir": str(output_dir), "batch_size": 8, "max_steps": 6, "log_every": 1,
                  "tensorboard": False, "seed": 7},
        "export": {"enabled": False},
    }
    return load_config(TrainConfig, None, overrides or [], base=base)


def assert_same_final_state(a: Path, b: Path) -> None:
    """Two runs' final checkpoints `a` and `b` hold equal objective tensors (encoder, predictor, target, ...) and
    the same data position: what an exact resume must give."""
    import torch

    from bsl_pipeline.training.checkpoint_files import STATE_FILE, load_objective_state

    objective_a, objective_b = load_objective_state(a), load_objective_state(b)
    assert objective_a.keys() == objective_b.keys()
    for name, value in objective_a.items():
        assert torch.equal(value, objective_b[name]), name
    states = [torch.load(run / STATE_FILE, weights_only=True) for run in (a, b)]
    assert states[0]["data"] == states[1]["data"]
