"""Reads replay exports: length-delimited `arena.v1.Replay` messages (each a varint byte count,
then the message), as `arena competition replays NAME --out FILE` writes them.

    python3 -m arena.replay FILE [--table ID]      # or: arena-replay FILE
    for replay in arena.replay.read("cup.replays"): ...

The JSON is the protocol's canonical JSON mapping (lowerCamelCase names, enums by name, 64-bit
integers as strings, fields at their default left out, each game's messages in their
`google.protobuf.Any` as `{"@type": "/arena.ddz.v1.Action", ...}`), the
same `arena competition replay --json` and the Rust SDK print: one object per line. A replay
holding a game message the SDK has no stubs for (a game newer than it) is an error naming it.
"""
import argparse
import json
import sys

from google.protobuf import json_format
from google.protobuf.message import DecodeError

from arena import wire
from arena.v1 import table_pb2

# A replay larger than this is taken for a corrupt length, not read into memory.
MAX_REPLAY_BYTES = 64 << 20


class ReplayError(ValueError):
    """An export that is not a sequence of length-delimited replays (the message says where)."""


def _varint(data, pos, index):
    value = shift = 0
    start = pos
    while True:
        if pos >= len(data):
            raise ReplayError(f"replay {index} at byte {start}: the file ends inside its length")
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift >= 64:
            raise ReplayError(f"replay {index} at byte {start}: its length is not a varint")


def parse(data):
    """Every `Replay` in `data` (bytes), in order."""
    pos, index = 0, 0
    while pos < len(data):
        start = pos
        size, pos = _varint(data, pos, index)
        if size > MAX_REPLAY_BYTES:
            raise ReplayError(f"replay {index} at byte {start}: a length of {size} bytes is beyond {MAX_REPLAY_BYTES} (not a replay export?)")
        if pos + size > len(data):
            raise ReplayError(f"replay {index} at byte {start}: {size} bytes announced, {len(data) - pos} left in the file")
        replay = table_pb2.Replay()
        try:
            replay.ParseFromString(bytes(data[pos:pos + size]))
        except DecodeError as e:
            raise ReplayError(f"replay {index} at byte {start}: not an arena.v1.Replay ({e})") from None
        yield replay
        pos += size
        index += 1


def read(path_or_file):
    """Every `Replay` of an export, from a path or a binary file object."""
    if hasattr(path_or_file, "read"):
        data = path_or_file.read()
    else:
        with open(path_or_file, "rb") as f:
            data = f.read()
    return list(parse(data))


def to_dict(replay):
    """`replay` in the canonical JSON mapping, as Python values."""
    # The JSON of an Any needs its message type known: every game's stubs, loaded once.
    wire.load_messages()
    try:
        return json_format.MessageToDict(replay)
    except TypeError as e:
        # json_format's words for an Any of a type it does not know.
        raise ReplayError(f"replay of table {table_id(replay)!r}: {e} (a game this SDK has no stubs for?)") from None


def to_json(replay):
    """`replay` as one line of JSON."""
    return json.dumps(to_dict(replay), ensure_ascii=False, separators=(",", ":"))


def table_id(replay):
    """The table a replay is of."""
    return replay.job.table_id or replay.result.table_id


def main(argv=None):
    parser = argparse.ArgumentParser(prog="arena-replay", description="Prints a replay export (arena competition replays --out FILE) as JSON lines.")
    parser.add_argument("file", help="the export; - for standard input")
    parser.add_argument("--table", help="only the replay of this table id")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            replays = read(sys.stdin.buffer)
        else:
            replays = read(args.file)
    except OSError as e:
        print(f"arena-replay: {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"arena-replay: {args.file}: {e}", file=sys.stderr)
        return 2
    shown = 0
    for r in replays:
        if args.table is None or table_id(r) == args.table:
            try:
                print(to_json(r))
            except ReplayError as e:
                print(f"arena-replay: {args.file}: {e}", file=sys.stderr)
                return 2
            shown += 1
    if args.table is not None and shown == 0:
        print(f"arena-replay: {args.file}: no replay of table {args.table!r} among {len(replays)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
