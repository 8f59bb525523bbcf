"""The platform's protocol messages and stubs, package `arena.v1` (generated from the
repository's proto/arena/v1 by tools/generate.py; do not edit the *_pb2*.py files by hand).

Where each message lives: `bot_pb2` the bot's stream (Hello, Welcome, Ping/Pong, Drain,
TableStart/TableEnd, Notice, BotToHost/HostToBot) and `bot_pb2_grpc.BotGatewayStub`;
`seat_pb2` DecisionRequest and DecisionReply; `common_pb2` DecisionKind and the game-neutral
envelopes Action, Observation and Outcome (each carrying its game's own message as a
`google.protobuf.Any`); `table_pb2` Replay, TableJob, TableResult. Each game's own messages are
in its own package, `arena.<game>.v1` (`arena.ddz.v1.ddz_pb2`, `arena.mahjong.v1.mahjong_pb2`).
"""
