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

/// A decision limit for people: `6000 ms a decision`, and `, 4000 ms from its second` when a
/// seat's later decisions have another (`later_ms` 0 or the same: none).
pub fn clock_phrase(decision_ms: u32, later_ms: u32) -> String {
    if later_ms == 0 || later_ms == decision_ms {
        format!("{decision_ms} ms a decision")
    } else {
        format!("{decision_ms} ms a decision, {later_ms} ms from its second")
    }
}

/// Each seat's clock as a table's result records it (`seat_time`, `seat_later_time`), a line a
/// seat (`clock of seat 1: 6000 ms a decision, 4000 ms from its second, hard cap 10000 ms`),
/// when the seats did not all play by the same one (a registered bot's own limit); none when
/// they did, and for a result that records no clock (every seat had the job's).
pub fn seat_clock_lines(result: &v1::TableResult) -> Vec<String> {
    let clocks: Vec<(&v1::TimeControl, &v1::TimeControl)> = result
        .seat_time
        .iter()
        .enumerate()
        .map(|(seat, first)| (first, result.seat_later_time.get(seat).unwrap_or(first)))
        .collect();
    if clocks.iter().all(|c| *c == clocks[0]) {
        return Vec::new();
    }
    clocks
        .iter()
        .enumerate()
        .map(|(seat, (first, later))| {
            let cap = if later.hard_cap_ms == first.hard_cap_ms {
                String::new()
            } else {
                format!(", {} ms from its second", later.hard_cap_ms)
            };
            format!(
                "clock of seat {seat}: {}, hard cap {} ms{cap}",
                clock_phrase(first.decision_ms, later.decision_ms),
                first.hard_cap_ms
            )
        })
        .collect()
}

/// Prints a table result's seats' clocks when they differ ([`seat_clock_lines`]), its verdicts
/// (each with its full report) and its scores.
pub fn print_verdicts_and_scores(result: &v1::TableResult) {
    for line in seat_clock_lines(result) {
        println!("  {line}");
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(decision_ms: u32, hard_cap_ms: u32) -> v1::TimeControl {
        v1::TimeControl {
            decision_ms,
            hard_cap_ms,
            claim_ms: 500,
            ..Default::default()
        }
    }

    #[test]
    fn seats_clocks_are_printed_when_one_differs_and_only_then() {
        let table = clock(1000, 5000);
        let mut result = v1::TableResult {
            seat_time: vec![table; 3],
            seat_later_time: vec![table; 3],
            ..Default::default()
        };
        assert!(seat_clock_lines(&result).is_empty(), "all the table's");
        assert!(
            seat_clock_lines(&v1::TableResult::default()).is_empty(),
            "an old result"
        );
        result.seat_time[1] = clock(6000, 10_000);
        result.seat_later_time[1] = clock(4000, 8000);
        assert_eq!(
            seat_clock_lines(&result),
            [
                "clock of seat 0: 1000 ms a decision, hard cap 5000 ms",
                "clock of seat 1: 6000 ms a decision, 4000 ms from its second, hard cap 10000 ms, \
                 8000 ms from its second",
                "clock of seat 2: 1000 ms a decision, hard cap 5000 ms",
            ]
        );
    }
}
