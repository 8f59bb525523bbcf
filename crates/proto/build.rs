//! Compiles proto/arena/v1 with protox (pure Rust, no system protoc) and generates tonic code.

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let files = [
        "arena/v1/common.proto",
        "arena/v1/table.proto",
        "arena/v1/seat.proto",
        "arena/v1/bot.proto",
        "arena/v1/deals.proto",
        "arena/v1/matchmaker.proto",
        "arena/v1/registry.proto",
    ];
    let paths: Vec<PathBuf> = files.iter().map(|f| root.join(f)).collect();
    for p in &paths {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    let fds = protox::compile(&paths, [&root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let fds_path = out.join("arena_descriptor.bin");
    std::fs::write(&fds_path, fds.encode_to_vec())?;
    tonic_prost_build::configure()
        // Boxed, so a table job (a variant of QueuedJob) stays small.
        .boxed(".arena.v1.TableJob.placement")
        .boxed(".arena.v1.TableResult.placement")
        .build_client(true)
        .build_server(true)
        .compile_fds(fds)?;
    Ok(())
}
