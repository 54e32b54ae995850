"""`hashlib.blake2b` without importing hashlib, which loads OpenSSL (about 5 ms): a
cached `gold check` hashes its key and does little else."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without the builtin module
    from hashlib import blake2b

__all__ = ["blake2b"]
