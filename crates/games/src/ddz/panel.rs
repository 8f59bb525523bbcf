//! Measuring panels as users name them, and the Dou Dizhu view of a stored panel.

use crate::ddz::builtin::BotSpec;
use crate::ddz::rules::Scoring;
use arena_store::Panel;

/// Why a panel could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PanelError {
    /// A bot name that does not parse.
    #[error("panel bot {name:?}: {reason}")]
    Bot {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A panel needs built-in bots: measurement runs on the in-process fast path.
    #[error("panel bot {0:?} is a program; difficulty is measured with built-in bots only")]
    NotBuiltin(String),
    /// Fewer than one landlord.
    #[error("a panel needs at least one landlord bot")]
    Empty,
    /// A stored panel that is not a Dou Dizhu panel of three seats with one farmer each.
    #[error("panel {id} is not a Dou Dizhu panel: {reason}")]
    NotDdz {
        /// The panel's id.
        id: String,
        /// What did not fit.
        reason: String,
    },
    /// A scoring mode whose landlord scores are no levels.
    #[error(
        "{0} scoring has no score levels (its card-type weights make every game's score its own); measure difficulty with difficulty, adp, wp, competition or botzone scoring"
    )]
    NoLevels(Scoring),
    /// More landlords than a panel may hold.
    #[error("a panel of {0} landlords is too large (at most {MAX_PANEL_LANDLORDS})")]
    TooLarge(u64),
}

/// The most landlord bots one panel may hold: every measured deal is played once per landlord,
/// and `ladder:N` would otherwise make N names from a few bytes of a request.
pub const MAX_PANEL_LANDLORDS: usize = 1000;

/// A Dou Dizhu measuring panel: `landlords.len()` tables, each with its own landlord bot and the
/// same down and up farmer bots; `scoring` defines the score levels. The typed view of a stored
/// [`Panel`] of [`Game::named("ddz")`] (seats landlord, down, up), which is how it is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdzPanel {
    /// Stable id derived from the rest ([`panel_id`], e.g. `p-3f2a…`).
    pub id: String,
    /// Landlord bot names, one per table (e.g. `ladder:1/70` … `ladder:70/70`).
    pub landlords: Vec<String>,
    /// The down farmer's bot name.
    pub down: String,
    /// The up farmer's bot name.
    pub up: String,
    /// The scoring mode whose landlord scores are the levels.
    pub scoring: Scoring,
}

impl DdzPanel {
    /// How many tables measure one deal: one per landlord bot.
    pub fn tables(&self) -> u64 {
        self.landlords.len() as u64
    }

    /// The stored, game-neutral form.
    pub fn to_store(&self) -> Panel {
        Panel {
            id: self.id.clone(),
            game: super::library::LIBRARY_GAME,
            seats: vec![
                self.landlords.clone(),
                vec![self.down.clone()],
                vec![self.up.clone()],
            ],
            scoring: self.scoring.name().to_string(),
        }
    }

    /// The Dou Dizhu view of a stored panel: [`PanelError::NotDdz`] if it is of another game,
    /// has other seats than a landlord per table and one bot per farmer, or names an unknown
    /// scoring mode.
    pub fn from_store(p: &Panel) -> Result<DdzPanel, PanelError> {
        let not = |reason: String| PanelError::NotDdz {
            id: p.id.clone(),
            reason,
        };
        if p.game != super::library::LIBRARY_GAME {
            return Err(not(format!("its game is {}", p.game)));
        }
        let [landlords, down, up] = p.seats.as_slice() else {
            return Err(not(format!("{} seats, not 3", p.seats.len())));
        };
        let ([down], [up]) = (down.as_slice(), up.as_slice()) else {
            return Err(not("a farmer seat lists more than one bot".into()));
        };
        let scoring = p
            .scoring
            .parse()
            .map_err(|e| not(format!("scoring: {e}")))?;
        Ok(DdzPanel {
            id: p.id.clone(),
            landlords: landlords.clone(),
            down: down.clone(),
            up: up.clone(),
            scoring,
        })
    }
}

