//! Shanten by table: each suit's (and the honours') best splits, looked up instead of searched.
//!
//! A group's [`Options`] (for a pair of 0 or 1 and 0–4 melds, the most partial melds) depend on
//! its counts alone. Every group a hand can hold (counts 0–4, at most 14 tiles) is ranked among
//! all such count vectors ([`Ranker`]) and its options computed once, on first use, by the same
//! choices the reference search ([`super::group_options`]) makes at the group's lowest tile, each
//! choice's rest being a smaller vector already in the table. Suits: 405,350 entries; honours
//! (no chows): 43,130; 6.3 MB together (14 bytes an entry).
//!
//! For dividing winning hands, [`SPLITS`] holds every way each suit that splits wholly into
//! melds (and one pair) does so, keyed by its counts in a small hash table, built on first use
//! by the same one-choice-per-kind search, with the waits of each such suit and of the suit
//! less each of its tiles (`SplitWaits`, read off the splits: a winning hand's wait from one
//! or two lookups); 1.6 MB together.

use std::sync::LazyLock;

use super::Options;

/// The most tiles a group may hold to be in the tables: a whole hand's concealed tiles.
pub(super) const MAX_TILES: usize = 14;

/// Options of no tiles: no melds, no pair, no partials.
const EMPTY: Options = {
    let mut o = [[-1i8; 5]; 2];
    o[0][0] = 0;
    o
};

/// Ranks count vectors of `N` kinds (each 0–4, summing to at most [`MAX_TILES`]) in
/// lexicographic order: `rank` is a vector's position among all such vectors.
struct Ranker<const N: usize> {
    /// `skip[i][budget][v]`: how many vectors sort before those with value `v` at kind `i`,
    /// given the same earlier kinds and `budget` tiles left for kinds `i..`.
    skip: [[[u32; 5]; MAX_TILES + 1]; N],
    /// How many vectors there are.
    len: usize,
}

impl<const N: usize> Ranker<N> {
    fn new() -> Self {
        // fits[k][b]: vectors of k kinds summing to at most b.
        let mut fits = vec![[0u32; MAX_TILES + 1]; N + 1];
        fits[0] = [1; MAX_TILES + 1];
        for k in 1..=N {
            for b in 0..=MAX_TILES {
                fits[k][b] = (0..=4.min(b)).map(|v| fits[k - 1][b - v]).sum();
            }
        }
        let mut skip = [[[0u32; 5]; MAX_TILES + 1]; N];
        for (i, per_budget) in skip.iter_mut().enumerate() {
            for (b, row) in per_budget.iter_mut().enumerate() {
                let mut before = 0;
                for (v, x) in row.iter_mut().enumerate() {
                    *x = before;
                    if v <= b {
                        before += fits[N - i - 1][b - v];
                    }
                }
            }
        }
        Ranker {
            skip,
            len: fits[N][MAX_TILES] as usize,
        }
    }

    /// The rank of `c`, or `None` when a count is above 4 or they sum to more than
    /// [`MAX_TILES`]: one pass that checks as it ranks.
    #[inline]
    fn rank_checked(&self, c: &[u8; N]) -> Option<usize> {
        let mut budget = MAX_TILES;
        let mut r = 0;
        for (row, &v) in self.skip.iter().zip(c) {
            let v = usize::from(v);
            if v > 4 || v > budget {
                return None;
            }
            r += row[budget][v];
            budget -= v;
        }
        Some(r as usize)
    }

    /// The rank of `c`, whose counts are 0–4 summing to at most [`MAX_TILES`].
    #[inline]
    fn rank(&self, c: &[u8; N]) -> usize {
        let mut budget = MAX_TILES;
        let mut r = 0;
        for (i, &v) in c.iter().enumerate() {
            r += self.skip[i][budget][usize::from(v)];
            budget -= usize::from(v);
        }
        r as usize
    }
}

/// What the table knows of one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// The group's best splits.
    pub options: Options,
    /// `waits[pair]`, bit `r` for kind `r`: adding one tile of that kind splits the group
    /// wholly into melds (and one pair when `pair` is 1).
    pub waits: [u16; 2],
}

