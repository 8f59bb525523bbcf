//! Dou Dizhu's options of `arena competition create`, the console's creation form and
//! `arena table run` ([`crate::form`]), and the spec and set-up they make.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;
use ddz::{Deal, Scoring};

use super::competition::{
    DEFAULT_EPS, DEFAULT_FARMERS, DEFAULT_FORMAT, DEFAULT_PANEL, default_centre,
};
use super::levels::gdi_dimension;
use super::names;
use crate::form::{self, Field, Values};
use crate::{Game, GameKind};

/// A Dou Dizhu competition's options: it seats each participant as landlord at a table of its
/// own against the farmer bot, on deals its panel's library measured.
pub const COMPETITION_FIELDS: &[Field] = &[
    Field::choice(
        "format",
        "Format: equal-strength, duplicate, random or difficulty-adjusted",
        &[
            "equal-strength",
            "duplicate",
            "random",
            "difficulty-adjusted",
        ],
    ),
    Field::value(
        "centre",
        "Equal-strength centre, comma-separated GDI values",
        "0.95,0.55,0.15",
    ),
    Field::value("eps", "Equal-strength radius", "0.15"),
    Field::value("farmers", "The farmer bot at every table", "expert"),
    Field::value("matches", "Matches", "10"),
    Field::value("rounds", "Rounds per match", "10"),
    Field::value(
        "panel",
        "The panel whose library supplies measured deals (`ladder:N` or bot names)",
        "ladder:70",
    ),
    Field::value("panel-farmers", "The panel's farmer bot", "--farmers"),
    Field::value(
        "scoring",
        "Scoring mode of every table and of the panel's levels: competition, difficulty, adp, wp, botzone (FightTheLandlord2's) or botzone-ftl (FightTheLandlord's, in 1/200 points; not for the panel's levels)",
        "difficulty",
    ),
    Field::value(
        "rules",
        "Rule set of every table: competition, douzero or openspiel (equal-strength and \
         difficulty-adjusted competitions play competition)",
        "competition",
    ),
    Field::value(
        "bombs",
        "Bombs per deal, the rocket counted as one; an equal-strength centre then has \
         2 × (bombs + 1) − 1 values",
        "1",
    ),
    Field::switch(
        "rotate-seats",
        "Also play every deal with each participant in both farmer seats (its round score is \
         then its landlord score plus its farmer team's score)",
    ),
];

/// A Dou Dizhu table's options.
pub const TABLE_FIELDS: &[Field] = &[
    Field::value(
        "deal",
        "The deal (`hand0/hand1/hand2/bottom`)",
        "deal 0 of --seed",
    ),
    Field::value(
        "bidding",
        "Bid first from this seat instead of a fixed landlord in seat 0",
        "",
    ),
    Field::value(
        "scoring",
        "The scoring mode: competition, difficulty, adp, wp, botzone (FightTheLandlord2's) or botzone-ftl (FightTheLandlord's, in 1/200 points)",
        "competition",
    ),
];

