//! Tile efficiency for the built-in bots: shanten per route (the standard four sets and a
//! pair, seven pairs, thirteen orphans, all pungs, one suit with or without honours) and the
//! tiles that bring a hand closer (its acceptance), counted over the tiles still unseen.
//!
//! Routes need the standard shanten of a *part* of a hand (only one suit and the honours, say)
//! against a fixed number of sets still to make, which the engine's `shape::shanten` (a whole
//! hand) does not answer; this module computes it from per-group tables so that a bot can
//! weigh every discard and every draw after it cheaply.
//!
//! The standard form's shanten is `2k − 2m − t − p` for `k` sets still to make, where the
//! concealed tiles are read as `m` sets, `t` partial sets (two tiles of a set: a pair, two
//! neighbours or two tiles one apart) and `p` = 1 when a pair is kept for the head, with
//! `m + t ≤ k`. Each of the four groups (three suits, the honours) is read on its own and the
//! readings are combined: [`Blocks`] keeps, for each `m` and `p`, the most partial sets any
//! reading of the group achieves. A suit's reading depends only on its nine counts, so it is
//! remembered in a [`SuitMemo`].
//!
//! One approximation, shared with the usual shanten formula: a pair of a kind of which the
//! hand holds all four is still read as a partial set, so such a hand can read one step closer
//! than it is; no unseen tile completes that pair, so such a hand's acceptance shows it.

use std::collections::HashMap;

/// Counts of the 34 kinds (the engine's `Counts`).
pub type Counts = [u8; 34];

/// For `p` (0 or 1: a pair kept for the head) and `m` (sets, 0..=4), the most partial sets
/// (capped so that `m + t ≤ 4`), or −1 when no reading has exactly `m` sets with `p`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Blocks([[i8; 5]; 2]);

impl Blocks {
    /// The reading of no tiles.
    pub const EMPTY: Blocks = {
        let mut r = [[-1i8; 5]; 2];
        r[0][0] = 0;
        Blocks(r)
    };

    const NONE: Blocks = Blocks([[-1; 5]; 2]);

    /// The best of both readings.
    fn max(mut self, other: &Blocks) -> Blocks {
        for p in 0..2 {
            for m in 0..5 {
                self.0[p][m] = self.0[p][m].max(other.0[p][m]);
            }
        }
        self
    }

    /// The readings of two disjoint groups of tiles taken together.
    pub fn combine(&self, other: &Blocks) -> Blocks {
        let mut out = Blocks::NONE;
        for pa in 0..2 {
            for ma in 0..5 {
                let ta = self.0[pa][ma];
                if ta < 0 {
                    continue;
                }
                for pb in 0..2 - pa {
                    for mb in 0..5 {
                        let tb = other.0[pb][mb];
                        if tb < 0 {
                            continue;
                        }
                        let m = (ma + mb).min(4);
                        let t = (ta + tb).min(4 - m as i8);
                        let slot = &mut out.0[pa + pb][m];
                        *slot = (*slot).max(t);
                    }
                }
            }
        }
        out
    }

    /// Adds one set (or partial set, or the head) to every reading.
    fn shifted(&self, dm: usize, dt: i8, dp: usize) -> Blocks {
        let mut out = Blocks::NONE;
        for p in 0..2 - dp {
            for m in 0..5 {
                let t = self.0[p][m];
                if t < 0 {
                    continue;
                }
                let nm = (m + dm).min(4);
                let nt = (t + dt).min(4 - nm as i8);
                let slot = &mut out.0[p + dp][nm];
                *slot = (*slot).max(nt);
            }
        }
        out
    }

    /// The standard shanten of these tiles with `sets` sets still to make (0..=4): −1 is a
    /// complete hand, 0 one tile away.
    pub fn shanten(&self, sets: usize) -> i8 {
        let k = sets.min(4) as i8;
        let mut best = 2 * k;
        for p in 0..2 {
            for m in 0..5 {
                let t = self.0[p][m];
                if t < 0 {
                    continue;
                }
                let m = (m as i8).min(k);
                let t = t.min(k - m);
                best = best.min(2 * k - 2 * m - t - p as i8);
            }
        }
        best
    }
}

