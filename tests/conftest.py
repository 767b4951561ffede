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
    # The per-user cache key (pipeline.base.user_cache) lives under XDG_CONFIG_HOME: a throwaway key per session.
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="bsl-test-config-")

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


def _missing_shared_data(reason: str) -> None:
    """Skip a test that needs the reference files, or fail it in CI, where they must be present."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI must run every data test)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference copy of the public STS/SICK/NLI files (../shared/data, or $BSL_SHARED_DATA). Tests assert its
    exact rows and checksums, so a `bsl data fetch` directory does not stand in for it."""
    if not (SHARED_DATA / "sts").is_dir():
        _missing_shared_data(f"public data files not found at {SHARED_DATA}: point BSL_SHARED_DATA at a copy of "
                             f"../shared/data to run this test (commands use `bsl data fetch` data, "
                             f"docs/guide/data.md)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def hub_mirror(shared_data, tmp_path_factory) -> Path:
    """The public sets in the Hugging Face hub's file layout, made from the reference files (tests/hub_mirror.py)."""
    from hub_mirror import build_hub_mirror

    return build_hub_mirror(shared_data, tmp_path_factory.mktemp("hub_mirror"))


@pytest.fixture(scope="session")
def fetched_data(hub_mirror, tmp_path_factory) -> Path:
    """A data dir filled by `fetch_public_sets` from `hub_mirror` (every set)."""
    from bsl_pipeline.evaluation.public_data import DataFetchConfig, fetch_public_sets

    out = tmp_path_factory.mktemp("fetched") / "data"
    fetch_public_sets(DataFetchConfig(to=str(out), mirror=str(hub_mirror), progress=False), log=lambda _: None)
    return out


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("tiny_bert"))


@pytest.fixture(scope="session")
def tiny_roberta_mlm_dir(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_roberta_mlm

    return build_tiny_roberta_mlm(tmp_path_factory.mktemp("tiny_roberta"))


def _writes_to_a_closed_stream(handler) -> bool:
    streams = [getattr(handler, "stream", None), getattr(getattr(handler, "console", None), "file", None)]
    return any(getattr(s, "closed", False) for s in streams)


@pytest.fixture(autouse=True)
def _no_log_handler_left_on_a_closed_stream():
    """Prefect's logging set-up gives the root logger a console handler bound to the sys.stderr of the moment: under
    pytest that is one test's capture stream, closed when the test ends. A later test that logs a warning would then
    print a "Logging error" traceback into its own captured output; drop such handlers after every test."""
    import logging

    yield
    for logger in [logging.getLogger(), *(logging.getLogger(n) for n in list(logging.root.manager.loggerDict))]:
        for handler in list(getattr(logger, "handlers", [])):
            if _writes_to_a_closed_stream(handler):
                logger.removeHandler(handler)


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A real S3-compatible server (moto's server mode, a separate process on 127.0.0.1, a free port) for the whole
    test session; see tests/s3_server.py."""
    from s3_server import start_s3_server

    server = start_s3_server(tmp_path_factory.mktemp("s3"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3_env(s3_server, monkeypatch):
    """This process pointed at the test S3 server through the environment (the planted credentials)."""
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    return s3_server
