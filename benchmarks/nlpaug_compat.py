"""What nlpaug 1.1.11 needs to run on transformers 5 (shared by the benchmarks that compare against it)."""

from __future__ import annotations


def patch_nlpaug_for_transformers5() -> None:
    """nlpaug calls tokenizer methods that transformers 5 removed (`_convert_token_to_id`, `_convert_id_to_token`):
    add them back as aliases of the public ones. Also silences transformers' per-call warnings and bars."""
    from transformers import PreTrainedTokenizerBase
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    if not hasattr(PreTrainedTokenizerBase, "_convert_token_to_id"):
        PreTrainedTokenizerBase._convert_token_to_id = lambda self, token: self.convert_tokens_to_ids(token)
    if not hasattr(PreTrainedTokenizerBase, "_convert_id_to_token"):
        PreTrainedTokenizerBase._convert_id_to_token = lambda self, index: self.convert_ids_to_tokens(index)
