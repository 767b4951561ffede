"""Arrow schemas of the dataset tables. Every shard of a dataset is written with exactly these schemas."""

from __future__ import annotations

import pyarrow as pa

# Source chunks: the normalised, de-duplicated corpus cut into pieces that augmentation tasks take as input.
CHUNK_SCHEMA = pa.schema([
    pa.field("source_id", pa.string(), nullable=False),
    pa.field("text", pa.string(), nullable=False),
    pa.field("text_b", pa.string()),        # second sentence of a sentence-pair corpus (NLI hypothesis)
    pa.field("label", pa.string()),         # normalised NLI label: entailment / neutral / contradiction
    pa.field("origin", pa.string(), nullable=False),  # "<file>:<line>" of the corpus record
    pa.field("repeats_text", pa.bool_(), nullable=False),  # text is an earlier record's (SourceRecord.repeats_text)
])

_PAIR_FIELDS = [
    pa.field("pair_id", pa.string(), nullable=False),
    pa.field("source_id", pa.string()),
    pa.field("source", pa.string()),
    pa.field("view1", pa.string()),
    pa.field("view2", pa.string()),
    pa.field("method", pa.string(), nullable=False),
    pa.field("params", pa.string(), nullable=False),  # JSON: what this pair used (changes, rules, languages)
    pa.field("seed", pa.int64(), nullable=False),
    pa.field("label", pa.string()),
    pa.field("origin", pa.string()),
    # Quality fields, computed once at write time.
    pa.field("n_words_source", pa.int32()),
    pa.field("n_words_view1", pa.int32()),
    pa.field("n_words_view2", pa.int32()),
    pa.field("edit_ratio_views", pa.float32()),   # view1 vs view2
    pa.field("edit_ratio_view1", pa.float32()),   # source vs view1
    pa.field("edit_ratio_view2", pa.float32()),   # source vs view2
    pa.field("length_ratio", pa.float32()),       # words(view2) / words(view1)
    pa.field("identical", pa.bool_()),            # views equal after normalisation
    # Comparable across methods (pipeline.augment.filters.changed_word_share): share of the source's words a view
    # does not keep, the larger of the two views'.
    pa.field("changed_word_share", pa.float32()),
    # cosine(view1, view2) under filters.encoder (pipeline.augment.view_similarity); null when no encoder is set.
    pa.field("view_similarity", pa.float32()),
]

PAIR_SCHEMA = pa.schema(_PAIR_FIELDS)

#: Columns that format-1 datasets (written before the quality fields existed) do not have; readers treat them as
#: null there.
COLUMNS_ADDED_IN_FORMAT_2 = frozenset({"changed_word_share", "view_similarity"})

REJECT_SCHEMA = pa.schema(_PAIR_FIELDS + [
    pa.field("stage", pa.string(), nullable=False),          # corpus / augment / filter
    pa.field("reject_reason", pa.string(), nullable=False),
])

PAIR_COLUMNS = [f.name for f in PAIR_SCHEMA]
REJECT_COLUMNS = [f.name for f in REJECT_SCHEMA]
