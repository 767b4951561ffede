"""The `bsl` command: the top layer, above flows/, training/ and pipeline/ (see bsl.cli)."""
