//! A table's replay steps as the table records them: each decision's facts, with its action
//! kept as the bytes of its [`v1::Action`] message, written once when the action is taken.
//!
//! A replay is written for every table and read back rarely (viewers, reviews), and a referee
//! plays thousands of tables a second of a few dozen decisions each; so it builds no message
//! per step. [`Steps`]
//! encodes them straight into the replay's bytes ([`Steps::encode`]), byte for byte what `prost`
//! writes for the [`v1::ReplayStep`]s [`Steps::to_messages`] gives.

use arena_proto::v1;
use prost::Message;

use wire::{LEN, bytes_field, bytes_field_len, key, varint, varint_field, varint_field_len};

/// One decision of a table, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The seat that decided.
    pub seat: u32,
    /// What it decided.
    pub kind: v1::DecisionKind,
    /// The milliseconds charged for it.
    pub elapsed_ms: u32,
    /// The time it took as measured, in microseconds: the latency metrics' source, finer than
    /// the whole milliseconds charged (an in-process bot answers well inside one). Not part of
    /// the replay.
    pub elapsed_us: u32,
    /// True when the referee chose the action, not the bot.
    pub automatic: bool,
    /// The penalty points it cost.
    pub penalty: i64,
    /// The limit it was judged by, in milliseconds (0: the seat was not asked).
    pub limit_ms: u32,
    /// The verdict it produced, as its position in the table's verdicts.
    pub verdict: Option<u32>,
    /// Where the action's encoded message lies in [`Steps`]' buffer (start, length); `None`
    /// when no action was applied (a forfeited round).
    pub(crate) action: Option<(u32, u32)>,
}

impl Step {
    /// A step of `seat` deciding `kind`, nothing else set yet.
    pub fn new(seat: u32, kind: v1::DecisionKind) -> Step {
        Step {
            seat,
            kind,
            elapsed_ms: 0,
            elapsed_us: 0,
            automatic: false,
            penalty: 0,
            limit_ms: 0,
            verdict: None,
            action: None,
        }
    }
}

/// A table's decisions in order, their actions encoded into one buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Steps {
    steps: Vec<Step>,
    actions: Vec<u8>,
}

impl Steps {
    /// No steps yet, with room for `steps` of them and `action_bytes` of their actions.
    pub fn with_capacity(steps: usize, action_bytes: usize) -> Steps {
        Steps {
            steps: Vec::with_capacity(steps),
            actions: Vec::with_capacity(action_bytes),
        }
    }

