#!/usr/bin/env python3
"""Random self-play in RLCard's Mahjong environment, timed: the baseline that
`arena mahjong selfplay --bot random` is compared with (docs/mahjong-engine.md).

Usage: python3 scripts/rlcard_mahjong_selfplay.py [--hands N] [--seed S] [--json]
Needs `pip install rlcard`. Runs on one core (set OMP/BLAS threads to 1 before numpy loads).
"""

import argparse
import json
import os
import time

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import rlcard  # noqa: E402
from rlcard.agents import RandomAgent  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    env = rlcard.make("mahjong", config={"seed": a.seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    wins = 0
    steps = 0
    start = time.perf_counter()
    for _ in range(a.hands):
        trajectories, payoffs = env.run(is_training=False)
        wins += any(p > 0 for p in payoffs)
        steps += sum(len(t) // 2 for t in trajectories)
    secs = time.perf_counter() - start
    out = {
        "env": "rlcard-mahjong",
        "rlcard": rlcard.__version__,
        "hands": a.hands,
        "seconds": secs,
        "hands_per_second": a.hands / secs,
        "win_rate": wins / a.hands,
        "decisions_per_hand": steps / a.hands,
    }
    if a.json:
        print(json.dumps(out))
    else:
        print(f"RLCard {rlcard.__version__} Mahjong, random agents: {a.hands} hands in {secs:.2f} s "
              f"on one core: {out['hands_per_second']:.1f} hands/s "
              f"(won {100 * out['win_rate']:.1f}%, {out['decisions_per_hand']:.0f} decisions per hand)")


if __name__ == "__main__":
    main()
