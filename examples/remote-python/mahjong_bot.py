#!/usr/bin/env python3
"""A remote Mahjong bot for arena, over gRPC (see README.md beside this file; the connection is
bot.py's). It says in its Hello that it plays Mahjong, then answers from each request's legal
answers alone: win whenever a win is legal, pung whenever it can, else discard the tile with the
fewest neighbours in its hand (the same tile, or its suit at most two ranks away)."""
from bot import play

WINS = ("win", "self-drawn-win", "rob-kong")


def near(t, u):
    return t == u or (len(t) == len(u) == 2 and t[1] == u[1] and abs(int(t[0]) - int(u[0])) <= 2)


def choose(req, pb):
    obs = req.observation.mahjong
    legal, hand = list(obs.legal), obs.hand.split()
    discards = [a for a in legal if a.startswith("discard ")]
    pick = next((a for a in legal if a in WINS), None) or ("pung" if "pung" in legal else None)
    if not pick and discards:
        pick = min(discards, key=lambda a: sum(near(a.split()[1], u) for u in hand))
    # A legal answer is `KIND [TILE]`: the kind's enum name in lower case with dashes.
    kind, _, tile = (pick or "pass").partition(" ")
    value = pb.MahjongActionKind.Value("MAHJONG_ACTION_KIND_" + kind.upper().replace("-", "_"))
    return pb.Action(mahjong=pb.MahjongAction(kind=value, tile=tile))


if __name__ == "__main__":
    play(choose, "py-mahjong-1", games=["GAME_MAHJONG"])