/// Writes a Dou Dizhu competition's options into `spec`, with the defaults of
/// [`COMPETITION_FIELDS`] for those left out (the panel's farmers are the competition's; the
/// centre only for an equal-strength competition, of deals with its bombs under its panel's
/// scoring).
pub fn competition_spec(spec: &mut v1::CompetitionSpec, given: &Values) -> Result<(), String> {
    let mut given = given.clone();
    let rules = given.remove("rules");
    let rest = form::write_spec_fields(spec, &given)?;
    form::not_for(
        super::DouDizhu.title(),
        "competitions",
        &rest,
        |g: GameKind| g.competition_fields(),
    )?;
    let left_out = |name: &str| !given.contains_key(name);
    // The check's defaults, written here so that the options read back as they will play.
    if left_out("format") {
        spec.format = crate::competition::format_name(DEFAULT_FORMAT).into();
    }
    if left_out("farmers") {
        spec.farmers = DEFAULT_FARMERS.into();
    }
    if left_out("matches") {
        spec.matches = 10;
    }
    if left_out("rounds") {
        spec.rounds = 10;
    }
    if left_out("eps") {
        spec.eps = DEFAULT_EPS;
    }
    let farmers = spec.farmers.clone();
    let panel = spec.panel.get_or_insert_with(v1::PanelSpec::default);
    if left_out("panel") {
        panel.landlords = DEFAULT_PANEL.into();
    }
    if left_out("panel-farmers") {
        panel.farmers = farmers;
    }
    let scoring = match panel.scoring.as_str() {
        "" => Scoring::Difficulty,
        s => {
            let scoring: Scoring = form::parse("scoring", s)?;
            panel.scoring = scoring.name().to_string();
            scoring
        }
    };
    // Only an equal-strength competition deals around a centre.
    if left_out("centre") && spec.format == "equal-strength" {
        let bombs = spec.bombs.max(1);
        spec.centre = default_centre(scoring, bombs).ok_or_else(|| {
            format!(
                "an equal-strength competition of deals with {bombs} bomb(s) under {scoring} \
                 scoring needs --centre with {} GDI values",
                gdi_dimension(scoring, bombs)
            )
        })?;
    }
    if let Some(r) = rules {
        let kind = match names::rules_kind(r.trim()) {
            ddz_pb::Rules::Custom => {
                return Err(format!(
                    "--rules {}: competition, douzero or openspiel",
                    arena_proto::text::quote(&r)
                ));
            }
            kind => kind,
        };
        spec.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup {
            rules_kind: kind as i32,
            ..Default::default()
        }));
    }
    Ok(())
}

/// Sets a Dou Dizhu table's set-up from its options: `--deal` (deal 0 of the job's seed when
/// left out) with competition rules, a fixed landlord in seat 0 or bidding from `--bidding`
/// (with a doubling round), and `--scoring`.
pub fn table_setup(job: &mut v1::TableJob, given: &Values) -> Result<(), String> {
    let rest: Vec<String> = given
        .keys()
        .filter(|k| !TABLE_FIELDS.iter().any(|f| f.name == k.as_str()))
        .cloned()
        .collect();
    form::not_for(super::DouDizhu.title(), "tables", &rest, |g: GameKind| {
        g.table_fields()
    })?;
    let deal = match given.get("deal") {
        Some(d) => d
            .trim()
            .parse::<Deal>()
            .map_err(|e| format!("--deal {}: {e}", arena_proto::text::quote(d)))?,
        None => Deal::generate(job.seed, 0),
    };
    let bidding: Option<u32> = given
        .get("bidding")
        .map(|b| form::parse("bidding", b))
        .transpose()?;
    let landlord = match bidding {
        Some(first) => ddz_pb::setup::Landlord::FirstBidder(first),
        None => ddz_pb::setup::Landlord::FixedLandlord(0),
    };
    job.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup {
        deal: deal.to_string(),
        rules: "competition".into(),
        landlord: Some(landlord),
        fixed_bid: 1,
        doubling: bidding.is_some(),
        scoring: given
            .get("scoring")
            .map_or("competition", |s| s.trim())
            .to_string(),
        ..Default::default()
    }));
    Ok(())
}

/// A played Dou Dizhu table for people: its deal, then every public event.
pub fn describe_replay(replay: &v1::Replay) -> Vec<String> {
    let mut lines = Vec::new();
    let job = replay.job.clone().unwrap_or_default();
    if let Ok(s) = arena_proto::payload::unpack::<ddz_pb::Setup>(job.setup.as_ref(), "setup") {
        lines.push(format!("deal {}", s.deal));
    }
    for e in &super::convert::history_of(replay).events {
        use ddz_pb::event::Event as E;
        let what = match &e.event {
            Some(E::Bid(b)) => format!("bids {b}"),
            Some(E::Redeal(_)) => "redeal".to_string(),
            Some(E::Landlord(l)) => format!("is landlord at {} and takes {}", l.bid, l.bottom),
            Some(E::Double(true)) => "doubles".into(),
            Some(E::Double(false)) => "does not double".into(),
            Some(E::Play(p)) => format!("plays {p}"),
            None => continue,
        };
        lines.push(format!("  seat {} {what}", e.seat));
    }
    lines
}
