#!/usr/bin/env python3
"""Writes the PyMahjongGB agreement samples the `mcr` crate's tests read.

    pip install pymahjonggb
    python3 scripts/mcr-fan-sample.py [--hands 4000] [--shanten 2000] [--seed 1]

Writes crates/mcr/tests/data/pymahjonggb-fans.jsonl (random winning hands, drawn from themes
so that every fan the generator can make shows up, with PyMahjongGB's fans) and
crates/mcr/tests/data/pymahjonggb-shanten.jsonl (random hands with PyMahjongGB's
MahjongShanten). CI reads the committed files and never needs pymahjonggb. The script prints
how often each fan appears.
"""

import argparse
import collections
import json
import os
import random

import MahjongGB

SUITS = "WTB"  # characters, bamboo, dots: the fan library's suit order
NUMBERED = [s + str(r) for s in SUITS for r in range(1, 10)]
WINDS = ["F1", "F2", "F3", "F4"]
DRAGONS = ["J1", "J2", "J3"]
ALL = NUMBERED + WINDS + DRAGONS
KNITTED = []
for perm in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)]:
    KNITTED.append([SUITS[perm[j]] + str(j + 1 + 3 * n) for j in range(3) for n in range(3)])
ORPHANS = ["W1", "W9", "T1", "T9", "B1", "B9"] + WINDS + DRAGONS
GREEN = ["T2", "T3", "T4", "T6", "T8", "J2"]
REVERSIBLE = ["T2", "T4", "T5", "T6", "T8", "T9", "B1", "B2", "B3", "B4", "B5", "B8", "B9", "J3"]


def rank(t):
    return int(t[1])


def shift(t, d):
    return t[0] + str(rank(t) + d)


def theme(rng):
    """A random pool of tiles that melds and pairs are drawn from."""
    kind = rng.randrange(14)
    if kind == 0:
        return ALL
    if kind == 1:
        s = rng.choice(SUITS)
        return [t for t in NUMBERED if t[0] == s]
    if kind == 2:
        s = rng.choice(SUITS)
        return [t for t in NUMBERED if t[0] == s] + WINDS + DRAGONS
    if kind == 3:
        return ORPHANS + ["W1", "W9", "T1", "T9", "B1", "B9"]
    if kind == 4:
        return WINDS + DRAGONS + rng.sample(NUMBERED, 4)
    if kind == 5:
        return GREEN
    if kind == 6:
        return REVERSIBLE
    if kind == 7:
        lo, hi = rng.choice([(1, 3), (1, 4), (4, 6), (6, 9), (7, 9), (2, 8)])
        return [t for t in NUMBERED if lo <= rank(t) <= hi]
    if kind == 8:
        return [t for t in NUMBERED if rank(t) in (2, 4, 6, 8)]
    if kind == 9:
        return [t for t in NUMBERED if 4 <= rank(t) <= 6]
    if kind == 10:
        r = rng.randrange(1, 8)
        return [s + str(x) for s in SUITS for x in range(r, r + 3)]
    if kind == 11:
        s = rng.sample(SUITS, 2)
        return [t for t in NUMBERED if t[0] in s]
    if kind == 12:
        return [t for t in NUMBERED if rank(t) in (1, 2, 3, 5, 7, 8, 9)] + rng.sample(WINDS + DRAGONS, 2)
    return NUMBERED


def meld(rng, pool, pung_bias):
    """A random meld from the pool: ('PENG', t) or ('CHI', middle)."""
    for _ in range(50):
        t = rng.choice(pool)
        if rng.random() < pung_bias or t[0] not in SUITS or not (2 <= rank(t) <= 8):
            return ("PENG", t)
        if all(x in pool for x in (shift(t, -1), t, shift(t, 1))) or rng.random() < 0.3:
            return ("CHI", t)
    return ("PENG", rng.choice(pool))


def tiles_of(kind, t):
    if kind == "CHI":
        return [shift(t, -1), t, shift(t, 1)]
    return [t] * (4 if kind == "GANG" else 3)


