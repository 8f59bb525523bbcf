//! For tests only: helpers the integration tests of several crates share.

pub mod fake_host;
pub mod redis_server;
mod standings;

pub use standings::final_standings;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// A name no other test of this machine uses, starting with `tag`: for key prefixes,
/// passwords and the like (the process, the time and a count tell runs and calls apart).
pub fn unique_name(tag: &str) -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{tag}-{}-{nanos:x}-{n}", std::process::id())
}

/// A loopback port that was free a moment ago. Another process may take it before the caller
/// binds it: whatever starts a server on it must be ready to try another.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A fresh temporary directory only its owner may enter (0700), as a data directory must be:
/// `arena standalone` and `arena bot-host` refuse one their bot programs could read, and
/// `tempfile` makes directories as the umask says (0755, usually).
pub fn private_tempdir() -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("a temporary directory");
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o700))
        .expect("a private temporary directory");
    d
}

/// A copy of the repository's `file` that a sandboxed bot program may read wherever the
/// repository lies.
///
/// Programs of a root caller run as `nobody`, and a clone under a private directory (a
/// `mktemp -d` of CI) is not readable by it. The copies go to one world-readable directory per
/// test process, removed when it exits normally; files of the same name overwrite each other.
pub fn readable_copy(file: &Path) -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let d = tempfile::Builder::new()
            .prefix("arena-test-programs-")
            .tempdir()
            .expect("a temporary directory");
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755))
            .expect("a world-readable temporary directory");
        d
    });
    let name = file
        .file_name()
        .unwrap_or_else(|| panic!("{} names no file", file.display()));
    let copy = dir.path().join(name);
    std::fs::copy(file, &copy).unwrap_or_else(|e| panic!("copy {}: {e}", file.display()));
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))
        .expect("a world-readable copy");
    copy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_and_its_directory_are_readable_by_others() {
        let src = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(src.path(), "print('join')\n").unwrap();
        let copy = readable_copy(src.path());
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "print('join')\n");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&copy) & 0o005, 0o005);
        assert_eq!(mode(copy.parent().unwrap()) & 0o005, 0o005);
    }
}
