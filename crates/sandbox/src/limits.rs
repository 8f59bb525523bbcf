//! [`Limits`]: the resources one sandboxed process may use, and [`describe_status`], which says
//! how a process ended in words that name the limit that ended it ([`out_of_memory`] where only
//! its stderr can tell).

use std::fmt;
use std::process::ExitStatus;

/// Resource limits of one sandboxed process. Every field is per process, and 0 means no limit.
///
/// The host-wide set ([`Limits::HOST_DEFAULT`]) is never unlimited; a bot's own limits can only
/// lower it ([`Limits::capped_by`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// CPU seconds (`RLIMIT_CPU`): at the limit the process gets `SIGXCPU`, a second later
    /// `SIGKILL`.
    pub cpu_seconds: u32,
    /// Address space in MiB (`RLIMIT_AS`): allocations beyond it fail.
    pub memory_mb: u32,
    /// Processes and threads of the sandbox's user at once (`RLIMIT_NPROC`); with a user
    /// namespace this counts the sandbox's own processes (the supervisor included), otherwise
    /// every process of the user it runs as.
    pub processes: u32,
    /// Open file descriptors (`RLIMIT_NOFILE`).
    pub open_files: u32,
    /// Largest file the process may write, in MiB (`RLIMIT_FSIZE`).
    pub file_size_mb: u32,
    /// Wall-clock seconds the process may live, enforced by the sandbox's supervisor process
    /// (so it holds even while the caller is blocked); at the limit everything is killed.
    pub wall_seconds: u32,
}

impl Limits {
    /// No limit at all (what a field of 0 means); only for trusted programs.
    pub const NONE: Limits = Limits {
        cpu_seconds: 0,
        memory_mb: 0,
        processes: 0,
        open_files: 0,
        file_size_mb: 0,
        wall_seconds: 0,
    };

    /// The host-wide default: generous for one table of a card game, bounded everywhere.
    pub const HOST_DEFAULT: Limits = Limits {
        cpu_seconds: 60,
        memory_mb: 1024,
        processes: 64,
        open_files: 256,
        file_size_mb: 64,
        wall_seconds: 900,
    };

    /// These limits lowered by `bot`'s: per field the smaller non-zero value (0 = none on
    /// either side), so a bot can tighten the host's limits but never loosen them.
    pub fn capped_by(&self, bot: &Limits) -> Limits {
        fn min(a: u32, b: u32) -> u32 {
            match (a, b) {
                (0, b) => b,
                (a, 0) => a,
                (a, b) => a.min(b),
            }
        }
        Limits {
            cpu_seconds: min(self.cpu_seconds, bot.cpu_seconds),
            memory_mb: min(self.memory_mb, bot.memory_mb),
            processes: min(self.processes, bot.processes),
            open_files: min(self.open_files, bot.open_files),
            file_size_mb: min(self.file_size_mb, bot.file_size_mb),
            wall_seconds: min(self.wall_seconds, bot.wall_seconds),
        }
    }
}

impl Default for Limits {
    /// [`Limits::HOST_DEFAULT`].
    fn default() -> Self {
        Limits::HOST_DEFAULT
    }
}

impl fmt::Display for Limits {
    /// One line: `CPU time 60 s, memory 1024 MiB, processes 64, open files 256, file size 64
    /// MiB, wall time 900 s` (a field of 0 reads `unlimited`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            ("CPU time", self.cpu_seconds, " s"),
            ("memory", self.memory_mb, " MiB"),
            ("processes", self.processes, ""),
            ("open files", self.open_files, ""),
            ("file size", self.file_size_mb, " MiB"),
            ("wall time", self.wall_seconds, " s"),
        ];
        for (i, (name, value, unit)) in parts.into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if value == 0 {
                write!(f, "{name} unlimited")?;
            } else {
                write!(f, "{name} {value}{unit}")?;
            }
        }
        Ok(())
    }
}

/// Describes how a sandboxed process ended, for a verdict: `exit code 3`, `killed by signal 11
/// (SIGSEGV)`, and when a limit in `limits` explains the death, which one: the sandbox reports
/// a CPU-time kill as `SIGXCPU` and a wall-time kill as `SIGALRM` (see the crate docs).
pub fn describe_status(status: ExitStatus, limits: &Limits) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return describe_signal(sig, limits);
        }
    }
    status.to_string()
}

#[cfg(unix)]
fn describe_signal(sig: i32, limits: &Limits) -> String {
    let name = match sig {
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGXCPU => " (SIGXCPU)",
        libc::SIGXFSZ => " (SIGXFSZ)",
        libc::SIGALRM => " (SIGALRM)",
        _ => "",
    };
    let mut s = format!("killed by signal {sig}{name}");
    let why = match sig {
        libc::SIGXCPU if limits.cpu_seconds > 0 => format!(
            ": it used up its CPU-time limit of {} s",
            limits.cpu_seconds
        ),
        libc::SIGALRM if limits.wall_seconds > 0 => format!(
            ": it outlived its wall-time limit of {} s, so it and every process it started were killed",
            limits.wall_seconds
        ),
        libc::SIGXFSZ if limits.file_size_mb > 0 => format!(
            ": it wrote past its file-size limit of {} MiB",
            limits.file_size_mb
        ),
        libc::SIGSEGV | libc::SIGABRT | libc::SIGBUS if limits.memory_mb > 0 => format!(
            " (it may have run out of its memory limit of {} MiB)",
            limits.memory_mb
        ),
        _ => String::new(),
    };
    s.push_str(&why);
    s
}

