//! [`Policy`] (what the operator asks for), [`Layers`] (what the kernel grants) and
//! [`Sandbox`] (both together, configuring commands).

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;

use crate::{Limits, SandboxError};

/// The `PATH` of sandboxed programs unless configured otherwise: system directories only (a
/// host's own `PATH` often points into a home directory the sandbox cannot read).
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Whether programs are isolated at all.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Isolation {
    /// Every layer the kernel grants (the default).
    #[default]
    On,
    /// No namespaces, no Landlock, no change of user: only the limits, the rebuilt environment
    /// and the kill of everything in the process group. For trusted programs or debugging.
    Off,
}

/// An isolation mode that is neither `on` nor `off`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sandbox mode {0:?} is neither \"on\" nor \"off\"")]
pub struct ParseIsolationError(pub String);

impl FromStr for Isolation {
    type Err = ParseIsolationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "on" => Ok(Isolation::On),
            "off" => Ok(Isolation::Off),
            _ => Err(ParseIsolationError(s.to_string())),
        }
    }
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Isolation::On => "on",
            Isolation::Off => "off",
        })
    }
}

/// What the operator asks of the sandbox. `Policy::default()`: isolation on, [`DEFAULT_PATH`],
/// no extra readable paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Policy {
    /// Whether programs are isolated.
    pub isolation: Isolation,
    /// Paths (and everything beneath them) programs may read and execute besides the system
    /// directories, their working directory, their program's directory and the directories of
    /// files on their command line: an interpreter installed elsewhere, a model directory.
    pub extra_read: Vec<PathBuf>,
    /// The `PATH` programs get, used also to find a program named without a `/`.
    pub path: String,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            isolation: Isolation::On,
            extra_read: Vec::new(),
            path: DEFAULT_PATH.to_string(),
        }
    }
}

/// The isolation layers a sandbox uses (or, from [`crate::probe`], the kernel grants).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Layers {
    /// A user namespace (needed by the other namespaces unless the caller is root).
    pub user_ns: bool,
    /// A PID namespace: the program sees only its own processes, and they all die with it.
    pub pid_ns: bool,
    /// A fresh `/proc` for that PID namespace; without one `/proc` is not readable at all.
    pub fresh_proc: bool,
    /// A network namespace: no network.
    pub net_ns: bool,
    /// IPC and UTS namespaces.
    pub ipc_uts_ns: bool,
    /// A private mount namespace.
    pub mount_ns: bool,
    /// The Landlock ABI version (0: no Landlock).
    pub landlock_abi: u8,
    /// Programs run as `nobody` rather than as the caller (the caller is root).
    pub drops_root: bool,
}

impl Layers {
    /// The layers of a full sandbox that are missing here, by name.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut m = Vec::new();
        let checks = [
            (self.user_ns, "user namespace"),
            (self.pid_ns, "PID namespace"),
            (self.fresh_proc, "fresh /proc"),
            (self.net_ns, "network namespace"),
            (self.ipc_uts_ns, "IPC/UTS namespaces"),
            (self.mount_ns, "mount namespace"),
            (self.landlock_abi > 0, "Landlock"),
        ];
        for (granted, name) in checks {
            if !granted {
                m.push(name);
            }
        }
        m
    }
}

impl fmt::Display for Layers {
    /// `user ns, pid ns + fresh /proc, net ns, ipc/uts ns, mount ns, Landlock ABI 7` (or `none`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.user_ns {
            parts.push("user ns".into());
        }
        if self.pid_ns {
            parts.push(if self.fresh_proc {
                "pid ns + fresh /proc".into()
            } else {
                "pid ns (no /proc)".into()
            });
        }
        if self.net_ns {
            parts.push("net ns".into());
        }
        if self.ipc_uts_ns {
            parts.push("ipc/uts ns".into());
        }
        if self.mount_ns {
            parts.push("mount ns".into());
        }
        if self.landlock_abi > 0 {
            parts.push(format!("Landlock ABI {}", self.landlock_abi));
        }
        if self.drops_root {
            parts.push("as nobody".into());
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// A [`Policy`] with the [`Layers`] the kernel grants it: configures commands to run sandboxed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    policy: Policy,
    layers: Layers,
}

impl Sandbox {
    /// The sandbox for `policy` on this kernel (probing it on first use, see [`crate::probe`]).
    pub fn new(policy: Policy) -> Sandbox {
        let layers = match policy.isolation {
            Isolation::Off => Layers::default(),
            Isolation::On => crate::probe(),
        };
        Sandbox { policy, layers }
    }

    /// A sandbox using exactly `layers` (those the kernel refuses make spawns fail): for tests
    /// of the degraded paths.
    pub fn with_layers(policy: Policy, layers: Layers) -> Sandbox {
        Sandbox { policy, layers }
    }

    /// The operator's policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The layers programs run under.
    pub fn layers(&self) -> Layers {
        self.layers
    }

