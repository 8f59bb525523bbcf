//! Time control: the per-decision limit, penalty points for overruns and the hard cap.
//!
//! # Penalty rounding
//!
//! A decision's elapsed time is measured from the moment the request leaves the referee (or an
//! in-process bot is called) to the moment its answer is back, and rounded half-up to whole
//! milliseconds (100.4 ms is 100 ms, 100.5 ms is 101 ms). Time beyond the limit costs
//! `penalty_per_100ms` points per 100 ms step, counted as the job's [`v1::PenaltyRounding`]
//! says:
//!
//! - **started** (Dou Dizhu's default): every started 100 ms; with a 100 ms limit, 100 ms costs
//!   nothing, 101 ms to 200 ms cost one step, 201 ms to 300 ms two;
//! - **nearest** (Mahjong's default, the 2015 contest's rule): the overrun rounded to the
//!   nearest 100 ms, half up; 149 ms over costs one step, 150 ms two, and 0.75 s for a 0.5 s
//!   claim costs three.
//!
//! Mahjong answers to a discard or an added kong ([`v1::DecisionKind::Claim`],
//! [`v1::DecisionKind::RobKong`]) have their own limit, `claim_ms`. An answer that has not
//! arrived at the hard cap is a timeout verdict; it is charged as if it had taken exactly the
//! hard cap.

use std::time::Duration;

use arena_proto::v1;

/// The default decision limit when a job says 0.
pub const DEFAULT_DECISION_MS: u32 = 1000;
/// The default hard cap when a job says 0.
pub const DEFAULT_HARD_CAP_MS: u32 = 5000;
/// The default limit of a Mahjong claim or rob answer when a job says 0.
pub const DEFAULT_CLAIM_MS: u32 = 500;

/// A job's time control with the defaults filled in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeRules {
    /// Time for one decision, in milliseconds.
    pub decision_ms: u32,
    /// No answer by then is a timeout verdict, in milliseconds (at least `decision_ms`).
    pub hard_cap_ms: u32,
    /// Penalty points per started 100 ms beyond `decision_ms`.
    pub penalty_per_100ms: u32,
    /// Penalty points for a verdict under the play-on policy.
    pub verdict_penalty: u32,
    /// Time for an answer to a discard or an added kong, in milliseconds.
    pub claim_ms: u32,
    /// How an overrun is counted in 100 ms steps (never unspecified once resolved).
    pub rounding: v1::PenaltyRounding,
}

impl Default for TimeRules {
    fn default() -> Self {
        TimeRules::resolve(&v1::TimeControl::default(), v1::PenaltyRounding::Started)
    }
}

impl TimeRules {
    /// The rules a time control stands for (0 means the default for each limit, an unspecified
    /// rounding the game's `rounding`). Does not check that the hard cap is at least the
    /// decision limits: [`crate::job`] does.
    pub fn resolve(tc: &v1::TimeControl, rounding: v1::PenaltyRounding) -> TimeRules {
        TimeRules {
            decision_ms: if tc.decision_ms == 0 {
                DEFAULT_DECISION_MS
            } else {
                tc.decision_ms
            },
            hard_cap_ms: if tc.hard_cap_ms == 0 {
                DEFAULT_HARD_CAP_MS
            } else {
                tc.hard_cap_ms
            },
            penalty_per_100ms: tc.penalty_per_100ms,
            verdict_penalty: tc.verdict_penalty,
            claim_ms: if tc.claim_ms == 0 {
                DEFAULT_CLAIM_MS
            } else {
                tc.claim_ms
            },
            rounding: match tc.penalty_rounding() {
                v1::PenaltyRounding::Unspecified => rounding,
                r => r,
            },
        }
    }

    /// These rules for a seat whose bot has a decision limit of its own, `own_ms` (a registered
    /// bot's, e.g. Botzone's for its language, which gives every turn the same time), at a
    /// table that left its decision limit to the default: that limit for every decision (a
    /// claim's too), and a hard cap with at least the table's margin above the table's decision
    /// limit (the table's hard cap when that is later), within [`crate::job::MAX_HARD_CAP_MS`].
    /// Penalties and their rounding stay the table's.
    pub fn with_own_limit(&self, own_ms: u32) -> TimeRules {
        let max = crate::job::MAX_HARD_CAP_MS;
        let decision_ms = own_ms.min(max);
        let margin = self.hard_cap_ms.saturating_sub(self.decision_ms);
        TimeRules {
            decision_ms,
            claim_ms: decision_ms,
            hard_cap_ms: self
                .hard_cap_ms
                .max(decision_ms.saturating_add(margin))
                .min(max),
            ..*self
        }
    }

    /// The time a decision of `kind` has, in milliseconds.
    pub fn limit_ms(&self, kind: v1::DecisionKind) -> u32 {
        match kind {
            v1::DecisionKind::Claim | v1::DecisionKind::RobKong => self.claim_ms,
            _ => self.decision_ms,
        }
    }

    /// The resolved rules as a message (what seats are told).
    pub fn to_proto(&self) -> v1::TimeControl {
        v1::TimeControl {
            decision_ms: self.decision_ms,
            hard_cap_ms: self.hard_cap_ms,
            penalty_per_100ms: self.penalty_per_100ms,
            verdict_penalty: self.verdict_penalty,
            claim_ms: self.claim_ms,
            penalty_rounding: self.rounding as i32,
        }
    }

    /// The hard cap as a duration.
    pub fn hard_cap(&self) -> Duration {
        Duration::from_millis(u64::from(self.hard_cap_ms))
    }

