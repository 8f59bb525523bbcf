//! Reads replay exports: length-delimited `arena.v1.Replay` messages (each a varint byte count,
//! then the message), as `arena competition replays NAME --out FILE` writes them; and writes
//! each as JSON, the protocol's canonical mapping ([`arena_proto::json`]), the same the Python
//! SDK's reader and `arena competition replay --json` print.
//!
//! `cargo run -p arena-sdk --example replay-json FILE` prints an export as JSON lines.

use prost::Message;

use crate::v1;

/// A replay larger than this is taken for a corrupt length, not read into memory.
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;

/// An export that is not a sequence of length-delimited replays: which replay, where, and why.
#[derive(Debug, thiserror::Error)]
#[error("replay {index} at byte {offset}: {why}")]
pub struct ReplayError {
    /// The replay's position in the export, from 0.
    pub index: usize,
    /// The byte its length starts at.
    pub offset: usize,
    /// What is wrong.
    pub why: String,
}

/// Every replay in `data`, in order.
pub fn parse(data: &[u8]) -> Result<Vec<v1::Replay>, ReplayError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let offset = pos;
        let err = |why: String| ReplayError {
            index: out.len(),
            offset,
            why,
        };
        let mut rest = &data[pos..];
        let size = prost::encoding::decode_varint(&mut rest)
            .map_err(|_| err("the file ends inside its length, or it is not a varint".into()))?;
        pos = data.len() - rest.len();
        if size > MAX_REPLAY_BYTES {
            return Err(err(format!(
                "a length of {size} bytes is beyond {MAX_REPLAY_BYTES} (not a replay export?)"
            )));
        }
        let size = size as usize;
        if size > data.len() - pos {
            return Err(err(format!(
                "{size} bytes announced, {} left in the file",
                data.len() - pos
            )));
        }
        let replay = v1::Replay::decode(&data[pos..pos + size])
            .map_err(|e| err(format!("not an arena.v1.Replay ({e})")))?;
        out.push(replay);
        pos += size;
    }
    Ok(out)
}

/// Every replay of the export at `path`; errors name the file.
pub fn read(path: &std::path::Path) -> anyhow::Result<Vec<v1::Replay>> {
    let data = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    parse(&data).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A replay as JSON.
pub fn to_json(replay: &v1::Replay) -> serde_json::Value {
    arena_proto::json::replay(replay)
}

/// The table a replay is of.
pub fn table_id(replay: &v1::Replay) -> &str {
    match &replay.job {
        Some(j) if !j.table_id.is_empty() => &j.table_id,
        _ => replay.result.as_ref().map_or("", |r| r.table_id.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(table: &str, steps: usize) -> v1::Replay {
        v1::Replay {
            job: Some(v1::TableJob {
                table_id: table.into(),
                ..Default::default()
            }),
            steps: vec![
                v1::ReplayStep {
                    seat: 1,
                    elapsed_ms: 7,
                    ..Default::default()
                };
                steps
            ],
            ..Default::default()
        }
    }

    fn export(replays: &[v1::Replay]) -> Vec<u8> {
        replays
            .iter()
            .flat_map(|r| r.encode_length_delimited_to_vec())
            .collect()
    }

    #[test]
    fn every_replay_of_an_export_is_read_in_order() {
        // The second is over 127 bytes: a two-byte length.
        let replays = [sample("a", 1), sample("b", 40)];
        let got = parse(&export(&replays)).unwrap();
        assert_eq!(got, replays);
        assert_eq!(table_id(&got[1]), "b");
        assert!(parse(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_replays_game_payloads_print_as_their_own_json_with_their_type() {
        use crate::ddz::pb;
        let mut r = sample("t", 1);
        r.steps[0].action = Some(crate::handler::action(&pb::Action {
            action: Some(pb::action::Action::Play("33".into())),
        }));
        let json = to_json(&r);
        assert_eq!(
            json["steps"][0]["action"]["game"],
            serde_json::json!({"@type": "/arena.ddz.v1.Action", "play": "33"})
        );
    }

    #[test]
    fn a_bad_export_is_an_error_saying_which_replay_where_and_why() {
        let good = export(&[sample("a", 1)]);
        let n = good.len();
        for (tail, says) in [
            (vec![0x85], "ends inside its length"),
            (vec![10, 8, 1], "10 bytes announced, 2 left"),
            (vec![3, 0xff, 0xff, 0xff], "not an arena.v1.Replay"),
            (vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01], "beyond"),
        ] {
            let data = [good.clone(), tail].concat();
            let e = parse(&data).unwrap_err().to_string();
            assert!(e.starts_with(&format!("replay 1 at byte {n}: ")), "{e}");
            assert!(e.contains(says), "{e}");
        }
    }
}
