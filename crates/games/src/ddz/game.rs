//! Dou Dizhu's registration: [`DouDizhu`], the game as the platform sees it
//! ([`crate::Game`]) and as the runner plays it ([`TableAdapter`]).

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::text::enum_short as short;
use arena_proto::v1;
use arena_table::run::Player;
use arena_table::{JobError, TableSpec};
use ddz_bots::BotSpec;
use serde_json::{Value, json};

use super::{DdzBot, DdzSpec, DdzTable, bots, convert, form, spec};
use crate::adapter::{self, TableAdapter};
use crate::form::{Field, Values};
use crate::ladder::{Group, GroupScore, GroupTable, Ladder};
use crate::{Builtin, CheckedJob, CompetitionView, Game, GameKind, Renderer, RequestBot, Variant};

/// Dou Dizhu (竞技二打一): three seats, one landlord against two farmers.
pub struct DouDizhu;

/// Dou Dizhu's other program protocols (`NAME:PROGRAM`).
const PROTOCOLS: [crate::ProtocolInfo; 7] = [
    crate::ProtocolInfo {
        name: "botzone",
        about: "Botzone's FightTheLandlord2 bots (bidding), JSON interaction, docs/botzone-ddz.md",
    },
    crate::ProtocolInfo {
        name: "botzone-keep",
        about: "Botzone's FightTheLandlord2 bots, JSON interaction with keep-running",
    },
    crate::ProtocolInfo {
        name: "botzone-ftl2",
        about: "the same as botzone",
    },
    crate::ProtocolInfo {
        name: "botzone-ftl2-keep",
        about: "the same as botzone-keep",
    },
    crate::ProtocolInfo {
        name: "botzone-ftl",
        about: "Botzone's FightTheLandlord bots (fixed landlord, no bidding), JSON interaction, docs/botzone-ddz.md",
    },
    crate::ProtocolInfo {
        name: "botzone-ftl-keep",
        about: "Botzone's FightTheLandlord bots, JSON interaction with keep-running",
    },
    crate::ProtocolInfo {
        name: super::championship::NAME,
        about: "the Chinese university championship's Dou Dizhu engines, docs/championship-protocol.md",
    },
];

/// Dou Dizhu's handle.
pub const GAME: GameKind = GameKind::of(&DouDizhu);

