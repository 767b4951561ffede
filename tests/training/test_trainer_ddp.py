"""Data-parallel training on CPU (gloo): two processes must train like one process on the combined batch."""

from __future__ import annotations

import csv
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import tiny_config, write_dataset

from bsl_pipeline.training.checkpoint_files import load_objective_state

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _collective_worker(rank: int, world: int, port: int, out_dir: str) -> None:
    """One rank: its half of a fixed batch through the DDP-aware losses and batch norm; saves loss and grads."""
    import torch.distributed as dist

    from bsl_pipeline.training.distributed import GlobalBatchNorm1d
    from bsl_pipeline.training.objectives.contrastive import info_nce
    from bsl_pipeline.training.objectives.mnrl import mnrl_loss
    from bsl_pipeline.training.objectives.sg_opt import sg_opt_contrastive

    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        a, b, c, h, x = _inputs()
        n = a.shape[0] // world
        part = slice(rank * n, (rank + 1) * n)
        leaves = [t[part].clone().requires_grad_() for t in (a, b, c, h, x)]
        bn = GlobalBatchNorm1d(x.shape[1])
        with torch.no_grad():
            bn.weight.copy_(torch.linspace(0.5, 1.5, x.shape[1]))
        y = bn(leaves[4])
        losses = {"info_nce": info_nce(leaves[0], leaves[1], 0.1),
                  "mnrl": mnrl_loss(leaves[0], leaves[1], 20.0), "mnrl_sym": mnrl_loss(leaves[1], leaves[0], 5.0, True),
                  "sg_opt": sg_opt_contrastive(leaves[2], leaves[3], 0.2),
                  "bn": (y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).mean()}
        # DDP averages gradients over ranks; the losses are means over local rows.
        (sum(losses.values()) / world).backward()
        torch.save({"losses": {k: v.detach() for k, v in losses.items()},
                    "grads": [t.grad for t in leaves], "running_mean": bn.running_mean},
                   Path(out_dir) / f"rank{rank}.pt")
    finally:
        dist.destroy_process_group()


def _inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randn(6, 5, generator=g), torch.randn(6, 5, generator=g), torch.randn(6, 4, generator=g),
            torch.randn(6, 3, 4, generator=g), torch.randn(6, 3, generator=g) * 2 + 1)


def test_collectives_give_global_batch_losses_and_gradients(tmp_path):
    import torch.multiprocessing as mp

    from bsl_pipeline.training.distributed import GlobalBatchNorm1d
    from bsl_pipeline.training.objectives.contrastive import info_nce
    from bsl_pipeline.training.objectives.mnrl import mnrl_loss
    from bsl_pipeline.training.objectives.sg_opt import sg_opt_contrastive

    mp.spawn(_collective_worker, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    ranks = [torch.load(tmp_path / f"rank{r}.pt", weights_only=True) for r in range(2)]

    leaves = [t.clone().requires_grad_() for t in _inputs()]
    bn = GlobalBatchNorm1d(3)
    with torch.no_grad():
        bn.weight.copy_(torch.linspace(0.5, 1.5, 3))
    y = bn(leaves[4])
    weights = torch.cat([torch.arange(1.0, 10.0).reshape(3, 3)] * 2)  # each rank weights its own rows 1..9
    single = {"info_nce": info_nce(leaves[0], leaves[1], 0.1), "sg_opt": sg_opt_contrastive(leaves[2], leaves[3], 0.2),
              "mnrl": mnrl_loss(leaves[0], leaves[1], 20.0), "mnrl_sym": mnrl_loss(leaves[1], leaves[0], 5.0, True),
              "bn": (y * weights).mean()}
    sum(single.values()).backward()
    for name, value in single.items():
        mean_over_ranks = sum(r["losses"][name] for r in ranks) / 2
        assert mean_over_ranks.item() == pytest.approx(value.item(), abs=1e-6), name
    for i, leaf in enumerate(leaves):
        combined = torch.cat([ranks[0]["grads"][i], ranks[1]["grads"][i]])
        torch.testing.assert_close(combined, leaf.grad, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ranks[0]["running_mean"], bn.running_mean)
    torch.testing.assert_close(ranks[1]["running_mean"], bn.running_mean)


def _csv_losses(path: Path) -> list[float]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [float(r["loss"]) for r in csv.DictReader(fh)]


@pytest.mark.slow
def test_torchrun_two_processes_match_single_process_on_the_combined_batch(tiny_bert_dir, tmp_path):
    """`torchrun --nproc_per_node 2 -m bsl_pipeline.cli train` (gloo) vs `train()` in this process: same losses and
    weights. Dropout is off (the processes draw different masks); BatchNorm statistics cover the global batch. The
    first two of the four steps are BSL's predictor warm-up, when the encoder's parameters get no gradient."""
    import yaml

    from bsl_pipeline.pipeline.base.config import to_dict
    from bsl_pipeline.training.trainer import train

    data = write_dataset(tmp_path / "data", 48)
    overrides = ["train.max_steps=4", "optim.grad_accum_steps=2", "train.batch_size=8",
                 "objective.bsl.predictor_warmup_steps=2"]
    single = train(tiny_config(tiny_bert_dir, [data], tmp_path / "single", overrides=overrides),
                   disable_progress=True)
    cfg = tiny_config(tiny_bert_dir, [data], tmp_path / "ddp", overrides=overrides)
    config_file = tmp_path / "ddp.yaml"
    config_file.write_text(yaml.safe_dump(to_dict(cfg)))
    env = {**os.environ, "OMP_NUM_THREADS": "1", "BSL_NO_PROGRESS": "1", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nnodes", "1", "--nproc_per_node", "2",
                           "--master_addr", "127.0.0.1", "--master_port", str(_free_port()),
                           "-m", "bsl_pipeline.cli", "train", "-c", str(config_file), "-q"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "finished at step 4/4" in proc.stdout

    assert _csv_losses(tmp_path / "ddp" / "metrics.csv") == pytest.approx(
        [row["loss"] for row in single.history], abs=1e-5)
    info = yaml.safe_load((tmp_path / "ddp" / "final" / "bsl_checkpoint.json").read_text())
    assert info["world_size"] == 2 and info["step"] == 4
    assert sorted(p.name for p in (tmp_path / "ddp" / "final" / "rng").iterdir()) == ["rank-0.pt", "rank-1.pt"]
    ddp_state = load_objective_state(tmp_path / "ddp" / "final")
    single_state = load_objective_state(single.final_checkpoint)
    assert ddp_state.keys() == single_state.keys()
    # Biases that feed straight into a BatchNorm (the predictor's first two linear layers, the encoder's last
    # LayerNorm bias, which shifts every embedding alike) have a gradient of exactly 0 in exact arithmetic; Adam
    # normalises their float round-off, so they may differ by ~lr x 1e-1. Everything else agrees far closer.
    for name, value in single_state.items():
        if value.is_floating_point():
            torch.testing.assert_close(ddp_state[name], value, rtol=1e-4, atol=2e-4, msg=name)
            if not name.endswith(("bias", "running_mean")):
                torch.testing.assert_close(ddp_state[name], value, rtol=1e-4, atol=1e-5, msg=name)
        else:
            assert torch.equal(ddp_state[name], value), name
