"""Prefect 3 flows that wire the library: augmentation (cached, resumable, incremental), training and evaluation.

Prefect reads its settings when it is first imported: whatever runs a flow calls
`flows.prefect_env.configure_prefect_environment()` (offline-safe defaults, no analytics) before importing a flow
module. Importing this package does nothing. Modules:

- `flows.prefect_env`: Prefect's environment (`PrefectEnvConfig`, `configure_prefect_environment`)
- `flows.augment_job` / `train_job` / `evaluate_job`: each flow's settings (no Prefect import);
- `flows.augment_run`: `run_augment_flow(AugmentFlowConfig)` runs the augmentation flow once
- `flows.augment_flow`: `augment_flow` / `build_augment_flow(runner)`: `pipeline.augment.job.run_augment` with
  `flows.executors.PrefectExecutor` (cached, retried Prefect tasks on threads or Dask)
- `flows.train_flow`: `train_flow` (verify manifests, then `evaluation.train_and_evaluate`)
- `flows.evaluate_flow`: `evaluate_flow` (STS table as Prefect table + markdown artifacts)
- `flows.schedule`: `bsl schedule FILE.yaml` (deployments from YAML, served with `prefect.serve`)
- `flows.main_job`: the main job (`bsl demo`); the `bsl flow ...`/`bsl schedule` commands live in cli/
"""
