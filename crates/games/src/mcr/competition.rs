//! Chinese Standard Mahjong competitions: the IJCAI duplicate format ([`super::ijcai`]) played
//! through the services, `matches` times.
//!
//! A match is `rounds` rounds of `walls` walls (the setup's `walls`, IJCAI 2020's 4 unless
//! set). The participants, padded with [`PAD_BOT`]s to a multiple of four, are split into groups
//! of four each round; every group plays every wall of the round at all 24 seatings, each hand
//! one table job `NAME/m{match}/r{round}/g{group}/w{wall}/p{seating}` whose setup carries the
//! wall (Botzone's `walltiles`, dealt from the competition's seed by [`ijcai::deal`], or with
//! the setup's `walls_from_library` taken from the deal library's imported walls by
//! [`library::pick`], each claimed) and its prevalent wind (`w mod 4`). Its [`v1::Placement`] says match, round, group (`table`) and
//! the hand in the group's round, `wall × 24 + seating` (`rotation`, 0..96 with four walls). The hands of one wall in one round, across all groups,
//! are a deal group: none of their replays is shown before all of them are played.
//!
//! **Groups are planned up front.** The matchmaker lays out every table before the first is
//! played, so a round cannot be paired by the results of the one before (true Swiss pairing,
//! which `arena mcr match` plays). Each round's groups are instead a seeded shuffle of the
//! field ([`ijcai::seeded_groups`]): over rounds every participant meets a spread of
//! opponents, reproducibly from the seed. With four participants there is one group and the
//! distinction vanishes.
//!
//! Standings (from the results so far): a wall counts once all 24 of its seatings in a group
//! are in, giving its members rank points 4/3/2/1 by summed score (ties shared); participants
//! are ordered by rank points, summed score breaking ties ([`ijcai::standings`]). A standing's
//! `mean_score` is the participant's mean score per hand over complete walls, with the 95%
//! interval of its per-wall means (a wall's 24 seatings cancel its luck, so walls are the
//! independent samples), and its place probabilities are over complete matches. Its totals are an
//! `arena.mcr.v1.Standing`. Padding bots play but are not listed.

use std::collections::BTreeMap;

use arena_proto::packages::arena::mcr::v1 as pb;
use arena_proto::v1;
use arena_stats::{Estimate, PlaceTally, places};
use mahjong::schedule::mix;
use mcr::wall::Deal;

use super::ijcai::{self, GROUP, PERMUTATIONS, SEATINGS, Totals, WallResult};
use super::library::{self, LibraryWall, WALLS_PANEL};
use crate::competition::{self, Competitions, SpecError, index};

/// The built-in bot that pads a field to a multiple of four.
pub const PAD_BOT: &str = "efficiency";

/// Rounds of a competition that leaves `spec.rounds` 0: one with four participants (one
/// group: rounds would replay the same pairing), three with more.
pub fn default_rounds(participants: usize) -> u32 {
    if participants <= GROUP { 1 } else { 3 }
}

/// IJCAI competitions of MCR, for `Game::competitions`.
pub struct IjcaiCompetitions;

/// The one instance the game's registration returns.
pub static IJCAI: IjcaiCompetitions = IjcaiCompetitions;

impl Competitions for IjcaiCompetitions {
    fn check(&self, spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<(), SpecError> {
        check(spec, max_tables).map(drop)
    }

    fn bots<'s>(&self, spec: &'s v1::CompetitionSpec) -> Vec<(&'static str, &'s str)> {
        let mut bots: Vec<(&'static str, &'s str)> = spec
            .participants
            .iter()
            .map(|p| ("spec.participants", p.as_str()))
            .collect();
        if ijcai::padding(spec.participants.len()) > 0 {
            bots.push(("padding", PAD_BOT));
        }
        bots
    }

    fn library(&self, spec: &v1::CompetitionSpec) -> Option<String> {
        Plan::of(spec)
            .ok()
            .filter(|p| p.setup.walls_from_library)
            .map(|_| WALLS_PANEL.to_string())
    }

    fn jobs(
        &self,
        spec: &v1::CompetitionSpec,
        library: &competition::Library,
    ) -> Result<Vec<v1::TableJob>, SpecError> {
        let plan = Plan::of(spec)?;
        let walls = if plan.setup.walls_from_library {
            let need = plan.walls_needed(spec.matches);
            let picked = library::pick(
                &library.deals,
                &library.exclude,
                &library.held,
                spec.seed,
                plan.flowers(),
                need,
            )
            .map_err(|e| SpecError::Unavailable(format!("spec.setup.walls_from_library: {e}")))?;
            Some(picked)
        } else {
            None
        };
        Ok(jobs_of(spec, &plan, spec.matches, walls.as_deref()).collect())
    }

