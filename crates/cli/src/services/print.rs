//! What the table and competition clients print: a table's replay, a competition's standings.

use arena_proto::v1;

/// What a game's CLI prints its own way instead of the printers here (Mahjong: its hands as
/// the 2015 contest server's logs). A game without one is printed from the registry alone.
pub(crate) trait GamePrinter: Sync {
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

/// The printer of the game a message's `game` field names, if it has one of its own.
pub(super) fn printer_of(game: &str) -> Option<&'static dyn GamePrinter> {
    crate::game_printers::printer(arena_games::GameKind::from_wire(game).ok()?)
}

/// Prints a played table: its seats, the game's account of it
/// ([`arena_games::Game::describe_replay`]), its verdicts and scores.
pub(super) fn print_replay(job: &v1::TableJob, replay: &v1::Replay, result: &v1::TableResult) {
    if let Some(printer) = printer_of(&job.game) {
        let replay = v1::Replay {
            result: Some(result.clone()),
            ..replay.clone()
        };
        return printer.print_replay(&replay, None, false);
    }
    println!(
        "table {}: {}",
        job.table_id,
        job.seats
            .iter()
            .map(|s| s.bot.as_str())
            .collect::<Vec<_>>()
            .join(" / ")
    );
    if let Ok(game) = arena_games::GameKind::from_wire(&job.game) {
        for line in game.describe_replay(replay) {
            println!("{line}");
        }
    }
    print_verdicts_and_scores(result);
    if !result.error.is_empty() {
        println!("error: {}", result.error);
    }
}

/// How many finished tables the standings leave out (their deal is still being played
/// elsewhere), as a note after the table count; empty when none are.
/// A table's verdicts (each with its whole report when the reason is a cut of it) and its
/// scores, penalties and final scores: the end of every printed table, whatever its game.
pub(crate) fn print_verdicts_and_scores(result: &v1::TableResult) {
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

pub(crate) fn withheld_note(s: &v1::Standings) -> String {
    match s.tables_withheld {
        0 => String::new(),
        n => format!(" ({n} not counted yet: their deal is still being played at another table)"),
    }
}

pub(super) fn print_standings(s: &v1::Standings) {
    if let Some(printer) = printer_of(&s.game) {
        return printer.print_standings(s);
    }
    println!(
        "{}: {}/{} tables{}{}",
        s.competition,
        s.tables_done,
        s.tables_total,
        withheld_note(s),
        if s.r#final { ", final" } else { "" }
    );
    let w = s
        .standings
        .iter()
        .map(|x| x.participant.len())
        .max()
        .unwrap_or(0)
        .max("participant".len());
    let mut head = format!("  {:>5}  {:<w$}", "place", "participant", w = w);
    for k in 1..=s.standings.len() {
        head += &format!(" {:>6}", format!("P(#{k})"));
    }
    println!("{head}   {:<17} verdicts", "mean score");
    for x in &s.standings {
        let mut line = format!("  {:>5}  {:<w$}", x.place, x.participant, w = w);
        for p in &x.rank_probabilities {
            line += &format!(" {:>6.2}", p);
        }
        // A participant with fewer than two scores has no interval (an infinite half-width).
        let mean = if x.score_ci95.is_finite() {
            format!("{:+.3} ± {:.3}", x.mean_score, x.score_ci95)
        } else {
            format!("{:+.3}", x.mean_score)
        };
        println!("{line}   {mean:<17} {:>8}", x.verdicts);
    }
}
