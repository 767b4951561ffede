"""SentEval's transfer-task protocol: frozen sentence embeddings as the features of a logistic regression.

What SentEval does (facebookresearch/SentEval, senteval/tools/validation.py, engine.py, binary.py, sst.py,
trec.py, mrpc.py, sick.py; checked against its repository, not recalled) and what this module does:

- MR, CR, SUBJ, MPQA (`InnerKFoldClassifier`): k-fold stratified cross-validation over the whole set; inside each
  training fold, a second k-fold cross-validation picks the L2 penalty; accuracy = mean over the k test folds.
- TREC, MRPC (`KFoldClassifier`): k-fold cross-validation on the training split picks the penalty, one classifier
  on the whole training split is scored on the test split (MRPC also reports F1 of the positive class).
- SST-2, SICK-E (`SplitClassifier`): the penalty is picked on the dev split (SICK: trial), trained on train, scored
  on test.
- Pair tasks (MRPC, SICK-E): SentEval's features are [|u-v|, u*v] (`np.c_[np.abs(A - B), A * B]`).
  `pair_features="full"` gives [u, v, |u-v|, u*v] (InferSent/SBERT's classifier input) instead.
- Folds: `StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)`, samples first sorted as SentEval sorts
  them (by whitespace-token length, then label; Python's stable sort), so fold membership is deterministic.
  SentEval's README calls kfold=10 the setting "comparable to the literature"; the seed is 1111 (SentEval's
  default).
- Penalty grid: SentEval's scikit-learn mode (`usepytorch=False`): C in 2^-2..2^3 for the inner CV and the dev
  split, 2^-1..2^5 for the k-fold on train; accuracies rounded to 0.01 before the best C is taken (first best
  wins, as `np.argmax`).

Classifier: scikit-learn's `LogisticRegression(C=..., random_state=seed)`, i.e. SentEval's `usepytorch=False`
mode, chosen because it is deterministic, needs no early stopping on a held-out slice, and is what SentEval itself
uses for prototyping. Where this differs from SentEval: SentEval's published numbers mostly come from its pytorch
mode (Adam, batch 64, early stopping with tenacity 5, weight-decay grid 1e-5..1e-2), and scikit-learn 0.18-0.21
(SentEval's era) defaulted to the liblinear solver with one-vs-rest; scikit-learn 1.x uses lbfgs with a
multinomial loss and needs more than its default 100 iterations here (`max_iter`, default 1000). Numbers are
therefore comparable with SentEval's, not identical to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bsl_pipeline.pipeline.base.errors import BSLError

#: SentEval's scikit-learn grids (validation.py): InnerKFoldClassifier and SplitClassifier, KFoldClassifier.
INNER_CV_GRID: tuple[float, ...] = tuple(2.0 ** t for t in range(-2, 4))
KFOLD_GRID: tuple[float, ...] = tuple(2.0 ** t for t in range(-1, 6))
PAIR_FEATURES = ("senteval", "full")


@dataclass(frozen=True)
class ProtocolSettings:
    kfold: int = 10
    seed: int = 1111
    max_iter: int = 1000
    pair_features: str = "senteval"


@dataclass(frozen=True)
class TransferScore:
    """Accuracy x100 on the test data (mean over folds for CV tasks), the best dev/CV accuracy, and the chosen C."""

    task: str
    accuracy: float
    dev_accuracy: float
    n_train: int
    n_test: int
    c: float | list[float]
    f1: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"accuracy": self.accuracy, "dev_accuracy": self.dev_accuracy, "n_train": self.n_train,
               "n_test": self.n_test, "C": self.c}
        if self.f1 is not None:
            out["f1"] = self.f1
        return out


def pair_features(u: np.ndarray, v: np.ndarray, mode: str = "senteval") -> np.ndarray:
    """SentEval's [|u-v|, u*v] ("senteval") or [u, v, |u-v|, u*v] ("full"), row by row."""
    u = np.asarray(u, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if u.shape != v.shape:
        raise BSLError(f"pair embeddings differ in shape: {u.shape} vs {v.shape}")
    if mode == "senteval":
        return np.concatenate([np.abs(u - v), u * v], axis=1)
    if mode == "full":
        return np.concatenate([u, v, np.abs(u - v), u * v], axis=1)
    raise BSLError(f"unknown pair_features {mode!r}; expected one of {', '.join(PAIR_FEATURES)}")


def senteval_order(keys: Sequence[tuple]) -> np.ndarray:
    """The permutation SentEval applies before classifying: sorted by the key tuples, ties in file order."""
    return np.array(sorted(range(len(keys)), key=lambda i: keys[i]), dtype=np.int64)


def stratified_folds(y: np.ndarray, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """SentEval's folds: `StratifiedKFold(k, shuffle=True, random_state=seed)`."""
    from sklearn.model_selection import StratifiedKFold

    counts = np.bincount(y)
    if k < 2 or counts[counts > 0].min() < k:
        raise BSLError(f"{k}-fold stratified cross-validation needs at least {k} examples of every class "
                       f"(class counts {counts.tolist()})")
    return list(StratifiedKFold(n_splits=k, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def _fit(X: np.ndarray, y: np.ndarray, c: float, settings: ProtocolSettings):
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=c, random_state=settings.seed, max_iter=settings.max_iter)
    with warnings.catch_warnings():
        # Not converging within max_iter is reported once per run by the caller's numbers, not per fit.
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    return clf


def _accuracy(clf, X: np.ndarray, y: np.ndarray) -> float:
    return float(clf.score(X, y))


def _cv_scores(X: np.ndarray, y: np.ndarray, grid: Sequence[float], settings: ProtocolSettings) -> list[float]:
    folds = stratified_folds(y, settings.kfold, settings.seed)
    scores = []
    for c in grid:
        fold_scores = [_accuracy(_fit(X[tr], y[tr], c, settings), X[te], y[te]) for tr, te in folds]
        scores.append(round(100 * float(np.mean(fold_scores)), 2))
    return scores


def inner_kfold(X: np.ndarray, y: np.ndarray, settings: ProtocolSettings) -> tuple[float, float, list[float]]:
    """MR/CR/SUBJ/MPQA: (mean test accuracy, mean best inner-CV accuracy, C chosen per outer fold)."""
    dev, test, chosen = [], [], []
    for tr, te in stratified_folds(y, settings.kfold, settings.seed):
        scores = _cv_scores(X[tr], y[tr], INNER_CV_GRID, settings)
        best = int(np.argmax(scores))
        chosen.append(INNER_CV_GRID[best])
        dev.append(scores[best])
        clf = _fit(X[tr], y[tr], INNER_CV_GRID[best], settings)
        test.append(round(100 * _accuracy(clf, X[te], y[te]), 2))
    return round(float(np.mean(test)), 2), round(float(np.mean(dev)), 2), chosen


def kfold_then_test(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray, y_test: np.ndarray,
                    settings: ProtocolSettings) -> tuple[float, float, float, np.ndarray]:
    """TREC/MRPC: (test accuracy, best CV accuracy on train, chosen C, test predictions)."""
    scores = _cv_scores(X_train, y_train, KFOLD_GRID, settings)
    best = int(np.argmax(scores))
    clf = _fit(X_train, y_train, KFOLD_GRID[best], settings)
    return round(100 * _accuracy(clf, X_test, y_test), 2), scores[best], KFOLD_GRID[best], clf.predict(X_test)


def dev_split(X_train: np.ndarray, y_train: np.ndarray, X_dev: np.ndarray, y_dev: np.ndarray, X_test: np.ndarray,
              y_test: np.ndarray, settings: ProtocolSettings) -> tuple[float, float, float]:
    """SST-2/SICK-E: (test accuracy, best dev accuracy, chosen C)."""
    scores = [round(100 * _accuracy(_fit(X_train, y_train, c, settings), X_dev, y_dev), 2) for c in INNER_CV_GRID]
    best = int(np.argmax(scores))
    clf = _fit(X_train, y_train, INNER_CV_GRID[best], settings)
    return round(100 * _accuracy(clf, X_test, y_test), 2), scores[best], INNER_CV_GRID[best]


def _binary_f1(y_true: np.ndarray, y_pred: np.ndarray, positive: int) -> float:
    tp = int(np.sum((y_pred == positive) & (y_true == positive)))
    fp = int(np.sum((y_pred == positive) & (y_true != positive)))
    fn = int(np.sum((y_pred != positive) & (y_true == positive)))
    return round(100 * (2 * tp / (2 * tp + fp + fn) if tp else 0.0), 2)


def score_transfer_task(task, embed, settings: ProtocolSettings = ProtocolSettings()) -> TransferScore:
    """Run SentEval's protocol for one `TransferTask`; `embed(list[str]) -> np.ndarray` gives the embeddings of
    the given sentences (the caller encodes each unique sentence once and looks them up)."""
    classes = {label: i for i, label in enumerate(task.classes)}

    def split_xy(name: str) -> tuple[np.ndarray, np.ndarray]:
        split = task.splits[name]
        y = np.array([classes[label] for label in split.labels], dtype=np.int64)
        if task.is_pair_task:
            keys = [(len(a.split()), len(b.split()), int(label))
                    for a, b, label in zip(split.sentences1, split.sentences2, y)]
        else:
            keys = [(len(s.split()), int(label)) for s, label in zip(split.sentences1, y)]
        order = senteval_order(keys)
        u = embed([split.sentences1[i] for i in order])
        if task.is_pair_task:
            v = embed([split.sentences2[i] for i in order])
            return pair_features(u, v, settings.pair_features), y[order]
        return np.asarray(u, dtype=np.float64), y[order]

    if task.protocol == "cv":
        X, y = split_xy("all")
        acc, dev, chosen = inner_kfold(X, y, settings)
        return TransferScore(task.name, acc, dev, len(y), len(y), chosen)
    if task.protocol == "kfold":
        X_tr, y_tr = split_xy("train")
        X_te, y_te = split_xy("test")
        acc, dev, c, predicted = kfold_then_test(X_tr, y_tr, X_te, y_te, settings)
        f1 = None
        if task.name == "mrpc":
            # SentEval's f1_score(testY, yhat): the positive class is label 1 (paraphrase).
            f1 = _binary_f1(y_te, predicted, classes.get("1", classes.get("equivalent", len(classes) - 1)))
        return TransferScore(task.name, acc, dev, len(y_tr), len(y_te), c, f1)
    X_tr, y_tr = split_xy("train")
    X_dev, y_dev = split_xy("dev")
    X_te, y_te = split_xy("test")
    acc, dev, c = dev_split(X_tr, y_tr, X_dev, y_dev, X_te, y_te, settings)
    return TransferScore(task.name, acc, dev, len(y_tr), len(y_te), c)
