//! Chinese Standard Mahjong's registration: [`Mcr`], the game as the platform sees it
//! ([`crate::Game`]) and as the runner plays it ([`TableAdapter`]).

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::v1;
use arena_table::run::Player;
use arena_table::{JobError, TableSpec};
use mcr::FaultPolicy;
use serde_json::{Value, json};

use super::bots::{self, BotName};
use super::{McrBot, McrSpec, McrTable, convert, spec};
use crate::adapter::{self, TableAdapter};
use crate::form::{self, Field, Values};
use crate::ladder::{self, Group, GroupScore, GroupTable, Ladder};
use crate::{Builtin, CheckedJob, CompetitionView, Game, GameKind, Renderer, RequestBot, Variant};

/// The options of a table played by hand.
const TABLE_FIELDS: &[Field] = &[
    Field::value(
        "walltiles",
        "The wall as Botzone's walltiles: 144 tiles (136 without flowers), space-separated",
        "the wall of --seed",
    ),
    Field::value(
        "quan",
        "The prevalent wind: 0 east, 1 south, 2 west, 3 north",
        "the wind of --seed",
    ),
    Field::switch(
        "no-flowers",
        "Deal a wall without flowers (136 tiles, as IJCAI plays)",
    ),
    // `arena table run` plays its tables on, as for every game, unless told otherwise.
    Field::choice(
        "fault-policy",
        "A bot's fault: judge (the hand ends, -30 to it, +10 to each other) or play-on",
        &["play-on", "judge"],
    ),
];

/// The options of a competition: every hand's flowers and fault policy, and the walls of a
/// match.
const COMPETITION_FIELDS: &[Field] = &[
    Field::switch(
        "flowers",
        "Deal walls of 144 tiles with flowers (by default 136 without, as IJCAI plays)",
    ),
    Field::choice(
        "fault-policy",
        "A bot's fault: judge (the hand ends, -30 to it, +10 to each other) or play-on",
        &["judge", "play-on"],
    ),
    Field::value(
        "walls",
        "Walls of a match, each played at every seat permutation",
        "4",
    ),
    Field::value("matches", "Matches, of every wall at every seating", "1"),
    Field::choice(
        "walls-from",
        "Where the walls come from: seed (dealt from the competition's seed) or library (walls \
         imported into the deal library, each claimed by the competition)",
        &["seed", "library"],
    ),
];

/// Chinese Standard Mahjong (the Chinese Official rules as Botzone's judge plays them): four
/// seats.
pub struct Mcr;

/// The game's handle.
pub const GAME: GameKind = GameKind::of(&Mcr);

/// A fault policy as a user writes it.
fn parse_policy(value: &str) -> Result<FaultPolicy, String> {
    match value.trim() {
        "judge" => Ok(FaultPolicy::Judge),
        "play-on" => Ok(FaultPolicy::PlayOn),
        other => Err(format!(
            "--fault-policy {}: the policies are judge and play-on",
            arena_proto::text::quote(other)
        )),
    }
}

/// A switch's value as the form gives it.
fn switch(given: &Values, name: &str) -> Result<bool, String> {
    given.get(name).map_or(Ok(false), |v| form::parse(name, v))
}

