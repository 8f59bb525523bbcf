//! Hand shapes: win detection, waits and shanten. Nothing here allocates.
//!
//! A hand is given as the [`Counts`] of its concealed tiles; the number of declared sets is
//! implied by the count (`14 − 3 × sets` tiles for a complete hand, one fewer for a waiting
//! one), so no meld list is needed. Counts above 4 are not hands; the functions assume they do
//! not occur.
//!
//! - A **win** is the standard shape (the concealed tiles split into chows, pungs and exactly
//!   one pair), or, with 14 concealed tiles, seven pairs (four of a kind may be two pairs) or
//!   thirteen orphans. Under [`Reading::Seed2015`] thirteen orphans is the 2015 server's loose
//!   test: all 14 tiles terminals or honours, exactly one kind appearing more than once.
//! - The **waits** of a hand one tile short are the kinds that complete it, leaving out kinds
//!   the hand already holds four of.
//! - **Shanten** is how many tiles a hand is from waiting: −1 for a complete hand, 0 for a
//!   hand with a wait, and otherwise the usual block count (`8 − 2·sets − partial sets − pair`,
//!   at most four sets and partial sets together), the least of the standard shape, seven pairs
//!   and thirteen orphans. It is exact at −1 and 0: a hand whose blocks look ready but whose
//!   only completing tiles are all in its own hand counts 1, not 0.
//!
//! Win detection splits each suit greedily: at the lowest remaining rank, `count mod 3` chows
//! must start there (three equal chows are three pungs), so one pass decides a suit without a
//! pair; the pair can only sit on ranks `p ≡ 2 · Σ rank·count (mod 3)` (a set adds a multiple
//! of 3 to that sum, a pair `2p`), so at most three pair positions are tried.

use crate::rules::Reading;
use crate::sets::TileSet;
use crate::tile::{Counts, TILE_KINDS, Tile};

const HONOUR_START: usize = 27;

/// Whether a suit's nine counts split into chows and pungs (no pair).
#[inline]
fn suit_sets(c: &[u8]) -> bool {
    // r1, r2: chows started one and two ranks below, still needing this rank.
    let (mut r1, mut r2) = (0u8, 0u8);
    for (i, &n) in c.iter().enumerate() {
        let Some(avail) = n.checked_sub(r1 + r2) else {
            return false;
        };
        let r = avail % 3;
        if r > 0 && i >= 7 {
            return false;
        }
        r2 = r1;
        r1 = r;
    }
    true
}

/// Whether a suit's nine counts split into chows, pungs and one pair.
#[inline]
fn suit_sets_and_pair(c: &[u8]) -> bool {
    let weighted: u32 = c
        .iter()
        .enumerate()
        .map(|(i, &n)| i as u32 * u32::from(n))
        .sum();
    let mut p = (2 * weighted % 3) as usize;
    let mut tmp = [0u8; 9];
    tmp.copy_from_slice(c);
    while p < 9 {
        if tmp[p] >= 2 {
            tmp[p] -= 2;
            let ok = suit_sets(&tmp);
            tmp[p] += 2;
            if ok {
                return true;
            }
        }
        p += 3;
    }
    false
}