    fn standings(
        &self,
        spec: &v1::CompetitionSpec,
        results: &[v1::TableResult],
    ) -> competition::Standings {
        match Plan::of(spec) {
            Ok(plan) => standings(spec, &plan, results),
            Err(_) => competition::Standings::default(),
        }
    }
}

/// What a checked spec plans: its setup, rounds and walls, and the field with padding.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The setup every job's is made from (no wall, no prevalent wind: each job gets its own).
    pub setup: pb::Setup,
    /// Walls per round.
    pub walls: u32,
    /// Rounds per match.
    pub rounds: u32,
    /// The participants followed by the padding bots.
    pub field: Vec<String>,
}

impl Plan {
    /// The plan of a spec (checked or not: its setup must read).
    pub fn of(spec: &v1::CompetitionSpec) -> Result<Plan, SpecError> {
        let setup: pb::Setup = competition::setup_in(spec)?;
        let walls = setup.walls.unwrap_or(ijcai::IJCAI_2020_WALLS);
        let rounds = if spec.rounds == 0 {
            default_rounds(spec.participants.len())
        } else {
            spec.rounds
        };
        let mut field = spec.participants.clone();
        field.extend(std::iter::repeat_n(
            PAD_BOT.to_string(),
            ijcai::padding(field.len()),
        ));
        Ok(Plan {
            setup,
            walls,
            rounds,
            field,
        })
    }

    /// Groups in a round.
    pub fn groups(&self) -> usize {
        self.field.len() / GROUP
    }

    /// Whether the walls have flowers (144 tiles): only when the setup says `no_flowers:
    /// false`; unset, 136 without, as IJCAI plays.
    pub fn flowers(&self) -> bool {
        self.setup.no_flowers == Some(false)
    }

    /// Walls `matches` matches play: every round of every match its own.
    pub fn walls_needed(&self, matches: u32) -> usize {
        matches as usize * self.rounds as usize * self.walls as usize
    }

    /// Hands in a match.
    pub fn hands_per_match(&self) -> u64 {
        self.groups() as u64 * u64::from(self.rounds) * u64::from(self.walls) * SEATINGS as u64
    }
}

/// Checks the MCR part of a spec (its name, participant names, matches and seed are checked by
/// the caller) and fills in the defaults: duplicate format, IJCAI's time control, rounds, the
/// setup's walls.
pub fn check(spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<Plan, SpecError> {
    if spec.participants.len() < GROUP {
        return Err(SpecError::invalid(
            "spec.participants",
            format!(
                "an MCR competition has at least four participants, a table's four seats (got \
                 {}); name a bot more than once to seat it more than once",
                spec.participants.len()
            ),
        ));
    }
    competition::refuse_dou_dizhu_fields(
        spec,
        "an MCR competition deals its walls from its seed or takes them from the deal library \
         (walls_from_library)",
    )?;
    competition::duplicate_only(
        spec,
        "an MCR competition is duplicate (IJCAI's: every wall at all 24 seatings)",
    )?;
    let mut setup: pb::Setup = competition::setup_in(spec)?;
    if !setup.walltiles.is_empty() || setup.quan.is_some() {
        return Err(SpecError::invalid(
            "spec.setup",
            "an MCR competition deals its walls from its seed (or the deal library) and gives \
             wall w the prevalent wind w mod 4: leave walltiles and quan unset",
        ));
    }
    if setup.walls == Some(0) {
        return Err(SpecError::invalid(
            "spec.setup.walls",
            "a match plays at least one wall",
        ));
    }
    if pb::FaultPolicy::try_from(setup.fault_policy).is_err() {
        return Err(SpecError::invalid(
            "spec.setup.fault_policy",
            format!("{} is no fault policy", setup.fault_policy),
        ));
    }
    setup.walls = Some(setup.walls.unwrap_or(ijcai::IJCAI_2020_WALLS));
    // IJCAI's walls unless the setup says otherwise: 136 tiles, without flowers.
    setup.no_flowers = Some(setup.no_flowers.unwrap_or(true));
    spec.setup = Some(arena_proto::payload::pack(&setup));
    if spec.rounds == 0 {
        spec.rounds = default_rounds(spec.participants.len());
    }
    let plan = Plan::of(spec)?;
    let tables = u64::from(spec.matches).checked_mul(plan.hands_per_match());
    if tables.is_none_or(|t| t > max_tables) {
        return Err(SpecError::OutOfRange(format!(
            "spec.matches × {} hands a match ({} groups × {} rounds × {} walls × 24 seatings): \
             more than the {max_tables} tables a competition may have here",
            plan.hands_per_match(),
            plan.groups(),
            plan.rounds,
            plan.walls
        )));
    }
    if spec.time.is_none() {
        // The decision limit left to the referee (its default is the game's second): a seat
        // whose registered bot has a limit of its own (a Botzone bot's language) plays by it.
        spec.time = Some(v1::TimeControl {
            decision_ms: 0,
            ..super::spec::default_time()
        });
    }
    // The referee's own checks of a job, on the first table: a bad clock or verdict policy is
    // refused here, naming the spec's field, rather than failing every table.
    // (A library competition's first wall is not known before it is planned: the sample
    // carries the seed's, which the referee checks alike.)
    let sample = jobs_of(spec, &plan, 1, None).next().ok_or_else(|| {
        SpecError::invalid("spec.matches", "a competition plays at least one match")
    })?;
    competition::check_sample(&sample)?;
    Ok(plan)
}

/// The seed of match `m` of a competition with seed `seed`.
pub fn match_seed(seed: u64, m: usize) -> u64 {
    seed.wrapping_add(m as u64)
}

/// Where a hand sits in a competition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    /// The match.
    pub m: usize,
    /// The round in the match.
    pub round: u32,
    /// The group in the round.
    pub group: usize,
    /// The wall in the round.
    pub wall: u32,
    /// The seating ([`PERMUTATIONS`]).
    pub perm: usize,
}

