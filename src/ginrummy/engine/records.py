"""Hand records: (rules, dealer, deck, actions), as JSON and as one line of text, and replay.

The one-line form is ``GR1 <rules> <dealer> <deck> | <action>, <action>, ...`` where ``<rules>``
is a preset name or ``custom:`` followed by compact JSON, and ``<deck>`` is the 52 cards top
first written without spaces (104 characters).

:class:`HandRecord` itself is defined beside :class:`~.hand.Hand` (each builds the other:
``Hand.record()``, ``HandRecord.replay()``), and is named here too.
"""

from __future__ import annotations

from .hand import TEXT_TAG, HandRecord

__all__ = ["TEXT_TAG", "HandRecord"]
