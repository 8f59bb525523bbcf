//! Mahjong competitions: the contest's 96-hand duplicate match, `matches` times, among exactly
//! four participants.
//!
//! Match `m` plays the schedule of seed `spec.seed + m` (`mahjong::schedule`,
//! the same one `arena mahjong match --seed` plays): 6 groups, each with 4 deals of its own
//! played in 4 rounds that rotate the bots one seat, so every bot plays every deal from every
//! seat. Every hand is one table job, `NAME/m{match}/g{group}/r{round}/d{deal}`, with the wall and
//! first seat in its set-up; its [`v1::Placement`] says match, group (`round`), deal (`table`)
//! and round (`rotation`). The 4 hands of one deal are a deal group: none of their replays is
//! shown before all 4 are played.
//!
//! Why exactly four participants: the contest's match is four bots at one table throughout, and
//! its statistics (places, duplicate intervals) are those of four bots. A bot may be named
//! twice; everything is kept per participant position.
//!
//! Standings (from the results so far): each participant's totals over the hands played (score,
//! wins, self-drawn wins, deal-ins, time penalties, verdicts), its mean score per hand with a 95%
//! interval over complete deals (a deal counts once it is played from all four seats, so its
//! luck cancels), and its probability of each place over complete matches (tied scores share
//! the places they span). Participants are placed by mean score per hand.

use std::collections::BTreeMap;

use arena_proto::v1;
use mahjong::schedule::{self, HANDS, Slot};
use mahjong::stats::{self, HandSummary, MatchTotals};
use mahjong::{Deal, Reading};

use super::pb as mahjong_pb;
use crate::competition::{self, Competitions, SpecError, index};

/// Participants of a Mahjong competition: the four seats of its table.
pub const PARTICIPANTS: usize = 4;

pub use super::spec::contest_time;

