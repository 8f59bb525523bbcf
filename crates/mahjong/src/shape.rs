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
//! Win detection and waits are table-driven: a suit's nine counts, read as a base-5 number, index
//! a table of two bits per suit (splits into sets; splits into sets and a pair), built once on
//! first use (488 KiB) from every combination of up to four sets and a pair. Honours need no
//! table (every count 0 or 3, one 2 for the pair). The suits' sizes mod 3 say where the pair must
//! be, so a hand is decided by at most three lookups; a wait is one lookup per candidate tile of
//! the one suit that can take it. The greedy split the table is tested against (at the lowest
//! rank, `count mod 3` chows must start, since three equal chows are three pungs) is kept as its
//! reference.
//!
//! Shanten counts blocks per component by a small search, memoised per thread by the
//! component's counts (most hands repeat most of their suits from one decision to the next).

use crate::rules::Reading;
use crate::sets::TileSet;
use crate::tile::{Counts, TILE_KINDS, Tile};

const HONOUR_START: usize = 27;

/// Whether a suit's nine counts split into chows and pungs (no pair): the greedy reference the
/// table is tested against.
#[cfg(test)]
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

/// Whether a suit's nine counts split into chows, pungs and one pair (the reference): the pair
/// can only sit on ranks `p ≡ 2 · Σ rank·count (mod 3)`, as a set adds a multiple of 3 to that
/// sum and a pair `2p`.
#[cfg(test)]
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

/// `5^i` for the nine ranks of a suit.
const POW5: [u32; 9] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625];
/// Suit keys: nine counts 0–4 in base 5.
const SUIT_KEYS: usize = 1_953_125;

/// A suit's counts as a base-5 number.
#[inline]
fn suit_key(part: &[u8]) -> u32 {
    part.iter().rev().fold(0u32, |k, &n| k * 5 + u32::from(n))
}

/// Two bits per suit key: bit 0 the suit splits into sets, bit 1 into sets and one pair.
struct SuitTable(Box<[u64]>);

impl SuitTable {
    fn build() -> SuitTable {
        let mut bits = vec![0u64; (2 * SUIT_KEYS).div_ceil(64)].into_boxed_slice();
        let mut mark = |key: u32, pair: bool| {
            let i = 2 * key as usize + usize::from(pair);
            bits[i / 64] |= 1 << (i % 64);
        };
        // Every multiset of up to four sets (pungs 0–8, chows 9–15 starting at ranks 0–6).
        fn sets(c: &mut [u8; 9], from: usize, left: u32, mark: &mut dyn FnMut(u32, bool)) {
            mark(suit_key(c), false);
            for p in 0..9 {
                if c[p] <= 2 {
                    c[p] += 2;
                    mark(suit_key(c), true);
                    c[p] -= 2;
                }
            }
            if left == 0 {
                return;
            }
            for set in from..16 {
                let ranks: &[usize] = if set < 9 {
                    &[set; 3]
                } else {
                    &[set - 9, set - 8, set - 7]
                };
                if ranks.iter().all(|&r| c[r] < 4) && (set >= 9 || c[set] <= 1) {
                    for &r in ranks {
                        c[r] += 1;
                    }
                    sets(c, set, left - 1, mark);
                    for &r in ranks {
                        c[r] -= 1;
                    }
                }
            }
        }
        sets(&mut [0; 9], 0, 4, &mut mark);
        SuitTable(bits)
    }

    #[inline]
    fn splits(&self, key: u32, pair: bool) -> bool {
        let i = 2 * key as usize + usize::from(pair);
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
}

fn suit_table() -> &'static SuitTable {
    static TABLE: std::sync::OnceLock<SuitTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(SuitTable::build)
}

/// One pass over a hand: each suit's key, each component's size mod 3, and the hand's size.
struct Parts {
    key: [u32; 3],
    residue: [u8; 4],
    tiles: u32,
}

#[inline]
fn parts(c: &Counts) -> Parts {
    let mut key = [0u32; 3];
    let mut residue = [0u8; 4];
    let mut tiles = 0;
    for k in 0..3 {
        let part = &c[9 * k..9 * k + 9];
        key[k] = suit_key(part);
        let n = part.iter().map(|&n| u32::from(n)).sum::<u32>();
        residue[k] = (n % 3) as u8;
        tiles += n;
    }
    let h = c[HONOUR_START..].iter().map(|&n| u32::from(n)).sum::<u32>();
    residue[3] = (h % 3) as u8;
    Parts {
        key,
        residue,
        tiles: tiles + h,
    }
}

