"""Protocol stubs of package `arena.mahjong.v1`, generated from proto/arena/mahjong/v1 by sdk/python/tools/generate.py."""