/// The entry of every group of `N` kinds, by rank.
pub(super) struct Table<const N: usize> {
    ranker: Ranker<N>,
    entries: Box<[Entry]>,
}

impl<const N: usize> Table<N> {
    fn build(suited: bool) -> Self {
        let ranker = Ranker::<N>::new();
        let mut options = vec![EMPTY; ranker.len].into_boxed_slice();
        let mut c = [0u8; N];
        let mut next = 0;
        fill(
            &ranker,
            &mut options,
            &mut c,
            0,
            MAX_TILES,
            suited,
            &mut next,
        );
        debug_assert_eq!(next, ranker.len);
        let mut entries = Vec::with_capacity(ranker.len);
        each(&mut c, 0, MAX_TILES, &mut |c| {
            let n: usize = c.iter().map(|&x| usize::from(x)).sum();
            let mut waits = [0u16; 2];
            for r in 0..N {
                if n == MAX_TILES || c[r] == 4 {
                    continue;
                }
                c[r] += 1;
                let o = &options[ranker.rank(c)];
                c[r] -= 1;
                for (pair, w) in waits.iter_mut().enumerate() {
                    if complete(o, n + 1, pair == 1) {
                        *w |= 1 << r;
                    }
                }
            }
            entries.push(Entry {
                options: options[entries.len()],
                waits,
            });
        });
        Table {
            ranker,
            entries: entries.into_boxed_slice(),
        }
    }

    /// The entry of the group `c`, or `None` when it is not in the table (a count above 4,
    /// more than [`MAX_TILES`] tiles).
    #[inline]
    pub(super) fn get(&self, c: &[u8; N]) -> Option<&Entry> {
        self.entries.get(self.ranker.rank_checked(c)?)
    }
}

/// Whether a group of `n` tiles with options `o` splits wholly into melds (and one pair when
/// `pair`): a split with that many melds leaves no tile over.
pub(super) fn complete(o: &Options, n: usize, pair: bool) -> bool {
    match (pair, n % 3) {
        (false, 0) => o[0][n / 3] >= 0,
        (true, 2) => o[1][n / 3] >= 0,
        _ => false,
    }
}

/// Calls `f` with every vector in rank (lexicographic) order.
pub(super) fn each<const N: usize>(
    c: &mut [u8; N],
    kind: usize,
    budget: usize,
    f: &mut impl FnMut(&mut [u8; N]),
) {
    if kind == N {
        f(c);
        return;
    }
    for v in 0..=4.min(budget) {
        c[kind] = v as u8;
        each(c, kind + 1, budget - v, f);
    }
    c[kind] = 0;
}

/// Visits every vector in rank (lexicographic) order, computing each one's options from
/// vectors of lower rank: the choices at a vector's lowest tile only take tiles away there or
/// above, which makes a lexicographically smaller vector.
fn fill<const N: usize>(
    ranker: &Ranker<N>,
    options: &mut [Options],
    c: &mut [u8; N],
    kind: usize,
    budget: usize,
    suited: bool,
    next: &mut usize,
) {
    if kind == N {
        let o = options_of(ranker, options, c, suited);
        options[*next] = o;
        *next += 1;
        return;
    }
    for v in 0..=4.min(budget) {
        c[kind] = v as u8;
        fill(ranker, options, c, kind + 1, budget - v, suited, next);
    }
    c[kind] = 0;
}

