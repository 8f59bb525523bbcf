//! Competitions a game plans itself ([`Competitions`]): it checks its part of a competition's
//! spec, lays out every table, and folds the results into standings. The matchmaker creates,
//! queues, supervises and reports any such competition without knowing the game.

use arena_proto::v1;

/// How a game plays competitions.
pub trait Competitions: Send + Sync {
    /// Checks the game's part of `spec` and fills in its defaults (format, clock, verdict
    /// policy, setup): everything but the name, the participants' names, the number of
    /// matches, the seed, the clock's bounds and the lane, which the matchmaker checks. A
    /// competition may have at most `max_tables` tables.
    fn check(&self, spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<(), SpecError>;

    /// Every bot a checked spec seats, each with the field that names it, for the matchmaker
    /// to check that each can be played (the participants, and any bot the game seats beside
    /// them).
    fn bots<'s>(&self, spec: &'s v1::CompetitionSpec) -> Vec<(&'static str, &'s str)> {
        spec.participants
            .iter()
            .map(|p| ("spec.participants", p.as_str()))
            .collect()
    }

    /// The deal library's panel whose measured deals a checked spec is dealt from, or `None`
    /// when it deals fresh cards from its seed. The matchmaker reads that panel's deals, and
    /// those other competitions hold, into the [`Library`] [`Competitions::jobs`] gets, and
    /// claims the deals the jobs name (`Placement::deal_id`) for the competition.
    fn library(&self, spec: &v1::CompetitionSpec) -> Option<String> {
        let _ = spec;
        None
    }

    /// The deal source a checked spec deals its fresh cards from, when the deal library may
    /// hold records of that source: while the competition runs, those records are held (not
    /// shown, not dealt to another competition).
    fn fresh_deals(&self, spec: &v1::CompetitionSpec) -> Option<arena_store::DealSource> {
        let _ = spec;
        None
    }

    /// Every table of a checked spec, in the order they are queued. Each job carries its
    /// placement, and the tables that play the same cards share a `deal_group` (none of their
    /// replays is shown before all of them are played). `library` holds the measured deals of
    /// [`Competitions::library`]'s panel (empty when it names none); a spec the library cannot
    /// supply is refused with [`SpecError::Unavailable`].
    fn jobs(
        &self,
        spec: &v1::CompetitionSpec,
        library: &Library,
    ) -> Result<Vec<v1::TableJob>, SpecError>;

    /// The standings of a checked spec from the results shown so far (those of whole deal
    /// groups; a result may come twice and counts once).
    fn standings(&self, spec: &v1::CompetitionSpec, results: &[v1::TableResult]) -> Standings;

    /// A fold of a checked spec's results, for a game that folds its standings result by result
    /// (`None`: its [`Competitions::standings`] are computed from all the results shown so
    /// far at every update).
    fn fold(&self, spec: &v1::CompetitionSpec) -> Option<Box<dyn Fold>> {
        let _ = spec;
        None
    }
}

/// Standings folded one shown result at a time: what a watcher of a competition keeps between
/// updates, so that each update folds only the results that arrived since the last.
pub trait Fold: Send + Sync + std::fmt::Debug {
    /// Folds one shown result in (each table's result is added once).
    fn add(&mut self, result: &v1::TableResult);
    /// The standings of what was folded.
    fn standings(&self) -> Standings;
}

/// The measured deals a competition may be dealt from: every deal of its panel in the deal
/// library, and the ids of those it may not deal (held by other competitions).
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The panel's measured deals.
    pub deals: Vec<arena_store::DealRecord>,
    /// Ids of deals other competitions hold.
    pub exclude: std::collections::HashSet<String>,
    /// Ids of deals this competition holds already (planned again after a restart): a game
    /// that picks among the panel's deals picks these first, so that the plan stays the same
    /// when deals were added to the library meanwhile.
    pub held: std::collections::HashSet<String>,
}

/// A game's standings of a competition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// Per participant, best first.
    pub standings: Vec<v1::Standing>,
    /// Games that ended without a winner.
    pub drawn: u64,
}

/// Why a competition's spec is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A field does not read or does not fit the game (`field` as the spec names it, e.g.
    /// `spec.participants`).
    #[error("{field}: {why}")]
    Invalid {
        /// The field.
        field: String,
        /// What is wrong with it.
        why: String,
    },
    /// The competition would be larger than the matchmaker allows.
    #[error("{0}")]
    OutOfRange(String),
    /// The spec is fine but cannot be planned now: the deal library lacks the deals it needs
    /// (the message says which, and the command that measures them).
    #[error("{0}")]
    Unavailable(String),
}

