"""Registers the built-in agents (each module calls ``register`` when imported)."""

from __future__ import annotations

from . import (
    basic,  # noqa: F401  random, simple, greedy, beginner, intermediate
    expert,  # noqa: F401  expert, intermediate-expert
)
