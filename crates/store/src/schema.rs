//! The stored (JSON) forms of panels and deal records, and their schema versions.
//!
//! - Version 1 (no `v` field): Dou Dizhu only. A panel is `{id, landlords, down, up, scoring}`,
//!   a deal record `{id, deal, source, panel, levels, counts, gdi}` with `deal` in `ddz::Deal`'s
//!   text form.
//! - Version 2 (`"v": 2`): game-tagged. A panel is `{v, id, game, seats, scoring}`, a record
//!   `{v, id, game, deal, source, panel, levels, counts, gdi}`.
//!
//! Both versions read back as the current types, so a store that has not been migrated yet
//! still works; everything written is the current version. Each backend migrates its existing
//! data once (`docs/redis-keys.md`, "Schema versions"), rewriting version 1 values with
//! [`upgrade`].

use crate::{DealRecord, DealSource, Game, Panel, StoreError, StoreResult};

/// The schema version of the panels and deal records this build writes.
pub const SCHEMA_VERSION: u32 = 2;

/// Why a stored value is not a current one.
fn version_error(v: u32) -> String {
    format!(
        "schema version {v} is newer than this build's ({SCHEMA_VERSION}): written by a newer arena"
    )
}

/// A panel as written: the current version.
#[derive(serde::Serialize)]
pub(crate) struct PanelCurrent {
    v: u32,
    id: String,
    game: Game,
    seats: Vec<Vec<String>>,
    scoring: String,
}

impl From<Panel> for PanelCurrent {
    fn from(p: Panel) -> Self {
        PanelCurrent {
            v: SCHEMA_VERSION,
            id: p.id,
            game: p.game,
            seats: p.seats,
            scoring: p.scoring,
        }
    }
}

/// A panel as read: any version.
#[derive(serde::Deserialize)]
pub(crate) struct PanelStored {
    #[serde(default)]
    v: Option<u32>,
    id: String,
    #[serde(default)]
    game: Option<Game>,
    #[serde(default)]
    seats: Option<Vec<Vec<String>>>,
    // Version 1: a Dou Dizhu panel's seats by their roles.
    // game-seam: version 1 records, written when Dou Dizhu was the only game.
    #[serde(default)]
    landlords: Option<Vec<String>>,
    #[serde(default)]
    down: Option<String>,
    #[serde(default)]
    up: Option<String>,
    scoring: String,
}

impl TryFrom<PanelStored> for Panel {
    type Error = String;

    fn try_from(p: PanelStored) -> Result<Panel, String> {
        match p.v {
            // game-seam: version 1 panels were Dou Dizhu's (landlords, down and up farmers).
            None | Some(1) => match (p.landlords, p.down, p.up) {
                (Some(landlords), Some(down), Some(up)) => Ok(Panel {
                    id: p.id,
                    game: Game::LEGACY,
                    // game-seam: the landlords' seat first, as version 2 stores every panel.
                    seats: vec![landlords, vec![down], vec![up]],
                    scoring: p.scoring,
                }),
                // game-seam: the version 1 fields.
                _ => Err("a version 1 panel needs landlords, down and up".into()),
            },
            Some(SCHEMA_VERSION) => Ok(Panel {
                id: p.id,
                game: p.game.ok_or("missing field `game`")?,
                seats: p.seats.ok_or("missing field `seats`")?,
                scoring: p.scoring,
            }),
            Some(v) => Err(version_error(v)),
        }
    }
}

/// A deal record as written: the current version.
#[derive(serde::Serialize)]
pub(crate) struct DealRecordCurrent {
    v: u32,
    id: String,
    game: Game,
    deal: String,
    source: Option<(DealSource, u64)>,
    panel: String,
    levels: Vec<i64>,
    counts: Vec<u32>,
    gdi: Vec<f64>,
}

impl From<DealRecord> for DealRecordCurrent {
    fn from(r: DealRecord) -> Self {
        DealRecordCurrent {
            v: SCHEMA_VERSION,
            id: r.id,
            game: r.game,
            deal: r.deal,
            source: r.source,
            panel: r.panel,
            levels: r.levels,
            counts: r.counts,
            gdi: r.gdi,
        }
    }
}

