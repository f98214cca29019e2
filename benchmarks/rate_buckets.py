"""What the server's rate limits cost per message when many addresses ask at once.

    python benchmarks/rate_buckets.py [--keys 50000] [--new 2000]

Fills a :class:`ginrummy.web.limits.Buckets` (the messages' rates: 20 a second, bursts of 60)
to its cap with ``--keys`` addresses, none of whose buckets has refilled yet (an attacker
with many addresses, or a busy hour), then prints the time of one message from an address
already held and of one from each of ``--new`` addresses not held yet (each must make room).
"""

from __future__ import annotations

import argparse
import time

from ginrummy.web.limits import Buckets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=50_000)
    parser.add_argument("--new", type=int, default=2_000)
    args = parser.parse_args()
    now = 0.0
    buckets = Buckets(rate=20.0, burst=60.0, max_keys=args.keys)
    for i in range(args.keys):
        buckets.take(("held", i), now=now)
    start = time.perf_counter()
    for i in range(args.keys):
        buckets.take(("held", i), now=now)
    held = (time.perf_counter() - start) / args.keys
    start = time.perf_counter()
    for i in range(args.new):
        buckets.take(("new", i), now=now)
    new = (time.perf_counter() - start) / args.new
    print(f"{args.keys:,} buckets held, none refilled; {len(buckets):,} held after")
    print(f"a message from an address held:     {held * 1e6:8.2f} us")
    print(f"a message from a new address:       {new * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
