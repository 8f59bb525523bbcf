#!/usr/bin/env python3
"""A simple bot for the arena's Mahjong line protocol (docs/mahjong-line-protocol.md): it keeps
its hand, wins when it can, pungs a pair, else discards the tile with the fewest neighbours."""
import sys

def without(h, *tiles):
    h = sorted(h)
    for t in tiles:
        h.remove(t)
    return h

def sets(h):  # do the sorted tiles h split into pungs and chows? (h[0] is lowest in its suit)
    t = h[0] if h else None
    run = [f"{int(t[0]) + i}{t[1]}" for i in (1, 2)] if t and len(t) == 2 and t[0] <= "7" else []
    return not h or (h[:3] == [t] * 3 and sets(h[3:])) or (
        bool(run) and all(u in h for u in run) and sets(without(h, t, *run)))

def wins(h):
    return any(h.count(p) >= 2 and sets(without(h, p, p)) for p in set(h))

def near(t, u):  # same tile, or same suit and at most two ranks apart
    return t == u or (len(t) == len(u) == 2 and t[1] == u[1] and abs(int(t[0]) - int(u[0])) <= 2)

print("join", flush=True)  # every line must be flushed at once
me, hand, last = None, [], None
for w in map(str.split, sys.stdin):
    say = None
    if w[:1] == ["id"]:
        me = w[1]
    elif w[:1] == ["init"]:
        hand = w[1:]
    elif w[:1] == ["pick"] or (w[:1] in (["mchi"], ["mpeng"]) and w[1] == me):
        if w[0] == "pick":
            hand.append(w[1])
        elif w[0] == "mpeng":
            hand = without(hand, w[2], w[2])
        else:  # the chow's tiles but the discard came from the hand
            hand = without(hand, *[t for t in (f"{int(w[2][0]) + i}{w[2][1]}" for i in range(3)) if t != last])
        out = min(hand, key=lambda t: sum(near(t, u) for u in hand))
        say = "hu" if w[0] == "pick" and wins(hand) else f"out {out}"
        hand.remove(out)
    elif w[:1] == ["mout"] and w[1] != me:
        last = w[2]
        say = "hu" if wins(hand + [last]) else "peng" if hand.count(last) >= 2 else "pass"
    elif w[:1] == ["mjgang"] and w[1] != me:
        say = "qgang" if wins(hand + [w[2]]) else "pass"
    if say:
        print(say, flush=True)