/// Whether the honours split into pungs (and one pair if `pair`).
#[inline]
fn honours_ok(c: &[u8], pair: bool) -> bool {
    let mut pairs = 0;
    for &n in c {
        match n {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == usize::from(pair)
}

/// Component `k` (0–2 the suits, 3 the honours) of `c`.
#[inline]
fn component(c: &Counts, k: usize) -> &[u8] {
    if k == 3 {
        &c[HONOUR_START..]
    } else {
        &c[9 * k..9 * k + 9]
    }
}

#[inline]
fn component_ok(part: &[u8], honours: bool, pair: bool) -> bool {
    match (honours, pair) {
        (true, p) => honours_ok(part, p),
        (false, false) => suit_sets(part),
        (false, true) => suit_sets_and_pair(part),
    }
}

#[inline]
fn residues(c: &Counts) -> [u8; 4] {
    let mut r = [0u8; 4];
    for (k, slot) in r.iter_mut().enumerate() {
        let s: u32 = component(c, k).iter().map(|&n| u32::from(n)).sum();
        *slot = (s % 3) as u8;
    }
    r
}

/// Whether the concealed tiles `c` split into chows, pungs and exactly one pair.
pub fn is_standard_win(c: &Counts) -> bool {
    let r = residues(c);
    let mut pair_at = None;
    for (k, &res) in r.iter().enumerate() {
        match res {
            0 => {}
            2 if pair_at.is_none() => pair_at = Some(k),
            _ => return false,
        }
    }
    let Some(pair_at) = pair_at else {
        return false;
    };
    (0..4).all(|k| component_ok(component(c, k), k == 3, k == pair_at))
}

/// Whether 14 tiles are seven pairs (four of a kind counting as two pairs).
pub fn is_seven_pairs(c: &Counts) -> bool {
    count(c) == 14 && c.iter().all(|&n| n % 2 == 0)
}

/// Whether 14 tiles are thirteen orphans: all 13 terminals and honours, one of them twice.
pub fn is_thirteen_orphans(c: &Counts) -> bool {
    let mut kinds = 0;
    let mut doubles = 0;
    for (i, &n) in c.iter().enumerate() {
        let th = Tile::from_index(i).is_some_and(Tile::is_terminal_or_honour);
        match (th, n) {
            (_, 0) => {}
            (false, _) => return false,
            (true, 1) => kinds += 1,
            (true, 2) => {
                kinds += 1;
                doubles += 1;
            }
            (true, _) => return false,
        }
    }
    kinds == 13 && doubles == 1
}

/// The 2015 server's thirteen-orphans test: 14 tiles, all terminals or honours, exactly one
/// kind appearing more than once (all 13 kinds need not be there).
pub fn is_loose_thirteen_orphans(c: &Counts) -> bool {
    if count(c) != 14 {
        return false;
    }
    let mut repeated = 0;
    for (i, &n) in c.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if !Tile::from_index(i).is_some_and(Tile::is_terminal_or_honour) {
            return false;
        }
        if n > 1 {
            repeated += 1;
        }
    }
    repeated == 1
}

fn count(c: &Counts) -> u32 {
    c.iter().map(|&n| u32::from(n)).sum()
}

/// Whether the concealed tiles `c` (the winning tile included) are a win under the contest
/// reading.
pub fn is_win(c: &Counts) -> bool {
    is_win_in(c, Reading::Contest)
}

/// Whether the concealed tiles `c` (the winning tile included) are a win under `reading`.
pub fn is_win_in(c: &Counts, reading: Reading) -> bool {
    let n = count(c);
    if n % 3 != 2 {
        return false;
    }
    if is_standard_win(c) {
        return true;
    }
    n == 14
        && (is_seven_pairs(c)
            || match reading {
                Reading::Contest => is_thirteen_orphans(c),
                Reading::Seed2015 => is_loose_thirteen_orphans(c),
            })
}

/// Which kinds complete the hand `c` (one tile short of complete) under the contest reading.
pub fn waits(c: &Counts) -> TileSet {
    waits_in(c, Reading::Contest)
}

const TERMINALS_AND_HONOURS: u64 = (1 << 0)
    | (1 << 8)
    | (1 << 9)
    | (1 << 17)
    | (1 << 18)
    | (1 << 26)
    | (0b111_1111 << HONOUR_START);

/// Which kinds complete the hand `c` (one tile short of complete) under `reading`; kinds the
/// hand holds four of are left out.
pub fn waits_in(c: &Counts, reading: Reading) -> TileSet {
    let n = count(c);
    if n % 3 != 1 {
        return TileSet::EMPTY;
    }
    let mut bits = standard_waits(c);
    if n == 13 {
        bits |= seven_pairs_waits(c);
        bits |= match reading {
            Reading::Contest => orphans_waits(c),
            Reading::Seed2015 => loose_orphans_waits(c),
        };
    }
    let mut full = 0u64;
    for (i, &k) in c.iter().enumerate() {
        if k >= 4 {
            full |= 1 << i;
        }
    }
    TileSet::from_bits(bits & !full)
}

fn standard_waits(c: &Counts) -> u64 {
    let r = residues(c);
    let ones = r.iter().filter(|&&x| x == 1).count();
    let twos = r.iter().filter(|&&x| x == 2).count();
    let mut out = 0u64;
    match (ones, twos) {
        (1, 0) => {
            let x = r.iter().position(|&v| v == 1).expect("one residue 1");
            if (0..4).all(|k| k == x || component_ok(component(c, k), k == 3, false)) {
                out |= component_waits(c, x, true);
            }
        }
        (0, 2) => {
            for x in (0..4).filter(|&k| r[k] == 2) {
                let ok = (0..4).all(|k| k == x || component_ok(component(c, k), k == 3, r[k] == 2));
                if ok {
                    out |= component_waits(c, x, false);
                }
            }
        }
        _ => {}
    }
    out
}

/// The tiles of component `k` whose addition makes it split (with a pair if `pair`).
fn component_waits(c: &Counts, k: usize, pair: bool) -> u64 {
    let base = if k == 3 { HONOUR_START } else { 9 * k };
    let len = if k == 3 { 7 } else { 9 };
    let mut part = [0u8; 9];
    part[..len].copy_from_slice(component(c, k));
    let mut held = 0u32;
    for (i, &n) in part[..len].iter().enumerate() {
        if n > 0 {
            held |= 1 << i;
        }
    }
    // An added tile that is not held and has no held tile within two ranks stays alone.
    let candidates = if k == 3 {
        held
    } else {
        (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1ff
    };
    let mut out = 0u64;
    let mut bits = candidates;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        part[i] += 1;
        if component_ok(&part[..len], k == 3, pair) {
            out |= 1 << (base + i);
        }
        part[i] -= 1;
    }
    out
}

fn seven_pairs_waits(c: &Counts) -> u64 {
    let mut odd = 0u64;
    for (i, &n) in c.iter().enumerate() {
        if n % 2 == 1 {
            if odd != 0 {
                return 0;
            }
            odd = 1 << i;
        }
    }
    odd
}

fn orphans_waits(c: &Counts) -> u64 {
    let mut present = 0u64;
    let mut doubled = false;
    for (i, &n) in c.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if TERMINALS_AND_HONOURS >> i & 1 == 0 || n > 2 || (n == 2 && doubled) {
            return 0;
        }
        doubled |= n == 2;
        present |= 1 << i;
    }
    if doubled {
        TERMINALS_AND_HONOURS & !present
    } else {
        TERMINALS_AND_HONOURS
    }
}