impl Game for DouDizhu {
    fn name(&self) -> &'static str {
        "ddz"
    }

    fn title(&self) -> &'static str {
        "Dou Dizhu"
    }

    fn seat_count(&self) -> usize {
        3
    }

    fn builtin(&self, name: &str) -> Option<Result<Builtin, String>> {
        adapter::builtin(&DouDizhu, name)
    }

    fn builtin_help(&self) -> &'static str {
        bots::BUILTIN_HELP
    }

    fn program_protocol(&self, _seat: u32) -> Box<dyn arena_line::ProgramProtocol> {
        Box::new(super::program::DdzProgram::default())
    }

    fn program_protocols(&self) -> &'static [crate::ProtocolInfo] {
        &PROTOCOLS
    }

    fn named_program_protocol(
        &self,
        _seat: u32,
        name: &str,
    ) -> Option<Box<dyn arena_line::ProgramProtocol>> {
        use super::botzone::{Edition, FtlGrammar};
        use arena_line::botzone::{Mode, Protocol, interaction};
        if name == super::championship::NAME {
            return Some(Box::new(super::championship::ChampionshipProgram::new()));
        }
        // botzone[-ftl|-ftl2][-keep]: the edition, then how the bot is registered on Botzone
        // (Dou Dizhu's bots speak JSON: Botzone gives its Dou Dizhu games no simple I/O).
        let rest = name.strip_prefix("botzone")?;
        let (edition, rest) = if let Some(r) = rest.strip_prefix("-ftl2") {
            (Edition::Ftl2, r)
        } else if let Some(r) = rest.strip_prefix("-ftl") {
            (Edition::Ftl, r)
        } else {
            (Edition::Ftl2, rest)
        };
        match interaction(rest)? {
            (Mode::Json, keep) => Some(Box::new(
                Protocol::new(FtlGrammar::new(edition), Mode::Json).keep_running(keep),
            )),
            (Mode::SimpleIo, _) => None,
        }
    }

    fn check(&'static self, job: &v1::TableJob) -> Result<CheckedJob, JobError> {
        adapter::check(self, job)
    }

    fn legal(&self, observation: &v1::Observation) -> Vec<String> {
        arena_proto::payload::unpack::<ddz_pb::Observation>(observation.game.as_ref(), "")
            .map(|d| d.legal)
            .unwrap_or_default()
    }

    fn variants(&self) -> Vec<Variant> {
        use super::rules::Scoring;
        let variant = |rules: &str, scoring: Scoring| Variant {
            name: format!("{rules}-{}", scoring.name()),
            seed: 2015,
            setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                rules: rules.into(),
                scoring: scoring.name().into(),
                // The doubling round is part of the rules' transcript too.
                doubling: true,
                ..Default::default()
            })),
        };
        // Each rule set changes the legal plays; each scoring mode only the scores, so the
        // scoring modes are played under one rule set.
        let rule_sets = ["competition", "douzero", "openspiel"]
            .into_iter()
            .map(|rules| variant(rules, Scoring::Competition));
        let scorings = [Scoring::Difficulty, Scoring::Adp, Scoring::Wp]
            .into_iter()
            .map(|scoring| variant("competition", scoring));
        rule_sets.chain(scorings).collect()
    }

    fn competitions(&self) -> Option<&dyn crate::Competitions> {
        Some(self)
    }

    fn ladder(&self) -> Option<&dyn Ladder> {
        Some(self)
    }

    fn difficulty(&self) -> Option<&dyn crate::Difficulty> {
        Some(&super::measure::DdzDifficulty)
    }

    fn commands(&self) -> Option<&dyn crate::GameCommands> {
        Some(&super::commands::COMMANDS)
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["dou-dizhu"]
    }

    fn competition_fields(&self) -> &'static [Field] {
        form::COMPETITION_FIELDS
    }

    fn competition_spec(
        &self,
        spec: &mut v1::CompetitionSpec,
        given: &Values,
    ) -> Result<(), String> {
        form::competition_spec(spec, given)
    }

    fn table_fields(&self) -> &'static [Field] {
        form::TABLE_FIELDS
    }

    fn table_setup(&self, job: &mut v1::TableJob, given: &Values) -> Result<(), String> {
        form::table_setup(job, given)
    }

    fn default_seats(&self) -> Vec<String> {
        ["expert", "seed", "random"].map(String::from).to_vec()
    }

    fn competition_view(&self) -> CompetitionView {
        CompetitionView {
            mean_heading: "Mean score",
            ranking_rule: "In every complete match, the participants are ranked by their summed \
                score over the match's rounds (each round's table score after penalties; \
                difficulty-adjusted: minus the deal's expected score; with seat rotation, plus \
                its farmer team's score on the same cards), ties broken at random. P(#k) is the \
                share of complete matches in which the participant came k-th; * marks its most \
                probable place. Places go by most probable place (the better one when two are \
                equally likely), ties by mean rank, then to the participant named first. Mean \
                score is per round over every complete round, with its 95% confidence interval.",
            // The participant's own table of the round, and its side (landlord, or farmers
            // with seat rotation).
            placement: &[
                ("Match", "match"),
                ("Round", "round"),
                ("Table #", "table"),
                ("Side", "side"),
            ],
            placement_phrase: "match {match}, round {round}, table {table}, {side}",
            summary: "{participants} participants · farmers {farmers} · {matches} matches × \
                      {rounds} rounds",
            drawn: "",
        }
    }

    fn describe_replay(&self, replay: &v1::Replay) -> Vec<String> {
        form::describe_replay(replay)
    }

    fn renderer(&self) -> Renderer {
        Renderer {
            file: "ddz.js",
            source: include_str!("renderer.js"),
        }
    }

    fn render_action(&self, action: &v1::Action) -> String {
        use ddz_pb::action::Action;
        let Ok(d) = arena_proto::payload::unpack::<ddz_pb::Action>(action.game.as_ref(), "") else {
            return String::new();
        };
        match &d.action {
            Some(Action::Bid(b)) => format!("bid {b}"),
            Some(Action::Double(true)) => "double".into(),
            Some(Action::Double(false)) => "no double".into(),
            Some(Action::Play(p)) => p.clone(),
            None => String::new(),
        }
    }

    fn render_observation(&self, observation: &v1::Observation) -> Value {
        let Ok(d) = convert::observation_of(observation) else {
            return Value::Null;
        };
        json!({
            "seat": d.seat,
            "hand": d.hand,
            "phase": short(d.phase_kind().as_str_name(), "PHASE_"),
            "landlord": d.landlord,
            "bottom": d.bottom,
            "bid": d.bid,
            "cards_left": d.cards_left,
            "to_beat": d.to_beat,
            "to_beat_seat": d.to_beat_seat,
            "events": d.events.len(),
        })
    }

    fn render_outcome(&self, outcome: &v1::Outcome) -> Value {
        let Some(d) = convert::outcome_of(outcome) else {
            return Value::Null;
        };
        json!({
            "landlord": d.landlord,
            "winner": d.winner,
            "bid": d.bid,
            "bombs": d.bombs,
            "rockets": d.rockets,
            "spring": d.spring,
            "anti_spring": d.anti_spring,
            "doubled": d.doubled,
            "redoubled": d.redoubled,
        })
    }

    fn render_history(&self, replay: &v1::Replay) -> Value {
        let history = convert::history_of(replay);
        json!({ "ddz_events": history.events.iter().map(event).collect::<Vec<_>>() })
    }
}

