//! The Mahjong side of `arena competition …`: standings with each bot's totals, and replays as
//! the 2015 server's logs (one table, or a whole competition's as a directory like the one
//! `arena mahjong match --log-dir` writes).

use std::collections::BTreeMap;
use std::path::Path;

use crate::mahjong::duplicate::log;
use anyhow::{Context, Result, anyhow};
use arena_proto::v1;
use mahjong::Reading;
use mahjong::schedule::{self, Slot};
use mahjong_bots::HandRecord;

/// A Mahjong table read back from its replay: where it sits, who played, what happened.
pub struct LoggedHand {
    /// The match (0 for a table that is no competition's).
    pub match_index: usize,
    /// Its slot in the match's schedule; seeds are 0 while the competition runs (they are not
    /// shown before it ends).
    pub slot: Slot,
    /// The bots by position (the competition's participants, else the seats in order).
    pub bots: [String; 4],
    /// The hand, played again from the replay.
    pub record: HandRecord,
    /// The fan reading it was scored with.
    pub reading: Reading,
}

/// Whether a message's game name is Mahjong's.
pub(crate) fn is_mahjong(game: &str) -> bool {
    crate::GameKind::from_wire(game) == Ok(crate::mahjong::GAME)
}

impl LoggedHand {
    /// Reads `replay`; `spec` is the competition's, when the table is one of a Mahjong
    /// competition's.
    pub fn of(replay: &v1::Replay, spec: Option<&v1::CompetitionSpec>) -> Result<LoggedHand> {
        let record = crate::mahjong::replay::hand_record(replay)?;
        let job = replay.job.clone().unwrap_or_default();
        let reading = match arena_proto::payload::unpack(job.setup.as_ref(), "setup") {
            Ok(s) => {
                crate::mahjong::spec::read_setup(&s, job.seed)
                    .map_err(|e| anyhow!("{}: {e}", job.table_id))?
                    .rules
                    .reading
            }
            Err(_) => Reading::Contest,
        };
        let seat_names: Vec<String> = job.seats.iter().map(|s| s.bot.clone()).collect();
        let placement = job.placement.clone().unwrap_or_default();
        let competition = spec.filter(|s| {
            is_mahjong(&s.game) && s.participants.len() == 4 && job.placement.is_some()
        });
        let Some(spec) = competition else {
            let bots: [String; 4] =
                std::array::from_fn(|s| seat_names.get(s).cloned().unwrap_or_default());
            let slot = Slot {
                match_seed: 0,
                hand: 0,
                group: 0,
                round: 0,
                deal: 0,
                group_seed: 0,
                deal_seed: 0,
                seats: [0, 1, 2, 3],
            };
            return Ok(LoggedHand {
                match_index: 0,
                slot,
                bots,
                record,
                reading,
            });
        };
        let (m, group, deal, round) = (
            placement.match_index as usize,
            placement.round as usize,
            placement.table as usize,
            placement.rotation as usize,
        );
        if group >= schedule::GROUPS || deal >= schedule::DEALS || round >= schedule::ROUNDS {
            return Err(anyhow!(
                "{}: placement {placement:?} is not in a match's schedule",
                job.table_id
            ));
        }
        let hand = (group * schedule::ROUNDS + round) * schedule::DEALS + deal;
        let slot = if spec.seed != 0 {
            schedule::schedule(spec.seed.wrapping_add(m as u64))[hand]
        } else {
            Slot {
                match_seed: 0,
                hand,
                group,
                round,
                deal,
                group_seed: 0,
                deal_seed: 0,
                seats: schedule::seating(group, round),
            }
        };
        let bots: [String; 4] = std::array::from_fn(|b| spec.participants[b].clone());
        let seated: Vec<&str> = slot.seats.iter().map(|&b| bots[b].as_str()).collect();
        if seated != seat_names {
            return Err(anyhow!(
                "{}: seated {seat_names:?}, but the schedule seats {seated:?}",
                job.table_id
            ));
        }
        Ok(LoggedHand {
            match_index: m,
            slot,
            bots,
            record,
            reading,
        })
    }

    /// The hand in the 2015 server's log format.
    pub fn log(&self) -> String {
        log::hand_log(&self.slot, &self.bots, &self.record, self.reading)
    }
}

/// Prints one Mahjong table's replay: its seats, then the hand in the log format, or only the
/// log with `log_only`.
pub fn print_replay(replay: &v1::Replay, spec: Option<&v1::CompetitionSpec>, log_only: bool) {
    let job = replay.job.clone().unwrap_or_default();
    let result = replay.result.clone().unwrap_or_default();
    if !log_only {
        crate::commands::print::print_table_line(&job);
    }
    match LoggedHand::of(replay, spec) {
        Ok(h) => print!("{}", h.log()),
        Err(e) => println!("error: {}", crate::commands::report::chain(&e)),
    }
    if log_only {
        return;
    }
    crate::commands::print::print_verdicts_and_scores(&result);
}

