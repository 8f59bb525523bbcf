//! What every host of a sandboxed child needs after the spawn, whether it waits with threads or
//! with async tasks: telling that the child exited without reaping it, killing its process group,
//! and keeping the end of its stderr for a crash report.
//!
//! The order matters: a process group id stays reserved only while its leader (the sandbox's
//! supervisor, the child the caller spawned) is not reaped. So a host checks with
//! [`exited_unreaped`], kills with [`kill_group`], and only then reaps (`wait`).

use std::sync::Mutex;

/// True once the child `pid` has exited (or is no child of ours), without reaping it, so that its
/// process group cannot be reused before [`kill_group`].
#[cfg(target_os = "linux")]
pub fn exited_unreaped(pid: u32) -> bool {
    use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
    let Ok(pid) = i32::try_from(pid) else {
        return true;
    };
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    match waitid(Id::Pid(nix::unistd::Pid::from_raw(pid)), flags) {
        Ok(WaitStatus::StillAlive) => false,
        // Exited (left waitable by WNOWAIT), or ECHILD: already reaped.
        Ok(_) | Err(_) => true,
    }
}

/// True once the child `pid` has exited. Elsewhere than on Linux there is no `WNOWAIT`, so this
/// cannot tell without reaping and always says no; callers then kill the group and reap.
#[cfg(not(target_os = "linux"))]
pub fn exited_unreaped(_pid: u32) -> bool {
    false
}

/// Sends `SIGKILL` to the process group led by `pid` (the spawned child, which [`crate::Sandbox`]
/// makes a group leader). Call it only while `pid` is not reaped: then the group id cannot have
/// been reused by an unrelated process.
pub fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid)
        && pid > 0
    {
        // SAFETY: kill(2) takes plain integers and has no memory effects.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// How much of a program's stderr is kept to quote in a verdict.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// The last [`STDERR_TAIL_BYTES`] of a stream (a child's stderr), fed by whoever drains it.
#[derive(Debug, Default)]
pub struct StderrTail {
    buf: Mutex<Vec<u8>>,
}

impl StderrTail {
    /// An empty tail.
    pub fn new() -> StderrTail {
        StderrTail::default()
    }

    /// Appends `bytes`, dropping the oldest beyond the bound.
    pub fn push(&self, bytes: &[u8]) {
        let mut t = self.buf.lock().unwrap_or_else(|e| e.into_inner());
        t.extend_from_slice(bytes);
        if t.len() > STDERR_TAIL_BYTES {
            let cut = t.len() - STDERR_TAIL_BYTES;
            t.drain(..cut);
        }
    }

    /// The last `max_chars` characters kept, lossily decoded and with trailing white space
    /// trimmed; `None` when nothing but white space was written.
    pub fn quote(&self, max_chars: usize) -> Option<String> {
        let t = self.buf.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&t);
        let text = text.trim_end();
        if text.is_empty() {
            return None;
        }
        let skip = text.chars().count().saturating_sub(max_chars);
        Some(text.chars().skip(skip).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_bytes_and_quotes_the_last_characters() {
        let t = StderrTail::new();
        assert_eq!(t.quote(10), None);
        t.push(b"   \n");
        assert_eq!(t.quote(10), None, "white space is nothing to quote");
        t.push(&vec![b'x'; STDERR_TAIL_BYTES]);
        t.push(b"Traceback: boom\n");
        assert_eq!(t.quote(15).as_deref(), Some("Traceback: boom"));
        assert_eq!(t.buf.lock().unwrap().len(), STDERR_TAIL_BYTES);
    }
}
