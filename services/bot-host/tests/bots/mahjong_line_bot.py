#!/usr/bin/env python3
"""A Mahjong line-protocol bot for bot-host's tests (docs/mahjong-line-protocol.md).

    mahjong_line_bot.py MODE

It never claims: it discards each tile it draws and passes on every discard and kong. MODE says
what else it does:
  polite   on each of its turns it first writes `pass` (a claim word, which answers nothing
           there and is ignored, as the contest ignored it), then its discard
  wrong    it answers its first discard to claim with `out` of its first tile (the wrong kind
           of answer)
  chatty   on its first turn it writes `pass` 65 times, answering nothing
"""
import sys

mode = sys.argv[1]
me, hand, wrong_done, chatted = None, [], False, False


def say(line):
    print(line, flush=True)


say("join")
for words in map(str.split, sys.stdin):
    if not words:
        continue
    if words[0] == "id":
        me = words[1]
    elif words[0] == "init":
        hand = words[1:]
    elif words[0] == "pick":
        if mode == "polite":
            say("pass")
        elif mode == "chatty" and not chatted:
            chatted = True
            for _ in range(65):
                say("pass")
        say(f"out {words[1]}")
    elif words[0] in ("mout", "mjgang") and words[1] != me:
        if mode == "wrong" and words[0] == "mout" and not wrong_done:
            wrong_done = True
            say(f"out {hand[0]}")
        else:
            say("pass")
