"""The games a bot can play, one module each: `arena.games.ddz`, `arena.games.mahjong`, ….

Each module names its game (`GAME = "ddz"`, its registered name) and holds its `Bot` class (an
`arena.bot.GameBot`: the decision methods, the game's messages, how an answer becomes its
action). The modules are found by walking this package, not from a list, so adding a game is
adding a module here (and its `.proto` under proto/arena/<game>/v1, whose stubs
tools/generate.py makes).
"""
import functools
import importlib
import pkgutil


@functools.lru_cache(maxsize=None)
def _modules():
    found = {}
    for info in pkgutil.iter_modules(__path__, __name__ + "."):
        module = importlib.import_module(info.name)
        name = getattr(module, "GAME", None)
        if name is None:
            continue
        bot = getattr(module, "Bot", None)
        if bot is None or getattr(bot, "game", None) != name:
            raise ImportError(f"{info.name} says GAME = {name!r} but its Bot class is not that game's")
        if name in found:
            raise ImportError(f"{info.name} and {found[name].__name__} both say GAME = {name!r}")
        found[name] = module
    return found


def names():
    """The names of every game the SDK has a module for, sorted."""
    return sorted(_modules())


def module(name):
    """The module of the game registered as `name`, or None."""
    return _modules().get(name)
