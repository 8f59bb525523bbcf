"""Protocol stubs of package `arena.mcr`, generated from proto/arena/mcr by sdk/python/tools/generate.py."""
