#!/usr/bin/env python3
"""The fixed hand set of the fan benchmarks, and PyMahjongGB's time on it.

  scripts/mahjong-fan-bench.py hands [--n 1000] [--seed 1] > crates/mahjong/benches/fan-hands.jsonl
      writes random winning hands (deterministic from the seed) in the batch format of
      `arena mahjong fan --batch`; the criterion bench `cargo bench -p mahjong --bench fan`
      scores the same file.

  scripts/mahjong-fan-bench.py pymahjonggb [FILE] [--passes 20]
      times PyMahjongGB's MahjongFanCalculator (pip install pymahjonggb) on every hand of FILE
      (default: the committed set) and prints the median and mean time per hand. Each call is
      timed alone with perf_counter_ns, so the figure includes the Python call; the loop's own
      cost (timing an empty call) is printed beside it.
"""

import argparse
import json
import os
import random
import statistics
import sys
import time

HANDS = os.path.join(os.path.dirname(__file__), "..", "crates", "mahjong", "benches", "fan-hands.jsonl")

SUITS = "MST"
HONOURS = "ESWNZFB"


def name(i):
    return f"{i % 9 + 1}{SUITS[i // 9]}" if i < 27 else HONOURS[i - 27]


def winning_hand(rng):
    """A random winning hand: four sets and a pair (some declared), or seven pairs."""
    while True:
        counts = [0] * 34
        hand = {"chows": [], "pungs": [], "kongs": [], "concealed_kongs": []}
        concealed = [0] * 34
        if rng.random() < 0.08:
            for _ in range(7):
                concealed[rng.randrange(34)] += 2
        else:
            melds = rng.choice([0, 0, 0, 1, 1, 1, 2, 2, 3, 4])
            for s in range(4):
                declared = s < melds
                if rng.random() < 0.65:
                    suit, rank = rng.randrange(3), rng.randrange(7)
                    low = suit * 9 + rank
                    if declared:
                        hand["chows"].append(name(low))
                        for i in range(low, low + 3):
                            counts[i] += 1
                    else:
                        for i in range(low, low + 3):
                            concealed[i] += 1
                else:
                    k = rng.randrange(34)
                    if declared:
                        kind = rng.choice(["pungs", "pungs", "kongs", "concealed_kongs"])
                        hand[kind].append(name(k))
                        counts[k] += 3 if kind == "pungs" else 4
                    else:
                        concealed[k] += 3
            concealed[rng.randrange(34)] += 2
        total = [a + b for a, b in zip(counts, concealed)]
        if max(total) > 4:
            continue
        tiles = [i for i in range(34) for _ in range(concealed[i])]
        win = rng.choice(tiles)
        tiles.remove(win)
        rng.shuffle(tiles)
        hand = {k: v for k, v in hand.items() if v}
        hand["concealed"] = " ".join(name(i) for i in tiles)
        hand["win"] = name(win)
        hand["self_drawn"] = rng.random() < 0.4
        return hand


def gb_tile(t):
    """Our notation to PyMahjongGB's: M→W (characters), S→T (bamboo), T→B (dots), winds F1–F4,
    dragons J1–J3 (中 发 白)."""
    if len(t) == 2:
        return {"M": "W", "S": "T", "T": "B"}[t[1]] + t[0]
    i = HONOURS.index(t)
    return f"F{i + 1}" if i < 4 else f"J{i - 3}"


def gb_args(hand):
    pack = []
    for t in hand.get("chows", []):
        # PyMahjongGB names a chow by its middle tile.
        middle = f"{int(t[0]) + 1}{t[1]}"
        pack.append(("CHI", gb_tile(middle), 1))
    pack += [("PENG", gb_tile(t), 1) for t in hand.get("pungs", [])]
    pack += [("GANG", gb_tile(t), 1) for t in hand.get("kongs", [])]
    pack += [("GANG", gb_tile(t), 0) for t in hand.get("concealed_kongs", [])]
    return dict(
        pack=tuple(pack),
        hand=tuple(gb_tile(t) for t in hand["concealed"].split()),
        winTile=gb_tile(hand["win"]),
        flowerCount=0,
        isSelfDrawn=hand.get("self_drawn", False),
        is4thTile=False,
        isAboutKong=False,
        isWallLast=False,
        seatWind=0,
        prevalentWind=0,
    )


def cmd_hands(a):
    rng = random.Random(a.seed)
    for _ in range(a.n):
        print(json.dumps(winning_hand(rng), ensure_ascii=False, separators=(",", ":")))


def cmd_pymahjonggb(a):
    from MahjongGB import MahjongFanCalculator

    with open(a.file) as f:
        hands = [json.loads(line) for line in f if line.strip()]
    calls = [gb_args(h) for h in hands]
    errors = 0
    for c in calls:
        try:
            MahjongFanCalculator(**c)
        except Exception:  # PyMahjongGB rejects a few shapes our rules allow
            errors += 1
    per_hand = [[] for _ in calls]
    empty = []
    nothing = lambda **kw: None  # noqa: E731
    for _ in range(a.passes):
        for i, c in enumerate(calls):
            t0 = time.perf_counter_ns()
            try:
                MahjongFanCalculator(**c)
            except Exception:
                pass
            per_hand[i].append(time.perf_counter_ns() - t0)
            t0 = time.perf_counter_ns()
            nothing(**c)
            empty.append(time.perf_counter_ns() - t0)
    medians = [statistics.median(t) for t in per_hand]
    print(f"PyMahjongGB MahjongFanCalculator: {len(calls)} hands × {a.passes} passes "
          f"({errors} rejected by PyMahjongGB)")
    print(f"  per hand: median {statistics.median(medians) / 1000:.2f} µs, "
          f"mean {statistics.mean(medians) / 1000:.2f} µs, "
          f"p99 {sorted(medians)[int(len(medians) * 0.99)] / 1000:.2f} µs")
    print(f"  timing loop alone (an empty Python call): median {statistics.median(empty) / 1000:.2f} µs")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hands")
    h.add_argument("--n", type=int, default=1000)
    h.add_argument("--seed", type=int, default=1)
    g = sub.add_parser("pymahjonggb")
    g.add_argument("file", nargs="?", default=HANDS)
    g.add_argument("--passes", type=int, default=20)
    a = p.parse_args()
    {"hands": cmd_hands, "pymahjonggb": cmd_pymahjonggb}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
