"""The token buckets behind every rate limit of the server (:mod:`ginrummy.web.limits`)."""

from __future__ import annotations

from ginrummy.web.limits import Buckets


def test_many_keys_at_once_are_held_in_bounded_memory() -> None:
    # Keys from many addresses, none of whose buckets has refilled yet: past the cap, each
    # new one scanned every bucket held, found none to forget and was added anyway.
    buckets = Buckets(rate=1.0, burst=5.0, max_keys=100)
    for i in range(10_000):
        assert buckets.take(i, now=i * 1e-4)
    assert len(buckets) == 100


def test_the_refilled_buckets_are_forgotten_before_a_spent_one() -> None:
    buckets = Buckets(rate=0.1, burst=5.0, max_keys=3)  # refilled 50 s after the last take
    assert buckets.take("b", now=0.0) and buckets.take("c", now=0.0)
    assert sum(buckets.take("a", now=45.0) for _ in range(9)) == 5  # spent
    assert buckets.take("d", now=50.0)  # b and c have refilled: they make room
    assert len(buckets) == 2
    assert not buckets.take("a", now=50.0)  # still spent: half a token back


def test_with_none_refilled_the_one_asked_for_longest_ago_makes_room() -> None:
    buckets = Buckets(rate=0.1, burst=2.0, max_keys=2)
    assert sum(buckets.take("a", now=0.0) for _ in range(3)) == 2
    assert sum(buckets.take("b", now=1.0) for _ in range(3)) == 2
    assert not buckets.peek("a", now=2.0)  # a asked for again: now b is the oldest
    assert buckets.take("c", now=3.0)
    assert len(buckets) == 2
    assert not buckets.take("a", now=3.0)  # kept, still spent
    assert buckets.take("b", now=3.0)  # forgotten: a full bucket again