/// Mahjong's competitions: the contest's duplicate match.
impl Competitions for super::Mahjong {
    fn check(&self, spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<(), SpecError> {
        check(spec, max_tables).map(drop)
    }

    fn jobs(
        &self,
        spec: &v1::CompetitionSpec,
        _fresh_walls: &competition::Library,
    ) -> Result<Vec<v1::TableJob>, SpecError> {
        Ok(jobs(spec, reading_of(spec)?))
    }

    fn standings(
        &self,
        spec: &v1::CompetitionSpec,
        results: &[v1::TableResult],
    ) -> competition::Standings {
        let (standings, drawn) = standings(spec, results);
        competition::Standings { standings, drawn }
    }
}

/// The table id of hand `slot` of match `m`.
pub fn table_id(name: &str, m: usize, slot: &Slot) -> String {
    format!("{name}/m{m}/g{}/r{}/d{}", slot.group, slot.round, slot.deal)
}

/// The deal group of deal `slot.deal` of group `slot.group` of match `m`: its 4 rotations.
pub fn deal_group(name: &str, m: usize, slot: &Slot) -> String {
    format!("{name}/m{m}/g{}/d{}", slot.group, slot.deal)
}

/// The seed of match `m` of a competition with seed `seed`.
pub fn match_seed(seed: u64, m: usize) -> u64 {
    seed.wrapping_add(m as u64)
}

/// The fan reading a spec asks for (its setup's `fans`; none: contest). A competition's setup
/// names its reading only: its hands' walls and seats are the competition's.
pub fn reading_of(spec: &v1::CompetitionSpec) -> Result<Reading, SpecError> {
    let setup: mahjong_pb::Setup = competition::setup_in(spec)?;
    if !setup.wall.is_empty() || setup.first.is_some() {
        return Err(SpecError::invalid(
            "spec.setup",
            "a Mahjong competition's setup names its fan reading only: the competition deals \
             its walls from its seed",
        ));
    }
    super::spec::reading_of(setup.fans).map_err(|e| SpecError::invalid("spec.setup", e))
}

/// Checks the Mahjong part of a spec (its name, participant names, matches and seed are checked
/// by the caller) and fills in the defaults: duplicate format, the contest's time control,
/// play-on verdicts, contest fans.
pub fn check(spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<Reading, SpecError> {
    if spec.participants.len() != PARTICIPANTS {
        return Err(SpecError::invalid(
            "spec.participants",
            format!(
                "a Mahjong competition has exactly four participants, the four seats of its \
                 table (got {}); name a bot twice to seat it twice",
                spec.participants.len()
            ),
        ));
    }
    if spec.rounds != 0 {
        return Err(SpecError::invalid(
            "spec.rounds",
            format!(
                "a Mahjong match's rounds are fixed by its schedule ({} groups × {} rounds × {} \
                 deals); leave it 0",
                schedule::GROUPS,
                schedule::ROUNDS,
                schedule::DEALS
            ),
        ));
    }
    competition::refuse_dou_dizhu_fields(spec, "a Mahjong competition deals from its seed")?;
    competition::duplicate_only(
        spec,
        "a Mahjong competition is duplicate (the contest's schedule)",
    )?;
    let reading = reading_of(spec)?;
    spec.setup = Some(arena_proto::payload::pack(&mahjong_pb::Setup {
        fans: super::spec::fans_kind(reading) as i32,
        ..Default::default()
    }));
    let tables = u64::from(spec.matches).checked_mul(HANDS as u64);
    if tables.is_none_or(|t| t > max_tables) {
        return Err(SpecError::OutOfRange(format!(
            "spec.matches × {HANDS} hands: more than the {max_tables} tables a competition may \
             have here"
        )));
    }
    if spec.time.is_none() {
        spec.time = Some(contest_time());
    }
    if spec.verdict_policy == v1::VerdictPolicy::Unspecified as i32 {
        spec.verdict_policy = v1::VerdictPolicy::PlayOn as i32;
    }
    // The referee's own checks of a job, on the first table: the time control and verdict policy
    // are refused here, naming the spec's field, rather than failing every table.
    let sample = jobs_of(spec, reading, 1).next().expect("a match has hands");
    competition::check_sample(&sample)?;
    Ok(reading)
}

/// A job seed the built-in bots draw from: unpredictable before the hand (it is the wall's
/// fingerprint) and telling nothing once the hand is shown. The schedule's seeds are one
/// invertible mix away from the competition's seed, so no job carries them while it runs.
fn job_seed(deal: &Deal, rotation: usize) -> u64 {
    schedule::mix(deal.fingerprint(), rotation as u64)
}

/// The first `matches` matches' table jobs of `spec`, in schedule order.
fn jobs_of(
    spec: &v1::CompetitionSpec,
    reading: Reading,
    matches: u32,
) -> impl Iterator<Item = v1::TableJob> + '_ {
    // Taken now: the iterator may run outside the caller's span.
    let observed: Vec<(String, String)> = arena_telemetry::job_labels().collect();
    (0..matches as usize).flat_map(move |m| {
        let observed = observed.clone();
        schedule::schedule(match_seed(spec.seed, m))
            .into_iter()
            .map(move |slot| {
                let deal = Deal::from_seed(slot.deal_seed);
                let setup = crate::mahjong::spec::setup_of(&deal, reading);
                let group = deal_group(&spec.name, m, &slot);
                let mut labels = std::collections::HashMap::new();
                for (k, v) in [
                    ("match", m),
                    ("group", slot.group),
                    ("round", slot.round),
                    ("deal", slot.deal),
                ] {
                    labels.insert(k.to_string(), v.to_string());
                }
                labels.insert(
                    arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
                    group.clone(),
                );
                labels.extend(observed.iter().cloned());
                v1::TableJob {
                    table_id: table_id(&spec.name, m, &slot),
                    game: super::GAME.name().into(),
                    seats: slot
                        .seats
                        .iter()
                        .map(|&b| v1::SeatSpec {
                            bot: spec.participants[b].clone(),
                        })
                        .collect(),
                    seed: job_seed(&deal, slot.round),
                    setup: Some(arena_proto::payload::pack(&setup)),
                    time: spec.time,
                    verdict_policy: spec.verdict_policy,
                    competition: spec.name.clone(),
                    labels,
                    placement: Some(Box::new(v1::Placement {
                        match_index: index(m),
                        round: index(slot.group),
                        table: index(slot.deal),
                        rotation: index(slot.round),
                        deal_group: group,
                        ..Default::default()
                    })),
                    lane: spec.lane.clone(),
                }
            })
    })
}

/// Every table job of a checked Mahjong competition, in (match, schedule) order.
pub fn jobs(spec: &v1::CompetitionSpec, reading: Reading) -> Vec<v1::TableJob> {
    jobs_of(spec, reading, spec.matches).collect()
}

/// The schedule slot a result's placement names, if it is one of `spec`'s hands; `schedules`
/// keeps each match's schedule once made.
fn slot_in(
    spec: &v1::CompetitionSpec,
    p: &v1::Placement,
    schedules: &mut BTreeMap<usize, Vec<Slot>>,
) -> Option<(usize, Slot)> {
    let (m, group, deal, round) = (
        p.match_index as usize,
        p.round as usize,
        p.table as usize,
        p.rotation as usize,
    );
    if m >= spec.matches as usize
        || group >= schedule::GROUPS
        || round >= schedule::ROUNDS
        || deal >= schedule::DEALS
    {
        return None;
    }
    let hand = (group * schedule::ROUNDS + round) * schedule::DEALS + deal;
    let slots = schedules
        .entry(m)
        .or_insert_with(|| schedule::schedule(match_seed(spec.seed, m)));
    Some((m, slots[hand]))
}

#[cfg(test)]
fn slot_of(spec: &v1::CompetitionSpec, p: &v1::Placement) -> Option<(usize, Slot)> {
    slot_in(spec, p, &mut BTreeMap::new())
}

/// A four-seat list from a result's per-seat list; a result without one (a table that could not
/// be played) counts zero for every seat.
fn per_seat<T: Copy + Default>(xs: &[T]) -> [T; 4] {
    std::array::from_fn(|s| xs.get(s).copied().unwrap_or_default())
}

fn seat_of(x: Option<u32>) -> Option<u8> {
    x.and_then(|s| u8::try_from(s).ok()).filter(|s| *s < 4)
}

/// What the statistics need of a result: its scores after penalties, penalties, winner and
/// deal-in, fan total and verdicts per seat.
pub fn summary(slot: Slot, r: &v1::TableResult) -> HandSummary {
    let clamp = |x: i64| i32::try_from(x).unwrap_or(if x < 0 { i32::MIN } else { i32::MAX });
    let mut verdicts = [0u32; 4];
    for v in &r.verdicts {
        if let Some(s) = seat_of(Some(v.seat)) {
            verdicts[usize::from(s)] += 1;
        }
    }
    let outcome = r.outcome.as_ref().and_then(super::convert::outcome_of);
    let win = outcome
        .as_ref()
        .and_then(|m| seat_of(m.winner).map(|w| (w, m)));
    HandSummary {
        slot,
        first: Deal::from_seed(slot.deal_seed).first,
        scores: per_seat(&r.final_scores).map(clamp),
        penalties: per_seat(&r.penalties).map(clamp),
        winner: win.map(|(w, _)| w),
        dealt_in: win.and_then(|(_, m)| seat_of(m.from)),
        fans: win.map(|(_, m)| m.fan_total),
        verdicts,
    }
}

/// Standings of a Mahjong competition from its results so far.
pub fn standings(
    spec: &v1::CompetitionSpec,
    results: &[v1::TableResult],
) -> (Vec<v1::Standing>, u64) {
    // One summary per hand: a result written twice for one table counts once.
    let mut hands: BTreeMap<(usize, usize), HandSummary> = BTreeMap::new();
    let mut schedules = BTreeMap::new();
    for r in results {
        let Some(p) = r.placement.as_deref() else {
            continue;
        };
        let Some((m, slot)) = slot_in(spec, p, &mut schedules) else {
            continue;
        };
        hands
            .entry((m, slot.hand))
            .or_insert_with(|| summary(slot, r));
    }
    let all: Vec<HandSummary> = hands.values().cloned().collect();
    let totals = MatchTotals::of(spec.seed, &all);
    // Complete deals (all four rotations played) for the means; complete matches for places.
    let mut by_deal: BTreeMap<(u64, usize, usize), Vec<HandSummary>> = BTreeMap::new();
    let mut by_match: BTreeMap<usize, Vec<HandSummary>> = BTreeMap::new();
    for (&(m, _), h) in &hands {
        by_deal
            .entry((h.slot.match_seed, h.slot.group, h.slot.deal))
            .or_default()
            .push(h.clone());
        by_match.entry(m).or_default().push(h.clone());
    }
    let complete: Vec<HandSummary> = by_deal
        .into_values()
        .filter(|d| d.len() == schedule::ROUNDS)
        .flatten()
        .collect();
    let per_match: Vec<MatchTotals> = by_match
        .into_iter()
        .filter(|(_, hs)| hs.len() == HANDS)
        .map(|(m, hs)| MatchTotals::of(match_seed(spec.seed, m), &hs))
        .collect();
    let st = stats::Standings::of(&per_match, &complete);
    let mut order = [0usize, 1, 2, 3];
    order.sort_by(|&a, &b| {
        st.mean_per_hand[b]
            .mean
            .total_cmp(&st.mean_per_hand[a].mean)
            .then(totals.players[b].score.cmp(&totals.players[a].score))
            .then(a.cmp(&b))
    });
    let out = order
        .iter()
        .enumerate()
        .map(|(place, &b)| {
            let p = &totals.players[b];
            let probs = if per_match.is_empty() {
                vec![0.0; 4]
            } else {
                st.places[b].to_vec()
            };
            let mut most = 0;
            for k in 1..4 {
                if probs[k] > probs[most] {
                    most = k;
                }
            }
            v1::Standing {
                participant: spec.participants.get(b).cloned().unwrap_or_default(),
                place: place as u32 + 1,
                most_probable_rank: if per_match.is_empty() {
                    0
                } else {
                    most as u32 + 1
                },
                mean_rank: probs
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (k + 1) as f64 * p)
                    .sum(),
                rank_probabilities: probs,
                mean_score: st.mean_per_hand[b].mean,
                score_ci95: st.mean_per_hand[b].ci95,
                game: Some(arena_proto::payload::pack(&mahjong_pb::Standing {
                    position: b as u32,
                    hands: all.len() as u32,
                    score: p.score,
                    wins: p.wins,
                    self_drawn: p.self_drawn,
                    dealt_in: p.dealt_in,
                    penalties: p.penalty,
                    verdicts: p.verdicts,
                })),
                verdicts: p.verdicts,
            }
        })
        .collect();
    (out, u64::from(totals.draws))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;
    use std::collections::BTreeSet;