impl Slot {
    fn placement(&self, name: &str, groups: usize) -> v1::Placement {
        v1::Placement {
            match_index: index(self.m),
            round: self.round,
            table: index(self.group),
            rotation: self.wall * SEATINGS as u32 + self.perm as u32,
            deal_group: deal_group(name, self),
            deal_group_tables: index(groups * SEATINGS),
            ..Default::default()
        }
    }

    /// The slot a placement names, if it is one of `plan`'s.
    fn of(p: &v1::Placement, matches: u32, plan: &Plan) -> Option<Slot> {
        let slot = Slot {
            m: p.match_index as usize,
            round: p.round,
            group: p.table as usize,
            wall: p.rotation / SEATINGS as u32,
            perm: p.rotation as usize % SEATINGS,
        };
        (slot.m < matches as usize
            && slot.round < plan.rounds
            && slot.group < plan.groups()
            && slot.wall < plan.walls)
            .then_some(slot)
    }
}

/// The table id of a hand.
pub fn table_id(name: &str, s: &Slot) -> String {
    format!(
        "{name}/m{}/r{}/g{}/w{}/p{}",
        s.m, s.round, s.group, s.wall, s.perm
    )
}

/// The deal group of a hand: every seating of its wall in its round, in every group.
pub fn deal_group(name: &str, s: &Slot) -> String {
    format!("{name}/m{}/r{}/w{}", s.m, s.round, s.wall)
}

