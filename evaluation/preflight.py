"""What an evaluation's set-up refuses in its settings, checked without loading a model or reading data:
`evaluate_models` checks its config with it first, and `bsl evaluate --print-config` and the flows' evaluation
settings (`bsl flow evaluate|train --print-config`, the flows before they start) use the same function, so a
setting the run would refuse (an unknown pooling mode or language pair, a device this machine lacks) is the same
one line there.

    check_settings(config)
"""

from __future__ import annotations

from bsl_pipeline.evaluation.config import EvaluationConfig


def check_settings(config: EvaluationConfig) -> None:
    """Raise the BSLError an evaluation would raise for `config`'s settings before any model loads: the tasks
    (`parse_tasks`), the STS 2017 language pairs (`parse_sts17_pairs`, whether or not sts17 is among the tasks),
    the pooling mode, the attention kernels (`sdpa_backend`), the backend and the device (`resolve_device`: one
    this machine has)."""
    from bsl_pipeline.evaluation.backends import check_backend
    from bsl_pipeline.evaluation.encoders import check_pooling
    from bsl_pipeline.evaluation.tasks import parse_tasks
    from bsl_pipeline.evaluation.transfer_data import parse_sts17_pairs
    from bsl_pipeline.pipeline.base.devices import check_sdpa_backend, resolve_device

    parse_tasks(config.tasks)
    parse_sts17_pairs(config.sts17_pairs)
    check_pooling(config.pooling)
    check_sdpa_backend(config.sdpa_backend, "sdpa_backend")
    check_backend(config.backend)
    resolve_device(config.device)
