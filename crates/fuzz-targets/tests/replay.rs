//! Replays every committed corpus file (`fuzz/corpus/TARGET/*`) through its target's body, so a
//! normal test run checks that nothing the fuzzers found, or the seeds they grew from, panics or
//! breaks an invariant again. No nightly, no cargo-fuzz: the targets are plain functions.

use std::path::{Path, PathBuf};

use arena_fuzz_targets::{TARGETS, Target};

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus")
}

/// Runs every file of `name`'s corpus through `target`, naming each input that fails.
fn replay(name: &str) {
    let target: Target = TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .unwrap_or_else(|| panic!("no target {name}"));
    let dir = corpus_root().join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no corpus", dir.display());
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if std::panic::catch_unwind(|| target(&data)).is_err() {
            failed.push(file.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} {name} inputs failed: {failed:?}",
        failed.len(),
        files.len()
    );
}

macro_rules! replay_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                replay(stringify!($name));
            }
        )*

        #[test]
        fn every_target_has_a_corpus_and_a_replay_test() {
            let tested = [$(stringify!($name)),*];
            let targets: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
            assert_eq!(targets, tested, "add the new target to replay_tests!");
            let mut dirs: Vec<String> = std::fs::read_dir(corpus_root())
                .expect("fuzz/corpus")
                .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
                .collect();
            dirs.sort();
            let mut sorted = targets.clone();
            sorted.sort();
            assert_eq!(dirs, sorted, "one corpus directory per target");
        }
    };
}

replay_tests!(
    ddz_cards,
    ddz_deal,
    ddz_legal_batch,
    line_bot,
    line_server,
    line_splitter,
    bot_reply,
    bot_request,
    store_records,
    job_payload,
    deal_import,
    bot_spec,
);
