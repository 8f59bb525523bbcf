#!/usr/bin/env python3
"""A program bot of the toy game's line protocol: `hand 3 7 12` then `play` asks for a card;
it answers `play N` with its highest card. With `liar` as its argument it first answers a card
it does not hold (a verdict), then plays properly."""
import sys

liar = len(sys.argv) > 1 and sys.argv[1] == "liar"
hand = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hand":
        hand = [int(w) for w in words[1:]]
    elif words[0] == "play":
        if liar:
            liar = False
            print("play 99", flush=True)
        else:
            print(f"play {max(hand)}", flush=True)
    elif words[0] == "end":
        break
