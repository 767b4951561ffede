"""MkDocs hook: fills the views guide's table of rewrite rules from the rules' cases
(pipeline/augment/rewrite_rules/cases/<family>.json, `rewrite_rules.catalog.rules_table_markdown`) at build time, so
the table is never committed by hand and every example it shows is a tested case."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- rewrite rules table -->"


def on_page_markdown(markdown: str, page: Any = None, config: Any = None, files: Any = None) -> str:
    if MARKER not in markdown:
        return markdown
    from bsl_pipeline.pipeline.augment.rewrite_rules.catalog import rules_table_markdown

    return markdown.replace(MARKER, rules_table_markdown())
