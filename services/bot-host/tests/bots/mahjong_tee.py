#!/usr/bin/env python3
"""Runs a Mahjong line-protocol bot with every byte of its stdin also appended to a file, for
tests that inspect what a seat was sent.

    mahjong_tee.py FILE COMMAND [ARGS...]

COMMAND writes to this program's stdout directly (its `join` and answers); what arrives on
stdin is written to FILE first, then passed on, so FILE holds everything the bot answered to.
"""
import os
import subprocess
import sys

out = open(sys.argv[1], "ab", buffering=0)
bot = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, bufsize=0)
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    out.write(chunk)
    try:
        bot.stdin.write(chunk)
    except BrokenPipeError:
        break
bot.stdin.close()
bot.wait()
