//! Runs untrusted programs (game bots) as child processes that can use only bounded resources,
//! see and reach only what they need, and never outlive their caller's interest in them.
//!
//! [`Sandbox::configure`] takes a [`std::process::Command`] (tokio's `Command::as_std_mut()`
//! gives one) and arranges that the spawned child is:
//!
//! - **limited** ([`Limits`]): `setrlimit` CPU seconds (soft, then hard + 1 s: `SIGXCPU`, then
//!   `SIGKILL`), address space, processes, open files, file size, no core dumps; and a wall-time
//!   limit enforced by the sandbox's own supervisor process, so it holds even while the caller
//!   is blocked;
//! - **isolated** on Linux, layer by layer as the kernel grants them ([`probe`], [`Layers`]): a
//!   user namespace (its root mapped to the caller, or to `nobody` when the caller is root), a
//!   PID namespace with a fresh `/proc` (it sees no process but its own), a network namespace
//!   (no network: only a loopback that is down), IPC and UTS namespaces, a private mount
//!   namespace, `PR_SET_NO_NEW_PRIVS`, no capabilities, and Landlock: writes only beneath its
//!   working directory (and `/dev/null`), reads only beneath system directories, its working
//!   directory, the program's directory, the directories of files named on its command line
//!   and operator-configured paths ([`Policy::extra_read`]). Its environment is rebuilt: a fixed
//!   `PATH` ([`Policy::path`]), `HOME` and `TMPDIR` at its working directory, and the variables
//!   the caller lists;
//! - **killed with everything it started**: see below.
//!
//! # Processes
//!
//! The child the caller spawns is the sandbox's *supervisor*: a fork of the caller that never
//! executes anything. It creates the namespaces, forks the *program* (the first process of the
//! new PID namespace, which mounts `/proc`, applies the limits and Landlock and then executes
//! the command), and waits. Its exit status mirrors the program's (exit code, or the same
//! signal), with two sandbox verdicts of its own: `SIGALRM` when it killed the program at the
//! wall-time limit, and `SIGXCPU` when the program was killed at its CPU-time limit (the first
//! process of a PID namespace ignores `SIGXCPU`, so the kernel's `SIGKILL` at the hard limit is
//! translated back). [`describe_status`] puts these in words.
//!
//! Everything dies:
//!
//! - when the caller kills the child: [`kill_group`] kills the supervisor's process group (the
//!   supervisor, the program and whatever of its descendants stayed in the group); the
//!   program dies with the supervisor (`PR_SET_PDEATHSIG`), and when the first process of a PID
//!   namespace dies the kernel kills every other process in it, `setsid` daemons included;
//! - when the program exits, leaving background children: the same PID-namespace rule;
//! - when the caller's process dies, even by `SIGKILL`: every supervisor holds the read end of a
//!   pipe whose write end only the caller's process holds; when it is gone the supervisor
//!   kills the program and exits.
//!
//! `PR_SET_PDEATHSIG` fires when the *thread* that forked a process exits, not its process. That
//! is why the supervisor does not rely on it: a caller spawning from a short-lived thread (a
//! tokio blocking-pool thread, a worker thread of a match runner) would see its program killed
//! when that thread ends. The supervisor is single-threaded, so the program's death signal is
//! tied to it alone.
//!
//! Without a PID namespace (a kernel or container that refuses user namespaces, or
//! `--sandbox off`), only the process-group kill remains: a program's `setsid` descendants can
//! survive it. [`Sandbox::warnings`] says so, loudly.
//!
//! # Hosting
//!
//! [`supervise`] holds the primitives a host needs after the spawn: [`exited_unreaped`] and
//! [`kill_group`] (kill the group before reaping the leader, so that its id cannot be reused),
//! and [`StderrTail`], the end of a program's stderr to quote. The one host of bot programs
//! built on them is the `arena-line` crate (`crates/line`), used by `cmd:` bots and bot-host.

mod access;
mod limits;
#[cfg(target_os = "linux")]
mod linux;
mod policy;
pub mod supervise;

pub use access::{ProgramAccessError, ProgramUser, SYSTEM_READ_DIRS};
pub use limits::{Limits, describe_status, out_of_memory};
pub use policy::{DEFAULT_PATH, Isolation, Layers, ParseIsolationError, Policy, Sandbox};
pub use supervise::{STDERR_TAIL_BYTES, StderrTail, exited_unreaped, kill_group};

/// What can go wrong preparing a sandboxed spawn (before anything is started).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The program's working directory is unusable.
    #[error("the working directory {dir} is unusable: {source}")]
    WorkDir {
        /// The directory.
        dir: String,
        /// Why.
        source: std::io::Error,
    },
    /// The Landlock rules could not be built.
    #[error("building the Landlock rules failed: {0}")]
    Landlock(String),
    /// The pipe that tells supervisors this process is alive could not be made.
    #[error("making the sandbox's lifeline pipe failed: {0}")]
    Lifeline(String),
}

/// Which isolation layers this kernel grants, found once per process by trying each in a
/// throwaway child (see [`Layers`]). Elsewhere than on Linux: none.
pub fn probe() -> Layers {
    #[cfg(target_os = "linux")]
    {
        linux::probe()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Layers::default()
    }
}
