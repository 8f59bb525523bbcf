//! Compiles every `.proto` file under `proto/arena` with protox (pure Rust, no system protoc)
//! and generates prost and tonic code: the platform's `arena.v1` and each game's own package
//! (`arena.<game>.v1`). A new game's proto file is picked up by being there; no list here names
//! a game.

use std::path::{Path, PathBuf};

use prost::Message;

fn protos(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            protos(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    // A directory: cargo reruns when any file under it changes or a file is added.
    println!("cargo:rerun-if-changed={}", root.join("arena").display());
    let mut paths = Vec::new();
    protos(&root.join("arena"), &mut paths)?;
    paths.sort();
    let fds = protox::compile(&paths, [&root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let fds_path = out.join("arena_descriptor.bin");
    std::fs::write(&fds_path, fds.encode_to_vec())?;
    let mut config = prost_build::Config::new();
    // Game messages travel in `google.protobuf.Any`: they know their name. No type-URL domain,
    // so the generated `Name::type_url` is `/<package>.<Message>`, the short URL
    // `payload::pack` writes (`payload::TYPE_URL_PREFIX`).
    config.enable_type_names().include_file("packages.rs");
    tonic_prost_build::configure()
        // Boxed, so a table job (a variant of QueuedJob) stays small.
        .boxed(".arena.v1.TableJob.placement")
        .boxed(".arena.v1.TableResult.placement")
        // Shared, not copied, when bot-host keeps a seat's events and cuts requests from them.
        .bytes(".arena.v1.Observation.events")
        .build_client(true)
        .build_server(true)
        .compile_fds_with_config(fds, config)?;
    Ok(())
}
