"""Registers the built-in agents (each module calls ``register`` when imported)."""

from __future__ import annotations