/// A deal record as read: any version.
#[derive(serde::Deserialize)]
pub(crate) struct DealRecordStored {
    #[serde(default)]
    v: Option<u32>,
    id: String,
    #[serde(default)]
    game: Option<Game>,
    deal: String,
    source: Option<(DealSource, u64)>,
    panel: String,
    levels: Vec<i64>,
    counts: Vec<u32>,
    gdi: Vec<f64>,
}

impl TryFrom<DealRecordStored> for DealRecord {
    type Error = String;

    fn try_from(r: DealRecordStored) -> Result<DealRecord, String> {
        let game = match r.v {
            // Version 1 held Dou Dizhu deals only.
            None | Some(1) => Game::LEGACY,
            Some(SCHEMA_VERSION) => r.game.ok_or("missing field `game`")?,
            Some(v) => return Err(version_error(v)),
        };
        Ok(DealRecord {
            id: r.id,
            game,
            deal: r.deal,
            source: r.source,
            panel: r.panel,
            levels: r.levels,
            counts: r.counts,
            gdi: r.gdi,
        })
    }
}

/// Just the version of a stored value.
#[derive(serde::Deserialize)]
struct Version {
    #[serde(default)]
    v: Option<u32>,
}

/// A stored panel or deal record (`T`) in the current version: `None` if `bytes` already is
/// one, else the rewritten value. A value that is neither is [`StoreError::Corrupt`] naming
/// `key`.
pub(crate) fn upgrade<T>(key: impl Fn() -> String, bytes: &[u8]) -> StoreResult<Option<Vec<u8>>>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let version: Version = crate::decode(&key, bytes)?;
    if version.v == Some(SCHEMA_VERSION) {
        return Ok(None);
    }
    let value: T = crate::decode(&key, bytes)?;
    crate::encode(&value)
        .map(Some)
        .map_err(|e| StoreError::Corrupt {
            key: key(),
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panel and a record exactly as version 1 wrote them.
    const V1_PANEL: &str = r#"{"id":"p-1","landlords":["ladder:1/2","ladder:2/2"],"down":"expert","up":"seed","scoring":"difficulty"}"#;
    const V1_RECORD: &str = r#"{"id":"g7-bx-3","deal":"D","source":[{"seed":7,"bombs":null},3],"panel":"p-1","levels":[-2,2],"counts":[1,1],"gdi":[0.5]}"#;

    #[test]
    fn version_1_values_read_back_game_tagged_and_upgrade_once() {
        let panel: Panel = serde_json::from_str(V1_PANEL).expect("v1 panel");
        assert_eq!(panel.game, Game::named("ddz"));
        assert_eq!(
            panel.seats,
            [
                vec!["ladder:1/2", "ladder:2/2"],
                vec!["expert"],
                vec!["seed"]
            ]
        );
        assert_eq!((panel.tables(), panel.bot(2, 1)), (2, Some("seed")));
        let up = upgrade::<Panel>(|| "k".into(), V1_PANEL.as_bytes())
            .expect("upgrade")
            .expect("rewritten");
        assert!(
            up.starts_with(br#"{"v":2,"#),
            "{}",
            String::from_utf8_lossy(&up)
        );
        assert_eq!(serde_json::from_slice::<Panel>(&up).expect("v2"), panel);
        assert_eq!(upgrade::<Panel>(|| "k".into(), &up).expect("current"), None);

        let record: DealRecord = serde_json::from_str(V1_RECORD).expect("v1 record");
        assert_eq!(
            (record.game, record.deal.as_str()),
            (Game::named("ddz"), "D")
        );
        let up = upgrade::<DealRecord>(|| "k".into(), V1_RECORD.as_bytes())
            .expect("upgrade")
            .expect("rewritten");
        assert_eq!(
            serde_json::from_slice::<DealRecord>(&up).expect("v2"),
            record
        );
        assert_eq!(
            upgrade::<DealRecord>(|| "k".into(), &up).expect("current"),
            None
        );
    }

    #[test]
    fn a_newer_version_is_corrupt_not_misread() {
        let newer = r#"{"v":3,"id":"p","game":"ddz","seats":[],"scoring":"x"}"#;
        match upgrade::<Panel>(|| "panels/p".into(), newer.as_bytes()) {
            Err(StoreError::Corrupt { key, reason }) => {
                assert_eq!(key, "panels/p");
                assert!(reason.contains("newer"), "{reason}");
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
    }
}
