//! arena's gRPC protocol, package `arena.v1` (the `.proto` files live in `proto/arena/v1/`):
//! generated code, the reflection service, the messages' canonical JSON ([`json`]) and
//! game-neutral [`text`] helpers. Conversions between
//! a game's messages and its rules engine live with the game, in crate `arena-games`.

#![allow(missing_docs)] // Generated code; every message and field is documented in the .proto files.

/// Generated messages and services of `arena.v1`.
pub mod v1 {
    tonic::include_proto!("arena.v1");
}

/// The encoded file descriptor set of every arena proto file, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/arena_descriptor.bin"));

/// The gRPC reflection service every arena role serves: arena's own services and health, so
/// `grpcurl` and friends can list and call them without the `.proto` files.
pub fn reflection_service() -> Result<
    tonic_reflection::server::v1::ServerReflectionServer<
        impl tonic_reflection::server::v1::ServerReflection,
    >,
    tonic_reflection::server::Error,
> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()
}

pub mod json {
    //! The protocol's canonical JSON mapping of any arena message (lowerCamelCase names, enums
    //! by name, 64-bit integers as strings, fields at their default left out): what `arena
    //! competition replay --json` prints and the SDKs' replay readers write, the same as
    //! protobuf's own `json_format` gives in Python.

    use std::sync::OnceLock;

    use prost_reflect::{DescriptorPool, DynamicMessage};

    fn pool() -> &'static DescriptorPool {
        static POOL: OnceLock<DescriptorPool> = OnceLock::new();
        POOL.get_or_init(|| {
            DescriptorPool::decode(crate::FILE_DESCRIPTOR_SET)
                .expect("the descriptor set is compiled from the same protos as the code")
        })
    }

    /// `message` (of the protocol type `full_name`, e.g. `arena.v1.Replay`) as JSON. `None` if
    /// `full_name` is not a message of the protocol or `message` is not of that type.
    pub fn to_json(message: &impl prost::Message, full_name: &str) -> Option<serde_json::Value> {
        let descriptor = pool().get_message_by_name(full_name)?;
        let dynamic =
            DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice()).ok()?;
        serde_json::to_value(&dynamic).ok()
    }

    /// A replay as JSON.
    pub fn replay(replay: &crate::v1::Replay) -> serde_json::Value {
        to_json(replay, "arena.v1.Replay")
            .expect("arena.v1.Replay is in the descriptor set the code is generated from")
    }

    #[cfg(test)]
    mod tests {
        use crate::v1;

        #[test]
        fn a_replay_is_the_canonical_mapping() {
            let r = v1::Replay {
                job: Some(v1::TableJob {
                    table_id: "t".into(),
                    game: v1::Game::DouDizhu as i32,
                    seed: 1 << 40,
                    ..Default::default()
                }),
                steps: vec![v1::ReplayStep {
                    seat: 1,
                    kind: v1::DecisionKind::Play as i32,
                    elapsed_ms: 12,
                    action: Some(v1::Action {
                        game: Some(v1::action::Game::Ddz(v1::DdzAction {
                            action: Some(v1::ddz_action::Action::Play("33".into())),
                        })),
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let j = super::replay(&r);
            assert_eq!(
                j["job"],
                serde_json::json!({"tableId": "t", "game": "GAME_DOU_DIZHU", "seed": "1099511627776"})
            );
            assert_eq!(
                j["steps"],
                serde_json::json!([{"seat": 1, "kind": "DECISION_KIND_PLAY", "action": {"ddz": {"play": "33"}}, "elapsedMs": 12}])
            );
            assert!(super::to_json(&r, "arena.v1.NoSuchThing").is_none());
        }
    }
}

pub mod text {
    //! Untrusted text in messages: what a bot wrote, quoted in a verdict or a notice, is cut to
    //! [`QUOTE_CHARS`] characters so no peer can grow a replay, a result or a log line with it.

    /// The most characters of a peer's text any message quotes.
    pub const QUOTE_CHARS: usize = 80;

    /// `text` cut to [`QUOTE_CHARS`] characters (with `…` when cut), without copying more.
    pub fn cut(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => text.to_string(),
            Some((end, _)) => format!("{}…", &text[..end]),
        }
    }

    /// `text` cut as [`cut`] does, in Rust debug quotes (control characters escaped).
    pub fn quote(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => format!("{text:?}"),
            Some((end, _)) => format!("{:?}…", &text[..end]),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn long_text_is_cut_short_text_kept() {
            assert_eq!(cut("play 33"), "play 33");
            let long = "é".repeat(1000);
            let c = cut(&long);
            assert_eq!(c.chars().count(), QUOTE_CHARS + 1);
            assert!(c.ends_with('…'));
            assert_eq!(quote("a\nb"), "\"a\\nb\"");
            assert!(quote(&long).len() < 200);
        }
    }
}