/// Writes `replays` (of the Mahjong competition `spec`) under `dir` as `arena mahjong match
/// --log-dir` does: `match-M/hand-HH.log` per hand, `match-M/hands.jsonl`, and
/// `match-M/scores.csv` (the hands exported, in schedule order). Returns the hands written.
pub fn write_logs(dir: &Path, spec: &v1::CompetitionSpec, replays: &[v1::Replay]) -> Result<usize> {
    let mut by_match: BTreeMap<usize, Vec<LoggedHand>> = BTreeMap::new();
    for r in replays {
        let h = LoggedHand::of(r, Some(spec))?;
        by_match.entry(h.match_index).or_default().push(h);
    }
    let mut n = 0;
    for (m, mut hands) in by_match {
        hands.sort_by_key(|h| h.slot.hand);
        let sub = dir.join(format!("match-{m}"));
        std::fs::create_dir_all(&sub).with_context(|| format!("creating {}", sub.display()))?;
        let mut jsonl = String::new();
        let mut summaries = Vec::with_capacity(hands.len());
        for h in &hands {
            let path = sub.join(format!("hand-{:02}.log", h.slot.hand));
            std::fs::write(&path, h.log())
                .with_context(|| format!("writing {}", path.display()))?;
            jsonl.push_str(&log::hand_json(&h.slot, &h.bots, &h.record, h.reading).to_string());
            jsonl.push('\n');
            summaries.push(crate::mahjong::duplicate::run::summarize(h.slot, &h.record));
            n += 1;
        }
        let path = sub.join("hands.jsonl");
        std::fs::write(&path, jsonl).with_context(|| format!("writing {}", path.display()))?;
        let bots = &hands[0].bots;
        let path = sub.join("scores.csv");
        std::fs::write(&path, log::score_sheet(bots, &summaries))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(n)
}

/// Prints a Mahjong competition's standings: each participant's probability of each place
/// (over complete matches), mean score per hand with its 95% interval (over complete deals), and
/// its totals.
pub fn print_standings(s: &v1::Standings) {
    println!(
        "{}: {}/{} hands{}{}, {} drawn",
        s.competition,
        s.tables_done,
        s.tables_total,
        crate::commands::print::withheld_note(s),
        if s.r#final { ", final" } else { "" },
        s.drawn_hands
    );
    let w = s
        .standings
        .iter()
        .map(|x| x.participant.chars().count().min(40))
        .max()
        .unwrap_or(0)
        .max("participant".len())
        + 3;
    println!(
        "  {:>5}  {:<w$}  P(#1)  P(#2)  P(#3)  P(#4)  {:>17}  {:>7}  {:>5}  {:>10}  {:>8}  {:>7}  {:>8}",
        "place",
        "participant",
        "per hand (95%)",
        "score",
        "wins",
        "self-drawn",
        "dealt in",
        "penalty",
        "verdicts"
    );
    for x in &s.standings {
        let t = crate::mahjong::convert::standing_of(x).unwrap_or_default();
        let name: String = x.participant.chars().take(40).collect();
        let mut line = format!(
            "  {:>5}  {:<w$}",
            x.place,
            format!("{}: {name}", (b'A' + (t.position as u8 & 3)) as char)
        );
        for p in &x.rank_probabilities {
            line += &format!("  {p:>5.2}");
        }
        let per_hand = if x.score_ci95.is_finite() {
            format!("{:+.2} ± {:.2}", x.mean_score, x.score_ci95)
        } else {
            format!("{:+.2}", x.mean_score)
        };
        println!(
            "{line}  {per_hand:>17}  {:>+7}  {:>5}  {:>10}  {:>8}  {:>7}  {:>8}",
            t.score, t.wins, t.self_drawn, t.dealt_in, t.penalties, t.verdicts
        );
    }
}

/// Mahjong's printer of the service clients' tables and standings: its hands as the 2015
/// contest server's logs.
pub struct MahjongPrinter;

impl crate::commands::print::GamePrinter for MahjongPrinter {
    fn print_replay(
        &self,
        replay: &v1::Replay,
        spec: Option<&v1::CompetitionSpec>,
        log_only: bool,
    ) {
        print_replay(replay, spec, log_only);
    }

    fn print_standings(&self, standings: &v1::Standings) {
        print_standings(standings);
    }

    fn write_logs(
        &self,
        dir: &Path,
        spec: &v1::CompetitionSpec,
        replays: &[v1::Replay],
    ) -> Result<usize> {
        write_logs(dir, spec, replays)
    }
}
