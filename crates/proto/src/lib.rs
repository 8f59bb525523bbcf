//! arena's gRPC protocol, package `arena.v1` (the `.proto` files live in `proto/arena/v1/`):
//! generated code, the reflection service and game-neutral [`text`] helpers. Conversions between
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
