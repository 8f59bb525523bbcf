//! Keeps the gRPC code of every failure decided in one place: no role's code outside
//! `arena_serve::error` builds a `tonic::Status` itself (`Status::new`, `Status::not_found`,
//! …) or converts its own errors into one (`impl From<…> for Status`). A role answers with an
//! `ApiError`, or with a typed error of its own that converts into one; a refused caller gets
//! `arena_auth::refusal`'s statuses.
//!
//! The scan reads the `src` of every crate and service, up to the first `#[cfg(test)]` of each
//! file (unit tests build statuses to feed the code under test), skipping comment lines. A file
//! that must build statuses itself goes in [`ALLOWED`] with the reason.

use std::path::{Path, PathBuf};

/// Files that build statuses themselves, relative to the workspace root, and why.
const ALLOWED: &[(&str, &str)] = &[
    (
        "crates/serve/src/error.rs",
        "the table of codes: ApiError::into_status",
    ),
    (
        "crates/auth/src/refusal.rs",
        "authentication refusals are arena_auth's",
    ),
    (
        "crates/auth/src/layer.rs",
        "the auth layer runs before any role's code, and arena_auth does not depend on \
         arena_serve: the store unreachable while checking an operator token",
    ),
];

/// The associated functions of `tonic::Status` that make one.
const CONSTRUCTORS: &[&str] = &[
    "new",
    "with_details",
    "with_metadata",
    "with_details_and_metadata",
    "from_error",
    "ok",
    "cancelled",
    "unknown",
    "invalid_argument",
    "deadline_exceeded",
    "not_found",
    "already_exists",
    "permission_denied",
    "resource_exhausted",
    "failed_precondition",
    "aborted",
    "out_of_range",
    "unimplemented",
    "internal",
    "unavailable",
    "data_loss",
    "unauthenticated",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `src` directory of the workspace's crates and services.
fn sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for group in ["crates", "services"] {
        let Ok(members) = std::fs::read_dir(workspace().join(group)) else {
            continue;
        };
        for member in members.flatten() {
            rust_files(&member.path().join("src"), &mut files);
        }
    }
    files.sort();
    files
}

/// What on `line` builds or converts into a status, if anything.
fn offence(line: &str) -> Option<String> {
    let mut at = 0;
    while let Some(i) = line[at..].find("Status::") {
        let start = at + i;
        let end = start + "Status::".len();
        at = end;
        // `ExitStatus::…` and the like are other types.
        if line[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let name: String = line[end..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let called = line[end + name.len()..].starts_with('(');
        // `.map_err(Status::not_found)` passes the constructor without calling it.
        let passed = line[end + name.len()..].starts_with([')', ',']);
        if CONSTRUCTORS.contains(&name.as_str()) && (called || passed) {
            return Some(format!("Status::{name}"));
        }
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with("impl")
        && (trimmed.contains(" for Status ") || trimmed.contains(" for tonic::Status "))
    {
        return Some("a conversion into Status".into());
    }
    None
}

fn offences_in(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .filter_map(|(n, l)| offence(l).map(|what| (n + 1, format!("{what}: {}", l.trim()))))
        .collect()
}

#[test]
fn no_role_builds_a_status_outside_the_error_table() {
    let root = workspace().canonicalize().unwrap();
    let files = sources();
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("services/bot-host/src/gateway.rs")),
        "the scan must reach the services"
    );
    let mut found = Vec::new();
    for file in files {
        let file = file.canonicalize().unwrap();
        let relative = file.strip_prefix(&root).unwrap().to_string_lossy();
        if ALLOWED.iter().any(|(path, _)| *path == relative) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, what) in offences_in(&text) {
            found.push(format!("{relative}:{line}: {what}"));
        }
    }
    assert!(
        found.is_empty(),
        "statuses built outside arena_serve::error (answer with an ApiError, or an \
         arena_auth::refusal for a refused caller; see crates/serve/tests/one_vocabulary.rs):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_allowed_file_exists() {
    for (path, _) in ALLOWED {
        assert!(workspace().join(path).is_file(), "{path} is gone: drop it");
    }
}

#[test]
fn the_scan_finds_what_it_forbids_and_passes_the_rest() {
    let code = r#"
use tonic::Status;
fn a() -> Status { Status::not_found("x") }
fn b() -> Status { tonic::Status::new(tonic::Code::Internal, "y") }
fn c(r: Result<(), String>) -> Result<(), Status> { r.map_err(Status::invalid_argument) }
impl From<MyError> for Status {
fn d() -> std::process::ExitStatus { std::process::ExitStatus::from_raw(0) }
fn e(s: &Status) -> bool { s.code() == tonic::Code::NotFound }
fn f(e: ApiError) -> Status { Status::from(e) }
// Status::internal("a comment")
#[cfg(test)]
fn g() -> Status { Status::aborted("tests may") }
"#;
    let lines: Vec<usize> = offences_in(code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(lines, [3, 4, 5, 6], "{:#?}", offences_in(code));
}
