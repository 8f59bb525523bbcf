//! Playing matches: every hand of the schedule on a pool of worker threads, each with its own
//! four entrants (and a runtime for their programs), on the one runner; the results gathered in
//! schedule order (and written to the log directory as they complete).

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

use arena_proto::v1;
use arena_table::run::Played;
use arena_table::{BotHosts, ProgramBot, RunOptions, Scratch, play_fast};
use mahjong::schedule::{HANDS, Slot, schedule};
use mahjong::stats::{HandSummary, MatchTotals, Standings};
use mahjong::{Deal, Rules};
use mahjong_bots::{HandRecord, Player, VerdictKind};

use super::{Entrant, log};
use crate::mahjong::replay::hand_record;
use crate::mahjong::spec::{MahjongSpec, setup_of};
use crate::mahjong::{MahjongBot, MahjongTable};

/// Makes the entrant of one bot position; called once per position per worker thread. `Err`
/// says why the bot cannot be made (e.g. its command line does not parse).
pub type PlayerFactory<'a> = dyn Fn(usize) -> Result<Entrant, String> + Sync + 'a;

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The four bots' names, by position (for reports and logs).
    pub bots: [String; 4],
    /// The first match's seed; match `m` has seed `seed + m`.
    pub seed: u64,
    /// How many matches of 96 hands.
    pub matches: usize,
    /// The rules (the fan reading).
    pub rules: Rules,
    /// The time control of hands with a program (built-in bots' hands are untimed): the
    /// contest's is [`crate::mahjong::spec::contest_time`].
    pub time: v1::TimeControl,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where to write per-hand logs, score sheets and JSON lines, if anywhere.
    pub log_dir: Option<PathBuf>,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bot could not be made.
    #[error("bot {position} ({name}): {reason}")]
    Bot {
        /// Its position.
        position: usize,
        /// Its name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A hand could not be played (an internal error: a built-in bot's illegal action, a
    /// table that could not be run).
    #[error("hand {hand} of match {match_seed}: {reason}")]
    Hand {
        /// The match's seed.
        match_seed: u64,
        /// The hand in the match.
        hand: usize,
        /// What went wrong.
        reason: String,
    },
    /// Writing the logs failed.
    #[error("writing {path}: {source}")]
    Log {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// A verdict against a bot in one hand.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VerdictEntry {
    /// The match's seed.
    pub match_seed: u64,
    /// The hand in the match.
    pub hand: usize,
    /// The bot's position.
    pub bot: usize,
    /// Its seat in that hand.
    pub seat: u8,
    /// What kind of fault.
    pub kind: VerdictKind,
    /// What happened.
    pub reason: String,
}

/// Every match played, with their statistics.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The four bots' names, by position.
    pub bots: [String; 4],
    /// Each match's totals, in seed order.
    pub per_match: Vec<MatchTotals>,
    /// Every hand, in schedule order, match after match.
    pub hands: Vec<HandSummary>,
    /// Totals, places and intervals over all matches.
    pub standings: Standings,
    /// Every verdict, in hand order.
    pub verdicts: Vec<VerdictEntry>,
}

/// The summary of one played hand.
pub fn summarize(slot: Slot, record: &HandRecord) -> HandSummary {
    let mut verdicts = [0u32; 4];
    for v in &record.verdicts {
        verdicts[usize::from(v.seat & 3)] += 1;
    }
    let win = record.outcome.win.as_ref();
    HandSummary {
        slot,
        first: record.first,
        scores: record.scores,
        penalties: record.penalties,
        winner: win.map(|w| w.seat),
        dealt_in: win.and_then(|w| w.from),
        fans: win.map(|w| w.fans.total),
        verdicts,
    }
}

/// What a worker thread plays its hands with: the four entrants, the runner's buffers, and a
/// runtime for the programs' I/O.
pub struct Seats {
    entrants: [Entrant; 4],
    scratch: Scratch<MahjongTable>,
    runtime: tokio::runtime::Runtime,
}

impl Seats {
    /// `entrants[b]` as bot position `b`.
    pub fn new(entrants: [Entrant; 4]) -> Result<Seats, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("no runtime for the programs' I/O: {e}"))?;
        Ok(Seats {
            entrants,
            scratch: Scratch::new(),
            runtime,
        })
    }
}

