#!/usr/bin/env python3
"""A remote Chinese Standard Mahjong bot on the Python SDK (pip install ./sdk/python). It wins
whenever a win is listed (the table lists HU only at 8 points), pungs whenever it can, else
discards the tile with the fewest neighbours in its hand. Each method gets the seat's
`arena.mcr.v1.Observation`; answers are Botzone's words, as `obs.legal` lists them."""
import arena
from arena.games import mcr


def near(t, u):  # the same tile, or a suited tile (W, B, T) at most two ranks away
    return t == u or (t[0] == u[0] in "WBT" and abs(int(t[1]) - int(u[1])) <= 2)


class Neighbours(mcr.Bot):
    release = "py-mcr-1"

    def turn(self, obs):
        legal, hand = list(obs.legal), obs.hand.split()
        if "HU" in legal:
            return "HU"
        plays = [a for a in legal if a.startswith("PLAY ")]
        return min(plays, key=lambda a: sum(near(a[5:], u) for u in hand)) if plays else legal[0]

    def claim(self, obs):
        return next((a for a in obs.legal if a == "HU" or a.startswith("PENG ")), "PASS")

    def rob_kong(self, obs):
        return "HU" if "HU" in obs.legal else "PASS"


if __name__ == "__main__":
    arena.main(Neighbours)