/// The first `matches` matches' table jobs, in (match, round, group, wall, seating) order:
/// wall `w` of round `r` of match `m` dealt from the seed, or `library[(m × rounds + r) ×
/// walls + w]` when walls from the library are given (at least that many), its id the
/// placement's `deal_id`.
fn jobs_of<'a>(
    spec: &'a v1::CompetitionSpec,
    plan: &'a Plan,
    matches: u32,
    library: Option<&'a [LibraryWall]>,
) -> impl Iterator<Item = v1::TableJob> + 'a {
    // Taken now: the iterator may run outside the caller's span.
    let observed: Vec<(String, String)> = arena_telemetry::job_labels().collect();
    let groups = plan.groups();
    (0..matches as usize).flat_map(move |m| {
        let observed = observed.clone();
        let seed = match_seed(spec.seed, m);
        (0..plan.rounds).flat_map(move |round| {
            let observed = observed.clone();
            let grouping = ijcai::seeded_groups(plan.field.len(), seed, round);
            let flowers = plan.flowers();
            let deals: Vec<(Deal, String)> = (0..plan.walls)
                .map(|w| {
                    let at = (m * plan.rounds as usize + round as usize) * plan.walls as usize
                        + w as usize;
                    match library.and_then(|l| l.get(at)) {
                        Some(lw) => (
                            Deal {
                                wall: lw.wall,
                                quan: ijcai::quan(w),
                            },
                            lw.id.clone(),
                        ),
                        None => (ijcai::deal(seed, round, w, flowers), String::new()),
                    }
                })
                .collect();
            grouping
                .into_iter()
                .enumerate()
                .flat_map(move |(group, members)| {
                    let observed = observed.clone();
                    let deals = deals.clone();
                    (0..plan.walls).flat_map(move |wall| {
                        let observed = observed.clone();
                        let (deal, deal_id) = deals[wall as usize].clone();
                        (0..SEATINGS).map(move |perm| {
                            let slot = Slot {
                                m,
                                round,
                                group,
                                wall,
                                perm,
                            };
                            let setup = pb::Setup {
                                walltiles: deal.wall.to_string(),
                                quan: Some(u32::from(deal.quan.index())),
                                walls: None,
                                walls_from_library: false,
                                ..plan.setup.clone()
                            };
                            let placement = v1::Placement {
                                deal_id: deal_id.clone(),
                                ..slot.placement(&spec.name, groups)
                            };
                            let mut labels = std::collections::HashMap::new();
                            for (k, v) in [
                                ("match", m),
                                ("round", round as usize),
                                ("group", group),
                                ("wall", wall as usize),
                                ("seating", perm),
                            ] {
                                labels.insert(k.to_string(), v.to_string());
                            }
                            labels.insert(
                                arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
                                placement.deal_group.clone(),
                            );
                            labels.extend(observed.iter().cloned());
                            v1::TableJob {
                                table_id: table_id(&spec.name, &slot),
                                game: super::GAME.name().into(),
                                seats: PERMUTATIONS[perm]
                                    .iter()
                                    .map(|&k| v1::SeatSpec {
                                        bot: plan.field[members[usize::from(k)]].clone(),
                                    })
                                    .collect(),
                                // The built-in bots' seed: from the wall's fingerprint-like
                                // walltiles hash and the seating, telling nothing of the
                                // competition's seed.
                                seed: mix(wall_hash(&deal.wall), perm as u64),
                                setup: Some(arena_proto::payload::pack(&setup)),
                                time: spec.time,
                                verdict_policy: spec.verdict_policy,
                                competition: spec.name.clone(),
                                labels,
                                placement: Some(Box::new(placement)),
                                lane: spec.lane.clone(),
                            }
                        })
                    })
                })
        })
    })
}

