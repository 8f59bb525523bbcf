#!/usr/bin/env python3
"""A simple bot for the arena's Mahjong line protocol (docs/mahjong-line-protocol.md): it keeps
its hand, wins on four sets and a pair, pungs a pair, else discards its loneliest tile."""
import sys
from collections import Counter

def without(h, *tiles):  # a sorted copy of h less the tiles
    return sorted((Counter(h) - Counter(tiles)).elements())

def sets(h):  # do the sorted tiles h split into pungs and chows? h[0], the lowest of its suit,
    t = h[0] if h else ""  # is in a pung or starts a chow
    run = [f"{int(t[0]) + i}{t[1]}" for i in range(3)] if len(t) == 2 else []  # "10M" is never held
    return not h or (h[:3] == [t] * 3 and sets(h[3:])) or (
        bool(run) and all(u in h for u in run) and sets(without(h, *run)))

def wins(h):  # a pair, and the rest in sets
    return any(h.count(p) >= 2 and sets(without(h, p, p)) for p in set(h))

def neighbours(t, h):  # the tiles of h equal to t or of its suit at most two ranks away
    return sum(u == t or len(t) == 2 and u[1:] == t[1] and abs(int(u[0]) - int(t[0])) <= 2 for u in h)

print("join", flush=True)  # flush every line at once: a line left in a buffer is never answered
me, hand = None, []
for cmd, *args in map(str.split, sys.stdin):
    if cmd == "id":
        me = args[0]
    elif cmd == "init":
        hand = args
    elif cmd == "pick" or (cmd == "mpeng" and args[0] == me):  # our turn: after a draw or our pung
        hand = hand + args if cmd == "pick" else without(hand, args[1], args[1])
        out = min(hand, key=lambda t: neighbours(t, hand))
        print("hu" if cmd == "pick" and wins(hand) else f"out {out}", flush=True)
        hand.remove(out)
    elif cmd == "mout":  # another seat's discard (our own is not sent to us)
        t = args[1]
        print("hu" if wins(hand + [t]) else "peng" if hand.count(t) >= 2 else "pass", flush=True)
    elif cmd == "mjgang" and args[0] != me:  # another seat's added kong: rob it if that wins
        print("qgang" if wins(hand + [args[1]]) else "pass", flush=True)
