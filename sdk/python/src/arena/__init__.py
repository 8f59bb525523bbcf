"""arena's bot SDK: write a bot as a class, and `arena.main(MyBot)` plays it on bot-host.

    import arena

    class Smallest(arena.Bot):
        release = "smallest-1"
        def play(self, obs):
            plays = [m for m in obs.legal if m != "pass"]
            return plays[0] if plays else "pass"

    arena.main(Smallest)     # ARENA_BOT, ARENA_TOKEN and ARENA_BOT_HOST from the environment

`arena.bot` is what a bot is, `arena.client` the connection (Hello, Ping/Pong, capacity,
reconnect with resume, clean shutdown), `arena.replay` the reader of replay exports, and
`arena.v1` the protocol's generated messages and stubs, for everything else.
"""
from arena.bot import AnswerError, Bot, mahjong_action, to_action
from arena.client import ArenaError, Player, Summary, main, run

__all__ = ["AnswerError", "ArenaError", "Bot", "Player", "Summary", "main", "mahjong_action", "run", "to_action"]
