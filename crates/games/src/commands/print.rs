//! What the service clients print of a game's tables and competitions, shared with the games
//! that print them their own way ([`GamePrinter`], e.g. Mahjong's hands as the 2015 contest
//! server's logs).

use arena_proto::v1;

/// What a game's CLI prints its own way instead of the service clients' generic printers
/// ([`Game::printer`](crate::Game::printer)). A game without one is printed from the registry
/// alone.
pub trait GamePrinter: Sync {
    /// Prints one table's replay (its result inside), with the competition's spec when the
    /// table is a competition's; `log_only`: only the game's own log of it (`--log`).
    fn print_replay(&self, replay: &v1::Replay, spec: Option<&v1::CompetitionSpec>, log_only: bool);

    /// Prints a competition's standings.
    fn print_standings(&self, standings: &v1::Standings);

    /// Writes a competition's tables under `dir` as the game's logs (`--log-dir`); returns how
    /// many tables it wrote.
    fn write_logs(
        &self,
        dir: &std::path::Path,
        spec: &v1::CompetitionSpec,
        replays: &[v1::Replay],
    ) -> anyhow::Result<usize>;
}

/// Prints the line that opens a played table: its id and its seats' bots.
pub fn print_table_line(job: &v1::TableJob) {
    let seats: Vec<&str> = job.seats.iter().map(|s| s.bot.as_str()).collect();
    println!("table {}: {}", job.table_id, seats.join(" / "));
}

/// Prints a table result's verdicts (each with its full report) and its scores.
pub fn print_verdicts_and_scores(result: &v1::TableResult) {
    for v in &result.verdicts {
        println!("  verdict: seat {} {:?}: {}", v.seat, v.kind(), v.reason);
        if !v.detail.is_empty() {
            // The whole report the reason is cut from: a crash's exit status, limits, stderr.
            println!("    in full: {}", v.detail);
        }
    }
    if let Some(o) = &result.outcome {
        println!(
            "scores ({}): {:?}; penalties {:?}; final {:?}",
            o.scoring, o.scores, result.penalties, result.final_scores
        );
    }
}

/// What standings say of the finished tables they leave out (empty when none).
pub fn withheld_note(s: &v1::Standings) -> String {
    match s.tables_withheld {
        0 => String::new(),
        n => format!(" ({n} not counted yet: their deal is still being played at another table)"),
    }
}