/// Remembered readings of suits, by their nine counts.
#[derive(Default)]
pub struct SuitMemo {
    seen: HashMap<u32, Blocks>,
}

fn key(c: &[u8]) -> u32 {
    c.iter().fold(0u32, |k, &n| k * 5 + u32::from(n.min(4)))
}

impl SuitMemo {
    /// A fresh memo.
    pub fn new() -> SuitMemo {
        SuitMemo::default()
    }

    /// The reading of one suit's nine counts.
    pub fn suit(&mut self, c: &[u8; 9]) -> Blocks {
        let mut c = *c;
        self.read(&mut c)
    }

    fn read(&mut self, c: &mut [u8; 9]) -> Blocks {
        let Some(i) = c.iter().position(|&n| n > 0) else {
            return Blocks::EMPTY;
        };
        let k = key(c);
        if let Some(r) = self.seen.get(&k) {
            return *r;
        }
        // Every reading does something with one tile of the lowest rank held: leaves it alone,
        // or puts it in a set, a partial set or the head.
        c[i] -= 1;
        let mut best = self.read(c);
        c[i] += 1;
        // (tiles taken at offsets 0, 1, 2 from the lowest rank; sets, partial sets, head)
        let mut options: [([u8; 3], usize, i8, usize); 6] = [([0; 3], 0, 0, 0); 6];
        let mut n = 0;
        let mut add = |o| {
            options[n] = o;
            n += 1;
        };
        let at = |d: usize| if i + d < 9 { c[i + d] } else { 0 };
        if at(0) >= 3 {
            add(([3, 0, 0], 1, 0, 0));
        }
        if at(0) >= 2 {
            add(([2, 0, 0], 0, 1, 0));
            add(([2, 0, 0], 0, 0, 1));
        }
        if at(1) > 0 && at(2) > 0 {
            add(([1, 1, 1], 1, 0, 0));
        }
        if at(1) > 0 {
            add(([1, 1, 0], 0, 1, 0));
        }
        if at(2) > 0 {
            add(([1, 0, 1], 0, 1, 0));
        }
        for &(take, dm, dt, dp) in &options[..n] {
            for (d, &t) in take.iter().enumerate() {
                if t > 0 {
                    c[i + d] -= t;
                }
            }
            let r = self.read(c).shifted(dm, dt, dp);
            for (d, &t) in take.iter().enumerate() {
                if t > 0 {
                    c[i + d] += t;
                }
            }
            best = best.max(&r);
        }
        self.seen.insert(k, best);
        best
    }
}

/// The reading of the honours (no sequences: each kind is a set, a pair or loose tiles).
pub fn honours(c: &[u8]) -> Blocks {
    let mut r = Blocks::EMPTY;
    for &n in c {
        let one = match n {
            0 | 1 => continue,
            2 => Blocks::EMPTY
                .shifted(0, 1, 0)
                .max(&Blocks::EMPTY.shifted(0, 0, 1)),
            _ => Blocks::EMPTY.shifted(1, 0, 0),
        };
        r = r.combine(&one);
    }
    r
}

/// The readings of a hand's four groups: characters, bamboo, dots, honours.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Groups(pub [Blocks; 4]);

impl Groups {
    /// The readings of `counts`.
    pub fn of(memo: &mut SuitMemo, counts: &Counts) -> Groups {
        let suit = |memo: &mut SuitMemo, s: usize| {
            let mut c = [0u8; 9];
            c.copy_from_slice(&counts[s * 9..s * 9 + 9]);
            memo.suit(&c)
        };
        Groups([
            suit(memo, 0),
            suit(memo, 1),
            suit(memo, 2),
            honours(&counts[27..]),
        ])
    }