/// Plays one hand of the schedule with `seats`' entrant `b` as bot position `b` (`names[b]`,
/// as the job names it), on the one runner: on its fast path when every seat is a built-in bot
/// (each seeded with the deal's fingerprint), else refereed under `time` and play-on.
pub fn play_slot(
    slot: &Slot,
    rules: Rules,
    time: v1::TimeControl,
    names: &[String; 4],
    seats: &mut Seats,
) -> Result<HandRecord, MatchError> {
    let failed = |reason: String| MatchError::Hand {
        match_seed: slot.match_seed,
        hand: slot.hand,
        reason,
    };
    let deal = Deal::from_seed(slot.deal_seed);
    let programs: Vec<Option<ProgramBot>> = slot
        .seats
        .iter()
        .map(|&b| match &seats.entrants[b] {
            Entrant::Program(p) => Some((**p).clone()),
            Entrant::Player(_) => None,
        })
        .collect();
    let mut record = if programs.iter().all(Option::is_none) {
        let mut by_position = seats.entrants.each_mut().map(|e| match e {
            Entrant::Player(p) => Some(&mut **p),
            Entrant::Program(_) => None,
        });
        let mut bots = Vec::with_capacity(4);
        for &b in &slot.seats {
            let p: &mut dyn Player = by_position[b]
                .take()
                .ok_or_else(|| failed("a seating is a permutation of the four bots".into()))?;
            bots.push(MahjongBot::with(p));
        }
        let mut table = MahjongTable::new(&MahjongSpec { deal, rules });
        play_fast(
            &mut table,
            &mut bots,
            deal.fingerprint(),
            &mut seats.scratch,
        )
        .map_err(|e| failed(e.to_string()))?;
        fast_record(&table, &deal)
    } else {
        let job = v1::TableJob {
            table_id: format!("match-{}/hand-{:02}", slot.match_seed, slot.hand),
            game: crate::mahjong::GAME.name().into(),
            // A program's seat is named as its position: the job names no program (a referee
            // never starts one); the program is handed to the runner beside it.
            seats: slot
                .seats
                .iter()
                .zip(&programs)
                .map(|(&b, program)| v1::SeatSpec {
                    bot: match program {
                        Some(_) => format!("position-{b}"),
                        None => names[b].clone(),
                    },
                })
                .collect(),
            // The set-up gives the deal; the seed seeds the built-in bots, as on the fast path.
            seed: deal.fingerprint(),
            time: Some(time),
            setup: Some(arena_proto::payload::pack(&setup_of(&deal, rules.reading))),
            ..Default::default()
        };
        let checked = crate::validate(&job).map_err(|e| failed(e.to_string()))?;
        let opts = RunOptions::default();
        let played = seats.runtime.block_on(checked.play_with_programs(
            &job,
            &opts,
            &BotHosts::default(),
            &programs,
        ));
        let record = match played {
            Played::Finished(record) => record,
            Played::Interrupted(why) => return Err(failed(why)),
        };
        let (_, replay) = record.into_replay(Some(&job));
        hand_record(&replay).map_err(|e| failed(e.to_string()))?
    };
    record.seed = Some(slot.deal_seed);
    Ok(record)
}

/// The record of a hand played on the fast path: no time, so no penalties and no verdicts.
fn fast_record(table: &MahjongTable, deal: &Deal) -> HandRecord {
    let game = table.game();
    let outcome = game.outcome().cloned().unwrap_or(mahjong::Outcome::DRAWN);
    let initial = std::array::from_fn(|s| {
        let hand = deal.wall.initial_hand(s as u8);
        std::array::from_fn(|i| hand[i])
    });
    HandRecord {
        seed: None,
        first: game.first(),
        initial,
        events: game.events().to_vec(),
        scores: outcome.scores,
        outcome,
        penalties: [0; 4],
        verdicts: Vec::new(),
    }
}

/// One finished hand on its way from a worker to the collector.
struct Done {
    index: usize,
    summary: HandSummary,
    verdicts: Vec<VerdictEntry>,
    /// The text log and the JSON line, when logging.
    logs: Option<(String, String)>,
}

