#!/usr/bin/env python3
"""The example Dou Dizhu bot (the path in argv[1]), thinking 0.3 s over every decision: tables
that take seconds, so the browser test watches a competition while it runs whatever the
machine's speed. Well inside the default 1 s a decision: no penalties."""
import runpy
import sys
import time

BOT = sys.argv[1]
LINES = sys.stdin


def slow():
    for line in LINES:
        if line.startswith("ask"):
            time.sleep(0.3)
        yield line


class Stdin:
    def __iter__(self):
        return slow()


sys.stdin = Stdin()
sys.argv = [BOT]
runpy.run_path(BOT, run_name="__main__")