/// The reference search's choices at the lowest tile `i` of `c`, over the rests' options.
fn options_of<const N: usize>(
    ranker: &Ranker<N>,
    options: &[Options],
    c: &mut [u8; N],
    suited: bool,
) -> Options {
    let Some(i) = c.iter().position(|&n| n > 0) else {
        return EMPTY;
    };
    let mut out = [[-1i8; 5]; 2];
    let n = c[i];
    let next1 = suited && i + 1 < N && c[i + 1] > 0;
    let next2 = suited && i + 2 < N && c[i + 2] > 0;
    // Takes `take` (tiles at i, i+1, i+2) away and folds the rest's options in, shifted by
    // the melds, pair and partials the taken tiles make.
    let mut with = |take: [u8; 3], melds: usize, pair: usize, partials: i8| {
        // Only the tiles taken are touched: i + 1 and i + 2 may lie past the group's end.
        for (d, &t) in take.iter().enumerate().filter(|(_, t)| **t > 0) {
            c[i + d] -= t;
        }
        let rest = options[ranker.rank(c)];
        for (d, &t) in take.iter().enumerate().filter(|(_, t)| **t > 0) {
            c[i + d] += t;
        }
        for p in 0..2 {
            for m in 0..5 {
                let x = rest[p][m];
                if x < 0 || p + pair > 1 || m + melds > 4 {
                    continue;
                }
                let y = &mut out[p + pair][m + melds];
                *y = (*y).max((x + partials).min(8));
            }
        }
    };
    if n >= 3 {
        with([3, 0, 0], 1, 0, 0);
    }
    if next1 && next2 {
        with([1, 1, 1], 1, 0, 0);
    }
    if n >= 2 {
        with([2, 0, 0], 0, 1, 0);
        with([2, 0, 0], 0, 0, 1);
    }
    if next1 {
        with([1, 1, 0], 0, 0, 1);
    }
    if next2 {
        with([1, 0, 1], 0, 0, 1);
    }
    with([1, 0, 0], 0, 0, 0);
    out
}

/// The suits' table (nine kinds, chows allowed).
pub(super) static SUITS: LazyLock<Table<9>> = LazyLock::new(|| Table::build(true));
/// The honours' table (seven kinds, no chows).
pub(super) static HONOURS: LazyLock<Table<7>> = LazyLock::new(|| Table::build(false));

/// One way to split a suit's tiles wholly into melds and at most one pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SuitSplit {
    /// The melds by their lowest rank `r` (0–8): `2r` for a pung, `2r + 1` for a chow; in
    /// order, `count` of them.
    pub melds: [u8; 4],
    /// How many melds.
    pub count: u8,
    /// The pair's rank (0–8), or [`NO_PAIR`].
    pub pair: u8,
}

/// [`SuitSplit::pair`] of a split without a pair.
pub(crate) const NO_PAIR: u8 = u8::MAX;

/// The split of no tiles.
pub(crate) const NO_TILES: SuitSplit = SuitSplit {
    melds: [0; 4],
    count: 0,
    pair: NO_PAIR,
};

/// The splits of every suit that splits wholly (21,743 count vectors, 23,533 splits; at most
/// four for one suit), in an open-addressing hash table keyed by the counts themselves: a
/// lookup hashes nine bytes instead of ranking them.
pub(crate) struct SplitTable {
    /// `SLOTS` slots: a suit's key ([`split_key`]; `EMPTY_SLOT` for none), its splits' first
    /// position in `pool`, shifted left 8 bits, plus how many there are, and its position in
    /// `waits`.
    slots: Box<[(u64, u32, u32)]>,
    pool: Box<[SuitSplit]>,
    waits: Box<[SplitWaits]>,
}

/// The waits of a suit that splits wholly, and of that suit less one tile: what reading a
/// winning hand's wait needs of the winning tile's suit, and of the suit holding the pair.
///
/// A wait here is a kind the suit (or the suit less a tile) holds fewer than four of, and
/// whose one more tile makes it split wholly: as the shape tables' `Entry::waits` read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SplitWaits {
    /// `less[r]`, for each rank index `r` the suit holds: the waits (bit `x` for rank index
    /// `x`) of the suit less one tile of `r`, to split with a pair exactly when the suit holds
    /// two tiles more than a multiple of three.
    pub less: [u16; 9],
    /// Bit `r`: the suit less one tile of `r` splits wholly into melds and a pair.
    pub less_splits_with_pair: u16,
    /// The waits of the suit itself to split into melds alone (no pair).
    pub more: u16,
}

/// Slots of [`SplitTable`]: a power of two, about three times the suits held, so that probes
/// are short.
const SLOTS: usize = 1 << 16;

