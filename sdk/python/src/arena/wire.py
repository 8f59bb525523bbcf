"""What every game shares on the wire: game names, and game messages carried in the `arena.v1`
envelopes as `google.protobuf.Any`.

A game is named by the one name it is registered under (`ddz`, `mahjong`); an empty name means
`ddz`. Its own messages live in its own package, `arena.<game>.v1`, and travel packed in an
`Any` whose type URL is `/arena.<game>.v1.<Message>` (docs/wire.md). Readers compare the name
after the last `/`, so the long form (`type.googleapis.com/...`, protobuf's default) reads too.
"""
import functools
import importlib
import pkgutil

from google.protobuf import any_pb2
from google.protobuf.message import DecodeError

# What an empty `game` field means: the platform's first game, as messages written before
# games had names expect.
DEFAULT_GAME = "ddz"

# The prefix of every type URL the platform writes: the shortest one protobuf's `Any.Is` accepts
# (it wants a `/` before the name), sparing 19 bytes per `Any` over `type.googleapis.com/`.
TYPE_URL_PREFIX = "/"


class WireError(ValueError):
    """A message that does not hold what the protocol says it holds (the message says what)."""


def game_name(name):
    """A `game` field's value as the game's name: empty means `ddz`."""
    return name or DEFAULT_GAME


def type_url(message_class):
    """The type URL an `Any` holding a `message_class` carries."""
    return TYPE_URL_PREFIX + message_class.DESCRIPTOR.full_name


def pack(message):
    """`message` (a game's message) as a `google.protobuf.Any`, its type URL `type_url`'s."""
    packed = any_pb2.Any()
    packed.Pack(message, type_url_prefix=TYPE_URL_PREFIX)
    return packed


def unpack(packed, message_class, what):
    """The `message_class` inside `packed` (an `Any`); `what` names the field in the error
    raised when it holds something else or is not a valid message."""
    want = message_class.DESCRIPTOR.full_name
    if not packed.type_url:
        raise WireError(f"{what} is empty (expected an {want})")
    if not packed.Is(message_class.DESCRIPTOR):
        raise WireError(f"{what} holds {packed.type_url!r}, not an {want} ({type_url(message_class)})")
    out = message_class()
    try:
        out.ParseFromString(packed.value)
    except DecodeError as e:
        raise WireError(f"{what} is not a valid {want} ({e})") from None
    return out


def decode_events(encoded, event_class, what):
    """Each of `encoded` (an envelope's `events`: bytes) decoded as an `event_class`."""
    out = []
    for i, data in enumerate(encoded):
        out.append(decode_event(event_class(), data, i, what))
    return out


def decode_event(event, data, index, what):
    """`event` (a game's event message, empty) read from `data`, event `index` of the events of
    `what`; raises `WireError` naming it when they are not a valid one."""
    try:
        event.ParseFromString(data)
    except DecodeError as e:
        raise WireError(f"{what} event {index} is not a valid {event.DESCRIPTOR.full_name} ({e})") from None
    return event


@functools.lru_cache(maxsize=None)
def load_messages():
    """Imports every generated message module of the SDK (`arena.v1` and each game's
    `arena.<game>.v1`, found by walking the package, not by a list), so that the default
    descriptor pool knows every game's messages: what the JSON mapping needs to print the
    `Any`s of a replay. Returns their names."""
    import arena

    names = []
    for info in pkgutil.walk_packages(arena.__path__, "arena."):
        if info.name.endswith("_pb2"):
            importlib.import_module(info.name)
            names.append(info.name)
    return tuple(sorted(names))
