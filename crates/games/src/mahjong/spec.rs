//! A Mahjong job's set-up (`job.mahjong`), checked.
//!
//! Defaults: an empty `job.mahjong` (or none) plays the wall and first seat of the job's seed
//! ([`Deal::from_seed`]) scored with the contest's fans; the verdict policy defaults to play-on
//! (a faulty seat plays on automatically, as the contest rules), and time overruns are counted
//! to the nearest 100 ms, half up.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::v1;
use arena_table::JobError;
use mahjong::{Deal, Reading, Rules, Wall, parse_tiles};

/// A Mahjong table's set-up, checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MahjongSpec {
    /// The wall and the first seat.
    pub deal: Deal,
    /// The fan reading.
    pub rules: Rules,
}

/// A fan reading as the protocol's enum.
pub fn fans_kind(reading: Reading) -> mahjong_pb::Fans {
    match reading {
        Reading::Contest => mahjong_pb::Fans::Contest,
        Reading::Seed2015 => mahjong_pb::Fans::Seed2015,
    }
}

/// The fan reading a wire value names (unspecified: the contest's), or why it names none.
pub fn reading_of(fans: i32) -> Result<Reading, String> {
    match mahjong_pb::Fans::try_from(fans) {
        Ok(mahjong_pb::Fans::Unspecified | mahjong_pb::Fans::Contest) => Ok(Reading::Contest),
        Ok(mahjong_pb::Fans::Seed2015) => Ok(Reading::Seed2015),
        Err(_) => Err(format!(
            "{fans} is not a fan reading (contest or seed-2015)"
        )),
    }
}

/// Reads a job's Mahjong set-up; `seed` is the job's, whose deal is played when the set-up
/// gives no wall (and whose first seat when it gives none).
pub fn read_setup(setup: &mahjong_pb::Setup, seed: u64) -> Result<MahjongSpec, JobError> {
    let seeded = Deal::from_seed(seed);
    let wall = if setup.wall.trim().is_empty() {
        seeded.wall
    } else {
        let tiles = parse_tiles(&setup.wall)
            .map_err(|e| JobError::new("job.mahjong.wall", e.to_string()))?;
        Wall::from_tiles(&tiles).map_err(|e| JobError::new("job.mahjong.wall", e.to_string()))?
    };
    let first = match setup.first {
        None => seeded.first,
        Some(f @ 0..=3) => f as u8,
        Some(f) => {
            return Err(JobError::new(
                "job.mahjong.first",
                format!("seat {f} does not exist (seats are 0 to 3)"),
            ));
        }
    };
    let reading = reading_of(setup.fans).map_err(|e| JobError::new("job.mahjong.fans", e))?;
    Ok(MahjongSpec {
        deal: Deal { wall, first },
        rules: Rules { reading },
    })
}

/// The set-up of a hand of `deal`, scored by `reading`: what the matchmaker puts in a job.
pub fn setup_of(deal: &Deal, reading: Reading) -> mahjong_pb::Setup {
    mahjong_pb::Setup {
        wall: mahjong::tiles_to_string(deal.wall.tiles().iter().copied()),
        first: Some(u32::from(deal.first)),
        fans: fans_kind(reading) as i32,
    }
}

/// The contest's time control: 1 s for a turn, 0.5 s for an answer to a discard or an added
/// kong, every 100 ms beyond (rounded to the nearest, half up) one penalty point, and a verdict
/// after 5 s without an answer.
pub fn contest_time() -> v1::TimeControl {
    v1::TimeControl {
        decision_ms: 1000,
        claim_ms: 500,
        hard_cap_ms: 5000,
        penalty_per_100ms: 1,
        verdict_penalty: 0,
        penalty_rounding: v1::PenaltyRounding::Nearest as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_setup_is_the_seeds_deal_with_contest_fans() {
        let s = read_setup(&mahjong_pb::Setup::default(), 42).unwrap();
        assert_eq!(s.deal, Deal::from_seed(42));
        assert_eq!(s.rules.reading, Reading::Contest);
    }

    #[test]
    fn a_setup_written_by_setup_of_reads_back() {
        let deal = Deal::from_seed(7);
        let s = read_setup(&setup_of(&deal, Reading::Seed2015), 0).unwrap();
        assert_eq!((s.deal, s.rules.reading), (deal, Reading::Seed2015));
    }

    #[test]
    fn bad_fields_are_named() {
        let bad = |f: &dyn Fn(&mut mahjong_pb::Setup)| {
            let mut s = setup_of(&Deal::from_seed(1), Reading::Contest);
            f(&mut s);
            read_setup(&s, 1).unwrap_err()
        };
        let e = bad(&|s| s.wall = "1M 2M 0T".into());
        assert_eq!(e.field, "job.mahjong.wall");
        assert!(e.message.contains("\"0T\""), "{e}");
        let e = bad(&|s| s.wall = "1M ".repeat(136));
        assert_eq!(e.field, "job.mahjong.wall");
        assert_eq!(bad(&|s| s.first = Some(4)).field, "job.mahjong.first");
        assert_eq!(bad(&|s| s.fans = 9).field, "job.mahjong.fans");
    }
}
