"""Protocol stubs of package `arena.ddz.v1`, generated from proto/arena/ddz/v1 by sdk/python/tools/generate.py."""
