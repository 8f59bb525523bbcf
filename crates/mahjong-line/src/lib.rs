//! The Mahjong line protocol of the 2015 AI contest (`docs/mahjong-line-protocol.md`): bots as
//! programs that read and write plain text lines, run unmodified.
//!
//! - [`codec`]: the lines as types ([`ServerMessage`], [`BotMessage`]) with `encode` and
//!   `decode`, and [`DecodeError`]s that name the problem. Pure: no I/O.

pub mod codec;

pub use codec::{BotMessage, DecodeError, ServerMessage, decode_bot_line, decode_server_line};
