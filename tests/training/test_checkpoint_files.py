"""Reading a checkpoint's state files (training/checkpoint_files.py) as untrusted input."""

from __future__ import annotations

import pytest
import torch

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.checkpoint_files import load_state
from tests.evaluation.test_untrusted_models import save_pickle_carrying_code


def test_a_pickled_state_file_is_refused_in_one_line_naming_it(tmp_path):
    state = tmp_path / "trainer_state.pt"
    marker = tmp_path / "code-ran"
    save_pickle_carrying_code(state, {"step": torch.tensor(3)}, marker)
    with pytest.raises(BSLError) as exc:
        load_state(state)
    assert str(exc.value) == f"{state}: not a weights-only file (refused: loading it would run code it carries)"
    assert not marker.exists()


def test_a_damaged_state_file_is_one_line_naming_it(tmp_path):
    state = tmp_path / "trainer_state.pt"
    state.write_bytes(b"\x80\x02garbage that is no pickle")
    with pytest.raises(BSLError) as exc:
        load_state(state)
    assert str(exc.value).startswith(f"{state}: ") and "\n" not in str(exc.value)
    assert "weights_only" not in str(exc.value)
    torch.save({"step": torch.tensor(3)}, state)
    assert int(load_state(state)["step"]) == 3