    /// How many decisions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True before the first decision.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The decisions, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Step> {
        self.steps.iter()
    }

    /// The encoded [`v1::Action`] message of `step`'s action (without a length prefix), if
    /// one was applied.
    pub fn action_bytes(&self, step: &Step) -> Option<&[u8]> {
        let (start, len) = step.action?;
        self.actions
            .get(start as usize..start as usize + len as usize)
    }

    /// Appends `step`; `encode_action`, when given, appends the body of the action's
    /// [`v1::Action`] message to the buffer it is handed.
    pub fn push(&mut self, mut step: Step, encode_action: Option<impl FnOnce(&mut Vec<u8>)>) {
        step.action = encode_action.map(|encode| {
            let start = self.actions.len();
            encode(&mut self.actions);
            (start as u32, (self.actions.len() - start) as u32)
        });
        self.steps.push(step);
    }

    /// Drops the actions of the steps from `first` on (a round that was not applied).
    pub fn clear_actions_from(&mut self, first: usize) {
        let Some(rest) = self.steps.get_mut(first..) else {
            return;
        };
        if let Some((start, _)) = rest.iter().find_map(|s| s.action) {
            self.actions.truncate(start as usize);
        }
        for s in rest {
            s.action = None;
        }
    }

    /// The length of `step`'s message body, with its verdict from `verdicts`.
    fn body_len(&self, step: &Step, verdicts: &[v1::Verdict]) -> usize {
        use prost::encoding::message;
        // Proto3: a field at its default value is not written.
        let mut n = 0;
        if step.seat != 0 {
            n += varint_field_len(1, u64::from(step.seat));
        }
        if step.kind as i32 != 0 {
            n += varint_field_len(2, step.kind as i32 as u64);
        }
        if let Some((_, len)) = step.action {
            n += bytes_field_len(3, len as usize);
        }
        if step.elapsed_ms != 0 {
            n += varint_field_len(4, u64::from(step.elapsed_ms));
        }
        if let Some(v) = verdict_of(step, verdicts) {
            n += message::encoded_len(5, v);
        }
        if step.automatic {
            n += varint_field_len(6, 1);
        }
        if step.penalty != 0 {
            n += varint_field_len(7, step.penalty as u64);
        }
        if step.limit_ms != 0 {
            n += varint_field_len(8, u64::from(step.limit_ms));
        }
        n
    }

    /// The encoded length of the steps as the repeated message field `tag`.
    pub fn encoded_len(&self, tag: u32, verdicts: &[v1::Verdict]) -> usize {
        self.steps
            .iter()
            .map(|s| bytes_field_len(tag, self.body_len(s, verdicts)))
            .sum()
    }

    /// Appends the steps as the repeated [`v1::ReplayStep`] field `tag`, each step's verdict
    /// taken from `verdicts` (the table's): the bytes `prost` writes for
    /// [`Steps::to_messages`]'s messages.
    pub fn encode(&self, tag: u32, verdicts: &[v1::Verdict], buf: &mut Vec<u8>) {
        for step in &self.steps {
            key(tag, LEN, buf);
            varint(self.body_len(step, verdicts) as u64, buf);
            if step.seat != 0 {
                varint_field(1, u64::from(step.seat), buf);
            }
            if step.kind as i32 != 0 {
                varint_field(2, step.kind as i32 as u64, buf);
            }
            if let Some(action) = self.action_bytes(step) {
                bytes_field(3, action, buf);
            }
            if step.elapsed_ms != 0 {
                varint_field(4, u64::from(step.elapsed_ms), buf);
            }
            if let Some(v) = verdict_of(step, verdicts) {
                prost::encoding::message::encode(5, v, buf);
            }
            if step.automatic {
                varint_field(6, 1, buf);
            }
            if step.penalty != 0 {
                varint_field(7, step.penalty as u64, buf);
            }
            if step.limit_ms != 0 {
                varint_field(8, u64::from(step.limit_ms), buf);
            }
        }
    }

    /// The steps as replay messages, each step's verdict taken from `verdicts`.
    pub fn to_messages(&self, verdicts: &[v1::Verdict]) -> Vec<v1::ReplayStep> {
        self.steps
            .iter()
            .map(|s| v1::ReplayStep {
                seat: s.seat,
                kind: s.kind as i32,
                // The bytes are the game's own encoding of an action it took: they decode.
                action: self
                    .action_bytes(s)
                    .map(|b| v1::Action::decode(b).unwrap_or_default()),
                elapsed_ms: s.elapsed_ms,
                verdict: verdict_of(s, verdicts).cloned(),
                automatic: s.automatic,
                penalty: s.penalty,
                limit_ms: s.limit_ms,
            })
            .collect()
    }
}

pub mod wire {
    //! Protobuf's wire format, written straight into a `Vec<u8>` for the replay's hot path:
    //! the bytes `prost` writes for the same fields, with the one-byte varints (every tag,
    //! length and small number of a replay) taking a single push.

    pub use prost::encoding::encoded_len_varint as varint_len;

    /// The wire type of length-delimited fields (strings, bytes, messages).
    pub const LEN: u32 = 2;
    /// The wire type of varint fields (integers, booleans, enums).
    pub const VARINT: u32 = 0;

    /// Appends `v` as a varint.
    #[inline]
    pub fn varint(v: u64, buf: &mut Vec<u8>) {
        if v < 0x80 {
            buf.push(v as u8);
        } else {
            prost::encoding::encode_varint(v, buf);
        }
    }

    /// Appends the key of field `tag` of wire type `wire_type`.
    #[inline]
    pub fn key(tag: u32, wire_type: u32, buf: &mut Vec<u8>) {
        varint(u64::from(tag << 3 | wire_type), buf);
    }

    /// The length of field `tag`'s key.
    #[inline]
    pub fn key_len(tag: u32) -> usize {
        varint_len(u64::from(tag << 3))
    }

