//! The set-up: fixed by the paper, sized by the scale.

use arena_compete::Tables;
use ddz::{RuleSet, Scoring};
use serde_json::{Value, json};

/// How big a run is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Scale {
    /// A few minutes: 20,000 measured deals, 200 matches per point of the rounds curves.
    Quick,
    /// The paper's size: 200,000 measured deals (14 million games), 400 matches per point.
    Full,
    /// Seconds, for tests: a 400-deal library and a handful of matches.
    #[cfg_attr(feature = "clap", value(hide = true))]
    Tiny,
}

impl Scale {
    /// The scale's name, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Full => "full",
            Scale::Tiny => "tiny",
        }
    }
}

/// Levels of the measuring ladder.
pub const LADDER: u32 = 70;
/// Experiment 1's tables: every seventh level.
pub const E1_LEVELS: [u32; 10] = [7, 14, 21, 28, 35, 42, 49, 56, 63, 70];
/// Experiments 3 and 4's tables.
pub const E3_LEVELS: [u32; 5] = [14, 28, 42, 56, 70];
/// The farmer bot in both seats.
pub const FARMERS: &str = "expert";
/// The paper's centre.
pub const PAPER_CENTRE: [f64; 3] = [0.96, 0.91, 0.79];
/// The paper's ε, and the radius the centre is chosen for.
pub const EPS: f64 = 0.15;
/// Radii whose deal counts the report gives.
pub const RADII: [f64; 3] = [0.15, 0.20, 0.25];
/// Bombs per deal (the paper's population: exactly one, rocket included).
pub const BOMBS: u8 = 1;
/// The library: deals 0..N of this seed, as `arena deals gdi --count N --bombs 1` measures them.
pub const LIBRARY_SEED: u64 = 1;
/// The true ranking's deals: fresh, never measured, never dealt by a format under test.
pub const TRUTH_SEED: u64 = 2;
/// Fresh deals for on-demand generation near the paper's centre and near the chosen one.
pub const FIND_SEEDS: [u64; 2] = [101, 102];
/// Seeds of the experiments' deal shuffles and tie-breaks.
pub const E1_SEED: u64 = 1;
/// Experiment 3's seed.
pub const E3_SEED: u64 = 3;
/// Experiment 4's seed.
pub const E4_SEED: u64 = 4;

/// The sizes a scale gives the experiments.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Deals in the measured library.
    pub deals: u64,
    /// Experiment 1's matches.
    pub e1_matches: usize,
    /// Experiment 1's rounds per match.
    pub e1_rounds: usize,
    /// Experiment 3's matches per cell.
    pub e3_matches: usize,
    /// Experiment 3's match lengths.
    pub e3_rounds: Vec<usize>,
    /// Experiment 3's equal-strength radii.
    pub e3_eps: Vec<f64>,
    /// Rounds of the true ranking's duplicate match.
    pub truth_rounds: u64,
    /// Experiment 4's matches per point.
    pub e4_matches: usize,
    /// Experiment 4's match lengths.
    pub e4_rounds: Vec<usize>,
    /// Deals asked of each on-demand search.
    pub find_want: usize,
    /// Tries each on-demand search may make.
    pub find_max_tries: u64,
}

impl Config {
    /// The sizes of `scale`.
    pub fn of(scale: Scale) -> Config {
        let paper_rounds = vec![5, 10, 20];
        let curve = vec![1, 2, 3, 5, 8, 10, 15, 20, 30, 50];
        match scale {
            Scale::Quick => Config {
                deals: 20_000,
                e1_matches: 20,
                e1_rounds: 20,
                e3_matches: 20,
                e3_rounds: paper_rounds,
                e3_eps: vec![0.15, 0.20, 0.25],
                truth_rounds: 10_000,
                e4_matches: 200,
                e4_rounds: curve,
                find_want: 20,
                find_max_tries: 150_000,
            },
            Scale::Full => Config {
                deals: 200_000,
                e1_matches: 20,
                e1_rounds: 20,
                e3_matches: 20,
                e3_rounds: paper_rounds,
                e3_eps: vec![0.15, 0.20, 0.25],
                truth_rounds: 20_000,
                e4_matches: 400,
                e4_rounds: curve,
                find_want: 20,
                find_max_tries: 1_000_000,
            },
            Scale::Tiny => Config {
                deals: 400,
                e1_matches: 4,
                e1_rounds: 3,
                e3_matches: 4,
                e3_rounds: vec![2, 4],
                e3_eps: vec![0.15, 0.25],
                truth_rounds: 60,
                e4_matches: 6,
                e4_rounds: vec![1, 2, 4],
                find_want: 2,
                find_max_tries: 150,
            },
        }
    }

    /// Distinct deals experiment 3's largest equal-strength cell needs when no deal repeats.
    pub fn e3_need(&self) -> usize {
        E3_LEVELS.len() * self.e3_rounds.iter().max().copied().unwrap_or(1) * self.e3_matches
    }

    /// The set-up as results.json gives it.
    pub fn json(&self) -> Value {
        json!({
            "library_deals": self.deals,
            "experiment1": {"levels": E1_LEVELS, "matches": self.e1_matches, "rounds": self.e1_rounds},
            "experiment3": {"levels": E3_LEVELS, "matches": self.e3_matches, "rounds": self.e3_rounds, "eps": self.e3_eps},
            "truth_rounds": self.truth_rounds,
            "experiment4": {"matches": self.e4_matches, "rounds": self.e4_rounds},
            "find": {"want": self.find_want, "max_tries": self.find_max_tries, "eps": EPS},
            "seeds": {"library": LIBRARY_SEED, "truth": TRUTH_SEED, "find": FIND_SEEDS,
                      "experiment1": E1_SEED, "experiment3": E3_SEED, "experiment4": E4_SEED},
        })
    }
}

/// The ladder bot of `level`.
pub fn ladder(level: u32) -> String {
    format!("ladder:{level}/{LADDER}")
}

/// Tables of ladder landlords at `levels`, expert farmers, difficulty scoring.
pub fn tables(levels: &[u32]) -> Tables {
    Tables {
        landlords: levels.iter().map(|&l| ladder(l)).collect(),
        down: FARMERS.into(),
        up: FARMERS.into(),
        scoring: Scoring::Difficulty,
        rules: RuleSet::COMPETITION,
    }
}