const EMPTY_SLOT: u64 = u64::MAX;

/// A suit's counts as one number: the first eight counts are its bytes, the ninth sits in the
/// top bits, above the eighth count's three low bits (both checked to be 0–4, so that no two
/// suits share a key).
#[inline]
fn split_key(c: &[u8; 9]) -> Option<u64> {
    if c[7] > 4 || c[8] > 4 {
        return None;
    }
    let mut low = [0u8; 8];
    low.copy_from_slice(&c[..8]);
    Some(u64::from_le_bytes(low) | u64::from(c[8]) << 61)
}

/// The counts of the suit whose key is `key` (the inverse of [`split_key`]).
fn split_counts(key: u64) -> [u8; 9] {
    let mut c = [0u8; 9];
    for (i, x) in c.iter_mut().enumerate().take(7) {
        *x = (key >> (8 * i)) as u8;
    }
    c[7] = (key >> 56 & 7) as u8;
    c[8] = (key >> 61) as u8;
    c
}

/// The first slot probed for `key`.
#[inline]
fn split_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize
}

impl SplitTable {
    fn build() -> Self {
        let mut slots = vec![(EMPTY_SLOT, 0u32, 0u32); SLOTS].into_boxed_slice();
        let mut pool = Vec::new();
        let mut c = [0u8; 9];
        each(&mut c, 0, MAX_TILES, &mut |c| {
            let n: u32 = c.iter().map(|&x| u32::from(x)).sum();
            if n % 3 == 1 {
                return;
            }
            let start = pool.len();
            let mut work = NO_TILES;
            split_suit(c, 0, n % 3 == 2, &mut work, &mut pool);
            let len = pool.len() - start;
            if len == 0 {
                return;
            }
            let Some(key) = split_key(c) else { return };
            let mut i = split_slot(key);
            while slots[i].0 != EMPTY_SLOT {
                i = (i + 1) % SLOTS;
            }
            slots[i] = (key, (start as u32) << 8 | len as u32, 0);
        });
        let mut table = SplitTable {
            slots,
            pool: pool.into_boxed_slice(),
            waits: Box::new([]),
        };
        // Read from the splits just placed: a suit splits wholly exactly when it has a split.
        let mut waits = Vec::new();
        for i in 0..SLOTS {
            let key = table.slots[i].0;
            if key == EMPTY_SLOT {
                continue;
            }
            let c = split_counts(key);
            table.slots[i].2 = waits.len() as u32;
            waits.push(table.split_waits(&c));
        }
        table.waits = waits.into_boxed_slice();
        table
    }

    /// [`SplitWaits`] of the suit `c`, which splits wholly.
    fn split_waits(&self, c: &[u8; 9]) -> SplitWaits {
        let n: u32 = c.iter().map(|&x| u32::from(x)).sum();
        let mut out = SplitWaits {
            more: self.waits_of(c, false),
            ..SplitWaits::default()
        };
        for r in (0..9).filter(|&r| c[r] > 0) {
            let mut less = *c;
            less[r] -= 1;
            out.less[r] = self.waits_of(&less, n % 3 == 2);
            if self.splits_wholly(&less, true) {
                out.less_splits_with_pair |= 1 << r;
            }
        }
        out
    }

    /// The kinds `c` holds fewer than four of whose one more tile makes `c` split wholly (with
    /// a pair when `pair`), bit `x` for rank index `x`.
    fn waits_of(&self, c: &[u8; 9], pair: bool) -> u16 {
        let n: usize = c.iter().map(|&x| usize::from(x)).sum();
        if n >= MAX_TILES {
            return 0;
        }
        let mut out = 0;
        for x in (0..9).filter(|&x| c[x] < 4) {
            let mut more = *c;
            more[x] += 1;
            if self.splits_wholly(&more, pair) {
                out |= 1 << x;
            }
        }
        out
    }