    fn spec(matches: u32) -> v1::CompetitionSpec {
        v1::CompetitionSpec {
            name: "mj".into(),
            game: "mahjong".into(),
            participants: ["expert", "greedy", "random", "expert"]
                .map(String::from)
                .to_vec(),
            matches,
            seed: 77,
            ..Default::default()
        }
    }

    #[test]
    fn a_match_is_the_contest_schedule_one_job_per_hand() {
        let mut s = spec(2);
        let reading = check(&mut s, 1_000).unwrap();
        assert_eq!(s.format, "duplicate");
        assert_eq!(s.time, Some(contest_time()));
        assert_eq!(s.verdict_policy(), v1::VerdictPolicy::PlayOn);
        let jobs = jobs(&s, reading);
        assert_eq!(jobs.len(), 2 * HANDS);
        let ids: BTreeSet<&str> = jobs.iter().map(|j| j.table_id.as_str()).collect();
        assert_eq!(ids.len(), jobs.len(), "table ids are unique");
        for m in 0..2 {
            let sched = schedule::schedule(77 + m as u64);
            for (slot, job) in sched.iter().zip(&jobs[m * HANDS..]) {
                let seats: Vec<&str> = job.seats.iter().map(|s| s.bot.as_str()).collect();
                let want: Vec<&str> = slot
                    .seats
                    .iter()
                    .map(|&b| s.participants[b].as_str())
                    .collect();
                assert_eq!(seats, want);
                let setup: mahjong_pb::Setup =
                    arena_proto::payload::unpack(job.setup.as_ref(), "setup")
                        .expect("a Mahjong set-up");
                let deal = Deal::from_seed(slot.deal_seed);
                assert_eq!(setup, crate::mahjong::spec::setup_of(&deal, reading));
                let p = job.placement.as_deref().unwrap();
                assert_eq!(slot_of(&s, p), Some((m, *slot)));
                crate::validate(job).unwrap();
            }
        }
        // A deal group is the 4 rotations of one deal: the same wall, every seat once per bot.
        let mut groups: BTreeMap<&str, Vec<&v1::TableJob>> = BTreeMap::new();
        for j in &jobs {
            groups
                .entry(j.placement.as_deref().unwrap().deal_group.as_str())
                .or_default()
                .push(j);
        }
        assert_eq!(groups.len(), 2 * 24);
        for g in groups.values() {
            assert_eq!(g.len(), 4);
            assert!(g.iter().all(|j| j.setup == g[0].setup));
        }
    }