/// Builds a panel: `landlords` is `ladder:N` (levels 1..N of an N-level ladder) or a comma-separated
/// list of bot names; `down` and `up` are the farmer bots.
pub fn build_panel(
    landlords: &str,
    down: &str,
    up: &str,
    scoring: Scoring,
) -> Result<DdzPanel, PanelError> {
    let names: Vec<String> = match landlords.trim().strip_prefix("ladder:") {
        Some(n) if !n.contains('/') => {
            let n: u32 = n.trim().parse().map_err(|_| PanelError::Bot {
                name: landlords.into(),
                reason: "ladder:N needs a number of levels".into(),
            })?;
            if n as usize > MAX_PANEL_LANDLORDS {
                return Err(PanelError::TooLarge(u64::from(n)));
            }
            (1..=n).map(|k| format!("ladder:{k}/{n}")).collect()
        }
        _ => landlords
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if names.is_empty() {
        return Err(PanelError::Empty);
    }
    if scoring == Scoring::BotzoneFtl {
        return Err(PanelError::NoLevels(scoring));
    }
    if names.len() > MAX_PANEL_LANDLORDS {
        return Err(PanelError::TooLarge(names.len() as u64));
    }
    for name in names.iter().map(String::as_str).chain([down, up]) {
        check_builtin(name)?;
    }
    let mut panel = DdzPanel {
        id: String::new(),
        landlords: names,
        down: down.trim().to_string(),
        up: up.trim().to_string(),
        scoring,
    };
    panel.id = panel_id(&panel);
    Ok(panel)
}

/// Parses a bot name and insists it is built in.
pub fn check_builtin(name: &str) -> Result<BotSpec, PanelError> {
    let spec: BotSpec = name.parse().map_err(|reason| PanelError::Bot {
        name: name.into(),
        reason,
    })?;
    if matches!(spec, BotSpec::Cmd(_)) {
        return Err(PanelError::NotBuiltin(name.into()));
    }
    Ok(spec)
}

/// `p-` and the FNV-1a 64-bit hash of the panel's canonical description, so the same panel
/// always has the same id on every machine.
pub fn panel_id(p: &DdzPanel) -> String {
    let canonical = format!(
        "landlords={};down={};up={};scoring={}",
        p.landlords.join(","),
        p.down,
        p.up,
        p.scoring
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("p-{h:016x}")
}

/// A short human description, e.g. `70 landlords (ladder:1/70 … ladder:70/70) vs expert/expert, difficulty`.
pub fn describe(p: &DdzPanel) -> String {
    let ls = match p.landlords.as_slice() {
        [one] => one.clone(),
        [first, .., last] => format!("{first} … {last}"),
        [] => String::new(),
    };
    format!(
        "{} landlords ({ls}) vs {}/{}, {} scoring",
        p.landlords.len(),
        p.down,
        p.up,
        p.scoring
    )
}

/// The panel a `PanelSpec` names (a GDI batch's, a competition's): `farmers` default to `expert`, `scoring` to `difficulty`.
pub fn panel_of(spec: &arena_proto::v1::PanelSpec) -> Result<DdzPanel, String> {
    let farmers = if spec.farmers.trim().is_empty() {
        "expert"
    } else {
        spec.farmers.trim()
    };
    let scoring = crate::ddz::names::scoring_of("panel.scoring", &spec.scoring, 0)?
        .unwrap_or(Scoring::Difficulty);
    build_panel(&spec.landlords, farmers, farmers, scoring).map_err(|e| format!("panel: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_store::Game;

    #[test]
    fn ladder_shorthand_and_stable_ids() {
        let p = build_panel("ladder:70", "expert", "expert", Scoring::Difficulty).unwrap();
        assert_eq!(p.landlords.len(), 70);
        assert_eq!(p.landlords[0], "ladder:1/70");
        let q = build_panel("ladder:70", "expert", "expert", Scoring::Difficulty).unwrap();
        assert_eq!(p.id, q.id);
        let r = build_panel("ladder:70", "seed", "expert", Scoring::Difficulty).unwrap();
        assert_ne!(p.id, r.id);
        assert!(p.id.starts_with("p-") && p.id.len() == 18);
    }

    #[test]
    fn a_panel_is_bounded_however_few_bytes_ask_for_more() {
        // Seen writing the bot_spec fuzz target: "ladder:4000000000" built four billion names.
        let e = build_panel("ladder:4000000000", "expert", "expert", Scoring::Wp).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a panel of 4000000000 landlords is too large (at most 1000)"
        );
        let list = vec!["expert"; MAX_PANEL_LANDLORDS + 1].join(",");
        assert!(matches!(
            build_panel(&list, "expert", "expert", Scoring::Wp),
            Err(PanelError::TooLarge(1001))
        ));
        let p = build_panel("ladder:1000", "expert", "expert", Scoring::Wp).unwrap();
        assert_eq!(p.landlords.len(), MAX_PANEL_LANDLORDS);
    }

    #[test]
    fn a_panel_is_stored_game_tagged_and_read_back_with_the_same_id() {
        let p = build_panel("ladder:3", "expert", "seed", Scoring::Adp).unwrap();
        let stored = p.to_store();
        assert_eq!(stored.game, Game::named("ddz"));
        assert_eq!((stored.tables(), stored.bot(2, 2)), (3, Some("seed")));
        assert_eq!(stored.scoring, "adp");
        let back = DdzPanel::from_store(&stored).unwrap();
        assert_eq!(back, p);
        assert_eq!(panel_id(&back), p.id);
        let mut two_downs = stored.clone();
        two_downs.seats[1].push("seed".into());
        assert!(matches!(
            DdzPanel::from_store(&two_downs),
            Err(PanelError::NotDdz { .. })
        ));
        let mut unknown = stored;
        unknown.scoring = "golf".into();
        assert!(DdzPanel::from_store(&unknown).is_err());
    }

    #[test]
    fn errors_name_the_bot() {
        let e = build_panel("seed,alphago", "expert", "expert", Scoring::Difficulty).unwrap_err();
        assert!(e.to_string().contains("alphago"), "{e}");
        let e = build_panel("seed", "cmd:python3 x.py", "expert", Scoring::Difficulty).unwrap_err();
        assert!(matches!(e, PanelError::NotBuiltin(_)));
        assert!(matches!(
            build_panel(" , ", "expert", "expert", Scoring::Wp),
            Err(PanelError::Empty)
        ));
    }

    #[test]
    fn panels_default_to_expert_farmers_and_difficulty_scoring() {
        let p = panel_of(&arena_proto::v1::PanelSpec {
            landlords: "ladder:3".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(p.landlords, ["ladder:1/3", "ladder:2/3", "ladder:3/3"]);
        assert_eq!(
            (p.down.as_str(), p.up.as_str(), p.scoring),
            ("expert", "expert", Scoring::Difficulty)
        );
        assert!(
            panel_of(&arena_proto::v1::PanelSpec {
                landlords: "cmd:x".into(),
                ..Default::default()
            })
            .is_err()
        );
        let e = panel_of(&arena_proto::v1::PanelSpec {
            landlords: "expert".into(),
            scoring: "elo".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.starts_with("panel.scoring"), "{e}");
    }
}
