"""Token buckets keyed by who is asking (an address, a seat), bounded in memory.

>>> buckets = Buckets(rate=1.0, burst=2.0)
>>> [buckets.take("a", now=0.0) for _ in range(3)]
[True, True, False]
>>> buckets.take("a", now=1.0), buckets.take("b", now=1.0)
(True, True)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Buckets:
    """``rate`` tokens a second up to ``burst`` for each key; a full bucket costs no memory:
    when ``max_keys`` are held, those that have refilled are forgotten, oldest first, and if
    none has, the one asked for longest ago (so many keys at once, as from many addresses,
    are held in bounded memory, each new one at a constant cost). ``clock`` (seconds, only
    differences count) tells the time when a call gives none.

    The buckets are kept in the order they were last asked for, which is the order of their
    ``last`` times: the ones that have refilled are all at the front."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        max_keys: int = 50_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.clock = clock
        # Ordered (last asked for last): the front is forgotten first, at a constant cost
        # (a plain dict's front grows slow to reach once many keys have left it).
        self._buckets: OrderedDict[Hashable, list[float]] = OrderedDict()

    def _level(self, key: Hashable, now: float) -> list[float]:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._forget(now)
            bucket = self._buckets[key] = [self.burst, now]
        else:
            self._buckets.move_to_end(key)  # the newest asked for
        bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        bucket[1] = now
        return bucket

    def peek(self, key: Hashable, now: float | None = None) -> bool:
        """Whether ``take`` would succeed now (takes nothing)."""
        now = self.clock() if now is None else now
        return self._level(key, now)[0] >= 1

    def take(self, key: Hashable, now: float | None = None) -> bool:
        """Take one token for ``key``; False (and nothing taken) when there is none."""
        now = self.clock() if now is None else now
        bucket = self._level(key, now)
        if bucket[0] < 1:
            return False
        bucket[0] -= 1
        return True

    def wait(self, key: Hashable, now: float | None = None) -> float:
        """Seconds until ``take`` would succeed for ``key`` (0.0 when it would now).

        >>> buckets = Buckets(rate=2.0, burst=1.0)
        >>> buckets.take("a", now=0.0), buckets.wait("a", now=0.0), buckets.wait("a", now=0.5)
        (True, 0.5, 0.0)
        """
        now = self.clock() if now is None else now
        level = self._level(key, now)[0]
        if level >= 1:
            return 0.0
        return (1 - level) / self.rate if self.rate > 0 else float("inf")

    def _forget(self, now: float) -> None:
        """Make room for one key: forget the buckets that have refilled (all at the front),
        or else the one asked for longest ago."""
        full = self.burst / self.rate if self.rate > 0 else float("inf")
        self._buckets.popitem(last=False)
        while self._buckets:
            key, (_, last) = next(iter(self._buckets.items()))
            if now - last < full:
                break
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)