fn loose_orphans_waits(c: &Counts) -> u64 {
    let mut present = 0u64;
    let mut repeated = None;
    for (i, &n) in c.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if TERMINALS_AND_HONOURS >> i & 1 == 0 {
            return 0;
        }
        if n > 1 {
            if repeated.is_some() {
                return 0;
            }
            repeated = Some(i);
        }
        present |= 1 << i;
    }
    match repeated {
        // Adding to any held kind makes it the one repeated kind.
        None => present,
        // Adding to the repeated kind, or a kind not yet held.
        Some(i) => (1 << i) | (TERMINALS_AND_HONOURS & !present),
    }
}

/// Shanten under the contest reading (see the module docs).
pub fn shanten(c: &Counts) -> i8 {
    shanten_in(c, Reading::Contest)
}

/// Shanten under `reading` (the 2015 reading's loose thirteen orphans counts as a shape).
pub fn shanten_in(c: &Counts, reading: Reading) -> i8 {
    let n = count(c);
    if n == 0 || n > 14 || n.is_multiple_of(3) {
        return shanten_blocks(c, n);
    }
    let mut s = shanten_blocks(c, n);
    if n >= 13 {
        s = s.min(seven_pairs_shanten(c)).min(match reading {
            Reading::Contest => orphans_shanten(c),
            Reading::Seed2015 => orphans_shanten(c).min(loose_orphans_shanten(c)),
        });
    }
    if s == 0 && !has_real_wait(c, n, reading) {
        s = 1;
    }
    s
}

fn has_real_wait(c: &Counts, n: u32, reading: Reading) -> bool {
    if n % 3 == 1 {
        return !waits_in(c, reading).is_empty();
    }
    // One tile too many: ready if some discard leaves a hand with a wait.
    let mut h = *c;
    for i in 0..TILE_KINDS {
        if h[i] == 0 {
            continue;
        }
        h[i] -= 1;
        let ok = !waits_in(&h, reading).is_empty();
        h[i] += 1;
        if ok {
            return true;
        }
    }
    false
}

fn seven_pairs_shanten(c: &Counts) -> i8 {
    let pairs: u32 = c.iter().map(|&n| u32::from(n / 2)).sum();
    6 - pairs.min(7) as i8
}

fn orphans_shanten(c: &Counts) -> i8 {
    let mut kinds = 0;
    let mut pair = 0;
    for (i, &n) in c.iter().enumerate() {
        if TERMINALS_AND_HONOURS >> i & 1 == 1 && n > 0 {
            kinds += 1;
            if n >= 2 {
                pair = 1;
            }
        }
    }
    13 - kinds - pair
}

fn loose_orphans_shanten(c: &Counts) -> i8 {
    let mut kinds = 0i8;
    let mut extra = 0i8;
    for (i, &n) in c.iter().enumerate() {
        if TERMINALS_AND_HONOURS >> i & 1 == 1 && n > 0 {
            kinds += 1;
            extra = extra.max(n as i8 - 1);
        }
    }
    13 - (kinds + extra)
}

