//! What a game's ladder needs of the game ([`Ladder`]): how many bots a group is, the
//! duplicate tables a group plays on one fresh deal, and what the finished tables say of each
//! bot. The matchmaker's ladder (grouping, ratings, the record) is written once over it.

use arena_proto::v1;

/// A group of the ladder about to be dealt, as the matchmaker made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Group<'a> {
    /// The group's sequence number in its ladder.
    pub n: u64,
    /// Its bots, in the order the group was made (the first table's seat order).
    pub bots: Vec<&'a str>,
    /// The ladder's secret deal key: the group's deal is derived from it and `n`.
    pub deal_key: u64,
    /// The ladder's seed, for the tables' seeds.
    pub seed: u64,
    /// The ladder's clock, or `None` for the game's.
    pub time: Option<v1::TimeControl>,
    /// The ladder's verdict policy.
    pub verdict_policy: v1::VerdictPolicy,
}

/// One table of a group, as the game lays it out: the matchmaker names it (`<suffix>`), queues
/// it and files it under the group.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupTable {
    /// The table id's last part, unique in the group (`a`, `r0`).
    pub suffix: &'static str,
    /// The table's job, but for its id, competition, lane, placement's group and pair, and the
    /// labels every ladder table carries (the matchmaker fills those in).
    pub job: v1::TableJob,
}

/// What a group's finished tables say: each bot's score, and where each sat when its release
/// was recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupScore {
    /// Each bot's group score, in [`Group::bots`] order: higher is better.
    pub scores: Vec<f64>,
    /// For each bot, the table (index in the group's table order) and seat whose recorded release
    /// is the bot's.
    pub release_at: Vec<(usize, usize)>,
}

/// How a game plays the ladder.
pub trait Ladder: Send + Sync {
    /// How many bots play one group.
    fn group_size(&self) -> usize;

    /// Record kind and key of the ladder's state in the store.
    fn state_key(&self) -> (&'static str, &'static str);

    /// The `competition` the ladder's tables are filed under: `ladder` for the platform's
    /// default game, `ladder-<game>` for any other (names the store reserves for ladders,
    /// `visibility::is_ladder_competition`).
    fn competition(&self) -> &'static str;

    /// The table-id suffixes of a group's tables, in the group's table order.
    fn table_suffixes(&self) -> &'static [&'static str];

    /// The group's tables, in [`Ladder::table_suffixes`] order, dealt from its deal key.
    fn tables(&self, group: &Group<'_>) -> Vec<GroupTable>;

    /// What the group's finished tables (in table order, each checked to have no error and a
    /// final score per seat) say, or why they cannot be rated.
    fn score(&self, group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String>;
}

/// The table suffixes of a group of four played at four tables with seats rotated
/// ([`rotated_tables`]).
pub const ROTATIONS: &[&str] = &["r0", "r1", "r2", "r3"];

/// A group of four's tables on one deal, rotated one seat each table: at table `k` the bot of
/// first-table seat `s` sits in seat `s + k`, so each plays the deal from every seat. Each
/// table is `template` (its game, set-up, clock and verdict policy) with the rotated seats,
/// the seed `seed(k)` and its rotation as label and placement.
pub fn rotated_tables(
    group: &Group<'_>,
    template: &v1::TableJob,
    seed: impl Fn(usize) -> u64,
) -> Vec<GroupTable> {
    ROTATIONS
        .iter()
        .enumerate()
        .map(|(k, &suffix)| GroupTable {
            suffix,
            job: v1::TableJob {
                seats: (0..4)
                    .map(|s| v1::SeatSpec {
                        bot: group
                            .bots
                            .get((s + 4 - k) % 4)
                            .copied()
                            .unwrap_or("")
                            .into(),
                    })
                    .collect(),
                seed: seed(k),
                labels: [("rotation".to_string(), k.to_string())].into(),
                placement: Some(Box::new(v1::Placement {
                    rotation: k as u32,
                    ..Default::default()
                })),
                ..template.clone()
            },
        })
        .collect()
}

/// What the four tables of [`rotated_tables`] say of each bot: its final scores at the four
/// tables, summed.
pub fn rotated_score(group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String> {
    if group.bots.len() != 4 || tables.len() != 4 {
        return Err(format!(
            "a set is 4 bots at 4 tables, not {} at {}",
            group.bots.len(),
            tables.len()
        ));
    }
    // Table k seats the bot of first-table seat s in seat s + k.
    let scores = (0..4)
        .map(|b| {
            tables
                .iter()
                .enumerate()
                .map(|(k, r)| r.final_scores.get((b + k) % 4).copied().unwrap_or(0) as f64)
                .sum()
        })
        .collect();
    Ok(GroupScore {
        scores,
        release_at: (0..4).map(|b| (0, b)).collect(),
    })
}