    /// Whether `c` splits wholly into melds, and one pair exactly when `pair`.
    fn splits_wholly(&self, c: &[u8; 9], pair: bool) -> bool {
        let n: u32 = c.iter().map(|&x| u32::from(x)).sum();
        n % 3 == if pair { 2 } else { 0 } && !self.get(c).is_empty()
    }

    /// The splits of the suit `c`: none when it does not split wholly (or a count is above
    /// 4, or it holds more than [`MAX_TILES`] tiles).
    #[inline]
    pub(crate) fn get(&self, c: &[u8; 9]) -> &[SuitSplit] {
        self.slot(c).map_or(&[], |(at, _)| {
            let at = at as usize;
            self.pool
                .get(at >> 8..(at >> 8) + (at & 0xff))
                .unwrap_or(&[])
        })
    }

    /// [`SplitTable::get`] and [`SplitTable::waits`] of the suit `c` from one lookup.
    #[inline]
    pub(crate) fn get_with_waits(&self, c: &[u8; 9]) -> (&[SuitSplit], Option<&SplitWaits>) {
        match self.slot(c) {
            Some((at, waits)) => {
                let at = at as usize;
                (
                    self.pool
                        .get(at >> 8..(at >> 8) + (at & 0xff))
                        .unwrap_or(&[]),
                    self.waits.get(waits as usize),
                )
            }
            None => (&[], None),
        }
    }

    /// [`SplitWaits`] of the suit `c`: none when it does not split wholly.
    #[inline]
    pub(crate) fn waits(&self, c: &[u8; 9]) -> Option<&SplitWaits> {
        self.waits.get(self.slot(c)?.1 as usize)
    }

    /// The slot of the suit `c`, if it splits wholly: its splits' place and its waits' place.
    #[inline]
    fn slot(&self, c: &[u8; 9]) -> Option<(u32, u32)> {
        let key = split_key(c)?;
        let mut i = split_slot(key);
        loop {
            let (k, at, waits) = self.slots[i];
            if k == key {
                return Some((at, waits));
            }
            if k == EMPTY_SLOT {
                return None;
            }
            i = (i + 1) % SLOTS;
        }
    }
}

/// Every split of the suit `c` from rank `i` on into melds and (when `with_pair`) one pair,
/// the lower ranks already in `work`. The tiles of the lowest rank left go at once into the
/// pair (or not), a pung (or not) and as many chows as remain, so each split is made exactly
/// once, its melds in order.
fn split_suit(
    c: &mut [u8; 9],
    i: usize,
    with_pair: bool,
    work: &mut SuitSplit,
    out: &mut Vec<SuitSplit>,
) {
    let Some(i) = (i..9).find(|&k| c[k] > 0) else {
        if (work.pair != NO_PAIR) == with_pair {
            out.push(*work);
        }
        return;
    };
    let n = c[i];
    let chow_room = if i <= 6 { c[i + 1].min(c[i + 2]) } else { 0 };
    for pair in [false, true] {
        if pair && (!with_pair || work.pair != NO_PAIR) {
            break;
        }
        for pung in [false, true] {
            let used = 2 * u8::from(pair) + 3 * u8::from(pung);
            if used > n {
                break;
            }
            let chows = n - used;
            if chows > chow_room || work.count + u8::from(pung) + chows > 4 {
                continue;
            }
            let before = *work;
            if pung {
                work.melds[usize::from(work.count)] = 2 * i as u8;
                work.count += 1;
            }
            for _ in 0..chows {
                work.melds[usize::from(work.count)] = 2 * i as u8 + 1;
                work.count += 1;
            }
            if pair {
                work.pair = i as u8;
            }
            c[i] = 0;
            if chows > 0 {
                c[i + 1] -= chows;
                c[i + 2] -= chows;
            }
            split_suit(c, i + 1, with_pair, work, out);
            c[i] = n;
            if chows > 0 {
                c[i + 1] += chows;
                c[i + 2] += chows;
            }
            *work = before;
        }
    }
}

/// The suits' splits into melds and a pair, for dividing winning hands.
pub(crate) static SPLITS: LazyLock<SplitTable> = LazyLock::new(SplitTable::build);
