#!/usr/bin/env python3
"""The example Dou Dizhu bot (the path in argv[1]), but its first answer to a play request in
every game is not a move at all: a malformed answer the referee gives a verdict for, so the
browser test sees verdicts marked in the replay player (under `play-on` the table goes on)."""
import runpy
import sys

BOT = sys.argv[1]
LINES = sys.stdin


def faulty():
    spoiled = False
    for line in LINES:
        if line.startswith("game"):
            spoiled = False
        if line.startswith("ask play") and not spoiled:
            spoiled = True
            print("play not-a-move", flush=True)
            continue
        yield line


class Stdin:
    def __iter__(self):
        return faulty()


sys.stdin = Stdin()
sys.argv = [BOT]
runpy.run_path(BOT, run_name="__main__")
