"""Protocol stubs of package `arena.mahjong`, generated from proto/arena/mahjong by sdk/python/tools/generate.py."""