impl Game for Mcr {
    fn name(&self) -> &'static str {
        "mcr"
    }

    fn title(&self) -> &'static str {
        "Chinese Standard Mahjong"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["chinese-standard-mahjong"]
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn builtin(&self, name: &str) -> Option<Result<Builtin, String>> {
        adapter::builtin(&Mcr, name)
    }

    fn builtin_help(&self) -> &'static str {
        bots::BUILTIN_HELP
    }

    fn program_protocol(&self, seat: u32) -> Box<dyn arena_line::ProgramProtocol> {
        // A table has four seats; the table refuses any other before it asks.
        Box::new(super::program::McrProgram::new((seat & 3) as u8))
    }

    fn program_protocols(&self) -> &'static [crate::registry::ProtocolInfo] {
        &[
            crate::registry::ProtocolInfo {
                name: "botzone",
                about: "Botzone's bots, JSON interaction (docs/botzone.md)",
            },
            crate::registry::ProtocolInfo {
                name: "botzone-keep",
                about: "Botzone's bots, JSON interaction with keep-running (docs/botzone.md)",
            },
            crate::registry::ProtocolInfo {
                name: "botzone-simpleio",
                about: "Botzone's bots, simple I/O (docs/botzone.md)",
            },
            crate::registry::ProtocolInfo {
                name: "botzone-simpleio-keep",
                about: "Botzone's bots, simple I/O with keep-running (docs/botzone.md)",
            },
        ]
    }

    fn named_program_protocol(
        &self,
        seat: u32,
        name: &str,
    ) -> Option<Box<dyn arena_line::ProgramProtocol>> {
        use arena_line::botzone::{Protocol, interaction};
        let (mode, keep) = interaction(name.strip_prefix("botzone")?)?;
        let grammar = super::botzone::McrBotzone::new((seat & 3) as u8);
        Some(Box::new(Protocol::new(grammar, mode).keep_running(keep)))
    }

    /// The set-up's fault policy rules the table: the job is played under it (as the table's
    /// verdict policy, the judge's being forfeit) whatever the job's verdict policy says.
    fn check(&'static self, job: &v1::TableJob) -> Result<CheckedJob, JobError> {
        let setup = crate::setup_of::<mcr_pb::Setup>(job)?;
        match spec::policy_of(setup.fault_policy) {
            Ok(Some(policy)) => {
                let verdict_policy = match spec::table_policy(policy) {
                    arena_table::Policy::Forfeit => v1::VerdictPolicy::Forfeit,
                    arena_table::Policy::PlayOn => v1::VerdictPolicy::PlayOn,
                };
                let job = v1::TableJob {
                    verdict_policy: verdict_policy as i32,
                    ..job.clone()
                };
                adapter::check(self, &job)
            }
            // Unset, or unknown (which the set-up's check refuses naming the field).
            _ => adapter::check(self, job),
        }
    }

    fn legal(&self, observation: &v1::Observation) -> Vec<String> {
        arena_proto::payload::unpack::<mcr_pb::Observation>(observation.game.as_ref(), "")
            .map(|m| m.legal)
            .unwrap_or_default()
    }

    fn variants(&self) -> Vec<Variant> {
        let setup = |no_flowers: bool, policy: FaultPolicy| {
            Some(arena_proto::payload::pack(&mcr_pb::Setup {
                // Unset for a wall with flowers: a table's default.
                no_flowers: no_flowers.then_some(true),
                fault_policy: spec::policy_kind(policy) as i32,
                ..Default::default()
            }))
        };
        // Seeds whose hand of random bots ends in a win (17 points with flowers, 20 without), so
        // the transcript shows its fans.
        vec![
            Variant {
                name: "default".into(),
                seed: 152,
                setup: None,
            },
            Variant {
                name: "play-on".into(),
                seed: 152,
                setup: setup(false, FaultPolicy::PlayOn),
            },
            Variant {
                name: "no-flowers".into(),
                seed: 125,
                setup: setup(true, FaultPolicy::Judge),
            },
        ]
    }

    fn ladder(&self) -> Option<&dyn Ladder> {
        Some(self)
    }

    fn competitions(&self) -> Option<&dyn crate::Competitions> {
        Some(&super::competition::IJCAI)
    }

    /// Walls kept in the deal library as imported, unmeasured ([`super::library`]).
    fn difficulty(&self) -> Option<&dyn crate::Difficulty> {
        Some(&super::library::WALLS)
    }

    fn commands(&self) -> Option<&dyn crate::GameCommands> {
        Some(&super::commands::COMMANDS)
    }

    fn competition_fields(&self) -> &'static [Field] {
        COMPETITION_FIELDS
    }

    fn competition_spec(
        &self,
        spec: &mut v1::CompetitionSpec,
        given: &Values,
    ) -> Result<(), String> {
        let mut given = given.clone();
        let flowers = switch(&given, "flowers")?;
        let policy = given
            .get("fault-policy")
            .map(|p| parse_policy(p))
            .transpose()?;
        let walls = given
            .get("walls")
            .map(|w| form::parse::<u32>("walls", w))
            .transpose()?;
        let walls_from_library = match given.get("walls-from").map(|w| w.trim()) {
            None | Some("seed") => false,
            Some("library") => true,
            Some(other) => {
                return Err(format!(
                    "--walls-from {}: walls come from seed or library",
                    arena_proto::text::quote(other)
                ));
            }
        };
        for name in ["flowers", "fault-policy", "walls", "walls-from"] {
            given.remove(name);
        }
        let rest = form::write_spec_fields(spec, &given)?;
        form::not_for(self.title(), "competitions", &rest, |g| {
            g.competition_fields()
        })?;
        // One match unless asked, as the field's default says.
        if !given.contains_key("matches") {
            spec.matches = 1;
        }
        spec.setup = Some(arena_proto::payload::pack(&mcr_pb::Setup {
            no_flowers: Some(!flowers),
            fault_policy: policy.map_or(0, |p| spec::policy_kind(p) as i32),
            walls,
            walls_from_library,
            ..Default::default()
        }));
        Ok(())
    }

    fn table_fields(&self) -> &'static [Field] {
        TABLE_FIELDS
    }

    fn table_setup(&self, job: &mut v1::TableJob, given: &Values) -> Result<(), String> {
        let rest: Vec<String> = given
            .keys()
            .filter(|k| !TABLE_FIELDS.iter().any(|f| f.name == k.as_str()))
            .cloned()
            .collect();
        form::not_for(self.title(), "tables", &rest, |g| g.table_fields())?;
        let setup = mcr_pb::Setup {
            walltiles: given.get("walltiles").cloned().unwrap_or_default(),
            quan: given
                .get("quan")
                .map(|q| form::parse::<u32>("quan", q))
                .transpose()?,
            no_flowers: switch(given, "no-flowers")?.then_some(true),
            fault_policy: given
                .get("fault-policy")
                .map(|p| parse_policy(p))
                .transpose()?
                .map_or(0, |p| spec::policy_kind(p) as i32),
            walls: None,
            walls_from_library: false,
        };
        // Checked here so that a bad option is refused naming its flag before any table runs.
        spec::read_setup(&setup, job.seed, job.verdict_policy).map_err(|e| {
            let flag = match e.field.as_str() {
                "job.mcr.quan" => "--quan",
                _ => "--walltiles",
            };
            format!("{flag}: {}", e.message)
        })?;
        job.setup = Some(arena_proto::payload::pack(&setup));
        Ok(())
    }

    fn competition_view(&self) -> CompetitionView {
        CompetitionView {
            mean_heading: "Mean / hand",
            ranking_rule: "Participants are placed by rank points: in each group of four, the \
                four bots' scores summed over a wall's hands (every seat permutation) give 4, 3, \
                2 and 1 rank points, ties sharing. Ties go to the higher total score, then to \
                the participant named first. P(#k) is the share of complete matches in which the \
                participant came k-th; * marks its most probable place. The interval is the 95% \
                confidence interval of the mean score per hand, walls as the samples.",
            placement: &[
                ("Match", "match"),
                ("Round", "round"),
                ("Group", "table"),
                ("Hand", "rotation"),
            ],
            placement_phrase: "match {match}, round {round}, group {table}, hand {rotation}",
            summary: "{participants} participants · {matches} matches",
            drawn: "{n} hands ended drawn.",
        }
    }

    fn default_seats(&self) -> Vec<String> {
        ["fan", "efficiency", "efficiency", "random"]
            .map(String::from)
            .to_vec()
    }

    fn default_time(&self) -> v1::TimeControl {
        spec::default_time()
    }

    fn renderer(&self) -> Renderer {
        Renderer {
            file: "mcr.js",
            source: include_str!("renderer.js"),
        }
    }

    fn render_action(&self, action: &v1::Action) -> String {
        arena_proto::payload::unpack::<mcr_pb::Action>(action.game.as_ref(), "")
            .map(|m| m.answer)
            .unwrap_or_default()
    }

    fn render_observation(&self, observation: &v1::Observation) -> Value {
        let Ok(m) = convert::observation_of(observation) else {
            return Value::Null;
        };
        json!({
            "seat": m.seat,
            "quan": m.quan,
            "seat_wind": m.seat_wind,
            "hand": m.hand,
            "flowers": m.flowers,
            "seats": m.seats.iter().map(|s| json!({
                "packs": s.packs.iter().map(pack).collect::<Vec<_>>(),
                "discards": s.discards,
                "claimed": s.claimed,
                "flowers": s.flowers,
                "wall_left": s.wall_left,
            })).collect::<Vec<_>>(),
            "decision": arena_proto::text::enum_short(m.decision().as_str_name(), "DECISION_KIND_"),
            "tile": m.tile,
            "from": m.from,
            "legal": m.legal,
            "events": m.events.len(),
        })
    }

    fn render_outcome(&self, outcome: &v1::Outcome) -> Value {
        let Some(m) = convert::outcome_of(outcome) else {
            return Value::Null;
        };
        json!({
            "winner": m.winner,
            "from": m.from,
            "tile": m.tile,
            "fans": m.fans.iter().map(|f| json!({
                "name": f.name,
                "chinese": f.chinese,
                "points": f.points,
                "count": f.count,
            })).collect::<Vec<_>>(),
            "points": m.points,
            "fault": m.fault,
        })
    }

    fn render_standing(&self, standing: &v1::Standing) -> Value {
        let Some(m) = convert::standing_of(standing) else {
            return Value::Null;
        };
        json!([
            ["Walls", m.walls],
            ["Hands", m.hands],
            ["Rank points", m.rank_points],
            ["Score", m.score.to_string()],
            ["Wins", m.wins],
            ["Self-drawn", m.self_drawn],
            ["Dealt in", m.dealt_in],
            ["Verdicts", m.verdicts],
        ])
    }

    fn render_history(&self, replay: &v1::Replay) -> Value {
        let history = convert::history_of(replay);
        // Each seat's 13 dealt tiles, read off the wall as the deal takes them (its quarter
        // from the end, flowers set aside), for the board before the first event.
        let hands: Vec<String> = mcr::Wall::from_walltiles(&history.walltiles)
            .map(|wall| {
                (0..4)
                    .map(|s| {
                        let dealt = wall.quarter(s).iter().rev().filter_map(|t| match t {
                            mcr::WallTile::Tile(t) => Some(*t),
                            mcr::WallTile::Flower(_) => None,
                        });
                        convert::counts_text(&mcr::counts_of(dealt.take(13)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        json!({
            "mcr_hands": hands,
            "mcr_quan": history.quan,
            "mcr_walltiles": history.walltiles,
            "mcr_events": history.events.iter().map(|e| json!({
                "seat": e.seat,
                "kind": arena_proto::text::enum_short(e.kind().as_str_name(), "EVENT_KIND_"),
                "tile": e.tile,
                "answer": e.answer,
            })).collect::<Vec<_>>(),
        })
    }
}

/// A pack as the console's renderer reads it.
fn pack(p: &mcr_pb::Pack) -> Value {
    json!({
        "kind": arena_proto::text::enum_short(p.kind().as_str_name(), "PACK_KIND_"),
        "tile": p.tile,
        "offer": p.offer,
    })
}

impl TableAdapter for Mcr {
    type Table = McrTable;
    type Setup = McrSpec;
    type Bot = BotName;

    fn kind(&'static self) -> GameKind {
        GAME
    }

    fn read_setup(&self, job: &v1::TableJob) -> Result<McrSpec, JobError> {
        spec::read_setup(
            &crate::setup_of::<mcr_pb::Setup>(job)?,
            job.seed,
            job.verdict_policy,
        )
    }

    fn rounding(&self) -> v1::PenaltyRounding {
        v1::PenaltyRounding::Started
    }

    fn parse_bot(&self, name: &str) -> Option<Result<BotName, String>> {
        bots::parse_builtin(name)
    }

    fn table(&self, spec: &TableSpec<McrSpec, BotName>) -> McrTable {
        McrTable::new(&spec.setup)
    }

    fn local_bot(&self, bot: &BotName) -> Option<Player<McrTable>> {
        Some(Box::new(McrBot::with(bot.player())))
    }

    fn request_bot(&self, bot: &BotName, seed: u64) -> Option<Box<dyn RequestBot>> {
        Some(Box::new(bots::McrRequestBot::new(bot, seed)))
    }
}

/// The ladder: four bots play one fresh wall at four tables, rotated one seat each table, so
/// each plays the wall from every seat ([`ladder::rotated_tables`]); a bot's set score is its
/// final scores at the four tables.
impl Ladder for Mcr {
    fn group_size(&self) -> usize {
        4
    }

    fn state_key(&self) -> (&'static str, &'static str) {
        ("ladder", "mcr")
    }

    fn competition(&self) -> &'static str {
        "ladder-mcr"
    }

    fn table_suffixes(&self) -> &'static [&'static str] {
        ladder::ROTATIONS
    }

    fn tables(&self, group: &Group<'_>) -> Vec<GroupTable> {
        use mahjong::schedule::mix;
        let deal_seed = mix(group.deal_key, group.n);
        let deal = mcr::wall::Deal::from_seed(deal_seed);
        let template = v1::TableJob {
            game: GAME.name().into(),
            setup: Some(arena_proto::payload::pack(&spec::setup_of(
                &deal,
                FaultPolicy::Judge,
            ))),
            time: Some(group.time.unwrap_or_else(spec::default_time)),
            verdict_policy: group.verdict_policy as i32,
            ..Default::default()
        };
        // A ladder's verdict policy, when it sets one, rules the tables: the set-up leaves
        // the fault policy to it.
        let template = if group.verdict_policy == v1::VerdictPolicy::Unspecified {
            template
        } else {
            v1::TableJob {
                setup: Some(arena_proto::payload::pack(&mcr_pb::Setup {
                    fault_policy: 0,
                    ..spec::setup_of(&deal, FaultPolicy::Judge)
                })),
                ..template
            }
        };
        ladder::rotated_tables(group, &template, |k| mix(deal_seed, k as u64))
    }

    fn score(&self, group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String> {
        ladder::rotated_score(group, tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(pairs: &[(&str, &str)]) -> Values {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_tables_options_become_its_setup_and_bad_ones_are_refused_naming_the_flag() {
        let mut job = v1::TableJob {
            seed: 4,
            ..Default::default()
        };
        let wall = mcr::Wall::from_seed(9, false).to_string();
        Mcr.table_setup(
            &mut job,
            &given(&[
                ("walltiles", &wall),
                ("quan", "3"),
                ("no-flowers", "true"),
                ("fault-policy", "judge"),
            ]),
        )
        .unwrap();
        let s = spec::read_setup(
            &arena_proto::payload::unpack::<mcr_pb::Setup>(job.setup.as_ref(), "").unwrap(),
            job.seed,
            0,
        )
        .unwrap();
        assert_eq!(s.deal.wall.to_string(), wall);
        assert_eq!(s.deal.quan, mcr::Wind::North);
        assert_eq!(s.policy, FaultPolicy::Judge);
        let refused = |pairs: &[(&str, &str)]| {
            Mcr.table_setup(&mut v1::TableJob::default(), &given(pairs))
                .unwrap_err()
        };
        assert!(refused(&[("quan", "5")]).starts_with("--quan"));
        assert!(refused(&[("quan", "x")]).starts_with("--quan"));
        assert!(refused(&[("walltiles", "W1")]).starts_with("--walltiles"));
        assert!(refused(&[("fault-policy", "lenient")]).contains("judge and play-on"));
        assert!(refused(&[("deal", "x")]).contains("--deal is for Dou Dizhu tables"));
    }

    #[test]
    fn a_competitions_options_become_its_setup() {
        let mut spec = v1::CompetitionSpec::default();
        Mcr.competition_spec(
            &mut spec,
            &given(&[("walls", "2"), ("fault-policy", "play-on")]),
        )
        .unwrap();
        let s: mcr_pb::Setup = arena_proto::payload::unpack(spec.setup.as_ref(), "").unwrap();
        assert_eq!(s.no_flowers, Some(true), "136 tiles unless --flowers");
        assert_eq!(s.walls, Some(2));
        assert_eq!(s.fault_policy, mcr_pb::FaultPolicy::PlayOn as i32);
        assert!(!s.walls_from_library, "walls from the seed unless asked");
        Mcr.competition_spec(
            &mut spec,
            &given(&[("flowers", "true"), ("walls-from", "library")]),
        )
        .unwrap();
        let s: mcr_pb::Setup = arena_proto::payload::unpack(spec.setup.as_ref(), "").unwrap();
        assert_eq!(s.no_flowers, Some(false));
        assert!(s.walls_from_library);
        let e = Mcr
            .competition_spec(&mut spec, &given(&[("walls-from", "file")]))
            .unwrap_err();
        assert!(e.starts_with("--walls-from \"file\""), "{e}");
        let e = Mcr
            .competition_spec(&mut spec, &given(&[("fans", "contest")]))
            .unwrap_err();
        assert!(
            e.contains("--fans is for Mahjong (2015 contest) competitions"),
            "{e}"
        );
    }

    #[test]
    fn the_ladder_plays_one_wall_from_every_seat_and_sums_each_bots_scores() {
        let group = Group {
            n: 7,
            bots: vec!["a", "b", "c", "d"],
            deal_key: 99,
            seed: 1,
            time: None,
            verdict_policy: v1::VerdictPolicy::Unspecified,
        };
        let tables = Mcr.tables(&group);
        assert_eq!(tables.len(), 4);
        let setups: Vec<_> = tables.iter().map(|t| t.job.setup.clone()).collect();
        assert!(setups.iter().all(|s| *s == setups[0]), "one wall");
        for (k, t) in tables.iter().enumerate() {
            assert_eq!(t.job.seats[k % 4].bot, "a", "table {k} seats a in seat {k}");
            assert!(validate_ok(&t.job));
        }
        let result = |scores: [i64; 4]| v1::TableResult {
            final_scores: scores.to_vec(),
            ..Default::default()
        };
        let results = [
            result([0, 1, 2, 3]),
            // Seat 0 of the second table is the first table's seat 3: bot d.
            result([100, 0, 0, 0]),
            result([0; 4]),
            result([0; 4]),
        ];
        let score = Mcr.score(&group, &results).unwrap();
        assert_eq!(score.scores, [0.0, 1.0, 2.0, 103.0]);
        assert!(Mcr.score(&group, &results[..3]).is_err());
    }

    fn validate_ok(job: &v1::TableJob) -> bool {
        let job = v1::TableJob {
            table_id: "t".into(),
            ..job.clone()
        };
        crate::validate(&job).is_ok()
    }

    #[test]
    fn the_history_renders_each_seats_dealt_hand() {
        let t = McrTable::new(&McrSpec::from_seed(5));
        let mut replay = v1::Replay::default();
        arena_table::TableGame::record_history(&t, &mut replay);
        let v = Mcr.render_history(&replay);
        let hands = v["mcr_hands"].as_array().unwrap();
        assert_eq!(hands.len(), 4);
        for h in hands {
            assert_eq!(h.as_str().unwrap().split(' ').count(), 13);
        }
        assert_eq!(v["mcr_walltiles"].as_str().unwrap().split(' ').count(), 144);
        assert!(!v["mcr_events"].as_array().unwrap().is_empty());
    }

    #[test]
    fn the_fan_font_has_every_character_of_every_fan_name() {
        // The console's fan-names font is one for both Mahjong games, served with the 2015
        // contest's assets (its stylesheet sets it page-wide).
        let otf = crate::mahjong::Mahjong
            .assets()
            .iter()
            .find(|a| a.file == "fan-names.otf")
            .expect("the fan font")
            .bytes;
        let face = ttf_parser::Face::parse(otf, 0).expect("the fan font reads");
        for fan in mcr::fan::Fan::ALL {
            for c in fan.name_zh().chars() {
                assert!(
                    face.glyph_index(c).is_some(),
                    "{c} of {} has no glyph: run crates/games/src/mahjong/fonts/make-fan-names-font.sh",
                    fan.name_zh()
                );
            }
        }
    }
}