/// Plays `config.matches` matches; `progress` counts finished hands.
pub fn run(
    config: &MatchConfig,
    factory: &PlayerFactory<'_>,
    progress: &AtomicU64,
) -> Result<MatchReport, MatchError> {
    // Make every bot once up front, so a bad bot fails before any hand is played.
    for position in 0..4 {
        factory(position).map_err(|reason| MatchError::Bot {
            position,
            name: config.bots[position].clone(),
            reason,
        })?;
    }
    let slots: Vec<Slot> = (0..config.matches as u64)
        .flat_map(|m| schedule(config.seed.wrapping_add(m)))
        .collect();
    let next = AtomicUsize::new(0);
    let threads = config.threads.max(1).min(slots.len().max(1));
    let reading = config.rules.reading;
    let logging = config.log_dir.is_some();
    let (tx, rx) = mpsc::sync_channel::<Result<Done, MatchError>>(4 * threads);

    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (slots, next) = (&slots, &next);
            s.spawn(move || {
                let made: Result<Vec<Entrant>, MatchError> = (0..4)
                    .map(|position| {
                        factory(position).map_err(|reason| MatchError::Bot {
                            position,
                            name: config.bots[position].clone(),
                            reason,
                        })
                    })
                    .collect();
                let seats = made.and_then(|v| {
                    let four: [Entrant; 4] = v
                        .try_into()
                        .unwrap_or_else(|_| unreachable!("four entrants"));
                    Seats::new(four).map_err(|reason| MatchError::Hand {
                        match_seed: config.seed,
                        hand: 0,
                        reason,
                    })
                });
                let mut seats = match seats {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(slot) = slots.get(index) else { break };
                    let record = match play_slot(
                        slot,
                        config.rules,
                        config.time,
                        &config.bots,
                        &mut seats,
                    ) {
                        Ok(r) => r,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            break;
                        }
                    };
                    let verdicts = record
                        .verdicts
                        .iter()
                        .map(|v| VerdictEntry {
                            match_seed: slot.match_seed,
                            hand: slot.hand,
                            bot: slot.seats[usize::from(v.seat & 3)],
                            seat: v.seat,
                            kind: v.kind,
                            reason: v.reason.clone(),
                        })
                        .collect();
                    let logs = logging.then(|| {
                        (
                            log::hand_log(slot, &config.bots, &record, reading),
                            log::hand_json(slot, &config.bots, &record, reading).to_string(),
                        )
                    });
                    let done = Done {
                        index,
                        summary: summarize(*slot, &record),
                        verdicts,
                        logs,
                    };
                    if tx.send(Ok(done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        collect(config, &slots, rx, progress)
    })
}

/// Gathers finished hands in schedule order, writing logs as each match's hands arrive.
fn collect(
    config: &MatchConfig,
    slots: &[Slot],
    rx: mpsc::Receiver<Result<Done, MatchError>>,
    progress: &AtomicU64,
) -> Result<MatchReport, MatchError> {
    let mut waiting: BTreeMap<usize, Done> = BTreeMap::new();
    let mut hands: Vec<HandSummary> = Vec::with_capacity(slots.len());
    let mut verdicts = Vec::new();
    let mut per_match = Vec::new();
    let mut writer: Option<MatchWriter> = None;
    let mut first_error = None;
    for item in rx {
        let done = match item {
            Ok(d) => d,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        progress.fetch_add(1, Ordering::Relaxed);
        waiting.insert(done.index, done);
        while let Some(done) = waiting.remove(&hands.len()) {
            if first_error.is_some() {
                hands.push(done.summary);
                continue;
            }
            let slot = done.summary.slot;
            if let Some(dir) = &config.log_dir {
                if slot.hand == 0 {
                    match MatchWriter::open(dir, slot.match_seed) {
                        Ok(w) => writer = Some(w),
                        Err(e) => {
                            first_error = Some(e);
                            hands.push(done.summary);
                            continue;
                        }
                    }
                }
                if let (Some(w), Some((text, json))) = (writer.as_mut(), &done.logs)
                    && let Err(e) = w.hand(slot.hand, text, json)
                {
                    first_error.get_or_insert(e);
                }
            }
            verdicts.extend(done.verdicts);
            hands.push(done.summary);
            if slot.hand + 1 == HANDS {
                let these = &hands[hands.len() - HANDS..];
                let totals = MatchTotals::of(slot.match_seed, these);
                if let Some(w) = writer.take()
                    && let Err(e) = w.finish(&config.bots, these, &totals)
                {
                    first_error.get_or_insert(e);
                }
                per_match.push(totals);
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let standings = Standings::of(&per_match, &hands);
    Ok(MatchReport {
        bots: config.bots.clone(),
        per_match,
        hands,
        standings,
        verdicts,
    })
}

/// One bot's line in a match result.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayerResult {
    /// The bot's name.
    pub bot: String,
    /// Its total score, time penalties included.
    pub score: i64,
    /// Hands won.
    pub wins: u32,
    /// Of which self-drawn.
    pub self_drawn: u32,
    /// Hands it dealt in.
    pub dealt_in: u32,
    /// Time penalty points.
    pub penalty: i64,
    /// Verdicts.
    pub verdicts: u32,
    /// Mean score per hand (reports of several matches and the command line).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mean_per_hand: Option<f64>,
    /// Half-width of its 95% interval, over deals.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ci95: Option<f64>,
    /// Probability of each place, over matches.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub places: Option<[f64; 4]>,
}

/// A match's (or several matches') result, as `--json` prints it: hands, draws, seed and each
/// bot's totals in position order. Fields serialize in this order.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchResult {
    /// Hands played.
    pub hands: usize,
    /// Hands without a winner.
    pub draws: u32,
    /// The (first) match's seed.
    pub seed: u64,
    /// Matches played.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub matches: Option<usize>,
    /// The fan reading.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fans: Option<String>,
    /// Per bot, in position order.
    pub players: Vec<PlayerResult>,
}

impl MatchResult {
    /// The totals of `totals`, the bots named `bots`.
    pub fn of(bots: &[String; 4], totals: &MatchTotals) -> MatchResult {
        MatchResult {
            hands: totals.hands,
            draws: totals.draws,
            seed: totals.seed,
            matches: None,
            fans: None,
            players: totals
                .players
                .iter()
                .zip(bots)
                .map(|(p, b)| PlayerResult {
                    bot: b.clone(),
                    score: p.score,
                    wins: p.wins,
                    self_drawn: p.self_drawn,
                    dealt_in: p.dealt_in,
                    penalty: p.penalty,
                    verdicts: p.verdicts,
                    mean_per_hand: None,
                    ci95: None,
                    places: None,
                })
                .collect(),
        }
    }

    /// The result of a report: totals over all its matches, with each bot's mean per hand, its
    /// interval and its place probabilities.
    pub fn of_report(report: &MatchReport, reading: mahjong::Reading) -> MatchResult {
        let st = &report.standings;
        let mut r = MatchResult::of(&report.bots, &st.totals);
        r.matches = Some(st.matches);
        r.fans = Some(reading.to_string());
        for (b, p) in r.players.iter_mut().enumerate() {
            let e = st.mean_per_hand[b];
            p.mean_per_hand = Some(e.mean);
            p.ci95 = e.ci95.is_finite().then_some(e.ci95);
            p.places = Some(st.places[b]);
        }
        r
    }

    /// As one line of JSON.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a match result serializes")
    }
}

/// The files of one match under the log directory.
struct MatchWriter {
    dir: PathBuf,
    jsonl: BufWriter<File>,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Log {
        path: path.to_path_buf(),
        source,
    }
}

impl MatchWriter {
    /// `DIR/match-SEED/`, created (and emptied of an earlier run's files by overwriting).
    fn open(dir: &Path, seed: u64) -> Result<MatchWriter, MatchError> {
        let dir = dir.join(format!("match-{seed}"));
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let path = dir.join("hands.jsonl");
        let file = File::create(&path).map_err(io_err(&path))?;
        Ok(MatchWriter {
            dir,
            jsonl: BufWriter::new(file),
        })
    }

    fn hand(&mut self, hand: usize, text: &str, json: &str) -> Result<(), MatchError> {
        let path = self.dir.join(format!("hand-{hand:02}.log"));
        fs::write(&path, text).map_err(io_err(&path))?;
        let jpath = self.dir.join("hands.jsonl");
        writeln!(self.jsonl, "{json}").map_err(io_err(&jpath))
    }

    fn finish(
        mut self,
        bots: &[String; 4],
        hands: &[HandSummary],
        totals: &MatchTotals,
    ) -> Result<(), MatchError> {
        let jpath = self.dir.join("hands.jsonl");
        self.jsonl.flush().map_err(io_err(&jpath))?;
        let path = self.dir.join("scores.csv");
        fs::write(&path, log::score_sheet(bots, hands)).map_err(io_err(&path))?;
        let path = self.dir.join("result.json");
        let line = MatchResult::of(bots, totals).to_json_line();
        fs::write(&path, format!("{line}\n")).map_err(io_err(&path))
    }
}
