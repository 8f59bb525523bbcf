#!/usr/bin/env python3
"""A remote Mahjong bot on the Python SDK (pip install ./sdk/python). It answers from each
request's legal answers alone: win whenever a win is legal, pung whenever it can, else discard
the tile with the fewest neighbours in its hand (the same tile, or its suit at most two ranks
away). Each method gets the seat's `arena.mahjong.v1.Observation`."""
import arena
from arena.games import mahjong

WINS = ("win", "self-drawn-win", "rob-kong")


def near(t, u):
    return t == u or (len(t) == len(u) == 2 and t[1] == u[1] and abs(int(t[0]) - int(u[0])) <= 2)


class Neighbours(mahjong.Bot):
    release = "py-mahjong-1"

    def turn(self, obs):
        return self.claim(obs)

    def claim(self, obs):
        legal, hand = list(obs.legal), obs.hand.split()
        pick = next((a for a in legal if a in WINS), None) or ("pung" if "pung" in legal else None)
        discards = [a for a in legal if a.startswith("discard ")]
        if not pick and discards:
            pick = min(discards, key=lambda a: sum(near(a.split()[1], u) for u in hand))
        return pick or "pass"

    rob_kong = claim


if __name__ == "__main__":
    arena.main(Neighbours)
