//! What a measured competition needs from the deal library: how many unused deals, near which
//! difficulty, of which panel. Equal-strength competitions want deals within ε of their centre;
//! difficulty-adjusted ones any measured deal of the right dimension. The matchmaker refuses a
//! competition the library cannot supply ([`NOT_ENOUGH_DEALS`]); its clients (`arena
//! competition create`, the web console's form) then ask the deal library to find the missing
//! deals ([`wanted`] says what to ask for) and create it again.

use arena_games::ddz::names::{format_of_name, scoring_of};
use arena_games::ddz::rules::Scoring;
use arena_proto::v1;

use crate::levels::gdi_dimension;

/// How a refusal for want of measured deals begins (`FAILED_PRECONDITION`): clients that can
/// ask the deal library for the missing deals look for it.
pub const NOT_ENOUGH_DEALS: &str = "not enough measured deals";

pub use arena_games::ddz::levels::{DEFAULT_CENTRE, DEFAULT_EPS, default_centre};

/// What a measured competition needs from its panel's library.
#[derive(Clone, Debug, PartialEq)]
pub struct Wanted {
    /// The panel.
    pub panel: v1::PanelSpec,
    /// Deals within `eps` of `centre`: the target of equal-strength, and for
    /// difficulty-adjusted competitions a ball holding every GDI vector.
    pub centre: Vec<f64>,
    /// The radius.
    pub eps: f64,
    /// Bombs per deal.
    pub bombs: u32,
    /// Distinct deals the competition deals.
    pub need: u64,
}

/// What `spec` needs from the library, or `None` when it deals fresh cards (duplicate, random,
/// Mahjong). An error names a field that does not read.
pub fn wanted(spec: &v1::CompetitionSpec) -> Result<Option<Wanted>, String> {
    // Only the library's own game is dealt from it.
    let game = arena_games::GameKind::from_wire(&spec.game)?;
    if arena_store::Game::from(game) != crate::LIBRARY_GAME {
        return Ok(None);
    }
    let format = match spec.format_kind() {
        v1::CompetitionFormat::Unspecified => format_of_name(&spec.format),
        typed => Some(typed),
    };
    let panel = spec.panel.clone().unwrap_or_default();
    let scoring = scoring_of("panel.scoring", &panel.scoring, 0)?.unwrap_or(Scoring::Difficulty);
    let bombs = spec.bombs.max(1);
    let need = spec.participants.len() as u64 * u64::from(spec.matches) * u64::from(spec.rounds);
    let (centre, eps) = match format {
        Some(v1::CompetitionFormat::EqualStrength) => (spec.centre.clone(), spec.eps),
        Some(v1::CompetitionFormat::DifficultyAdjusted) => {
            // Any measured deal of the right dimension: GDI values lie in [0, 1], so every
            // vector is within √dim / 2 of the cube's centre.
            let dim = gdi_dimension(scoring, bombs);
            (vec![0.5; dim], (dim as f64).sqrt())
        }
        _ => return Ok(None),
    };
    Ok(Some(Wanted {
        panel,
        centre,
        eps,
        bombs,
        need,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: &str) -> v1::CompetitionSpec {
        v1::CompetitionSpec {
            format: format.into(),
            centre: vec![0.9, 0.5, 0.1],
            eps: 0.2,
            participants: vec!["a".into(), "b".into(), "c".into()],
            matches: 2,
            rounds: 5,
            panel: Some(v1::PanelSpec {
                landlords: "ladder:5".into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn measured_formats_want_a_deal_per_table_and_round_and_fresh_ones_nothing() {
        let w = wanted(&spec("equal-strength")).unwrap().unwrap();
        assert_eq!(
            (w.need, w.centre.as_slice(), w.eps),
            (30, &[0.9, 0.5, 0.1][..], 0.2)
        );
        let w = wanted(&spec("difficulty-adjusted")).unwrap().unwrap();
        assert_eq!((w.need, w.bombs), (30, 1));
        // A ball around the cube's centre holding every GDI vector of three values.
        assert_eq!(w.centre, [0.5; 3]);
        assert!(crate::levels::distance(&[0.0, 1.0, 0.0], &w.centre) <= w.eps);
        let w = wanted(&v1::CompetitionSpec {
            bombs: 2,
            ..spec("difficulty-adjusted")
        })
        .unwrap()
        .unwrap();
        assert_eq!(w.centre.len(), 5);
        for format in ["duplicate", "random"] {
            assert_eq!(wanted(&spec(format)).unwrap(), None, "{format}");
        }
        let mahjong = v1::CompetitionSpec {
            game: "mahjong".into(),
            ..spec("equal-strength")
        };
        assert_eq!(wanted(&mahjong).unwrap(), None);
    }

    #[test]
    fn the_default_centre_is_for_gdi_vectors_of_three_values() {
        assert_eq!(
            default_centre(Scoring::Difficulty, 1).as_deref(),
            Some(&DEFAULT_CENTRE[..])
        );
        // Unset bombs mean one, as the matchmaker reads them.
        assert!(default_centre(Scoring::Difficulty, 0).is_some());
        assert_eq!(default_centre(Scoring::Difficulty, 2), None);
    }
}
