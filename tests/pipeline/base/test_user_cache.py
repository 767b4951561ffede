"""The per-user key that seals what the tool caches (pipeline.base.user_cache)."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.base import user_cache
from bsl_pipeline.pipeline.base.errors import BSLError


def test_cache_key_is_private_and_outside_the_cache(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    key = user_cache.user_cache_key(env)
    path = user_cache.cache_key_path(env)
    assert len(key) == 64 and path.is_file() and (path.stat().st_mode & 0o777) == 0o600
    assert not path.is_relative_to(user_cache.user_cache_root(env))
    assert user_cache.user_cache_key(env) == key  # made once, then read
    assert user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), env)
    other = {"XDG_CONFIG_HOME": str(tmp_path / "other")}
    assert not user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), other)  # another user's seal
    assert not user_cache.seal_matches({"a": 1}, None, env)
    path.chmod(0o666)
    with pytest.raises(BSLError, match="writable only by you"):
        user_cache.user_cache_key(env)
