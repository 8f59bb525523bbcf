"""Protocol stubs of package `arena.ddz`, generated from proto/arena/ddz by sdk/python/tools/generate.py."""
