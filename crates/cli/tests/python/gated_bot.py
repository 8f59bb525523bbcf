#!/usr/bin/env python3
"""A test bot: the Python SDK's Dou Dizhu example (examples/remote-python/bot.py), printing
`asked TABLE REQUEST` to stdout at every decision, with its first decision held until a line
arrives on stdin, so a test can act (cut the connection, send SIGTERM) while a table is in
flight and the bot has a request pending."""
import pathlib
import sys
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[4] / "examples" / "remote-python"))

import arena  # noqa: E402
from bot import Smallest  # noqa: E402

held = threading.Lock()


class Gated(Smallest):
    def decide(self, request):
        print(f"asked {request.table_id} {request.request_id}", flush=True)
        if held.acquire(blocking=False):
            sys.stdin.readline()
        return super().decide(request)


if __name__ == "__main__":
    arena.main(Gated, backoff=(0.05, 0.5))
