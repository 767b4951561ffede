"""Prefect 3 flows that wire the library: augmentation (cached, resumable, incremental), training and evaluation.

Importing this package puts Prefect's offline-safe defaults into the environment (no analytics) before any flow
module imports Prefect; see `flows.settings`. Modules:

- `flows.augment_flow`: `augment_flow` / `build_augment_flow(runner)` / `run_augment_flow(AugmentFlowConfig)`
- `flows.train_flow`: `train_flow` (verify manifests, then `training.train`)
- `flows.evaluate_flow`: `evaluate_flow` (STS table as Prefect table + markdown artifacts)
- `flows.schedule`: `bsl schedule FILE.yaml` (deployments from YAML, served with `prefect.serve`)
- `flows.cli`: the `bsl flow ...` and `bsl schedule` subcommands
"""

from flows.settings import apply_prefect_env

apply_prefect_env(keep_existing=True)
