"""Protocol stubs of package `arena.mcr.v1`, generated from proto/arena/mcr/v1 by sdk/python/tools/generate.py."""
