//! The service roles (`arena table-referee`, `arena bot-host`, `arena standalone`) and their
//! operator commands (`arena operators …`, `arena table run`; `arena bots …` is `bots_cmd`),
//! a module per responsibility: the shared flag groups ([`flags`], [`metrics`]), the flags a
//! game adds to a command ([`game_options`], from its registration), each role's
//! flags ([`role_args`]) and launcher ([`roles`]), the table client ([`table`]), the
//! matchmaker's clients ([`competition`], [`competition_spec`], [`leaderboard`]), operator
//! tokens ([`operators`]) and the printers ([`print`]). None names a game: `--game` is any
//! registered game, and what differs per game comes from `arena_games::Game`.

use anyhow::{Context, Result};

mod competition;
mod competition_spec;
mod flags;
mod game_options;
mod leaderboard;
mod metrics;
mod operators;
pub(crate) mod print;
mod role_args;
mod roles;
mod table;

pub use competition::{CompetitionCommand, competition};
pub use flags::GameArg;
pub use leaderboard::{LeaderboardArgs, leaderboard};
pub use operators::{OperatorsCommand, operators};
pub use role_args::{BotHostArgs, DealLibraryArgs, MatchmakerArgs, RefereeArgs, StandaloneArgs};
pub use roles::{bot_host, deal_library, matchmaker, referee, standalone};
pub use table::{TableCommand, table};

/// The runtime a client command or a role runs on.
fn runtime() -> Result<tokio::runtime::Runtime> {
    arena_serve::runtime::serving().context("starting the runtime")
}
