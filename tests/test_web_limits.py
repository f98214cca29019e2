"""The token buckets behind every rate limit of the server (:mod:`ginrummy.web.limits`)."""

from __future__ import annotations

from ginrummy.web.app import create_app
from ginrummy.web.context import TABLE_BURST
from ginrummy.web.limits import Buckets
from ginrummy.web.server import ConnectionLimits
from webutil import TestClient, new_store


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


# -- what counts as one address ------------------------------------------------------------


def test_an_ipv6_network_of_64_bits_counts_as_one_address() -> None:
    # A home or a phone is given a whole /64: counted address by address, one person would
    # pass every per-address cap by taking a new address for each connection.
    limits = ConnectionLimits(total=0, per_address=2)
    assert limits.admit(1, "2001:db8::1") and limits.admit(2, "2001:db8::abcd:2")
    assert not limits.admit(3, "2001:db8::ffff:ffff:ffff:3")
    assert limits.admit(4, "2001:db8:0:1::1")  # the next /64: another household
    limits.release(1)
    assert limits.admit(5, "2001:db8::9")
    # An IPv4 client seen through a dual-stack socket is that IPv4 address.
    assert limits.admit(6, "10.0.0.1") and limits.admit(7, "::ffff:10.0.0.1")
    assert not limits.admit(8, "10.0.0.1")


def test_a_trusted_proxy_is_exempt_by_its_own_address_not_its_network() -> None:
    limits = ConnectionLimits(total=0, per_address=1, exempt=lambda host: host == "2001:db8::1")
    assert all(limits.admit(i, "2001:db8::1") for i in range(5))
    assert not limits.admit(9, "2001:db8::2")  # its network's count is spent by the proxy


def test_tables_opened_from_one_ipv6_network_share_its_limit() -> None:
    store = new_store()
    try:
        app = create_app(store, computer_delay=0, seed=1, tables_per_minute=1)
        body = {"mode": "computer", "name": "Ann"}
        headers = {"origin": "http://testserver"}

        def opened(host: str, tries: int) -> int:
            client = TestClient(app, client=(host, 50000))  # the app is started below
            return sum(
                client.post("/api/tables", json=body, headers=headers).status_code == 200
                for _ in range(tries)
            )

        with TestClient(app):  # the app's lifespan: started once, for every address
            assert opened("2001:db8::1", int(TABLE_BURST) + 1) == TABLE_BURST
            assert opened("2001:db8::2", 1) == 0  # the same /64
            assert opened("2001:db8:0:1::1", 1) == 1
    finally:
        store.close()
