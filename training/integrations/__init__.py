"""Bridges from this project's objectives to other training libraries (each optional, imported only when used).

- `training.integrations.st_bsl`: BSL as a sentence-transformers loss (`BSLLoss`) plus the trainer callback that
  runs its predictor warm-up and EMA target (`BSLCallback`) and this trainer's optimizer and schedule
  (`bsl_optimizers`), for `SentenceTransformerTrainer` (`pip install -e ".[st]"`).
"""
