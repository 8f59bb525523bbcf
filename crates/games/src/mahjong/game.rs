//! Mahjong's registration: [`Mahjong`], the game as the platform sees it ([`crate::Game`])
//! and as the runner plays it ([`TableAdapter`]).

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::text::enum_short as short;
use arena_proto::v1;
use arena_table::run::Player;
use arena_table::{JobError, TableSpec};
use mahjong_bots::spec::BotSpec;
use serde_json::{Value, json};

use super::{MahjongBot, MahjongSpec, MahjongTable, bots, convert, spec};
use crate::adapter::{self, TableAdapter};
use crate::form::{self, Field, Values};
use crate::ladder::{self, Group, GroupScore, GroupTable, Ladder};
use crate::{
    Asset, Builtin, CheckedJob, CompetitionView, Game, GameKind, Renderer, RequestBot, Variant,
};

/// A Mahjong competition's options: the contest's 96-hand duplicate match, `--matches` times,
/// among exactly four participants, dealt from its seed.
const COMPETITION_FIELDS: &[Field] = &[
    Field::choice("format", "Format: duplicate only", &["duplicate"]),
    Field::value("matches", "Matches, of 96 hands each", "1"),
    Field::value("fans", "Fan reading: contest or seed-2015", "contest"),
];

/// The 2015 AI contest's simplified Guobiao Mahjong: four seats.
pub struct Mahjong;

/// Mahjong's handle.
pub const GAME: GameKind = GameKind::of(&Mahjong);