/// A hash of a wall's tiles (FNV-1a over its notation), for job seeds that follow from what
/// the table shows.
fn wall_hash(wall: &mcr::Wall) -> u64 {
    wall.to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// A result's per-seat scores (zero for a seat a result does not list).
fn scores_of(r: &v1::TableResult) -> [i64; 4] {
    std::array::from_fn(|s| r.final_scores.get(s).copied().unwrap_or_default())
}

/// What a played table's result says of its hand: scores, winner and discarder, verdicts by
/// seat (a result without scores counts zero for every seat).
pub(crate) fn hand_of_result(r: &v1::TableResult) -> crate::mcr::commands::HandResult {
    let outcome: Option<pb::Outcome> = r
        .outcome
        .as_ref()
        .and_then(|o| arena_proto::payload::unpack(o.game.as_ref(), "outcome").ok());
    let seat = |s: Option<u32>| s.and_then(|s| u8::try_from(s).ok()).filter(|&s| s < 4);
    let mut faults = [0u32; 4];
    for v in &r.verdicts {
        if let Some(s) = seat(Some(v.seat)) {
            faults[usize::from(s)] += 1;
        }
    }
    crate::mcr::commands::HandResult {
        scores: scores_of(r),
        winner: outcome.as_ref().and_then(|o| seat(o.winner)),
        from: outcome.as_ref().and_then(|o| seat(o.from)),
        faults,
    }
}

/// Per participant, beside [`Totals`]: hands, wins, self-drawn wins, deal-ins, verdicts.
#[derive(Clone, Copy, Debug, Default)]
struct Tallies {
    hands: u32,
    wins: u32,
    self_drawn: u32,
    dealt_in: u32,
    verdicts: u32,
}

/// A wall of a group: match, round, group, wall.
type WallKey = (usize, u32, usize, u32);

/// The standings of an MCR competition from its results so far.
pub fn standings(
    spec: &v1::CompetitionSpec,
    plan: &Plan,
    results: &[v1::TableResult],
) -> competition::Standings {
    let n = plan.field.len();
    // One result per hand: a result written twice counts once.
    let mut hands: BTreeMap<Slot, &v1::TableResult> = BTreeMap::new();
    for r in results {
        if let Some(slot) = r
            .placement
            .as_deref()
            .and_then(|p| Slot::of(p, spec.matches, plan))
        {
            hands.entry(slot).or_insert(r);
        }
    }
    let mut tallies = vec![Tallies::default(); n];
    let mut drawn = 0u64;
    // Per (match, round, group, wall): each member's summed score and the seatings in.
    let mut walls: BTreeMap<WallKey, ([i64; GROUP], usize)> = BTreeMap::new();
    let mut groupings: BTreeMap<(usize, u32), Vec<[usize; GROUP]>> = BTreeMap::new();
    for (slot, r) in &hands {
        let members = groupings
            .entry((slot.m, slot.round))
            .or_insert_with(|| ijcai::seeded_groups(n, match_seed(spec.seed, slot.m), slot.round))
            [slot.group];
        let perm = PERMUTATIONS[slot.perm];
        let hand = hand_of_result(r);
        let (winner, from) = (hand.winner, hand.from);
        drawn += u64::from(winner.is_none());
        let scores = hand.scores;
        let entry = walls
            .entry((slot.m, slot.round, slot.group, slot.wall))
            .or_insert(([0; GROUP], 0));
        entry.1 += 1;
        for seat in 0..4 {
            let member = usize::from(perm[seat]);
            entry.0[member] += scores[seat];
            let t = &mut tallies[members[member]];
            t.hands += 1;
            t.wins += u32::from(winner == Some(seat as u8));
            t.self_drawn += u32::from(winner == Some(seat as u8) && from.is_none());
            t.dealt_in += u32::from(from == Some(seat as u8));
            t.verdicts += hand.faults[seat];
        }
    }
    // Complete walls give rank points; complete matches give places.
    let mut totals = vec![Totals::default(); n];
    // Per entrant, its mean score per hand on each complete wall.
    let mut per_wall: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut per_match: BTreeMap<usize, (Vec<Totals>, usize)> = BTreeMap::new();
    for (&(m, round, group, _), &(sums, seatings)) in &walls {
        if seatings != SEATINGS {
            continue;
        }
        let members = groupings[&(m, round)][group];
        let result = WallResult { members, sums };
        ijcai::add_wall(&mut totals, &result);
        for (k, sum) in sums.iter().enumerate() {
            per_wall[members[k]].push(*sum as f64 / SEATINGS as f64);
        }
        let (t, complete) = per_match
            .entry(m)
            .or_insert_with(|| (vec![Totals::default(); n], 0));
        ijcai::add_wall(t, &result);
        *complete += 1;
    }
    let walls_per_match = plan.groups() * plan.rounds as usize * plan.walls as usize;
    let mut tally = PlaceTally::new(n);
    for (t, complete) in per_match.values() {
        if *complete == walls_per_match {
            let keys: Vec<(f64, i64)> = t.iter().map(|t| (t.rank_points, t.score)).collect();
            tally.add(&places(&keys));
        }
    }
    let probs = tally.probabilities();
    let participants = spec.participants.len();
    let ordered: Vec<(usize, Totals)> = ijcai::standings(&totals)
        .into_iter()
        .filter(|&(e, _, _)| e < participants)
        .map(|(e, _, t)| (e, t))
        .collect();
    let standings = ordered
        .iter()
        .enumerate()
        .map(|(place, &(e, t))| {
            let p: Vec<f64> = probs[e].clone();
            let matched = tally.matches() > 0;
            let most = (0..p.len()).fold(0, |best, k| if p[k] > p[best] { k } else { best });
            let est = Estimate::of(per_wall[e].iter().copied());
            let c = tallies[e];
            v1::Standing {
                participant: spec.participants[e].clone(),
                place: place as u32 + 1,
                most_probable_rank: if matched { most as u32 + 1 } else { 0 },
                mean_rank: p.iter().enumerate().map(|(k, x)| (k + 1) as f64 * x).sum(),
                rank_probabilities: p,
                mean_score: est.mean,
                score_ci95: est.ci95,
                game: Some(arena_proto::payload::pack(&pb::Standing {
                    position: e as u32,
                    walls: t.walls,
                    hands: c.hands,
                    rank_points: t.rank_points,
                    score: t.score,
                    wins: c.wins,
                    self_drawn: c.self_drawn,
                    dealt_in: c.dealt_in,
                    verdicts: c.verdicts,
                })),
                verdicts: c.verdicts,
            }
        })
        .collect();
    competition::Standings { standings, drawn }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn spec(participants: &[&str], matches: u32) -> v1::CompetitionSpec {
        v1::CompetitionSpec {
            name: "ij".into(),
            game: crate::mcr::GAME.name().into(),
            participants: participants.iter().map(|s| s.to_string()).collect(),
            matches,
            seed: 5,
            ..Default::default()
        }
    }

    fn planned(s: &v1::CompetitionSpec) -> (Plan, Vec<v1::TableJob>) {
        let plan = Plan::of(s).unwrap();
        let jobs = jobs_of(s, &plan, s.matches, None).collect();
        (plan, jobs)
    }

    #[test]
    fn every_wall_is_played_at_24_seatings_with_every_participant_in_every_seat() {
        let s = spec(&["fan", "efficiency", "random", "random"], 2);
        let (plan, jobs) = planned(&s);
        assert_eq!((plan.walls, plan.rounds, plan.groups()), (4, 1, 1));
        assert_eq!(jobs.len(), 2 * 4 * 24);
        let ids: BTreeSet<&str> = jobs.iter().map(|j| j.table_id.as_str()).collect();
        assert_eq!(ids.len(), jobs.len(), "table ids are unique");
        // Per deal group (a wall): 24 tables on one wall, each position in each seat 6 times.
        let mut groups: BTreeMap<String, Vec<&v1::TableJob>> = BTreeMap::new();
        for j in &jobs {
            let p = j.placement.as_deref().unwrap();
            assert_eq!(p.deal_group_tables, 24);
            groups.entry(p.deal_group.clone()).or_default().push(j);
        }
        assert_eq!(groups.len(), 2 * 4);
        for tables in groups.values() {
            assert_eq!(tables.len(), 24);
            let setups: BTreeSet<Vec<u8>> = tables
                .iter()
                .map(|j| j.setup.as_ref().unwrap().value.clone())
                .collect();
            assert_eq!(setups.len(), 1, "one wall per deal group");
            let mut seatings = BTreeSet::new();
            for j in tables {
                let p = j.placement.as_deref().unwrap();
                seatings.insert(p.rotation % 24);
                let slot = Slot::of(p, s.matches, &plan).unwrap();
                let seats: Vec<&str> = j.seats.iter().map(|x| x.bot.as_str()).collect();
                let want: Vec<&str> = PERMUTATIONS[slot.perm]
                    .iter()
                    .map(|&k| s.participants[usize::from(k)].as_str())
                    .collect();
                assert_eq!(seats, want);
            }
            assert_eq!(seatings.len(), 24);
        }
        // The walls are those `arena mcr match --seed` plays, wall w in the prevalent wind w.
        let setup: pb::Setup =
            arena_proto::payload::unpack(jobs[24].setup.as_ref(), "setup").unwrap();
        // Without flowers unless the setup says `no_flowers: false`, as IJCAI plays.
        let deal = ijcai::deal(5, 0, 1, false);
        assert_eq!(setup.walltiles, deal.wall.to_string());
        assert_eq!(setup.quan, Some(1));
    }

    #[test]
    fn a_field_not_a_multiple_of_four_is_padded_and_regrouped_each_round() {
        let s = spec(&["a", "b", "c", "d", "e", "f"], 1);
        let (plan, jobs) = planned(&s);
        assert_eq!(plan.field.len(), 8);
        assert_eq!(&plan.field[6..], [PAD_BOT, PAD_BOT]);
        assert_eq!(plan.rounds, 3);
        assert_eq!(jobs.len() as u64, plan.hands_per_match());
        assert_eq!(jobs.len(), 2 * 3 * 4 * 24);
        assert!(IJCAI.bots(&s).contains(&("padding", PAD_BOT)));
        let group_of = |round: u32, name: &str| -> BTreeSet<String> {
            jobs.iter()
                .find(|j| {
                    j.placement.as_deref().unwrap().round == round
                        && j.seats.iter().any(|x| x.bot == name)
                })
                .unwrap()
                .seats
                .iter()
                .map(|x| x.bot.clone())
                .collect()
        };
        let rounds: BTreeSet<BTreeSet<String>> = (0..3).map(|r| group_of(r, "a")).collect();
        assert!(rounds.len() > 1, "the seeded groups differ between rounds");
    }

    /// A result of `job` where position `winner` (of the participants) wins 24 from each
    /// other seat.
    fn result(s: &v1::CompetitionSpec, job: &v1::TableJob, winner: &str) -> v1::TableResult {
        let w = job.seats.iter().position(|x| x.bot == winner).unwrap();
        let mut scores = [-8i64; 4];
        scores[w] = 24;
        let _ = s;
        v1::TableResult {
            table_id: job.table_id.clone(),
            final_scores: scores.to_vec(),
            outcome: Some(v1::Outcome {
                scores: scores.to_vec(),
                game: Some(arena_proto::payload::pack(&pb::Outcome {
                    winner: Some(w as u32),
                    ..Default::default()
                })),
                ..Default::default()
            }),
            placement: job.placement.clone(),
            ..Default::default()
        }
    }

    #[test]
    fn standings_count_complete_walls_in_rank_points() {
        let s = spec(&["fan", "efficiency", "random", "slow"], 1);
        let (plan, jobs) = planned(&s);
        // "fan" wins every hand; the other three tie on every wall.
        let results: Vec<v1::TableResult> = jobs.iter().map(|j| result(&s, j, "fan")).collect();
        // Three complete walls and one hand of the fourth.
        let st = standings(&s, &plan, &results[..3 * 24 + 1]);
        assert_eq!(st.standings[0].participant, "fan");
        let totals = |x: &v1::Standing| -> pb::Standing {
            arena_proto::payload::unpack(x.game.as_ref(), "standing").unwrap()
        };
        let f = totals(&st.standings[0]);
        assert_eq!((f.walls, f.hands, f.wins), (3, 73, 73));
        assert_eq!(f.rank_points, 12.0);
        assert_eq!(f.score, 3 * 24 * 24);
        assert_eq!(st.standings[0].mean_score, 24.0);
        // The three others share places 2-4: 3 + 2 + 1 over three = 2 points a wall.
        for x in &st.standings[1..] {
            assert_eq!(totals(x).rank_points, 6.0);
        }
        // No complete match yet: no place probabilities.
        assert_eq!(st.standings[0].most_probable_rank, 0);
        // Everything, with one result twice: one complete match, the first place certain.
        let mut all = results.clone();
        all.push(results[0].clone());
        let st = standings(&s, &plan, &all);
        assert_eq!(totals(&st.standings[0]).walls, 4);
        assert_eq!(st.standings[0].rank_probabilities, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(st.standings[0].most_probable_rank, 1);
        assert_eq!(st.drawn, 0);
    }

    #[test]
    fn check_fills_in_the_ijcai_defaults_and_every_job_is_one_the_referee_takes() {
        let mut s = spec(&["fan", "efficiency", "random", "random", "fan"], 1);
        let plan = check(&mut s, 10_000).unwrap();
        assert_eq!(s.format, "duplicate");
        assert_eq!(s.rounds, 3);
        assert_eq!(
            s.time,
            Some(v1::TimeControl {
                decision_ms: 0,
                ..crate::mcr::spec::default_time()
            })
        );
        // Which the referee reads as the game's clock.
        assert_eq!(
            arena_table::TimeRules::resolve(&s.time.unwrap(), v1::PenaltyRounding::Started),
            arena_table::TimeRules::resolve(
                &crate::mcr::spec::default_time(),
                v1::PenaltyRounding::Started
            )
        );
        let setup: pb::Setup = competition::setup_in(&s).unwrap();
        assert_eq!(setup.walls, Some(4));
        assert_eq!(plan.field.len(), 8);
        for job in IJCAI.jobs(&s, &competition::Library::default()).unwrap() {
            crate::validate(&job).unwrap();
        }
    }

    #[test]
    fn a_competition_on_library_walls_plays_them_and_names_each_for_its_claim() {
        let mut s = spec(&["fan", "efficiency", "random", "random"], 2);
        s.setup = Some(arena_proto::payload::pack(&pb::Setup {
            walls: Some(2),
            walls_from_library: true,
            ..Default::default()
        }));
        check(&mut s, 10_000).unwrap();
        assert_eq!(IJCAI.library(&s).as_deref(), Some(WALLS_PANEL));
        // Five walls without flowers and one with: two matches of two walls need four.
        let texts: Vec<String> = (0..5)
            .map(|k| mcr::Wall::from_seed(100 + k, false).to_string())
            .chain([mcr::Wall::from_seed(7, true).to_string()])
            .collect();
        let records = library::records_of(texts.iter().map(String::as_str)).unwrap();
        let mut lib = competition::Library {
            deals: records.clone(),
            ..Default::default()
        };
        lib.exclude.insert(records[0].id.clone());
        let jobs = IJCAI.jobs(&s, &lib).unwrap();
        assert_eq!(jobs.len(), 2 * 2 * 24);
        let by_id: BTreeMap<&str, &str> = records
            .iter()
            .map(|r| (r.id.as_str(), r.deal.as_str()))
            .collect();
        let mut played = BTreeSet::new();
        for j in &jobs {
            let p = j.placement.as_deref().unwrap();
            let setup: pb::Setup = arena_proto::payload::unpack(j.setup.as_ref(), "setup").unwrap();
            assert_eq!(
                by_id[p.deal_id.as_str()],
                setup.walltiles,
                "the claimed wall is played"
            );
            assert_eq!(setup.quan, Some(p.rotation / 24 % 4));
            played.insert(p.deal_id.clone());
        }
        assert_eq!(played.len(), 4, "every wall of every match its own");
        assert!(
            !played.contains(&records[0].id),
            "a wall another competition holds"
        );
        assert!(!played.contains(&records[5].id), "a wall with flowers");
        // Planned again with a wall more in the library: the same walls.
        let extra =
            library::records_of([mcr::Wall::from_seed(1, false).to_string().as_str()]).unwrap();
        lib.deals.extend(extra);
        lib.held = played.iter().cloned().collect();
        let again: BTreeSet<String> = IJCAI
            .jobs(&s, &lib)
            .unwrap()
            .iter()
            .map(|j| j.placement.as_deref().unwrap().deal_id.clone())
            .collect();
        assert_eq!(again, played);
        // Too few: the error says how many and how to import more.
        lib.exclude.extend(played);
        let Err(SpecError::Unavailable(why)) = IJCAI.jobs(&s, &lib) else {
            panic!("one unused wall cannot supply four");
        };
        assert!(
            why.contains("1 unused wall(s) of 136 tiles, and 4 are needed")
                && why.contains("arena deals import --game mcr"),
            "{why}"
        );
    }

    #[test]
    fn a_spec_that_is_not_an_mcr_competition_is_refused_naming_the_field() {
        let field = |f: &dyn Fn(&mut v1::CompetitionSpec)| {
            let mut s = spec(&["fan", "efficiency", "random", "random"], 1);
            f(&mut s);
            check(&mut s, 10_000).unwrap_err().to_string()
        };
        let setup = |s: &mut v1::CompetitionSpec, m: &dyn Fn(&mut pb::Setup)| {
            let mut x = pb::Setup::default();
            m(&mut x);
            s.setup = Some(arena_proto::payload::pack(&x));
        };
        assert!(field(&|s| s.participants.truncate(3)).starts_with("spec.participants"));
        assert!(field(&|s| s.farmers = "expert".into()).starts_with("spec.farmers"));
        assert!(field(&|s| s.format = "random".into()).starts_with("spec.format"));
        assert!(field(&|s| setup(s, &|x| x.walltiles = "W1".into())).starts_with("spec.setup"));
        assert!(field(&|s| setup(s, &|x| x.quan = Some(1))).starts_with("spec.setup"));
        assert!(field(&|s| setup(s, &|x| x.walls = Some(0))).starts_with("spec.setup.walls"));
        assert!(
            field(&|s| setup(s, &|x| x.fault_policy = 9)).starts_with("spec.setup.fault_policy")
        );
        let cap = field(&|s| {
            s.time = Some(v1::TimeControl {
                decision_ms: 2000,
                hard_cap_ms: 1000,
                ..Default::default()
            })
        });
        assert!(cap.starts_with("spec.time"), "{cap}");
        let mut s = spec(&["fan", "efficiency", "random", "random"], 200);
        assert!(matches!(
            check(&mut s, 10_000),
            Err(SpecError::OutOfRange(_))
        ));
    }
}