    /// The readings after one group changed: the group of `tile` read again from `counts`.
    pub fn with(mut self, memo: &mut SuitMemo, counts: &Counts, tile: usize) -> Groups {
        let g = tile / 9;
        self.0[g] = if g == 3 {
            honours(&counts[27..])
        } else {
            let mut c = [0u8; 9];
            c.copy_from_slice(&counts[g * 9..g * 9 + 9]);
            memo.suit(&c)
        };
        self
    }

    /// The reading of the groups in `mask` (bit g for group g) together.
    pub fn reading(&self, mask: u8) -> Blocks {
        let mut r = Blocks::EMPTY;
        for g in 0..4 {
            if mask & (1 << g) != 0 {
                r = r.combine(&self.0[g]);
            }
        }
        r
    }

    /// The standard shanten of the whole concealed hand with `sets` sets to make.
    pub fn shanten(&self, sets: usize) -> i8 {
        self.reading(0b1111).shanten(sets)
    }
}

/// Seven pairs' shanten (a concealed hand only; four of a kind counts as two pairs, as the
/// contest rules).
pub fn seven_pairs_shanten(counts: &Counts) -> i8 {
    let pairs: u8 = counts.iter().map(|&n| n / 2).sum();
    6 - pairs.min(7) as i8
}

/// Thirteen orphans' shanten (a concealed hand only).
pub fn thirteen_orphans_shanten(counts: &Counts) -> i8 {
    const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    let kinds = ORPHANS.iter().filter(|&&i| counts[i] > 0).count() as i8;
    let pair = ORPHANS.iter().any(|&i| counts[i] >= 2);
    13 - kinds - i8::from(pair)
}