impl SpecError {
    /// A field that does not read or does not fit.
    pub fn invalid(field: impl Into<String>, why: impl Into<String>) -> SpecError {
        SpecError::Invalid {
            field: field.into(),
            why: why.into(),
        }
    }
}

/// A competition format's name, as `CompetitionSpec.format` and the CLI spell it.
pub fn format_name(format: v1::CompetitionFormat) -> &'static str {
    use v1::CompetitionFormat as F;
    match format {
        F::Unspecified => "",
        F::Duplicate => "duplicate",
        F::EqualStrength => "equal-strength",
        F::Random => "random",
        F::DifficultyAdjusted => "difficulty-adjusted",
    }
}

/// The format a name spells (`None`: no format is called that).
pub fn format_of_name(name: &str) -> Option<v1::CompetitionFormat> {
    use v1::CompetitionFormat as F;
    [
        F::Duplicate,
        F::EqualStrength,
        F::Random,
        F::DifficultyAdjusted,
    ]
    .into_iter()
    .find(|f| format_name(*f) == name)
}

/// The game's setup message `M` a spec's `setup` holds (its default when it holds none), or
/// why it is not one.
pub fn setup_in<M: prost::Name + Default>(spec: &v1::CompetitionSpec) -> Result<M, SpecError> {
    arena_proto::payload::unpack_or_default(spec.setup.as_ref(), "spec.setup")
        .map_err(|e| SpecError::invalid("spec.setup", e))
}

/// A match, round or table index as the protocol carries it (a spec's limits keep them far
/// below `u32::MAX`).
pub fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Checks a planned table job as the referee will, so a spec whose tables a referee would
/// refuse (a clock, a verdict policy) is refused at once, naming the spec's field.
pub fn check_sample(job: &v1::TableJob) -> Result<(), SpecError> {
    crate::validate(job).map(drop).map_err(|e| {
        let field = e
            .field
            .strip_prefix("job.")
            .map_or(e.field.clone(), |f| format!("spec.{f}"));
        SpecError::invalid(field, e.message)
    })
}

/// Refuses a spec that sets one of Dou Dizhu's dealing fields (farmers, seat rotation, the deal
/// library's panel, bombs, centre, eps), for a game that deals otherwise: `how` says how it
/// deals (`a Mahjong competition deals from its seed`).
pub fn refuse_dou_dizhu_fields(spec: &v1::CompetitionSpec, how: &str) -> Result<(), SpecError> {
    let set: [(&str, bool); 6] = [
        ("spec.farmers", !spec.farmers.trim().is_empty()),
        ("spec.rotate_seats", spec.rotate_seats),
        ("spec.panel", spec.panel.is_some()),
        ("spec.bombs", spec.bombs != 0),
        ("spec.centre", !spec.centre.is_empty()),
        ("spec.eps", spec.eps != 0.0),
    ];
    match set.iter().find(|(_, set)| *set) {
        Some((field, _)) => Err(SpecError::invalid(
            *field,
            format!("is for Dou Dizhu competitions; {how}"),
        )),
        None => Ok(()),
    }
}

/// Checks that `spec` asks for the duplicate format (typed or by name; nothing means it) and
/// writes it both ways; else an error on `spec.format`, `what` saying what the game's
/// competitions are (`a Mahjong competition is duplicate (the contest's schedule)`).
pub fn duplicate_only(spec: &mut v1::CompetitionSpec, what: &str) -> Result<(), SpecError> {
    let format = match spec.format_kind() {
        v1::CompetitionFormat::Unspecified => match spec.format.as_str() {
            "" => v1::CompetitionFormat::Duplicate,
            name => format_of_name(name).unwrap_or(v1::CompetitionFormat::Unspecified),
        },
        typed => typed,
    };
    if format != v1::CompetitionFormat::Duplicate
        || !(spec.format.is_empty() || spec.format == format_name(format))
    {
        return Err(SpecError::invalid(
            "spec.format",
            format!("{:?}: {what}", spec.format),
        ));
    }
    spec.format_kind = format as i32;
    spec.format = format_name(format).to_string();
    Ok(())
}
