//! Competition formats and how each hands out deals.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use crate::ddz::levels::distance;
use crate::ddz::rules::{Deal, DealConstraint, DealRng};
use arena_store::DealRecord;

/// How the tables of a round get their deals.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "format", rename_all = "kebab-case")]
pub enum Format {
    /// Every table gets the same deal in a round.
    Duplicate,
    /// Every table gets a different deal, all within `eps` of `centre`.
    EqualStrength {
        /// Target GDI.
        centre: Vec<f64>,
        /// Radius.
        eps: f64,
    },
    /// Every table gets an independent random deal.
    Random,
    /// Random deals, each table scored by its landlord score minus the deal's expected score
    /// under its measured GDI (the panel's mean landlord score on that deal).
    DifficultyAdjusted,
}

impl Format {
    /// Whether the format deals measured deals from the library (equal-strength,
    /// difficulty-adjusted) rather than fresh ones from a seed.
    pub fn is_measured(&self) -> bool {
        matches!(
            self,
            Format::EqualStrength { .. } | Format::DifficultyAdjusted
        )
    }

    /// A short name: `duplicate`, `equal-strength`, `random`, `difficulty-adjusted`.
    pub fn name(&self) -> &'static str {
        match self {
            Format::Duplicate => "duplicate",
            Format::EqualStrength { .. } => "equal-strength",
            Format::Random => "random",
            Format::DifficultyAdjusted => "difficulty-adjusted",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::EqualStrength { centre, eps } => {
                let c: Vec<String> = centre.iter().map(|x| format!("{x:.2}")).collect();
                write!(f, "equal-strength (centre {}, ε {eps})", c.join("/"))
            }
            other => f.write_str(other.name()),
        }
    }
}

/// Parses a GDI vector written `0.96,0.91,0.79` (or with `/`).
pub fn parse_gdi(s: &str) -> Result<Vec<f64>, String> {
    let v: Result<Vec<f64>, _> = s
        .split([',', '/'])
        .map(|x| x.trim().parse::<f64>())
        .collect();
    let v = v.map_err(|_| {
        format!("GDI {s:?}: expected numbers separated by commas, e.g. 0.96,0.91,0.79")
    })?;
    if v.is_empty() || v.iter().any(|x| !(0.0..=1.0).contains(x)) {
        return Err(format!("GDI {s:?}: every value must lie in [0, 1]"));
    }
    Ok(v)
}

impl FromStr for Format {
    type Err = String;
    /// `duplicate`, `random`, `difficulty-adjusted`, or `equal-strength:CENTRE:EPS`
    /// (e.g. `equal-strength:0.96,0.91,0.79:0.15`).
    fn from_str(s: &str) -> Result<Format, String> {
        match s.split(':').collect::<Vec<_>>().as_slice() {
            ["duplicate"] => Ok(Format::Duplicate),
            ["random"] => Ok(Format::Random),
            ["difficulty-adjusted" | "adjusted"] => Ok(Format::DifficultyAdjusted),
            ["equal-strength", centre, eps] => {
                let centre = parse_gdi(centre)?;
                let eps: f64 = eps
                    .parse()
                    .map_err(|_| format!("ε {eps:?} is not a number"))?;
                if eps <= 0.0 {
                    return Err("ε must be positive".into());
                }
                Ok(Format::EqualStrength { centre, eps })
            }
            _ => Err(format!(
                "unknown format {s:?} (duplicate, random, difficulty-adjusted, equal-strength:CENTRE:EPS)"
            )),
        }
    }
}

/// One table's deal in one round.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The deal's library id.
    pub id: String,
    /// The cards.
    pub deal: Deal,
    /// The panel's mean landlord score on this deal (its expected score).
    pub expected: f64,
}

/// Deals for a whole competition: `[match][round][table]`.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The slots.
    pub matches: Vec<Vec<Vec<Slot>>>,
}

/// Why deals could not be planned.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Not enough eligible deals in the library.
    #[error(
        "the format needs {need} distinct deals but the library holds only {have} eligible ones{hint}"
    )]
    NotEnough {
        /// Deals needed.
        need: usize,
        /// Eligible deals available.
        have: usize,
        /// What to do about it.
        hint: String,
    },
    /// A library deal that is not a Dou Dizhu deal (another game's, or damaged).
    #[error("{0}")]
    Deal(String),
}

