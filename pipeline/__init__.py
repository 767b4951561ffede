"""Library stages of the BSL data pipeline: read corpora, make view pairs, filter, write shards and manifests."""

__version__ = "0.1.0"
