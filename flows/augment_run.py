"""Run the augmentation flow once in this process. Its own module because it must set Prefect's environment before
anything imports Prefect, and because the flow (`flows.augment_flow`) and its executors (`flows.executors`) both
depend on the settings (`flows.augment_job`), never the other way round."""

from __future__ import annotations

from typing import Any

from bsl_pipeline.flows.augment_job import AugmentFlowConfig, flow_parameters


def run_augment_flow(spec: AugmentFlowConfig) -> dict[str, Any]:
    """Run the flow once in this process (a temporary Prefect server unless PREFECT_API_URL is set). Sets Prefect's
    default environment first (`configure_prefect_environment`), so call it before this process imports Prefect."""
    from bsl_pipeline.flows.prefect_env import configure_prefect_environment, temporary_server

    configure_prefect_environment()
    from bsl_pipeline.flows.augment_flow import build_augment_flow, check_augment_spec
    from bsl_pipeline.flows.executors import api_for_worker_processes, check_api_for_cluster
    from bsl_pipeline.pipeline.augment.job import build_augmenters, check_pair_methods

    config = check_augment_spec(spec)
    check_api_for_cluster(spec.runner)  # before any server starts
    check_augment_paths(spec)
    check_pair_methods(spec.corpus, config, build_augmenters(config))
    with temporary_server(), api_for_worker_processes(spec.runner):
        return build_augment_flow(spec.runner)(**flow_parameters(spec))


def check_augment_paths(spec: AugmentFlowConfig) -> None:
    """The corpus exists and the output directory may be written (what the flow would refuse after starting a
    server and a flow run), checked before any of that starts."""
    from pathlib import Path

    from bsl_pipeline.pipeline.augment.job import DATASET_KIND, earlier_dataset
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.pipeline.base.ownership import check_claimable, check_not_input

    from bsl_pipeline.pipeline.base.storage import is_url

    if is_url(spec.corpus):
        return  # read (and refused when missing) by the flow
    corpus = Path(spec.corpus).expanduser()
    if not corpus.exists():
        raise BSLError(f"corpus not found: {corpus}")
    if is_url(spec.out_dir):
        return  # an object-store prefix is claimed by the flow itself (pipeline.base.storage.claim_prefix)
    check_not_input(Path(spec.out_dir), [corpus], "--out")
    check_claimable(spec.out_dir, DATASET_KIND, overwrite=spec.overwrite, recognise=earlier_dataset)