#[inline]
fn part_ok(table: &SuitTable, c: &Counts, p: &Parts, k: usize, pair: bool) -> bool {
    if k == 3 {
        honours_ok(&c[HONOUR_START..], pair)
    } else {
        table.splits(p.key[k], pair)
    }
}

/// Whether the concealed tiles `c` split into chows, pungs and exactly one pair.
pub fn is_standard_win(c: &Counts) -> bool {
    let p = parts(c);
    let mut pair_at = None;
    for (k, &res) in p.residue.iter().enumerate() {
        match res {
            0 => {}
            2 if pair_at.is_none() => pair_at = Some(k),
            _ => return false,
        }
    }
    let Some(pair_at) = pair_at else {
        return false;
    };
    let table = suit_table();
    (0..4).all(|k| part_ok(table, c, &p, k, k == pair_at))
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
    let p = parts(c);
    let n = p.tiles;
    if n % 3 != 1 {
        return TileSet::EMPTY;
    }
    // No path adds a fifth tile of a kind: a suit's count 4 is skipped, an honour's 5 never
    // splits, and the special shapes check their counts.
    let mut bits = standard_waits(c, &p);
    if n == 13 && special_shape_possible(c) {
        let m = Masks::of(c);
        bits |= m.seven_pairs_waits();
        bits |= match reading {
            Reading::Contest => m.orphans_waits(),
            Reading::Seed2015 => m.loose_orphans_waits(),
        };
    }
    TileSet::from_bits(bits)
}

/// Whether 13 tiles might wait on seven pairs (exactly one kind held an odd number of times)
/// or on thirteen orphans (no suit tile of ranks 2–8). Few hands pass, and building their
/// [`Masks`] was most of the time of a wait.
#[inline]
fn special_shape_possible(c: &Counts) -> bool {
    let odd: u32 = c.iter().map(|&n| u32::from(n & 1)).sum();
    odd == 1 || (0..3).all(|s| c[9 * s + 1..9 * s + 8].iter().all(|&n| n == 0))
}

/// A hand's kinds by count, one bit per kind.
struct Masks {
    present: u64,
    odd: u64,
    /// Two or more.
    many: u64,
    /// Three or more.
    three: u64,
    four: u64,
}

impl Masks {
    fn of(c: &Counts) -> Masks {
        let mut m = Masks {
            present: 0,
            odd: 0,
            many: 0,
            three: 0,
            four: 0,
        };
        for (i, &n) in c.iter().enumerate() {
            let bit = 1u64 << i;
            m.present |= if n > 0 { bit } else { 0 };
            m.odd |= if n % 2 == 1 { bit } else { 0 };
            m.many |= if n >= 2 { bit } else { 0 };
            m.three |= if n >= 3 { bit } else { 0 };
            m.four |= if n >= 4 { bit } else { 0 };
        }
        m
    }

    /// Seven pairs wait on the one odd kind.
    fn seven_pairs_waits(&self) -> u64 {
        if self.odd.count_ones() == 1 {
            self.odd
        } else {
            0
        }
    }

    /// Thirteen orphans: all 13 kinds once (waits on any of them), or 12 and a pair (waits on
    /// the missing one).
    fn orphans_waits(&self) -> u64 {
        if self.present & !TERMINALS_AND_HONOURS != 0 || self.three != 0 {
            return 0;
        }
        match self.many.count_ones() {
            0 => TERMINALS_AND_HONOURS,
            1 => TERMINALS_AND_HONOURS & !self.present,
            _ => 0,
        }
    }

    /// The loose test: with no kind repeated, adding any held kind repeats it; with one kind
    /// repeated, adding it or a kind not held keeps it the only one.
    fn loose_orphans_waits(&self) -> u64 {
        if self.present & !TERMINALS_AND_HONOURS != 0 {
            return 0;
        }
        match self.many.count_ones() {
            0 => self.present,
            1 => (self.many & !self.four) | (TERMINALS_AND_HONOURS & !self.present),
            _ => 0,
        }
    }
}

