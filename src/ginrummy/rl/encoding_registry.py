"""The observation encodings by name: the built-in ones and any a user registers.

A module of its own, above :mod:`.encodings` (the encoders) and :mod:`.infostate` (which builds
on the default encoder), so that the options can check a name against the registry without an
import cycle.

>>> encoding_names()[:3]
('default', 'rlcard', 'infostate')
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .encodings import (
    OPENSPIEL_SHAPE,
    DefaultEncoder,
    Encoder,
    EncoderFactory,
    RLCardEncoder,
    view_encoding,
)
from .infostate import InfostateEncoder

if TYPE_CHECKING:
    from .options import EnvOptions


@dataclass(frozen=True)
class Encoding:
    """A registered encoding: its name, a line saying what it is, and its factory."""

    name: str
    summary: str
    make: EncoderFactory


_REGISTRY: dict[str, Encoding] = {}


def register_encoding(name: str, make: EncoderFactory, summary: str = "") -> None:
    """Make an encoding available as ``encoding=name`` (replacing one of that name)."""
    _REGISTRY[name] = Encoding(name, summary, make)


def encoding_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def get_encoding(name: str) -> Encoding:
    try:
        return _REGISTRY[name]
    except KeyError:
        names = ", ".join(_REGISTRY)
        raise ValueError(f"unknown encoding {name!r}; the encodings are: {names}") from None


def make_encoders(options: EnvOptions) -> tuple[Encoder, Encoder]:
    """One encoder per seat for an environment's options."""
    make = get_encoding(options.encoding).make
    return (make(options), make(options))


def _openspiel(options: EnvOptions) -> Encoder:
    # OpenSpiel's tensor lives with the rest of the OpenSpiel adapter, loaded when first used.
    try:
        module = importlib.import_module("ginrummy.rl.openspiel")
    except ImportError as exc:
        raise ValueError(
            "the 'openspiel' encoding needs ginrummy.rl.openspiel, which this installation "
            f"lacks ({exc})"
        ) from None
    return view_encoding(module.observation_tensor, OPENSPIEL_SHAPE)(options)


register_encoding(
    "default", DefaultEncoder, "card planes, the pile's order, the phase, counts and scores"
)
register_encoding("rlcard", lambda options: RLCardEncoder(), "RLCard's 5x52 planes")
register_encoding(
    "infostate", InfostateEncoder, "perfect recall: the default encoding, the deal and every event"
)
register_encoding("openspiel", _openspiel, "OpenSpiel's 644-wide gin_rummy observation tensor")

__all__ = ["Encoding", "encoding_names", "get_encoding", "make_encoders", "register_encoding"]