def basic_hand(rng):
    pool = theme(rng)
    pung_bias = rng.choice([0.0, 0.2, 0.5, 0.8, 1.0])
    melds = [meld(rng, pool, pung_bias) for _ in range(4)]
    pair = rng.choice(pool)
    # A pure or three-suited terminal chows shape now and then.
    if rng.random() < 0.03:
        s = rng.choice(SUITS)
        melds = [("CHI", s + "2"), ("CHI", s + "2"), ("CHI", s + "8"), ("CHI", s + "8")]
        pair = s + "5"
    elif rng.random() < 0.03:
        s, step = rng.choice(SUITS), rng.choice([0, 1, 2])
        r = rng.randrange(2, 9 - 3 * step)
        melds = [("CHI", s + str(r + k * step)) for k in range(4)]
    elif rng.random() < 0.03:
        a, b, c = rng.sample(SUITS, 3)
        melds = [("CHI", a + "2"), ("CHI", b + "5"), ("CHI", c + "8"), meld(rng, pool, pung_bias)]
    elif rng.random() < 0.03:
        p, a, b = rng.sample(SUITS, 3)
        melds = [("CHI", a + "2"), ("CHI", a + "8"), ("CHI", b + "2"), ("CHI", b + "8")]
        pair = p + "5"
    fixed_n = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
    packs, concealed = [], [pair, pair]
    for i, (kind, t) in enumerate(melds):
        if i < fixed_n:
            if kind == "PENG" and rng.random() < 0.4:
                packs.append(("GANG", t, rng.randrange(4)))
            elif kind == "PENG":
                packs.append(("PENG", t, rng.randrange(1, 4)))
            else:
                packs.append(("CHI", t, rng.randrange(1, 4)))
        else:
            concealed += tiles_of(kind, t)
    return packs, concealed


def nine_gates(rng):
    s = rng.choice(SUITS)
    tiles = [s + "1"] * 3 + [s + str(r) for r in range(2, 9)] + [s + "9"] * 3 + [s + str(rng.randrange(1, 10))]
    return [], tiles


def seven_pairs(rng):
    if rng.random() < 0.3:
        s = rng.choice(SUITS)
        r = rng.randrange(1, 4)
        kinds = [s + str(x) for x in range(r, r + 7)]
    else:
        pool = theme(rng)
        kinds = [rng.choice(pool) for _ in range(7)]
    return [], [t for k in kinds for t in (k, k)]


def thirteen_orphans(rng):
    return [], ORPHANS + [rng.choice(ORPHANS)]


def honors_knitted(rng):
    seq = rng.choice(KNITTED)
    n = rng.choice([7, 8, 9])
    return [], rng.sample(seq, n) + rng.sample(WINDS + DRAGONS, 14 - n)


def knitted_straight(rng):
    seq = rng.choice(KNITTED)
    pool = theme(rng)
    kind, t = meld(rng, pool, 0.5)
    pair = rng.choice(pool)
    if rng.random() < 0.4:
        offer = rng.randrange(1, 4) if kind == "CHI" else rng.randrange(0 if kind == "GANG" else 1, 4)
        if kind == "PENG" and rng.random() < 0.5:
            kind, offer = "GANG", rng.randrange(4)
        return [(kind, t, offer)], seq + [pair, pair]
    return [], seq + tiles_of(kind, t) + [pair, pair]


def big_winds_or_dragons(rng):
    honours = rng.sample(WINDS, 4) if rng.random() < 0.5 else DRAGONS + [rng.choice(WINDS)]
    rest = rng.choice(ALL)
    melds = [("PENG", h) for h in honours[:3]] + [meld(rng, ALL, 0.5)]
    pair = honours[3] if rng.random() < 0.5 else rest
    packs, concealed = [], [pair, pair]
    for i, (kind, t) in enumerate(melds):
        if rng.random() < 0.3:
            packs.append((kind, t, rng.randrange(1, 4)))
        else:
            concealed += tiles_of(kind, t)
    return packs, concealed


def shifted_pungs(rng):
    s = rng.choice(SUITS)
    n = rng.choice([3, 4])
    r = rng.randrange(1, 11 - n)
    melds = [("PENG", s + str(r + k)) for k in range(n)]
    if n == 3:
        melds.append(meld(rng, ALL, 0.5))
    pair = rng.choice(ALL)
    packs, concealed = [], [pair, pair]
    for kind, t in melds:
        if rng.random() < 0.3:
            packs.append((kind, t, rng.randrange(1, 4)))
        else:
            concealed += tiles_of(kind, t)
    return packs, concealed


def chicken(rng):
    """Claimed melds over three suits and an honour pair: often no fan at all."""
    suits = rng.sample(SUITS, 3)
    melds = [(rng.choice(["CHI", "CHI", "PENG"]), s + str(rng.randrange(3, 8))) for s in suits]
    melds.append(meld(rng, NUMBERED, 0.2))
    pair = rng.choice(WINDS + DRAGONS)
    packs, concealed = [], [pair, pair]
    for i, (kind, t) in enumerate(melds):
        if i < 2:
            packs.append((kind, t, rng.randrange(1, 4)))
        else:
            concealed += tiles_of(kind, t)
    return packs, concealed