/// Whether a deal may appear in several matches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// Every slot of the competition gets a different deal (real competitions).
    Never,
    /// Deals are distinct within a match; matches draw independently (experiments that repeat
    /// matches many times from a finite library).
    AcrossMatches,
}

/// The panel's mean landlord score on a measured deal.
pub fn expected_score(r: &DealRecord) -> f64 {
    // Summed in u64: an imported record's counts can add up past u32.
    let n: u64 = r.counts.iter().map(|&c| u64::from(c)).sum();
    if n == 0 {
        return 0.0;
    }
    r.levels
        .iter()
        .zip(&r.counts)
        .map(|(&l, &c)| l as f64 * f64::from(c))
        .sum::<f64>()
        / n as f64
}

/// The size of a competition: how many slots need deals, and how they may repeat.
#[derive(Copy, Clone, Debug)]
pub struct Shape {
    /// Tables.
    pub tables: usize,
    /// Matches (r).
    pub matches: usize,
    /// Rounds per match (m).
    pub rounds: usize,
    /// Whether matches may share deals.
    pub reuse: Reuse,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// Hands out deals from `pool` (measured deals) for a competition of `shape`, skipping ids in
/// `exclude`.
pub fn plan(
    format: &Format,
    pool: &[DealRecord],
    shape: Shape,
    exclude: &HashSet<String>,
) -> Result<Plan, PlanError> {
    let Shape {
        tables,
        matches,
        rounds,
        reuse,
        seed,
    } = shape;
    let eligible: Vec<&DealRecord> = pool
        .iter()
        .filter(|r| !exclude.contains(&r.id))
        .filter(|r| match format {
            Format::EqualStrength { centre, eps } => {
                r.gdi.len() == centre.len() && distance(&r.gdi, centre) <= *eps
            }
            _ => true,
        })
        .collect();
    let per_round = if *format == Format::Duplicate {
        1
    } else {
        tables
    };
    let per_match = per_round * rounds;
    let need = match reuse {
        Reuse::Never => per_match * matches,
        Reuse::AcrossMatches => per_match,
    };
    if eligible.len() < need {
        let hint = match format {
            Format::EqualStrength { .. } => {
                "; measure more deals, or generate some on demand with `arena deals find`"
                    .to_string()
            }
            _ => "; measure more deals with `arena deals gdi`".to_string(),
        };
        return Err(PlanError::NotEnough {
            need,
            have: eligible.len(),
            hint,
        });
    }
    let mut rng = DealRng::new(seed, 0x5EED);
    let mut order: Vec<usize> = (0..eligible.len()).collect();
    shuffle(&mut order, &mut rng);
    let mut next = 0;
    let mut out = Vec::with_capacity(matches);
    for _ in 0..matches {
        if reuse == Reuse::AcrossMatches {
            shuffle(&mut order, &mut rng);
            next = 0;
        }
        let mut m = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            let mut round = Vec::with_capacity(tables);
            let mut slot = None;
            for _ in 0..tables {
                if per_round == tables || slot.is_none() {
                    let r = eligible[order[next]];
                    next += 1;
                    slot = Some(Slot {
                        id: r.id.clone(),
                        deal: crate::ddz::library::ddz_deal(r).map_err(PlanError::Deal)?,
                        expected: expected_score(r),
                    });
                }
                round.push(
                    slot.clone()
                        .unwrap_or_else(|| unreachable!("slot drawn above")),
                );
            }
            m.push(round);
        }
        out.push(m);
    }
    Ok(Plan { matches: out })
}

/// The library id of fresh deal `index` of a competition ([`fresh_plan`]). It names the deal's
/// place in the competition's own stream, never the stream's key: a finished table's id must not
/// tell the cards of the tables still to be played.
pub fn fresh_deal_id(index: u64) -> String {
    format!("fresh-{index}")
}

