"""arena's bot SDK: write a bot as one class per game, and `arena.main(MyBot)` plays it on
bot-host.

    import arena
    from arena.games import ddz

    class Smallest(ddz.Bot):
        release = "smallest-1"
        def play(self, obs):
            plays = [m for m in obs.legal if m != "pass"]
            return plays[0] if plays else "pass"

    arena.main(Smallest)     # ARENA_BOT, ARENA_TOKEN and ARENA_BOT_HOST from the environment

`arena.games` holds one module per game (`ddz`, `mahjong`, `mcr`), each with its `Bot` class;
`arena.main(MyDdzBot, MyMahjongBot)` plays several games on one connection. `arena.bot` is what
every game's class shares, `arena.client` the connection (Hello, Ping/Pong, capacity,
reconnect with resume, clean shutdown), `arena.wire` game names and the `Any`-packed game
messages, `arena.replay` the reader of replay exports, and `arena.v1` (the envelopes and
services) and `arena.<game>.v1` (each game's messages) the protocol's generated stubs.
"""
from arena.bot import AnswerError, GameBot
from arena.client import ArenaError, Player, Summary, main, run
from arena.wire import WireError

__all__ = ["AnswerError", "ArenaError", "GameBot", "Player", "Summary", "WireError", "main", "run"]


def __getattr__(name):
    # The single class for every game is gone with the game-neutral wire: say what replaced it
    # rather than a bare AttributeError.
    if name in ("Bot", "to_action", "mahjong_action"):
        raise AttributeError(f"arena.{name} is gone: a bot is one class per game, a subclass of "
                             f"arena.games.ddz.Bot or arena.games.mahjong.Bot (see sdk/python/README.md)")
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