/// Per component: for each number of sets `m` (0–4), the most partial sets, without and with a
/// pair set aside; `-1` where `m` sets cannot be made.
#[derive(Copy, Clone)]
struct Blocks {
    no_pair: [i8; 5],
    pair: [i8; 5],
}

impl Blocks {
    const NONE: Blocks = Blocks {
        no_pair: [-1; 5],
        pair: [-1; 5],
    };

    fn record(&mut self, pair: bool, m: usize, t: i8) {
        let row = if pair {
            &mut self.pair
        } else {
            &mut self.no_pair
        };
        let m = m.min(4);
        row[m] = row[m].max(t.min(4));
    }

    fn combine(a: &Blocks, b: &Blocks) -> Blocks {
        let mut out = Blocks::NONE;
        for ma in 0..5 {
            for mb in 0..5 - ma {
                let m = ma + mb;
                let add = |x: i8, y: i8| {
                    if x < 0 || y < 0 { -1 } else { (x + y).min(4) }
                };
                out.no_pair[m] = out.no_pair[m].max(add(a.no_pair[ma], b.no_pair[mb]));
                out.pair[m] = out.pair[m]
                    .max(add(a.pair[ma], b.no_pair[mb]))
                    .max(add(a.no_pair[ma], b.pair[mb]));
            }
        }
        out
    }
}

/// One component's block search: its counts, length, whether chows exist (not in honours),
/// and the best found.
struct BlockSearch {
    c: [u8; 9],
    len: usize,
    chows: bool,
    out: Blocks,
}

impl BlockSearch {
    fn run(&mut self, i: usize, m: usize, t: i8, pair: bool) {
        let mut i = i;
        while i < self.len && self.c[i] == 0 {
            i += 1;
        }
        if i == self.len || (m >= 4 && t >= 4 && pair) {
            self.out.record(pair, m, t);
            return;
        }
        let len = self.len;
        let chows = self.chows;
        if self.c[i] >= 3 {
            self.c[i] -= 3;
            self.run(i, m + 1, t, pair);
            self.c[i] += 3;
        }
        if chows && i + 2 < len && self.c[i + 1] > 0 && self.c[i + 2] > 0 {
            self.take(&[i, i + 1, i + 2]);
            self.run(i, m + 1, t, pair);
            self.give(&[i, i + 1, i + 2]);
        }
        if self.c[i] >= 2 {
            self.c[i] -= 2;
            if !pair {
                self.run(i, m, t, true);
            }
            self.run(i, m, t + 1, pair);
            self.c[i] += 2;
        }
        if chows && i + 1 < len && self.c[i + 1] > 0 {
            self.take(&[i, i + 1]);
            self.run(i, m, t + 1, pair);
            self.give(&[i, i + 1]);
        }
        if chows && i + 2 < len && self.c[i + 2] > 0 {
            self.take(&[i, i + 2]);
            self.run(i, m, t + 1, pair);
            self.give(&[i, i + 2]);
        }
        // Leave one tile of this rank unused.
        self.c[i] -= 1;
        self.run(i, m, t, pair);
        self.c[i] += 1;
    }

    fn take(&mut self, at: &[usize]) {
        for &k in at {
            self.c[k] -= 1;
        }
    }

    fn give(&mut self, at: &[usize]) {
        for &k in at {
            self.c[k] += 1;
        }
    }
}

fn component_blocks(c: &Counts, k: usize) -> Blocks {
    let src = component(c, k);
    let mut search = BlockSearch {
        c: [0; 9],
        len: src.len(),
        chows: k != 3,
        out: Blocks::NONE,
    };
    search.c[..src.len()].copy_from_slice(src);
    search.run(0, 0, 0, false);
    search.out
}
fn shanten_blocks(c: &Counts, n: u32) -> i8 {
    let declared = (14u32.saturating_sub(n) / 3).min(4) as i8;
    let mut all = component_blocks(c, 0);
    for k in 1..4 {
        all = Blocks::combine(&all, &component_blocks(c, k));
    }
    let room = 4 - declared;
    let mut best = 0i8;
    for m in 0..=room as usize {
        for (row, p) in [(&all.no_pair, 0), (&all.pair, 1)] {
            let t = row[m];
            if t < 0 {
                continue;
            }
            let v = 2 * m as i8 + t.min(room - m as i8) + p;
            best = best.max(v);
        }
    }
    8 - 2 * declared - best
}
