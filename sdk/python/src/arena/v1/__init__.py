"""The protocol's messages and stubs, package `arena.v1` (generated from the repository's
proto/arena/v1 by tools/generate.py; do not edit the *_pb2*.py files by hand).

Where each message lives: `bot_pb2` the bot's stream (Hello, Welcome, Ping/Pong, Drain,
TableStart/TableEnd, Notice, BotToHost/HostToBot) and `bot_pb2_grpc.BotGatewayStub`;
`seat_pb2` DecisionRequest and DecisionReply; `common_pb2` Game, DecisionKind, Action,
Observation and each game's messages; `table_pb2` Replay, TableJob, TableResult.
"""
