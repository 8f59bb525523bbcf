//! arena's gRPC protocol, package `arena.v1` (the `.proto` files live in `proto/arena/v1/`), and
//! conversions between its Dou Dizhu messages and the rules engine's types.

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

pub mod convert;