    #[test]
    fn job_seeds_tell_nothing_of_the_schedules_seeds() {
        let mut s = spec(1);
        let reading = check(&mut s, 1_000).unwrap();
        let sched = schedule::schedule(77);
        let secret: BTreeSet<u64> = sched
            .iter()
            .flat_map(|x| [x.match_seed, x.group_seed, x.deal_seed])
            .collect();
        // Every number in a label (a timestamp holds small seeds' digits as substrings).
        let numbers = |v: &str| -> Vec<u64> {
            v.split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect()
        };
        for j in jobs(&s, reading) {
            assert!(!secret.contains(&j.seed));
            for (k, v) in &j.labels {
                assert!(
                    !numbers(v).iter().any(|n| secret.contains(n)),
                    "label {k}={v} holds a schedule seed"
                );
            }
        }
    }

    #[test]
    fn a_spec_that_is_not_a_mahjong_competition_is_refused_naming_the_field() {
        let field = |f: &dyn Fn(&mut v1::CompetitionSpec)| {
            let mut s = spec(1);
            f(&mut s);
            check(&mut s, 1_000).unwrap_err().to_string()
        };
        assert!(field(&|s| s.participants.truncate(3)).starts_with("spec.participants"));
        assert!(field(&|s| s.rounds = 10).starts_with("spec.rounds"));
        assert!(field(&|s| s.farmers = "expert".into()).starts_with("spec.farmers"));
        assert!(field(&|s| s.rotate_seats = true).starts_with("spec.rotate_seats"));
        assert!(field(&|s| s.format = "equal-strength".into()).starts_with("spec.format"));
        let setup = |s: &mut v1::CompetitionSpec, m: &dyn Fn(&mut mahjong_pb::Setup)| {
            let mut x = mahjong_pb::Setup::default();
            m(&mut x);
            s.setup = Some(arena_proto::payload::pack(&x));
        };
        assert!(field(&|s| setup(s, &|x| x.fans = 7)).starts_with("spec.setup"));
        assert!(field(&|s| setup(s, &|x| x.wall = "1M".into())).starts_with("spec.setup"));
        assert!(
            field(&|s| s.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup::default())))
                .starts_with("spec.setup")
        );
        let cap = field(&|s| {
            s.time = Some(v1::TimeControl {
                decision_ms: 2000,
                hard_cap_ms: 1000,
                ..contest_time()
            })
        });
        assert!(cap.starts_with("spec.time.hard_cap_ms"), "{cap}");
        let mut s = spec(11);
        assert!(matches!(
            check(&mut s, 1_000),
            Err(SpecError::OutOfRange(_))
        ));
    }

    fn result(
        job: &v1::TableJob,
        scores: [i64; 4],
        winner: Option<u32>,
        from: Option<u32>,
    ) -> v1::TableResult {
        v1::TableResult {
            table_id: job.table_id.clone(),
            final_scores: scores.to_vec(),
            penalties: vec![0; 4],
            outcome: Some(v1::Outcome {
                scores: scores.to_vec(),
                game: Some(arena_proto::payload::pack(&mahjong_pb::Outcome {
                    winner,
                    from,
                    fan_total: 2,
                    ..Default::default()
                })),
                ..Default::default()
            }),
            placement: job.placement.clone(),
            ..Default::default()
        }
    }

    #[test]
    fn standings_follow_the_participants_across_seats_and_count_complete_deals_and_matches() {
        let mut s = spec(2);
        let reading = check(&mut s, 1_000).unwrap();
        let jobs = jobs(&s, reading);
        // Participant 1 (greedy) wins every hand on participant 2's discard, wherever they sit.
        let results: Vec<v1::TableResult> = jobs
            .iter()
            .map(|j| {
                let seat = |name_pos: usize| {
                    let (_, slot) = slot_of(&s, j.placement.as_deref().unwrap()).unwrap();
                    u32::from(slot.seat_of(name_pos))
                };
                let (w, d) = (seat(1), seat(2));
                let mut scores = [-4i64; 4];
                scores[w as usize] = 14;
                scores[d as usize] = -6;
                result(j, scores, Some(w), Some(d))
            })
            .collect();
        // The first match, and one hand of the second.
        let (st, draws) = standings(&s, &results[..HANDS + 1]);
        assert_eq!(draws, 0);
        assert_eq!(st[0].participant, "greedy");
        let totals = |x: &v1::Standing| -> mahjong_pb::Standing {
            arena_proto::payload::unpack(x.game.as_ref(), "standing").unwrap()
        };
        let g = totals(&st[0]);
        assert_eq!((g.position, g.hands, g.wins, g.self_drawn), (1, 97, 97, 0));
        assert_eq!(g.score, 97 * 14);
        assert_eq!(st[0].rank_probabilities, [1.0, 0.0, 0.0, 0.0]);
        // Means over complete deals only: the second match's lone hand does not count.
        assert!((st[0].mean_score - 14.0).abs() < 1e-9, "{:?}", st[0]);
        let d = st.iter().find(|x| totals(x).position == 2).unwrap();
        assert_eq!(totals(d).dealt_in, 97);
        assert_eq!(d.place, 4);
        // The two expert positions tie on every hand and share places 2 and 3.
        for x in st.iter().filter(|x| x.participant == "expert") {
            assert_eq!(x.rank_probabilities, [0.0, 0.5, 0.5, 0.0]);
        }
        // Everything: two complete matches.
        let (st, _) = standings(&s, &results);
        assert_eq!(totals(&st[0]).hands, 2 * HANDS as u32);
        // A result twice for one table counts once.
        let mut twice = results.clone();
        twice.push(results[5].clone());
        assert_eq!(standings(&s, &twice).0, st);
    }
}