/// A public event as the console's renderer reads it.
fn event(e: &ddz_pb::Event) -> Value {
    use ddz_pb::event::Event;
    let (kind, value) = match &e.event {
        Some(Event::Bid(b)) => ("bid", json!(b)),
        Some(Event::Redeal(_)) => ("redeal", Value::Null),
        Some(Event::Landlord(l)) => ("landlord", json!({"bid": l.bid, "bottom": l.bottom})),
        Some(Event::Double(d)) => ("double", json!(d)),
        Some(Event::Play(p)) => ("play", json!(p)),
        None => ("", Value::Null),
    };
    json!({"seat": e.seat, "kind": kind, "value": value})
}

impl TableAdapter for DouDizhu {
    type Table = DdzTable;
    type Setup = DdzSpec;
    type Bot = BotSpec;

    fn kind(&'static self) -> GameKind {
        GAME
    }

    fn read_setup(&self, job: &v1::TableJob) -> Result<DdzSpec, JobError> {
        spec::read_setup(&crate::setup_of::<ddz_pb::Setup>(job)?, job.seed)
    }

    fn rounding(&self) -> v1::PenaltyRounding {
        v1::PenaltyRounding::Started
    }

    fn parse_bot(&self, name: &str) -> Option<Result<BotSpec, String>> {
        bots::parse_builtin(name)
    }

    fn table(&self, spec: &TableSpec<DdzSpec, BotSpec>) -> DdzTable {
        DdzTable::new(&spec.setup, spec.seed)
    }

    fn local_bot(&self, bot: &BotSpec) -> Option<Player<DdzTable>> {
        DdzBot::new(bot).map(|b| Box::new(b) as Player<DdzTable>)
    }

    fn request_bot(&self, bot: &BotSpec, seed: u64) -> Option<Box<dyn RequestBot>> {
        bots::DdzRequestBot::new(bot, seed).map(|b| Box::new(b) as Box<dyn RequestBot>)
    }
}

/// Dou Dizhu's ladder: a pair of bots plays a duplicate pair of tables on one deal, A as
/// landlord against B in both farmer seats, then B as landlord against A; a bot's pair score is
/// its landlord score plus its farmer team's score on the same cards.
impl Ladder for DouDizhu {
    fn group_size(&self) -> usize {
        2
    }

    fn state_key(&self) -> (&'static str, &'static str) {
        ("ladder", "state")
    }

    fn competition(&self) -> &'static str {
        arena_store::visibility::LADDER_COMPETITION
    }

    fn table_suffixes(&self) -> &'static [&'static str] {
        &["a", "b"]
    }

    fn tables(&self, group: &Group<'_>) -> Vec<GroupTable> {
        let deal = super::rules::Deal::generate(group.deal_key, group.n).to_string();
        let (a, b) = (group.bots[0], group.bots[1]);
        [(a, b, "a", 1u64), (b, a, "b", 2u64)]
            .into_iter()
            .map(|(landlord, farmer, role, salt)| GroupTable {
                suffix: if role == "a" { "a" } else { "b" },
                job: v1::TableJob {
                    game: GAME.name().into(),
                    seats: [landlord, farmer, farmer]
                        .into_iter()
                        .map(|bot| v1::SeatSpec { bot: bot.into() })
                        .collect(),
                    setup: Some(arena_proto::payload::pack(&spec::fixed_landlord_setup(
                        deal.clone(),
                        super::rules::Scoring::Competition,
                    ))),
                    time: group.time,
                    verdict_policy: group.verdict_policy as i32,
                    seed: group.seed ^ group.n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt,
                    labels: [("landlord".to_string(), role.to_string())].into(),
                    placement: Some(Box::new(v1::Placement {
                        rotation: u32::from(role == "b"),
                        ..Default::default()
                    })),
                    ..Default::default()
                },
            })
            .collect()
    }

    fn score(&self, group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String> {
        let ([a, b], 2) = (tables, group.bots.len()) else {
            return Err(format!(
                "a pair is 2 bots at 2 tables, not {} at {}",
                group.bots.len(),
                tables.len()
            ));
        };
        let (a, b) = (&a.final_scores, &b.final_scores);
        Ok(GroupScore {
            scores: vec![(a[0] + b[1] + b[2]) as f64, (b[0] + a[1] + a[2]) as f64],
            release_at: vec![(0, 0), (1, 0)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_protocol_is_given_and_botzones_simple_io_is_not() {
        for p in DouDizhu.program_protocols() {
            assert!(
                DouDizhu.named_program_protocol(0, p.name).is_some(),
                "{}",
                p.name
            );
        }
        for name in [
            "botzone-simpleio",
            "botzone-ftl-simpleio",
            "botzone-ftl3",
            "cmd",
        ] {
            assert!(DouDizhu.named_program_protocol(0, name).is_none(), "{name}");
        }
        let e = GAME.check_protocol(Some("botzone-simpleio")).unwrap_err();
        assert!(e.contains("botzone-ftl"), "{e}");
    }
}