/// Deals for a format that needs no measured difficulty ([`Format::Duplicate`],
/// [`Format::Random`]): fresh deals `0, 1, 2, …` of the stream keyed by `key`, each holding
/// exactly `bombs` bombs (rocket included; `None`: any), in slot order. Nothing is read from a
/// library and every slot's expected score is 0. `key` must be secret while the competition
/// runs: it fixes every deal.
pub fn fresh_plan(
    format: &Format,
    tables: usize,
    matches: usize,
    rounds: usize,
    key: u64,
    bombs: Option<u8>,
) -> Result<Plan, PlanError> {
    let per_round = match format {
        Format::Duplicate => 1,
        Format::Random => tables,
        other => {
            return Err(PlanError::Deal(format!(
                "the {} format needs measured deals",
                other.name()
            )));
        }
    };
    let constraint = DealConstraint { bombs };
    let mut index = 0u64;
    let mut out = Vec::with_capacity(matches);
    for _ in 0..matches {
        let mut m = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            let mut round: Vec<Slot> = Vec::with_capacity(tables);
            for t in 0..tables {
                if t < per_round {
                    let deal = Deal::generate_with(key, index, &constraint)
                        .map_err(|e| PlanError::Deal(e.to_string()))?;
                    round.push(Slot {
                        id: fresh_deal_id(index),
                        deal,
                        expected: 0.0,
                    });
                    index += 1;
                } else {
                    round.push(round[t % per_round].clone());
                }
            }
            m.push(round);
        }
        out.push(m);
    }
    Ok(Plan { matches: out })
}

fn shuffle(v: &mut [usize], rng: &mut DealRng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_explain() {
        assert_eq!("duplicate".parse::<Format>(), Ok(Format::Duplicate));
        assert_eq!(
            "equal-strength:0.96,0.91,0.79:0.15".parse::<Format>(),
            Ok(Format::EqualStrength {
                centre: vec![0.96, 0.91, 0.79],
                eps: 0.15
            })
        );
        assert!(
            "equal-strength:0.9,x:0.1"
                .parse::<Format>()
                .unwrap_err()
                .contains("numbers")
        );
        assert!(
            "equal-strength:1.5:0.1"
                .parse::<Format>()
                .unwrap_err()
                .contains("[0, 1]")
        );
        assert!(
            "swiss"
                .parse::<Format>()
                .unwrap_err()
                .contains("unknown format")
        );
    }

    #[test]
    fn fresh_plans_deal_new_cards_with_the_bombs_asked_for() {
        let dup = fresh_plan(&Format::Duplicate, 3, 2, 2, 77, Some(2)).unwrap();
        let random = fresh_plan(&Format::Random, 3, 2, 2, 77, Some(2)).unwrap();
        let mut seen = HashSet::new();
        for m in &dup.matches {
            for round in m {
                assert_eq!(round.len(), 3);
                assert!(
                    round
                        .iter()
                        .all(|s| s.id == round[0].id && s.deal == round[0].deal)
                );
                assert!(seen.insert(round[0].id.clone()), "every round a new deal");
            }
        }
        assert_eq!(seen.len(), 4);
        let ids: HashSet<&str> = random
            .matches
            .iter()
            .flatten()
            .flatten()
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(ids.len(), 12, "every table a deal of its own");
        for s in random.matches.iter().flatten().flatten() {
            assert_eq!(
                s.deal.bombs(crate::ddz::rules::Seat::ALL[0]),
                2,
                "{}",
                s.deal
            );
            assert_eq!(s.expected, 0.0);
        }
        // The key fixes the cards; another key deals others.
        let again = fresh_plan(&Format::Random, 3, 2, 2, 77, Some(2)).unwrap();
        let other = fresh_plan(&Format::Random, 3, 2, 2, 78, Some(2)).unwrap();
        assert_eq!(again.matches[1][1][2].deal, random.matches[1][1][2].deal);
        assert_ne!(other.matches[0][0][0].deal, random.matches[0][0][0].deal);
        assert!(fresh_plan(&Format::DifficultyAdjusted, 3, 1, 1, 1, None).is_err());
    }

    #[test]
    fn expected_score_is_the_panel_mean() {
        let r = DealRecord {
            id: "x".into(),
            game: crate::ddz::library::LIBRARY_GAME,
            deal: Deal::generate(1, 0).to_string(),
            source: None,
            panel: "p".into(),
            levels: vec![-2, -1, 1, 2],
            counts: vec![1, 3, 2, 4],
            gdi: vec![0.9, 0.6, 0.4],
        };
        assert!((expected_score(&r) - (-2.0 - 3.0 + 2.0 + 8.0) / 10.0).abs() < 1e-12);
        // The deal library imports counts such as [4294967295, 1] (deal_import fuzz target);
        // their total overflowed u32 here.
        let big = DealRecord {
            levels: vec![-1, 1],
            counts: vec![u32::MAX, 1],
            gdi: vec![1.0 / 4_294_967_296.0],
            ..r
        };
        assert!((expected_score(&big) + 1.0).abs() < 1e-9);
    }
}
