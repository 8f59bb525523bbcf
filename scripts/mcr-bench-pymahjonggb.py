#!/usr/bin/env python3
"""PyMahjongGB's time on the samples the `mcr` crate's benches score, for a side-by-side.

    pip install pymahjonggb
    python3 scripts/mcr-bench-pymahjonggb.py [--hands 2000] [--passes 5]
    cargo bench -p mcr --bench mcr          # the arena's figures on the same hands

Times MahjongGB.MahjongFanCalculator on the first HANDS winning hands of
crates/mcr/tests/data/pymahjonggb-fans.jsonl (every field of each hand passed, as the bench
does) and MahjongGB.MahjongShanten on the first HANDS hands of pymahjonggb-shanten.jsonl.
Each pass times the whole loop with time.process_time_ns (CPU time, as the Rust benches
measure), so the figure includes the Python call into the C++ library; the cost of the same
loop calling an empty function is printed beside it. Prints the best pass, per hand.
"""

import argparse
import json
import os
import time

import MahjongGB

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "mcr", "tests", "data")


def load(name, n):
    with open(os.path.join(DATA, name)) as f:
        return [json.loads(line) for _, line in zip(range(n), f)]


def fan_args(case):
    return dict(
        pack=tuple(tuple(p) for p in case["packs"]),
        hand=tuple(case["hand"]),
        winTile=case["win"],
        flowerCount=case["flowers"],
        isSelfDrawn=case["self_drawn"],
        is4thTile=case["fourth"],
        isAboutKong=case["kong"],
        isWallLast=case["last"],
        seatWind=case["seat"],
        prevalentWind=case["quan"],
    )


def fan(kw):
    try:
        return MahjongGB.MahjongFanCalculator(**kw)
    except Exception:  # a hand below the library's own checks: still timed
        return None


def shanten(kw):
    return MahjongGB.MahjongShanten(**kw)


def empty(kw):
    return None


def best(f, cases, passes):
    times = []
    for _ in range(passes):
        start = time.process_time_ns()
        for kw in cases:
            f(kw)
        times.append(time.process_time_ns() - start)
    return min(times) / len(cases)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--passes", type=int, default=5)
    a = ap.parse_args()
    fans = [fan_args(c) for c in load("pymahjonggb-fans.jsonl", a.hands)]
    shantens = [dict(pack=tuple(tuple(p) for p in c["packs"]), hand=tuple(c["hand"]))
                for c in load("pymahjonggb-shanten.jsonl", a.hands)]
    for name, f, cases in [("fan", fan, fans), ("shanten", shanten, shantens)]:
        ns = best(f, cases, a.passes)
        loop = best(empty, cases, a.passes)
        print(f"PyMahjongGB {name}: {ns / 1000:.2f} µs per hand ({1e9 / ns:,.0f} hands/s), "
              f"{len(cases)} hands, best of {a.passes}; the Python loop alone {loop / 1000:.2f} µs")


if __name__ == "__main__":
    main()
