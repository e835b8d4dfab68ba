"""The fleet's shared request budget (``run_many(rate_limit=...)``) as plain
state: a clock passed in, no binary. The batches that use it run in
tests/fleet (local and Ray)."""

from __future__ import annotations

from typing import Any

import pytest

from claude_wrap._fleet.rate import Bucket
from claude_wrap._fleet.runner import _pace_retry
from claude_wrap.fleet import RateLimit


def test_a_full_bucket_lets_a_burst_go_then_paces_at_the_rate() -> None:
    bucket = Bucket(RateLimit(requests_per_minute=60, burst_s=3), now=0.0)  # 1 a second, 3 at once
    assert bucket.delay(0.0) == 0
    bucket.spend(3, 0, 0.0)
    assert bucket.delay(0.0) == pytest.approx(0.0 + 1e-3)  # empty, not below: the next may go at once
    bucket.spend(1, 0, 0.0)
    assert bucket.delay(0.0) == pytest.approx(1.0, abs=0.01)
    assert bucket.delay(0.5) == pytest.approx(0.5, abs=0.01)
    assert bucket.delay(1.01) == 0


def test_an_idle_bucket_fills_up_to_its_burst_only() -> None:
    bucket = Bucket(RateLimit(requests_per_minute=60, burst_s=2), now=0.0)
    bucket.spend(2, 0, 0.0)
    # An hour idle refills two, not 3,600.
    bucket.spend(2, 0, 3600.0)
    assert bucket.delay(3600.0) > 0
    bucket2 = Bucket(RateLimit(requests_per_minute=60, burst_s=2), now=0.0)
    bucket2.spend(3, 0, 0.0)
    assert bucket2.delay(0.0) == pytest.approx(1.0, abs=0.01)


def test_tokens_are_a_budget_of_their_own() -> None:
    bucket = Bucket(RateLimit(tokens_per_minute=6_000, burst_s=10), now=0.0)  # 100 a second, 1,000 at once
    bucket.spend(50, 900, 0.0)  # requests are not limited here
    assert bucket.delay(0.0) == 0
    bucket.spend(1, 600, 0.0)  # 500 over
    assert bucket.delay(0.0) == pytest.approx(5.0, abs=0.01)
    both = Bucket(RateLimit(requests_per_minute=60, tokens_per_minute=6_000, burst_s=1), now=0.0)
    both.spend(3, 0, 0.0)  # two requests over, tokens fine: the longer wait wins
    assert both.delay(0.0) == pytest.approx(2.0, abs=0.01)


def test_a_hold_stops_everyone_until_it_ends() -> None:
    bucket = Bucket(RateLimit(requests_per_minute=600), now=0.0)
    bucket.hold(1.5, 10.0)
    assert bucket.delay(10.0) == pytest.approx(1.5)
    bucket.hold(0.5, 10.0)  # a shorter hold does not cut a longer one short
    assert bucket.delay(11.0) == pytest.approx(0.5)
    assert bucket.delay(11.5) == 0


class _Pacer:
    def __init__(self) -> None:
        self.spent_: list[tuple[int, int]] = []
        self.held_: list[float] = []

    async def wait(self) -> None:
        pass

    def spent(self, requests: int, tokens: int) -> None:
        self.spent_.append((requests, tokens))

    def held(self, seconds: float) -> None:
        self.held_.append(seconds)


@pytest.mark.parametrize(
    ("frame", "spent", "held"),
    [
        ({"subtype": "api_retry", "error_status": 429, "retry_delay_ms": 1157}, [(1, 0)], [1.157]),
        ({"subtype": "api_retry", "error_status": 529, "retry_delay_ms": 600}, [(1, 0)], []),
        ({"subtype": "api_retry", "error_status": 500, "retry_delay_ms": 600}, [(1, 0)], []),
        ({"subtype": "status", "status": "compacting"}, [], []),
    ],
)
def test_a_rate_limited_retry_holds_the_batch_and_every_retry_is_spent(
    frame: dict[str, Any], spent: list[tuple[int, int]], held: list[float]
) -> None:
    pacer = _Pacer()
    _pace_retry(pacer, frame)
    assert pacer.spent_ == spent
    assert pacer.held_ == pytest.approx(held)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"requests_per_minute": 0}, {"tokens_per_minute": -1}, {"requests_per_minute": True},
     {"requests_per_minute": float("inf")}, {"requests_per_minute": 10, "burst_s": 0}],
)  # fmt: skip
def test_a_rate_limit_that_cannot_be_kept_is_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="RateLimit"):
        RateLimit(**kwargs)
