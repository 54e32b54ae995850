"""Scoring a retriever's runs against the set."""
