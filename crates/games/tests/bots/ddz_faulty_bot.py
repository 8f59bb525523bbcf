#!/usr/bin/env python3
"""A test bot that plays legally (bid 0, never double, first listed move) until it faults.

usage: ddz_faulty_bot.py FAULT [--game N] [--at bid|double|play] [--nth K] [--text LINE]
                       [--sleep-ms MS] [--child 1]

It faults at the K-th request of the given kind (default: the first play request) in game N
(default 1, the number on the `game` line), and plays legally in every other game. Faults:

  none          never fault
  crash         write to stderr and exit with code 3
  hang          stop answering (sleep for an hour); with --child 1, first start a child process
                that sleeps too, and print both process ids as comments
  garbage       answer the line given by --text (default "plya 33")
  illegal       answer a well-formed but illegal line: for a bid, the highest bid so far; for a
                play, "pass" on a free lead, else cards not in hand
  late          sleep --sleep-ms milliseconds, then answer legally
  unsolicited   answer legally, then write one more line, "play 3"
  long          answer with a line of 100000 characters
  stderr-flood  write 256 KiB to stderr before every answer, then answer legally
  comment-flood write 2000 comment lines before every answer, then answer legally
  no-join       write "bid 1" instead of "join" at start (every game)
  silent        never write "join" (every game)
  exit-after-game  exit with code 0 after every "end" line (not a fault of the game)
"""
import os
import subprocess
import sys
import time

RANKS = "3456789TJQKA2BR"


def main():
    args = sys.argv[1:]
    fault = args[0]
    opts = dict(zip(args[1::2], args[2::2]))
    game_at = int(opts.get("--game", "1"))
    kind_at = opts.get("--at", "play")
    nth = int(opts.get("--nth", "1"))
    text = opts.get("--text", "plya 33")
    sleep_ms = int(opts.get("--sleep-ms", "300"))

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    print(f"# pid {os.getpid()}", flush=True)
    if fault == "silent":
        time.sleep(3600)
    send("bid 1" if fault == "no-join" else "join faulty")
    game, seen, hand, highest_bid = 0, 0, "", 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "game":
            game, seen, highest_bid = int(words[1]), 0, 0
        elif words[0] == "hand":
            hand = words[1]
        elif words[0] == "bid":
            highest_bid = max(highest_bid, int(words[2]))
        elif words[0] == "end" and fault == "exit-after-game":
            sys.exit(0)
        elif words[0] == "bye":
            return
        if words[0] != "ask":
            continue
        kind, legal = words[1], words[3:]
        answer = {"bid": "bid 0", "double": "double 0", "redouble": "double 0"}.get(kind)
        answer = answer or "play " + legal[0]
        if kind == kind_at or (kind_at == "double" and kind == "redouble"):
            seen += 1
        if game != game_at or seen != nth or fault == "none":
            if fault == "stderr-flood":
                sys.stderr.write(("y" * 1023 + "\n") * 256)
                sys.stderr.flush()
            if fault == "comment-flood":
                sys.stdout.write("# thinking hard\n" * 2000)
            send(answer)
            continue
        seen += 1  # fault once
        if fault == "crash":
            sys.stderr.write("ddz_faulty_bot: crashing on purpose\n")
            sys.stderr.flush()
            sys.exit(3)
        elif fault == "hang":
            if opts.get("--child") == "1":
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
                send(f"# child {child.pid}")
            time.sleep(3600)
        elif fault == "garbage":
            send(text)
        elif fault == "illegal":
            if kind == "bid":
                send(f"bid {highest_bid}")
            elif legal[0] != "pass":
                send("play pass")
            else:
                # One more card of a rank than the hand holds (it was dealt no more).
                rank = next(r for r in RANKS if hand.count(r) < (1 if r in "BR" else 4))
                send("play " + rank * (hand.count(rank) + 1))
        elif fault == "late":
            time.sleep(sleep_ms / 1000)
            send(answer)
        elif fault == "unsolicited":
            send(answer)
            send("play 3")
        elif fault == "long":
            send("play " + "3" * 100000)
        else:
            send(answer)


if __name__ == "__main__":
    main()
