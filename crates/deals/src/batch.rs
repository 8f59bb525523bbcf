//! The GDI work the job stream carries, described: the panel an `arena.v1.PanelSpec` names and
//! what an `arena.v1.GdiBatch` asks to measure.
//!
//! It lives here, next to the measurement it describes, because the deal library (which cuts
//! batches and takes panel specs in its requests), the matchmaker (which measures a library for
//! a competition) and the referee (which measures batches) all read it; in the referee crate it
//! made two services depend on a third.

use arena_proto::v1;
use arena_store::DealSource;

use crate::panel::DdzPanel;
/// The panel a `PanelSpec` names (it lives with the panels).
pub use crate::panel::panel_of;

/// The most deals one GDI batch may hold. The deal library cuts batches of 200 by default; a
/// batch of billions would have the referee collect its indices and records in memory at once.
pub const MAX_BATCH: u32 = 10_000;

/// What a batch asks to measure: its panel and deal source, or why it cannot be measured.
pub fn read_batch(batch: &v1::GdiBatch) -> Result<(DdzPanel, DealSource), String> {
    let panel = match batch.panel.as_ref().map(panel_of) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Err(e),
        None => return Err("panel: missing".into()),
    };
    let bombs = match batch.bombs.map(u8::try_from) {
        None => None,
        Some(Ok(b)) => Some(b),
        Some(Err(_)) => return Err("bombs: more than a deck can hold".into()),
    };
    if batch.count > MAX_BATCH {
        return Err(format!(
            "count: {} deals are more than a batch may hold ({MAX_BATCH})",
            batch.count
        ));
    }
    Ok((
        panel,
        DealSource {
            seed: batch.seed,
            bombs,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_too_large_to_hold_is_refused() {
        // Seen writing the job_payload fuzz target: a batch of 4294967295 deals had the referee
        // collect 32 GiB of indices and reserve a record for each, aborting the process.
        let batch = |count| v1::GdiBatch {
            panel: Some(v1::PanelSpec {
                landlords: "ladder:3".into(),
                ..Default::default()
            }),
            seed: 7,
            bombs: Some(1),
            count,
            ..Default::default()
        };
        let e = read_batch(&batch(u32::MAX)).unwrap_err();
        assert_eq!(
            e,
            "count: 4294967295 deals are more than a batch may hold (10000)"
        );
        let (panel, source) = read_batch(&batch(MAX_BATCH)).unwrap();
        assert_eq!(panel.landlords.len(), 3);
        assert_eq!(
            source,
            DealSource {
                seed: 7,
                bombs: Some(1)
            }
        );
        let mut no_panel = batch(1);
        no_panel.panel = None;
        assert_eq!(read_batch(&no_panel).unwrap_err(), "panel: missing");
    }
}