    /// Penalty points for a decision of `kind` that took `elapsed_ms` (already rounded).
    pub fn overrun_penalty(&self, kind: v1::DecisionKind, elapsed_ms: u64) -> i64 {
        let over = elapsed_ms.saturating_sub(u64::from(self.limit_ms(kind)));
        let steps = match self.rounding {
            v1::PenaltyRounding::Nearest => over.saturating_add(50) / 100,
            v1::PenaltyRounding::Started | v1::PenaltyRounding::Unspecified => over.div_ceil(100),
        };
        i64::try_from(steps.saturating_mul(u64::from(self.penalty_per_100ms))).unwrap_or(i64::MAX)
    }
}

/// `d` in whole milliseconds, rounded half-up.
pub fn rounded_ms(d: Duration) -> u64 {
    let micros = d.as_micros().saturating_add(500) / 1000;
    u64::try_from(micros).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(decision_ms: u32, per: u32) -> TimeRules {
        TimeRules::resolve(
            &v1::TimeControl {
                decision_ms,
                penalty_per_100ms: per,
                ..Default::default()
            },
            v1::PenaltyRounding::Started,
        )
    }

    const PLAY: v1::DecisionKind = v1::DecisionKind::Play;

    #[test]
    fn zero_means_the_documented_defaults() {
        let r = TimeRules::default();
        assert_eq!((r.decision_ms, r.hard_cap_ms), (1000, 5000));
        assert_eq!((r.penalty_per_100ms, r.verdict_penalty), (0, 0));
        assert_eq!(
            (r.claim_ms, r.rounding),
            (500, v1::PenaltyRounding::Started)
        );
        let tc = v1::TimeControl {
            penalty_rounding: v1::PenaltyRounding::Started as i32,
            ..Default::default()
        };
        assert_eq!(
            TimeRules::resolve(&tc, v1::PenaltyRounding::Nearest).rounding,
            v1::PenaltyRounding::Started,
            "the job's rounding wins over the game's"
        );
    }

    #[test]
    fn the_contest_mahjong_rule_rounds_the_overrun_to_the_nearest_100ms() {
        let r = TimeRules::resolve(
            &v1::TimeControl {
                penalty_per_100ms: 1,
                ..Default::default()
            },
            v1::PenaltyRounding::Nearest,
        );
        // The figures: 0.75 s for a claim costs 3, 1.2 s for a discard costs 2.
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Claim, 750), 3);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Turn, 1200), 2);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::RobKong, 500), 0);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Claim, 549), 0);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Claim, 550), 1);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Turn, 1149), 1);
        assert_eq!(r.overrun_penalty(v1::DecisionKind::Turn, 1150), 2);
        assert_eq!(r.limit_ms(v1::DecisionKind::Turn), 1000);
    }

    #[test]
    fn elapsed_time_rounds_half_up_to_milliseconds() {
        assert_eq!(rounded_ms(Duration::from_micros(100_499)), 100);
        assert_eq!(rounded_ms(Duration::from_micros(100_500)), 101);
        assert_eq!(rounded_ms(Duration::from_micros(0)), 0);
        assert_eq!(rounded_ms(Duration::from_nanos(499_999)), 0);
    }

    #[test]
    fn each_started_100ms_beyond_the_limit_costs_the_rate() {
        let r = rules(100, 1);
        let cases = [
            (0, 0),
            (100, 0),
            (101, 1),
            (200, 1),
            (201, 2),
            (250, 2),
            (300, 2),
            (301, 3),
        ];
        for (ms, points) in cases {
            assert_eq!(r.overrun_penalty(PLAY, ms), points, "{ms} ms");
        }
        assert_eq!(rules(100, 3).overrun_penalty(PLAY, 250), 6);
        assert_eq!(
            rules(100, 0).overrun_penalty(PLAY, 5000),
            0,
            "rate 0 = no penalties"
        );
        assert!(
            rules(1000, u32::MAX).overrun_penalty(PLAY, u64::MAX) > 0,
            "huge overruns saturate"
        );
    }

    #[test]
    fn a_seats_own_limit_keeps_the_tables_margin_above_it() {
        let table = TimeRules::default();
        assert_eq!((table.decision_ms, table.hard_cap_ms), (1000, 5000));
        let python = table.with_own_limit(6000);
        assert_eq!((python.decision_ms, python.hard_cap_ms), (6000, 10_000));
        assert_eq!(python.limit_ms(v1::DecisionKind::Play), 6000);
        // A shorter limit than the table's keeps the table's hard cap: never judged earlier.
        let quick = table.with_own_limit(500);
        assert_eq!((quick.decision_ms, quick.hard_cap_ms), (500, 5000));
        // Claims get it too; penalties and rounding stay the table's.
        let mahjong = TimeRules::resolve(
            &v1::TimeControl {
                penalty_per_100ms: 1,
                ..Default::default()
            },
            v1::PenaltyRounding::Nearest,
        );
        let own = mahjong.with_own_limit(6000);
        assert_eq!(mahjong.limit_ms(v1::DecisionKind::Claim), 500);
        assert_eq!(own.limit_ms(v1::DecisionKind::Claim), 6000);
        assert_eq!(
            (own.penalty_per_100ms, own.rounding),
            (1, v1::PenaltyRounding::Nearest)
        );
        let huge = table.with_own_limit(u32::MAX);
        assert_eq!(huge.hard_cap_ms, crate::job::MAX_HARD_CAP_MS);
        assert!(huge.decision_ms <= huge.hard_cap_ms);
    }
}
