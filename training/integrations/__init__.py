"""Bridges from this project's objectives to other training libraries (each optional, imported only when used):
`st_bsl`, BSL in sentence-transformers' trainer (`pip install -e ".[st]"`).
"""