fn standard_waits(c: &Counts, p: &Parts) -> u64 {
    let r = p.residue;
    let ones = r.iter().filter(|&&x| x == 1).count();
    let twos = r.iter().filter(|&&x| x == 2).count();
    let table = suit_table();
    let mut out = 0u64;
    match (ones, twos) {
        (1, 0) => {
            let x = r.iter().position(|&v| v == 1).expect("one residue 1");
            if (0..4).all(|k| k == x || part_ok(table, c, p, k, false)) {
                out |= part_waits(table, c, p, x, true);
            }
        }
        (0, 2) => {
            for x in (0..4).filter(|&k| r[k] == 2) {
                if (0..4).all(|k| k == x || part_ok(table, c, p, k, r[k] == 2)) {
                    out |= part_waits(table, c, p, x, false);
                }
            }
        }
        _ => {}
    }
    out
}

/// The tiles of component `k` whose addition makes it split (with a pair if `pair`).
fn part_waits(table: &SuitTable, c: &Counts, p: &Parts, k: usize, pair: bool) -> u64 {
    let part = component(c, k);
    let mut held = 0u32;
    for (i, &n) in part.iter().enumerate() {
        if n > 0 {
            held |= 1 << i;
        }
    }
    let mut out = 0u64;
    if k == 3 {
        // An honour not held stays alone when added.
        let mut h = [0u8; 7];
        h.copy_from_slice(part);
        let mut bits = held;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            h[i] += 1;
            if honours_ok(&h, pair) {
                out |= 1 << (HONOUR_START + i);
            }
            h[i] -= 1;
        }
        return out;
    }
    // A rank with no held tile within two ranks stays alone when added.
    let mut bits = (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1ff;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        // A fifth tile of a kind is no suit's count; those kinds are dropped by the caller.
        if part[i] < 4 && table.splits(p.key[k] + POW5[i], pair) {
            out |= 1 << (9 * k + i);
        }
    }
    out
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
        // A lone tile with no neighbour above (those below are used up) can only be left.
        let neighbours =
            chows && ((i + 1 < len && self.c[i + 1] > 0) || (i + 2 < len && self.c[i + 2] > 0));
        if self.c[i] == 1 && !neighbours {
            self.c[i] = 0;
            self.run(i + 1, m, t, pair);
            self.c[i] = 1;
            return;
        }
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

fn search_blocks(src: &[u8], chows: bool) -> Blocks {
    let mut search = BlockSearch {
        c: [0; 9],
        len: src.len(),
        chows,
        out: Blocks::NONE,
    };
    search.c[..src.len()].copy_from_slice(src);
    search.run(0, 0, 0, false);
    search.out
}

/// Slots in each thread's memo of component blocks.
const MEMO_SLOTS: usize = 1 << 12;

thread_local! {
    /// Component blocks by component key (+1, so 0 is an empty slot), direct-mapped.
    static MEMO: std::cell::RefCell<Vec<(u32, Blocks)>> =
        std::cell::RefCell::new(vec![(0, Blocks::NONE); MEMO_SLOTS]);
}

fn component_blocks(c: &Counts, k: usize) -> Blocks {
    let src = component(c, k);
    // Honours are keyed apart from suits (bit 22); either key is below 2^22.
    let key = 1 + suit_key(src) + if k == 3 { 1 << 22 } else { 0 };
    let slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - 12)) as usize;
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo[slot].0 == key {
            return memo[slot].1;
        }
        let b = search_blocks(src, k != 3);
        memo[slot] = (key, b);
        b
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suit_table_agrees_with_the_greedy_split_on_every_suit() {
        let table = suit_table();
        let mut c = [0u8; 9];
        for key in 0..SUIT_KEYS as u32 {
            let mut k = key;
            for n in c.iter_mut() {
                *n = (k % 5) as u8;
                k /= 5;
            }
            if c.iter().map(|&n| u32::from(n)).sum::<u32>() > 14 {
                continue;
            }
            assert_eq!(table.splits(key, false), suit_sets(&c), "{c:?}");
            assert_eq!(table.splits(key, true), suit_sets_and_pair(&c), "{c:?}");
        }
    }
}
