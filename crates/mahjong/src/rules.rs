//! The switchable parts of the rules: which reading of the fans (and of 十三幺) applies.

use std::fmt;
use std::str::FromStr;

/// Which reading of the contest's rules decides wins and scores fans.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Reading {
    /// The README's 32 fans with their Guobiao meaning and the README's exclusions (default).
    #[default]
    #[serde(rename = "contest")]
    Contest,
    /// The 2015 server's code as it behaved, including its loose 十三幺 test.
    #[serde(rename = "seed-2015")]
    Seed2015,
}

impl Reading {
    /// Both readings.
    pub const ALL: [Reading; 2] = [Reading::Contest, Reading::Seed2015];

    /// The reading's name: `contest` or `seed-2015`.
    pub const fn name(self) -> &'static str {
        match self {
            Reading::Contest => "contest",
            Reading::Seed2015 => "seed-2015",
        }
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no reading.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no fan reading (contest, seed-2015)")]
pub struct UnknownReading(pub String);

impl FromStr for Reading {
    type Err = UnknownReading;

    fn from_str(s: &str) -> Result<Reading, UnknownReading> {
        Reading::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownReading(s.to_string()))
    }
}

/// The rules of one hand.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The fan reading (and with it the 十三幺 test).
    pub reading: Reading,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_read_back_their_names() {
        for r in Reading::ALL {
            assert_eq!(r.name().parse::<Reading>(), Ok(r));
        }
        assert_eq!(Reading::default(), Reading::Contest);
        let e = "2015".parse::<Reading>().unwrap_err();
        assert!(e.to_string().contains("contest, seed-2015"), "{e}");
    }
}
