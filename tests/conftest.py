"""Session-wide test set-up: one torch thread, offline hubs, tiny models built once per session."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Before torch/transformers are imported anywhere: tiny models are 10-60x faster on one thread, and nothing may
# reach a model hub.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ["DO_NOT_TRACK"] = "1"
os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
# Prefect's temporary servers keep their sqlite database under PREFECT_HOME: one throwaway home per test session.
if "PREFECT_HOME" not in os.environ:
    import tempfile

    os.environ["PREFECT_HOME"] = tempfile.mkdtemp(prefix="bsl-test-prefect-")

import pytest  # noqa: E402

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
SHARED_DATA = Path(os.environ.get("BSL_SHARED_DATA", REPO_ROOT.parent / "shared" / "data")).resolve()
sys.path.insert(0, str(TESTS_DIR))


def pytest_configure(config):
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"shared data dir not found at {SHARED_DATA} (the repo must sit beside ../shared)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("tiny_bert"))


@pytest.fixture(scope="session")
def tiny_roberta_mlm_dir(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_roberta_mlm

    return build_tiny_roberta_mlm(tmp_path_factory.mktemp("tiny_roberta"))