SHAPES = [
    (basic_hand, 70),
    (nine_gates, 2),
    (seven_pairs, 8),
    (thirteen_orphans, 2),
    (honors_knitted, 4),
    (knitted_straight, 6),
    (big_winds_or_dragons, 8),
    (shifted_pungs, 3),
    (chicken, 4),
]


def random_case(rng):
    shape = rng.choices([s for s, _ in SHAPES], [w for _, w in SHAPES])[0]
    packs, concealed = shape(rng)
    counts = collections.Counter(concealed)
    for kind, t, _ in packs:
        counts.update(tiles_of(kind, t))
    if any(n > 4 for n in counts.values()):
        return None
    win = rng.choice(concealed)
    standing = list(concealed)
    standing.remove(win)
    rng.shuffle(standing)
    case = {
        "packs": [list(p) for p in packs],
        "hand": standing,
        "win": win,
        "flowers": rng.choice([0, 0, 0, 1, 2, 5]),
        "self_drawn": rng.random() < 0.4,
        "fourth": rng.random() < 0.1,
        "kong": rng.random() < 0.1,
        "last": rng.random() < 0.1,
        "seat": rng.randrange(4),
        "quan": rng.randrange(4),
    }
    try:
        fans = MahjongGB.MahjongFanCalculator(
            pack=tuple(tuple(p) for p in packs),
            hand=tuple(standing),
            winTile=win,
            flowerCount=case["flowers"],
            isSelfDrawn=case["self_drawn"],
            is4thTile=case["fourth"],
            isAboutKong=case["kong"],
            isWallLast=case["last"],
            seatWind=case["seat"],
            prevalentWind=case["quan"],
            verbose=True,
        )
    except TypeError:
        return None
    case["fans"] = {en: cnt for (_, cnt, _, en) in fans}
    case["total"] = sum(points * cnt for (points, cnt, _, _) in fans)
    return case


def random_shanten_case(rng):
    tiles = [t for t in ALL for _ in range(4)]
    rng.shuffle(tiles)
    packs = []
    k = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
    for _ in range(k):
        t = rng.choice(ALL)
        kind = rng.choice(["PENG", "CHI", "GANG"])
        if kind == "CHI" and (t[0] not in SUITS or not 2 <= rank(t) <= 8):
            kind = "PENG"
        need = tiles_of(kind, t)
        if all(tiles.count(x) >= need.count(x) for x in set(need)):
            for x in need:
                tiles.remove(x)
            packs.append((kind, t, 0 if kind == "GANG" else 1))
    if rng.random() < 0.5:
        # Near-complete hands: a winning hand with tiles swapped out.
        case = None
        while case is None:
            case = random_case(rng)
        packs = [tuple(p) for p in case["packs"]]
        hand = case["hand"]
        for _ in range(rng.randrange(4)):
            hand[rng.randrange(len(hand))] = rng.choice(ALL)
    else:
        hand = tiles[: 13 - 3 * len(packs)]
    try:
        s = MahjongGB.MahjongShanten(pack=tuple(packs), hand=tuple(hand))
    except TypeError:
        return None
    return {"packs": [list(p) for p in packs], "hand": hand, "shanten": s}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "..", "crates", "mcr", "tests", "data")
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--shanten", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seen = collections.Counter()
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "pymahjonggb-fans.jsonl"), "w") as f:
        n = 0
        # Every fan of the table (82 with Concealed Kong and Melded Kong) at least three times.
        while n < args.hands or len(seen) < 82 or min(seen.values()) < 3:
            if n >= 4 * args.hands:
                break
            case = random_case(rng)
            if case is None:
                continue
            seen.update(case["fans"].keys())
            f.write(json.dumps(case, ensure_ascii=False, separators=(",", ":")) + "\n")
            n += 1
    with open(os.path.join(out_dir, "pymahjonggb-shanten.jsonl"), "w") as f:
        n = 0
        while n < args.shanten:
            case = random_shanten_case(rng)
            if case is None:
                continue
            f.write(json.dumps(case, separators=(",", ":")) + "\n")
            n += 1
    for name, count in sorted(seen.items(), key=lambda x: -x[1]):
        print(f"{count:6} {name}")
    print(f"{len(seen)} fans seen")


if __name__ == "__main__":
    main()