/// What a program's stderr tells of its memory limit: `Some(words)` when it shows an allocation
/// that failed (Python's `MemoryError`, C++'s `std::bad_alloc`, C's `Cannot allocate memory`,
/// an `out of memory` message) while `limits` bounds its memory.
///
/// The sandbox bounds memory with the address-space limit (`RLIMIT_AS`), under which the kernel
/// kills nothing: the allocation past the limit fails, and the program dies the way its language
/// dies of that (Python exits with status 1 after a `MemoryError` traceback, C++ aborts on an
/// uncaught `std::bad_alloc`). Its exit status alone cannot tell that apart from any other
/// failure; its last words can.
pub fn out_of_memory(stderr: &str, limits: &Limits) -> Option<String> {
    const SIGNS: [&str; 5] = [
        "MemoryError",
        "std::bad_alloc",
        "Cannot allocate memory",
        "out of memory",
        "Out of memory",
    ];
    (limits.memory_mb > 0 && SIGNS.iter().any(|s| stderr.contains(s))).then(|| {
        format!(
            "out of memory: an allocation failed at its memory limit of {} MiB",
            limits.memory_mb
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_can_lower_the_host_limits_but_not_raise_them() {
        let host = Limits::HOST_DEFAULT;
        let bot = Limits {
            cpu_seconds: 5,
            memory_mb: 4096,
            processes: 0,
            open_files: 16,
            file_size_mb: 0,
            wall_seconds: 1000,
        };
        assert_eq!(
            host.capped_by(&bot),
            Limits {
                cpu_seconds: 5,
                memory_mb: 1024,
                processes: 64,
                open_files: 16,
                file_size_mb: 64,
                wall_seconds: 900,
            }
        );
        assert_eq!(
            host.capped_by(&Limits::NONE),
            host,
            "no bot limits, the host's"
        );
        let open_host = Limits {
            memory_mb: 0,
            ..host
        };
        assert_eq!(
            open_host.capped_by(&bot).memory_mb,
            4096,
            "none on one side"
        );
        assert_eq!(Limits::NONE.capped_by(&Limits::NONE), Limits::NONE);
    }

    #[test]
    fn the_host_default_limits_everything() {
        let d = Limits::default();
        for v in [
            d.cpu_seconds,
            d.memory_mb,
            d.processes,
            d.open_files,
            d.file_size_mb,
            d.wall_seconds,
        ] {
            assert!(v > 0, "{d}");
        }
        assert_eq!(
            d.to_string(),
            "CPU time 60 s, memory 1024 MiB, processes 64, open files 256, file size 64 MiB, wall time 900 s"
        );
        assert!(
            Limits::NONE
                .to_string()
                .starts_with("CPU time unlimited, memory unlimited")
        );
    }

    #[cfg(unix)]
    #[test]
    fn exit_statuses_name_the_signal_and_the_limit_behind_it() {
        use std::os::unix::process::ExitStatusExt;
        let limits = Limits {
            cpu_seconds: 2,
            wall_seconds: 30,
            file_size_mb: 1,
            memory_mb: 64,
            ..Limits::NONE
        };
        let d = |raw| describe_status(ExitStatus::from_raw(raw), &limits);
        assert_eq!(d(3 << 8), "exit code 3");
        assert!(
            d(libc::SIGXCPU).ends_with("CPU-time limit of 2 s"),
            "{}",
            d(libc::SIGXCPU)
        );
        assert!(d(libc::SIGALRM).contains("wall-time limit of 30 s"));
        assert!(d(libc::SIGXFSZ).contains("file-size limit of 1 MiB"));
        assert!(d(libc::SIGSEGV).contains("memory limit of 64 MiB"));
        assert_eq!(
            describe_status(ExitStatus::from_raw(libc::SIGSEGV), &Limits::NONE),
            "killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(
            describe_status(ExitStatus::from_raw(libc::SIGXCPU), &Limits::NONE),
            "killed by signal 24 (SIGXCPU)",
            "no limit, no blame"
        );
        assert_eq!(d(libc::SIGKILL), "killed by signal 9 (SIGKILL)");
    }

    #[test]
    fn a_failed_allocation_on_stderr_is_named_as_the_memory_limit_only_under_one() {
        let limits = Limits {
            memory_mb: 256,
            ..Limits::NONE
        };
        let words = Some("out of memory: an allocation failed at its memory limit of 256 MiB");
        for stderr in [
            "Traceback (most recent call last):\n  File \"bot.py\", line 3\nMemoryError",
            "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
            "mmap: Cannot allocate memory",
            "fatal: out of memory",
        ] {
            assert_eq!(out_of_memory(stderr, &limits).as_deref(), words, "{stderr}");
        }
        assert_eq!(out_of_memory("ValueError: bad", &limits), None);
        assert_eq!(
            out_of_memory("MemoryError", &Limits::NONE),
            None,
            "no limit, no blame"
        );
    }
}
