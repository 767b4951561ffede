"""How usable relaxed synonym candidates are, by the features a gate could use: the blind judgment of the
development sample (dev-sample.judged.tsv: the judge saw only dev-sample.tsv and RULES-judge.md) joined with the
candidates' features (dev-sample.features.tsv).

    python experiments/synonym_gate/analyse.py
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
RULES = ["t_word_count", "t_pos_share", "t_sense_share", "t_senses", "t_lemma_count", "t_mutual_sense",
         "t_sub_sense_share", "t_sub_pos_share", "t_min_zipf", "t_zipf_drop", "t_modified_noun"]


def main() -> None:
    features = pd.read_csv(HERE / "dev-sample.features.tsv", sep="\t")
    judged = pd.read_csv(HERE / "dev-sample.judged.tsv", sep="\t")
    judged["usable"] = (judged.meaning_kept == 1) & (judged.fluent == 1)
    data = features.merge(judged[["n", "usable"]], on="n")
    print("usable share by group (anchor: today's rules accept; relaxed: only the relaxation admits)")
    print(data.groupby("group").usable.agg(["mean", "count"]).round(3).to_string(), "\n")
    relaxed = data[data.today == 0].copy()
    print("relaxed candidates: usable share when today's rule passes (1) or fails (0)")
    for rule in RULES:
        row = relaxed.groupby(rule).usable.agg(["mean", "count"])
        print(f"  {rule:<20}", "  ".join(f"{k}: {m:.2f} of {c}" for k, (m, c) in row.iterrows()))
    relaxed["token_fit"] = pd.cut(relaxed.fit_token, [0, .5, .6, .7, .8, .9, 1.0])
    print("\nrelaxed candidates by the encoder's token fit")
    print(relaxed.groupby("token_fit", observed=True).usable.agg(["mean", "count"]).round(3).to_string())
    print("\nrelaxed candidates by the rank of the synset among the word's senses")
    print(relaxed.groupby("sense_rank").usable.agg(["mean", "count"]).round(3).to_string())


if __name__ == "__main__":
    main()