impl Game for Mahjong {
    fn name(&self) -> &'static str {
        "mahjong"
    }

    fn title(&self) -> &'static str {
        "Mahjong (2015 contest)"
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn builtin(&self, name: &str) -> Option<Result<Builtin, String>> {
        adapter::builtin(&Mahjong, name)
    }

    fn builtin_help(&self) -> &'static str {
        bots::BUILTIN_HELP
    }

    fn program_protocol(&self, seat: u32) -> Box<dyn arena_line::ProgramProtocol> {
        // A table has four seats; the table refuses any other before it asks.
        Box::new(super::program::MahjongProgram::new((seat & 3) as u8))
    }

    fn check(&'static self, job: &v1::TableJob) -> Result<CheckedJob, JobError> {
        adapter::check(self, job)
    }

    fn legal(&self, observation: &v1::Observation) -> Vec<String> {
        arena_proto::payload::unpack::<mahjong_pb::Observation>(observation.game.as_ref(), "")
            .map(|m| m.legal)
            .unwrap_or_default()
    }

    fn variants(&self) -> Vec<Variant> {
        use mahjong::Reading;
        [
            (Reading::Contest, "contest"),
            (Reading::Seed2015, "seed-2015"),
        ]
        .into_iter()
        .map(|(reading, name)| Variant {
            name: name.into(),
            // Most hands random bots play are drawn, and a drawn hand shows no fans; the
            // random bots win this one (seat 2, on a discard), each reading naming its fans.
            seed: 47,
            setup: Some(arena_proto::payload::pack(&mahjong_pb::Setup {
                fans: spec::fans_kind(reading) as i32,
                ..Default::default()
            })),
        })
        .collect()
    }

    fn ladder(&self) -> Option<&dyn Ladder> {
        Some(self)
    }

    fn competitions(&self) -> Option<&dyn crate::Competitions> {
        Some(self)
    }

    fn commands(&self) -> Option<&dyn crate::GameCommands> {
        Some(&super::commands::COMMANDS)
    }

    fn printer(&self) -> Option<&dyn crate::commands::print::GamePrinter> {
        Some(&super::commands::comp::MahjongPrinter)
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
        let fans = given
            .remove("fans")
            .map(|f| form::parse::<mahjong::Reading>("fans", &f))
            .transpose()?;
        // The options of other games' competitions that the spec has a field for are sent as
        // given, so that the check refuses them naming the field.
        let rest = form::write_spec_fields(spec, &given)?;
        form::not_for(self.title(), "competitions", &rest, |g| {
            g.competition_fields()
        })?;
        if !given.contains_key("matches") {
            spec.matches = 1;
        }
        spec.setup = Some(arena_proto::payload::pack(&mahjong_pb::Setup {
            fans: fans.map_or(0, |r| spec::fans_kind(r) as i32),
            ..Default::default()
        }));
        Ok(())
    }

    fn table_setup(&self, job: &mut v1::TableJob, given: &Values) -> Result<(), String> {
        let names: Vec<String> = given.keys().cloned().collect();
        form::not_for(self.title(), "tables", &names, |g| g.table_fields())?;
        job.setup = Some(arena_proto::payload::pack(&mahjong_pb::Setup::default()));
        Ok(())
    }

    fn competition_view(&self) -> CompetitionView {
        CompetitionView {
            mean_heading: "Mean / hand",
            ranking_rule: "Participants are placed by mean score per hand (time penalties \
                included), over complete deals: a deal counts once it has been played from all \
                four seats, so its luck cancels out. Ties go to the higher total score, then to \
                the participant named first. P(#k) is the share of complete 96-hand matches in \
                which the participant came k-th (tied scores share the places they span); * \
                marks its most probable place. The interval is the 95% confidence interval of \
                the mean score per hand.",
            // The match, its seat-order group (the contest's six), the deal, and the rotation
            // (each deal is played four times, seats turned).
            placement: &[
                ("Match", "match"),
                ("Seat order", "round"),
                ("Deal", "table"),
                ("Rotation", "rotation"),
            ],
            placement_phrase: "match {match}, seat order {round}, deal {table}, rotation \
                               {rotation}",
            summary: "{participants} participants · {matches} matches",
            drawn: "{n} hands ended drawn.",
        }
    }

    fn default_seats(&self) -> Vec<String> {
        ["expert", "greedy", "greedy", "random"]
            .map(String::from)
            .to_vec()
    }

    fn default_time(&self) -> v1::TimeControl {
        spec::contest_time()
    }

    fn assets(&self) -> &'static [Asset] {
        // The fans' names (Chinese) in a font of their own, for browsers without a Chinese
        // font (Debian's chromium has none): Noto Sans CJK SC cut to their characters
        // (`fonts/make-fan-names-font.sh`, SIL OFL 1.1), with its stylesheet and licence.
        &[
            Asset {
                file: "fan-names.otf",
                content_type: "font/otf",
                bytes: include_bytes!("fonts/fan-names.otf"),
            },
            Asset {
                file: "OFL.txt",
                content_type: "text/plain; charset=utf-8",
                bytes: include_bytes!("fonts/OFL.txt"),
            },
            Asset {
                file: "mahjong.css",
                content_type: "text/css; charset=utf-8",
                bytes: include_bytes!("fonts/mahjong.css"),
            },
        ]
    }

    fn renderer(&self) -> Renderer {
        Renderer {
            file: "mahjong.js",
            source: include_str!("renderer.js"),
        }
    }

    fn render_action(&self, action: &v1::Action) -> String {
        let Ok(m) = arena_proto::payload::unpack::<mahjong_pb::Action>(action.game.as_ref(), "")
        else {
            return String::new();
        };
        let kind = short(m.kind().as_str_name(), "ACTION_KIND_");
        if m.tile.is_empty() {
            kind
        } else {
            format!("{kind} {}", m.tile)
        }
    }

    fn render_observation(&self, observation: &v1::Observation) -> Value {
        let Ok(m) = convert::observation_of(observation) else {
            return Value::Null;
        };
        json!({
            "seat": m.seat,
            "hand": m.hand,
            "drawn": m.drawn,
            "first": m.first,
            "seats": m.seats.iter().map(|s| json!({
                "melds": s.melds.iter().map(|x| json!({
                    "kind": short(x.kind().as_str_name(), "MELD_KIND_"),
                    "tile": x.tile,
                })).collect::<Vec<_>>(),
                "discards": s.discards,
                "claimed": s.claimed,
            })).collect::<Vec<_>>(),
            "wall_left": m.wall_left,
            "tile": m.tile,
            "from": m.from,
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
            "robbed_kong": m.robbed_kong,
            "fans": m.fans.iter().map(fan).collect::<Vec<_>>(),
            "fan_total": m.fan_total,
        })
    }

    fn render_standing(&self, standing: &v1::Standing) -> Value {
        let Some(m) = convert::standing_of(standing) else {
            return Value::Null;
        };
        json!([
            ["Hands", m.hands],
            ["Score", m.score.to_string()],
            ["Wins", m.wins],
            ["Self-drawn", m.self_drawn],
            ["Dealt in", m.dealt_in],
            ["Penalties", m.penalties.to_string()],
            ["Verdicts", m.verdicts],
        ])
    }

    fn render_history(&self, replay: &v1::Replay) -> Value {
        let history = convert::history_of(replay);
        json!({
            "mahjong_hands": history.hands,
            "mahjong_events": history.events.iter().map(event).collect::<Vec<_>>(),
        })
    }
}