/// All pungs' shanten with `sets` sets still to make (every meld must be a pung or kong,
/// which the caller checks): kinds of three or more are sets, pairs are partial sets or the
/// head.
pub fn all_pungs_shanten(counts: &Counts, sets: usize) -> i8 {
    let k = sets.min(4) as i8;
    let m = (counts.iter().filter(|&&n| n >= 3).count() as i8).min(k);
    let pairs = counts.iter().filter(|&&n| n == 2).count() as i8;
    let p = i8::from(pairs > 0);
    let t = (pairs - p).min(k - m);
    2 * k - 2 * m - t - p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> Counts {
        let mut c = [0u8; 34];
        for tok in s.split_whitespace() {
            let b = tok.as_bytes();
            let i = match b {
                [d, suit] => {
                    let base = match suit {
                        b'M' => 0,
                        b'S' => 9,
                        b'T' => 18,
                        _ => panic!("{tok}"),
                    };
                    base + (d - b'1') as usize
                }
                [h] => 27 + "ESWNZFB".find(*h as char).unwrap(),
                _ => panic!("{tok}"),
            };
            c[i] += 1;
        }
        c
    }

    fn std_shanten(s: &str) -> i8 {
        let c = counts(s);
        let n: u8 = c.iter().sum();
        let mut memo = SuitMemo::new();
        Groups::of(&mut memo, &c).shanten(n as usize / 3)
    }

    /// Brute force: the fewest tile exchanges until a complete hand, searched over removing one
    /// tile and adding any kind, for small distances.
    fn is_complete(c: &mut Counts, sets: usize) -> bool {
        fn rec(c: &mut Counts, sets: usize, pair: bool) -> bool {
            let Some(i) = c.iter().position(|&n| n > 0) else {
                return sets == 0 && pair;
            };
            if !pair && c[i] >= 2 {
                c[i] -= 2;
                let ok = rec(c, sets, true);
                c[i] += 2;
                if ok {
                    return true;
                }
            }
            if sets > 0 && c[i] >= 3 {
                c[i] -= 3;
                let ok = rec(c, sets - 1, pair);
                c[i] += 3;
                if ok {
                    return true;
                }
            }
            if sets > 0 && i < 27 && i % 9 < 7 && c[i + 1] > 0 && c[i + 2] > 0 {
                c[i] -= 1;
                c[i + 1] -= 1;
                c[i + 2] -= 1;
                let ok = rec(c, sets - 1, pair);
                c[i] += 1;
                c[i + 1] += 1;
                c[i + 2] += 1;
                if ok {
                    return true;
                }
            }
            false
        }
        rec(c, sets, false)
    }

    #[test]
    fn known_hands() {
        assert_eq!(std_shanten("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 3S E E"), -1);
        assert_eq!(std_shanten("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 3S E"), 0);
        assert_eq!(std_shanten("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S E E"), 0);
        assert_eq!(std_shanten("1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N"), 8);
        assert_eq!(std_shanten("1M 2M 4M 5M 7M 8M 1S 2S 4S 5S 7S E E"), 3);
        // The one known over-estimate: with all four of a kind held, a pair of it is read as
        // a partial set that no tile can complete ("5M 5M 5M 5M" reads as one tile away).
        assert_eq!(std_shanten("5M 5M 5M 5M"), 0);
        assert_eq!(std_shanten("1M 2M 3M E"), 0);
        assert_eq!(
            seven_pairs_shanten(&counts("1M 1M 2M 2M 3M 3M 4M 4M 5M 5M 6M 6M 7M 7M")),
            -1
        );
        assert_eq!(
            seven_pairs_shanten(&counts("1M 1M 1M 1M 3M 3M 4M 4M 5M 5M 6M 6M 7M")),
            0
        );
        assert_eq!(
            thirteen_orphans_shanten(&counts("1M 9M 1S 9S 1T 9T E S W N Z F B")),
            0
        );
        assert_eq!(
            all_pungs_shanten(&counts("1M 1M 1M 2S 2S 2S E E E W W 9T 9T"), 4),
            0
        );
    }

    #[test]
    fn shanten_zero_exactly_when_some_tile_completes_and_minus_one_when_complete() {
        let mut rng = 0x1234_5678_u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut memo = SuitMemo::new();
        for round in 0..3000 {
            // 13-tile hands concentrated on few kinds so that waits are common
            let kinds = 10 + (round % 15) as u64;
            let mut c = [0u8; 34];
            let mut n = 0;
            while n < 13 {
                let t = (next() % kinds) as usize;
                // at most three of a kind: see known_hands for four
                if c[t] < 3 {
                    c[t] += 1;
                    n += 1;
                }
            }
            let s = Groups::of(&mut memo, &c).shanten(4);
            let waits = (0..34).any(|t| {
                if c[t] == 4 {
                    return false;
                }
                c[t] += 1;
                let ok = is_complete(&mut c, 4);
                c[t] -= 1;
                ok
            });
            assert_eq!(s == 0, waits, "{c:?} shanten {s}");
            assert!(s >= 0);
            for t in 0..34 {
                if c[t] < 4 {
                    c[t] += 1;
                    let s14 = Groups::of(&mut memo, &c).shanten(4);
                    assert_eq!(s14 == -1, is_complete(&mut c, 4), "{c:?}");
                    assert!(
                        s14 >= s - 1 && s14 <= s,
                        "a draw moves shanten by at most one"
                    );
                    c[t] -= 1;
                }
            }
        }
    }

    #[test]
    fn a_changed_group_reads_like_the_whole() {
        let mut memo = SuitMemo::new();
        let mut c = counts("1M 2M 3M 5S 6S 7T 8T 9T E E W Z F");
        let g = Groups::of(&mut memo, &c);
        c[13] += 1; // 5S
        assert_eq!(g.with(&mut memo, &c, 13), Groups::of(&mut memo, &c));
        c[29] += 1; // W
        let g2 = Groups::of(&mut memo, &c);
        assert_eq!(g2.with(&mut memo, &c, 29), g2);
    }
}
