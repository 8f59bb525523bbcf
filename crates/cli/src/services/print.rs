//! What the table and competition clients print: a table's replay, a competition's standings.

use arena_games::commands::print::GamePrinter;
use arena_games::commands::print::{print_table_line, print_verdicts_and_scores, withheld_note};
use arena_proto::v1;

/// The printer of the game a message's `game` field names, if it has one of its own.
pub(super) fn printer_of(game: &str) -> Option<&'static dyn GamePrinter> {
    arena_games::GameKind::from_wire(game)
        .ok()?
        .game()
        .printer()
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
    print_table_line(job);
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
