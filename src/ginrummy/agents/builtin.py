"""Registers the built-in agents (each module calls ``register`` when imported)."""

from __future__ import annotations

from . import basic  # noqa: F401  random, simple, greedy, beginner, intermediate

# The expert agent's module (agents/expert.py) is imported here once it exists.
