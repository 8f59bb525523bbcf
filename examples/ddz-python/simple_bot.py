#!/usr/bin/env python3
"""A simple Dou Dizhu bot for the arena's line protocol (docs/ddz-line-protocol.md).

Standard library only. It bids by counting points, never doubles, leads its smallest move
and, when following, beats with the first listed move unless its partner made the play.
"""
import sys

RANKS = "3456789TJQKA2BR"


def bid_points(hand):
    """Rocket 8, bomb 6, red joker 4, black joker 3, each 2 (outside a bomb) 2."""
    points = 8 if "B" in hand and "R" in hand else 4 * ("R" in hand) + 3 * ("B" in hand)
    for rank in set(hand):
        if hand.count(rank) == 4:
            points += 6
        elif rank == "2":
            points += 2 * hand.count(rank)
    return points


def wanted_bid(hand):
    points = bid_points(hand)
    return 3 if points >= 7 else 2 if points >= 5 else 1 if points >= 3 else 0


def smallest(moves):
    """The move with the lowest card, fewest cards first."""
    return min(moves, key=lambda m: (RANKS.index(m[0]), len(m)))


def send(line):
    print(line, flush=True)  # every answer must be flushed at once


def main():
    send("join simple-python")
    seat = landlord = last_player = None
    hand = ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        if cmd == "game":
            landlord = last_player = None
        elif cmd == "seat":
            seat = int(args[0])
        elif cmd == "hand":
            hand = args[0]
            send(f"# seat {seat} holds {len(hand)} cards")  # a comment: the server ignores it
        elif cmd == "landlord":
            landlord = int(args[0])
        elif cmd == "play" and args[1] != "pass":
            last_player = int(args[0])
        elif cmd == "ask" and args[0] == "bid":
            legal = [int(b) for b in args[2:]]
            want = wanted_bid(hand)
            send(f"bid {want if want in legal else 0}")
        elif cmd == "ask" and args[0] == "play":
            moves = args[2:]  # legal moves, "pass" first when following
            if moves[0] != "pass":
                send(f"play {smallest(moves)}")
            elif len(moves) == 1 or (seat != landlord and last_player != landlord):
                send("play pass")  # nothing beats it, or my partner made the play
            else:
                send(f"play {moves[1]}")
        elif cmd == "ask":  # double or redouble
            send("double 0")
        elif cmd == "bye":
            break


if __name__ == "__main__":
    main()
