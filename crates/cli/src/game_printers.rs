//! The games whose CLI prints tables and standings its own way ([`GamePrinter`]): the one
//! place the service clients' printers meet a game's own output (Mahjong's hands as the 2015
//! contest server's logs, written by `mahjong-match`, a crate above the games' registry).

use std::path::Path;

use anyhow::Result;
use arena_games::GameKind;
use arena_proto::v1;

use crate::services::print::GamePrinter;

/// Mahjong's printer: `mahjong_comp`'s logs and standings.
struct MahjongPrinter;

impl GamePrinter for MahjongPrinter {
    fn print_replay(
        &self,
        replay: &v1::Replay,
        spec: Option<&v1::CompetitionSpec>,
        log_only: bool,
    ) {
        crate::mahjong_comp::print_replay(replay, spec, log_only);
    }

    fn print_standings(&self, standings: &v1::Standings) {
        crate::mahjong_comp::print_standings(standings);
    }

    fn write_logs(
        &self,
        dir: &Path,
        spec: &v1::CompetitionSpec,
        replays: &[v1::Replay],
    ) -> Result<usize> {
        crate::mahjong_comp::write_logs(dir, spec, replays)
    }
}

/// `game`'s printer, if it prints its own way.
pub(crate) fn printer(game: GameKind) -> Option<&'static dyn GamePrinter> {
    (game == arena_games::mahjong::GAME).then_some(&MahjongPrinter as &dyn GamePrinter)
}
