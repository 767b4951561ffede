"""Built-in corpora that need no download: WordNet's example sentences (from the OS WordNet package)."""

from __future__ import annotations

from pathlib import Path

from pipeline.atomic import atomic_path


def write_wordnet_examples(out_path: str | Path, wordnet_dir: str | None = None, min_words: int = 4) -> int:
    """Write every WordNet 3.0 usage example with at least `min_words` words, one per line, in synset order
    (about 40k sentences). Returns the number of lines. Skipped when `out_path` already exists."""
    out_path = Path(out_path)
    if out_path.is_file():
        with open(out_path, "rb") as fh:
            return sum(1 for _ in fh)
    from pipeline.wordnet import load_wordnet, locate_wordnet

    wn = load_wordnet(locate_wordnet(wordnet_dir))
    n = 0
    with atomic_path(out_path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for pos in ("n", "v", "a", "r"):  # fixed order: the corpus is the same on every machine
            for synset in wn.all_synsets(pos):
                for example in synset.examples():
                    example = " ".join(example.split())
                    if len(example.split()) >= min_words:
                        fh.write(example + "\n")
                        n += 1
    return n