    /// Loud warnings about what programs are not protected from, one per line: isolation
    /// turned off, or layers the kernel refused. Empty for a full sandbox.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if self.policy.isolation == Isolation::Off {
            w.push(
                "SANDBOX OFF (--sandbox off): bot programs run with resource limits only; they can \
                 read and write whatever this user can, see every process and reach the network"
                    .to_string(),
            );
            return w;
        }
        let missing = self.layers.missing();
        if !missing.is_empty() {
            w.push(format!(
                "SANDBOX DEGRADED: the kernel refused {}; bot programs run without {}",
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            ));
        }
        if !self.layers.pid_ns {
            w.push(
                "without a PID namespace, processes a program detaches with setsid can outlive it"
                    .into(),
            );
        }
        if !self.layers.net_ns && self.layers.landlock_abi < 4 {
            w.push("bot programs can reach the network".into());
        }
        if self.layers.landlock_abi == 0 {
            w.push(
                "without Landlock, bot programs can read and write whatever their user can".into(),
            );
        }
        w
    }

    /// Makes `cmd` spawn its program in this sandbox under `limits`, and gives it a fresh
    /// environment: `PATH` from the policy, `HOME` and `TMPDIR` at its working directory, and
    /// those of the caller's variables named in `pass_env` that are set. Its working directory
    /// is the one set on `cmd` (else the caller's); it must exist. Also makes the child lead a
    /// process group of its own ([`crate::kill_group`]).
    pub fn configure(
        &self,
        cmd: &mut Command,
        limits: &Limits,
        pass_env: &[String],
    ) -> Result<(), SandboxError> {
        let dir = match cmd.get_current_dir() {
            Some(d) => d.to_path_buf(),
            None => std::env::current_dir().map_err(|source| SandboxError::WorkDir {
                dir: ".".into(),
                source,
            })?,
        };
        let workdir = dir.canonicalize().map_err(|source| SandboxError::WorkDir {
            dir: dir.display().to_string(),
            source,
        })?;
        let passed: Vec<(String, std::ffi::OsString)> = pass_env
            .iter()
            .filter(|n| !matches!(n.as_str(), "PATH" | "HOME" | "TMPDIR"))
            .filter_map(|n| std::env::var_os(n).map(|v| (n.clone(), v)))
            .collect();
        cmd.env_clear()
            .envs(passed)
            .env("PATH", &self.policy.path)
            .env("HOME", &workdir)
            .env("TMPDIR", &workdir)
            .current_dir(&workdir);
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        #[cfg(target_os = "linux")]
        crate::linux::install(self, cmd, &workdir, limits)?;
        #[cfg(not(target_os = "linux"))]
        let _ = limits;
        Ok(())
    }

    /// A hint to add to a crash report whose stderr says `stderr`: a program of a root caller
    /// runs as `nobody`, and "Permission denied" then usually means its files (or a directory
    /// above them) are not readable by others.
    pub fn hint_for(&self, stderr: &str) -> Option<&'static str> {
        (self.policy.isolation == Isolation::On
            && self.layers.drops_root
            && stderr.contains("Permission denied"))
        .then_some(
            " (programs run as `nobody` here, since arena runs as root: the program's files and \
             every directory above them must be readable by others)",
        )
    }

    /// Hands a working directory the caller made for a program (a fresh temporary directory) to
    /// the user the program runs as, so that it can write there. A no-op unless programs run as
    /// `nobody` ([`Layers::drops_root`]).
    pub fn prepare_workdir(&self, dir: &Path) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        if self.layers.drops_root {
            let (uid, gid) = crate::linux::NOBODY;
            std::os::unix::fs::chown(dir, Some(uid), Some(gid))?;
        }
        let _ = dir;
        Ok(())
    }
}

impl fmt::Display for Sandbox {
    /// One line for a start-up log: `sandbox on (user ns, …), PATH …, extra reads …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.policy.isolation {
            Isolation::Off => write!(f, "sandbox OFF")?,
            Isolation::On => {
                write!(f, "sandbox on ({})", self.layers)?;
                let missing = self.layers.missing();
                if !missing.is_empty() {
                    write!(f, " DEGRADED, missing {}", missing.join(", "))?;
                }
            }
        }
        write!(f, ", PATH {}", self.policy.path)?;
        if !self.policy.extra_read.is_empty() {
            let reads: Vec<String> = self
                .policy
                .extra_read
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            write!(f, ", extra reads {}", reads.join(":"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isolation_parses_on_and_off_and_names_bad_input() {
        assert_eq!("on".parse::<Isolation>(), Ok(Isolation::On));
        assert_eq!(" OFF ".parse::<Isolation>(), Ok(Isolation::Off));
        let e = "maybe".parse::<Isolation>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "sandbox mode \"maybe\" is neither \"on\" nor \"off\""
        );
    }

    #[test]
    fn refused_layers_and_isolation_off_are_warned_about_by_name() {
        let full = Layers {
            user_ns: true,
            pid_ns: true,
            fresh_proc: true,
            net_ns: true,
            ipc_uts_ns: true,
            mount_ns: true,
            landlock_abi: 7,
            drops_root: false,
        };
        assert!(full.missing().is_empty());
        let s = Sandbox::with_layers(Policy::default(), full);
        assert!(s.warnings().is_empty(), "{:?}", s.warnings());
        assert!(
            s.to_string()
                .starts_with("sandbox on (user ns, pid ns + fresh /proc")
        );

        // A container without user namespaces, not root: only Landlock is left.
        let container = Layers {
            landlock_abi: 3,
            ..Layers::default()
        };
        let s = Sandbox::with_layers(Policy::default(), container);
        let w = s.warnings().join("\n");
        for needle in [
            "SANDBOX DEGRADED",
            "user namespace, PID namespace, fresh /proc, network namespace",
            "setsid",
            "reach the network",
        ] {
            assert!(w.contains(needle), "{needle:?} not in {w}");
        }
        assert!(s.to_string().contains("DEGRADED, missing user namespace"));

        let off = Sandbox::new(Policy {
            isolation: Isolation::Off,
            ..Policy::default()
        });
        assert_eq!(off.layers(), Layers::default(), "off probes nothing");
        assert!(off.warnings()[0].starts_with("SANDBOX OFF"));
        assert!(off.to_string().starts_with("sandbox OFF"));
    }
}