/// An event as it happened, as the console's renderer reads it.
fn event(e: &mahjong_pb::Event) -> Value {
    json!({
        "seat": e.seat,
        "kind": short(e.kind().as_str_name(), "EVENT_KIND_"),
        "tile": e.tile,
        "lowest": e.lowest,
        "from": e.from,
        "robbed_kong": e.robbed_kong,
    })
}

/// A fan of a winning hand: its name as scored (Chinese), its English name from the rules
/// (`null` for a name the rules do not know), its points.
pub fn fan(f: &mahjong_pb::Fan) -> Value {
    use mahjong::fan::Fan;
    json!({
        "name": f.name,
        "english": Fan::of_name(&f.name).map(Fan::english),
        "points": f.points,
    })
}

impl TableAdapter for Mahjong {
    type Table = MahjongTable;
    type Setup = MahjongSpec;
    type Bot = BotSpec;

    fn kind(&'static self) -> GameKind {
        GAME
    }

    fn read_setup(&self, job: &v1::TableJob) -> Result<MahjongSpec, JobError> {
        spec::read_setup(&crate::setup_of::<mahjong_pb::Setup>(job)?, job.seed)
    }

    fn rounding(&self) -> v1::PenaltyRounding {
        v1::PenaltyRounding::Nearest
    }

    fn parse_bot(&self, name: &str) -> Option<Result<BotSpec, String>> {
        bots::parse_builtin(name)
    }

    fn table(&self, spec: &TableSpec<MahjongSpec, BotSpec>) -> MahjongTable {
        MahjongTable::new(&spec.setup)
    }

    fn local_bot(&self, bot: &BotSpec) -> Option<Player<MahjongTable>> {
        MahjongBot::new(bot).map(|b| Box::new(b) as Player<MahjongTable>)
    }

    fn request_bot(&self, bot: &BotSpec, seed: u64) -> Option<Box<dyn RequestBot>> {
        bots::MahjongRequestBot::new(bot, seed).map(|b| Box::new(b) as Box<dyn RequestBot>)
    }
}

/// Mahjong's ladder: four bots play a duplicate set of four tables on one wall, rotated one
/// seat each table (at table `k` the bot of first-table seat `s` sits in seat `s + k`), so each
/// plays the wall from every seat; a bot's set score is its final scores at the four tables.
impl Ladder for Mahjong {
    fn group_size(&self) -> usize {
        4
    }

    fn state_key(&self) -> (&'static str, &'static str) {
        ("ladder", "mahjong")
    }

    fn competition(&self) -> &'static str {
        "ladder-mahjong"
    }

    fn table_suffixes(&self) -> &'static [&'static str] {
        ladder::ROTATIONS
    }

    fn tables(&self, group: &Group<'_>) -> Vec<GroupTable> {
        use mahjong::{Deal, Reading, schedule::mix};
        let deal = Deal::from_seed(mix(group.deal_key, group.n));
        let template = v1::TableJob {
            game: GAME.name().into(),
            setup: Some(arena_proto::payload::pack(&spec::setup_of(
                &deal,
                Reading::Contest,
            ))),
            time: Some(group.time.unwrap_or_else(spec::contest_time)),
            verdict_policy: group.verdict_policy as i32,
            ..Default::default()
        };
        ladder::rotated_tables(group, &template, |k| mix(deal.fingerprint(), k as u64))
    }

    fn score(&self, group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String> {
        ladder::rotated_score(group, tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fan_font_has_every_character_of_every_fan_name() {
        use mahjong::{fan::Fan, rules::Reading};
        let otf = Mahjong.assets()[0].bytes;
        let face = ttf_parser::Face::parse(otf, 0).expect("the fan font reads");
        for fan in Fan::ALL {
            for reading in [Reading::Contest, Reading::Seed2015] {
                for c in fan.name(reading).chars() {
                    assert!(
                        face.glyph_index(c).is_some(),
                        "{c} of {} has no glyph: run crates/games/src/mahjong/fonts/make-fan-names-font.sh",
                        fan.name(reading)
                    );
                }
            }
        }
    }
}
