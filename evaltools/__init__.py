"""evaltools: keep evaluation sets for code-assistant models healthy."""

__version__ = "0.1.0"