    /// Appends varint field `tag` holding `v` (an `int32` or `int64` as its two's complement
    /// `u64`, a `bool` as 0 or 1, as protobuf does).
    #[inline]
    pub fn varint_field(tag: u32, v: u64, buf: &mut Vec<u8>) {
        key(tag, VARINT, buf);
        varint(v, buf);
    }

    /// The encoded length of varint field `tag` holding `v`.
    #[inline]
    pub fn varint_field_len(tag: u32, v: u64) -> usize {
        key_len(tag) + varint_len(v)
    }

    /// Appends length-delimited field `tag` holding `bytes` (a string, bytes, or an encoded
    /// message).
    #[inline]
    pub fn bytes_field(tag: u32, bytes: &[u8], buf: &mut Vec<u8>) {
        key(tag, LEN, buf);
        varint(bytes.len() as u64, buf);
        buf.extend_from_slice(bytes);
    }

    /// The encoded length of length-delimited field `tag` holding `len` bytes.
    #[inline]
    pub fn bytes_field_len(tag: u32, len: usize) -> usize {
        key_len(tag) + varint_len(len as u64) + len
    }
}

fn verdict_of<'a>(step: &Step, verdicts: &'a [v1::Verdict]) -> Option<&'a v1::Verdict> {
    step.verdict.and_then(|i| verdicts.get(i as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(bid: u32) -> v1::Action {
        // Any game's action: a table knows none.
        v1::Action {
            game: Some(arena_proto::payload::pack(&bid)),
        }
    }

    /// Every field set and unset in turn, verdicts by index, a multi-byte length: the bytes are
    /// prost's for the messages, and the messages are what was pushed.
    #[test]
    fn steps_encode_as_prost_encodes_their_messages() {
        let verdicts = vec![v1::Verdict {
            seat: 2,
            kind: v1::VerdictKind::Timeout as i32,
            reason: "no answer within the hard cap of 30000 ms".repeat(4),
            decision: 3,
            detail: "the whole report".into(),
        }];
        let mut steps = Steps::default();
        steps.push(
            Step::new(0, v1::DecisionKind::Unspecified),
            None::<fn(&mut Vec<u8>)>,
        );
        let a = action(3);
        steps.push(
            Step {
                elapsed_ms: 120,
                penalty: -7,
                limit_ms: 100,
                ..Step::new(1, v1::DecisionKind::Bid)
            },
            Some(|b: &mut Vec<u8>| a.encode_raw(b)),
        );
        steps.push(
            Step {
                automatic: true,
                verdict: Some(0),
                elapsed_ms: 30_000,
                penalty: 1 << 40,
                limit_ms: 20_000,
                ..Step::new(2, v1::DecisionKind::Play)
            },
            Some(|b: &mut Vec<u8>| action(0).encode_raw(b)),
        );
        let messages = steps.to_messages(&verdicts);
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[1].action, Some(a));
        assert_eq!(messages[2].verdict.as_ref(), Some(&verdicts[0]));
        let whole = v1::Replay {
            steps: messages,
            ..Default::default()
        };
        let mut buf = Vec::new();
        steps.encode(2, &verdicts, &mut buf);
        assert_eq!(buf, whole.encode_to_vec());
        assert_eq!(steps.encoded_len(2, &verdicts), buf.len());
    }

    #[test]
    fn clearing_a_rounds_actions_leaves_the_earlier_ones() {
        let mut steps = Steps::default();
        for bid in 0..4 {
            steps.push(
                Step::new(bid % 3, v1::DecisionKind::Bid),
                Some(|b: &mut Vec<u8>| action(bid).encode_raw(b)),
            );
        }
        steps.clear_actions_from(2);
        let m = steps.to_messages(&[]);
        assert_eq!(m[1].action, Some(action(1)));
        assert!(m[2].action.is_none() && m[3].action.is_none());
        // The bytes of the dropped actions are gone: a new step's action follows the kept ones.
        steps.push(
            Step::new(1, v1::DecisionKind::Bid),
            Some(|b: &mut Vec<u8>| action(2).encode_raw(b)),
        );
        assert_eq!(steps.to_messages(&[])[4].action, Some(action(2)));
        let kept = [0, 1, 2].map(|b| action(b).encoded_len());
        assert_eq!(steps.actions.len(), kept.iter().sum::<usize>());
    }
}
