//! What the sandbox lets programs reach, checked before anything is started: that the user
//! programs run as can execute a program, read its script, reach its interpreter and read the
//! files on its command line ([`Sandbox::check_program`]); and the other way round, whether a
//! secret is within their reach ([`Sandbox::exposes`]).
//!
//! A program runs as `nobody` when the caller is root, else as the caller; and, with Landlock,
//! reads only beneath [`SYSTEM_READ_DIRS`], its own directory, the directories of files on its
//! command line and [`Policy::extra_read`](crate::Policy::extra_read). Both are checked here
//! the way the kernel will: `nobody`'s rights from the mode bits of every directory on the path
//! and of the file (ACLs are not read), the caller's own with `access(2)`.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::{Isolation, Sandbox};

/// The user and group programs run as when the caller is root: with the caller's root they
/// could read every root-owned file Landlock lets them reach, and the kernel does not count
/// root's processes against `RLIMIT_NPROC`.
pub(crate) const NOBODY: (u32, u32) = (65534, 65534);

/// Directories every program may read and execute beneath (those that exist), under Landlock.
pub const SYSTEM_READ_DIRS: [&str; 9] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/opt", "/dev",
];

/// The user bot programs run as, for messages: `nobody` or `the caller (uid N)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProgramUser {
    /// `nobody`, because the caller is root.
    Nobody,
    /// The caller itself, with this uid.
    Caller(u32),
}

impl fmt::Display for ProgramUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramUser::Nobody => f.write_str("nobody"),
            ProgramUser::Caller(uid) => write!(f, "uid {uid} (arena's own user)"),
        }
    }
}

/// A program the sandbox would not let start, found before it is started: which file, what
/// the program's user cannot do to it and why, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bot program {program}: {problem}; {fix}")]
pub struct ProgramAccessError {
    /// The program as named.
    pub program: String,
    /// What is wrong, naming the path and the user.
    pub problem: String,
    /// What to do about it.
    pub fix: String,
}

/// Why a program's user may not do something to a file, and which kind of fix applies.
struct Denied {
    why: String,
    fix: Fix,
}

/// Which kind of fix a [`Denied`] calls for.
enum Fix {
    /// Name an existing file.
    Missing,
    /// Grant Landlock reads.
    Landlock,
    /// Change the file's mode.
    File,
    /// Move it out of a directory its user may not enter.
    Dir,
}

/// What a program's user must be able to do to a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Need {
    Read,
    Execute,
}

impl Need {
    fn verb(self) -> &'static str {
        match self {
            Need::Read => "read",
            Need::Execute => "execute",
        }
    }
}

impl Sandbox {
    /// The user programs run as.
    pub fn program_user(&self) -> ProgramUser {
        if self.policy().isolation == Isolation::On && self.layers().drops_root {
            ProgramUser::Nobody
        } else {
            ProgramUser::Caller(current_uid())
        }
    }

    /// Whether Landlock confines programs' reads (to [`Sandbox::landlock_reads`]).
    fn confines_reads(&self) -> bool {
        self.policy().isolation == Isolation::On && self.layers().landlock_abi > 0
    }

    /// The directories every program may read beneath: the system's and the operator's.
    fn landlock_reads(&self) -> Vec<PathBuf> {
        SYSTEM_READ_DIRS
            .iter()
            .map(PathBuf::from)
            .chain(self.policy().extra_read.iter().cloned())
            .filter_map(|p| p.canonicalize().ok())
            .collect()
    }

    /// Checks, before it is started, that the program `program` (a path, made absolute by the
    /// caller, or a name looked up on the sandbox's `PATH`) can run here with `args` (paths
    /// among them absolute too): that its user can execute it, read it and execute its
    /// interpreter if it is a script (`#!`), and read every file named on its command line,
    /// all within what Landlock lets it read. Returns the program's file.
    pub fn check_program(
        &self,
        program: &str,
        args: &[String],
    ) -> Result<PathBuf, ProgramAccessError> {
        let user = self.program_user();
        let refuse = |problem: String, fix: String| ProgramAccessError {
            program: program.to_string(),
            problem,
            fix,
        };
        let file = if program.contains('/') {
            let path = Path::new(program);
            if !path.is_absolute() {
                return Err(refuse(
                    format!(
                        "{program} is a relative path, and programs start in a directory of their own"
                    ),
                    "name it by its absolute path".into(),
                ));
            }
            path.to_path_buf()
        } else {
            self.find_on_path(program, user).ok_or_else(|| {
                refuse(
                    format!(
                        "no program {program:?} that {user} can execute on the sandbox's PATH {}",
                        self.policy().path
                    ),
                    "name the program by its absolute path".into(),
                )
            })?
        };
        let mut reads: Vec<PathBuf> = Vec::new();
        if let Some(dir) = file.parent().and_then(|d| d.canonicalize().ok()) {
            reads.push(dir);
        }
        let files: Vec<PathBuf> = args
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute() && p.is_file())
            .collect();
        for f in &files {
            if let Some(dir) = f.parent().and_then(|d| d.canonicalize().ok()) {
                reads.push(dir);
            }
        }
        let check = |path: &Path, need: Need, what: &str| -> Result<(), ProgramAccessError> {
            if let Err(Denied { why, fix }) = self.may(path, need, user, &reads) {
                return Err(refuse(
                    format!(
                        "{user}, the user bot programs run as here{}, cannot {} {what}{}: {why}",
                        if user == ProgramUser::Nobody {
                            " (arena runs as root)"
                        } else {
                            ""
                        },
                        need.verb(),
                        path.display(),
                    ),
                    self.fix(path, need, user, &fix),
                ));
            }
            Ok(())
        };
        check(&file, Need::Execute, "")?;
        if let Some((interpreter, next)) = shebang(&file) {
            check(&file, Need::Read, "the script ")?;
            let interpreter_file = if interpreter.ends_with("/env")
                && let Some(name) = next.filter(|n| !n.starts_with('-'))
            {
                check(Path::new(&interpreter), Need::Execute, "its interpreter ")?;
                self.find_on_path(&name, user).ok_or_else(|| {
                    refuse(
                        format!(
                            "its interpreter {name:?} (#!{interpreter} {name}) is not on the \
                             sandbox's PATH {} as a program {user} can execute",
                            self.policy().path
                        ),
                        "name the interpreter by an absolute path in the #! line, or install \
                         it in a system directory"
                            .into(),
                    )
                })?
            } else {
                PathBuf::from(&interpreter)
            };
            check(&interpreter_file, Need::Execute, "its interpreter ")?;
        }
        for f in &files {
            check(f, Need::Read, "the file ")?;
        }
        Ok(file)
    }

    /// Why programs in this sandbox could read `path`, if they could. As `nobody`: when its
    /// permissions let `nobody` read it (a directory: enter it), wherever it is, since Landlock
    /// lets a program read beneath its own directory too. As the caller: when Landlock lets
    /// every program read beneath a directory holding it (a system directory, a
    /// `--sandbox-read` path). `None` when the sandbox keeps them from it, or when isolation
    /// is off or Landlock and the change of user are both missing (programs then read whatever
    /// the caller can, which [`Sandbox::warnings`] says loudly; there is nothing specific to
    /// refuse).
    pub fn exposes(&self, path: &Path) -> Option<String> {
        if self.policy().isolation == Isolation::Off {
            return None;
        }
        let user = self.program_user();
        if user != ProgramUser::Nobody && !self.confines_reads() {
            return None;
        }
        let path = path.canonicalize().ok()?;
        if user == ProgramUser::Nobody {
            // Landlock also lets each program read beneath its own directory and those of the
            // files on its command line, wherever they are: only the permissions hold for all.
            permitted(&path, Need::Read, user).ok()?;
            return Some(format!(
                "bot programs run as {user}, and {user} may read {}",
                path.display()
            ));
        }
        self.may(&path, Need::Read, user, &[]).ok()?;
        Some(if self.confines_reads() {
            let under = self
                .landlock_reads()
                .into_iter()
                .find(|d| path.starts_with(d))
                .map_or_else(String::new, |d| d.display().to_string());
            format!(
                "bot programs run as {user}, may read {} and are let read beneath {under}",
                path.display()
            )
        } else {
            format!("bot programs run as {user} and may read {}", path.display())
        })
    }

    /// `Ok` if `user` may do `need` to `path` in this sandbox, where Landlock also lets it read
    /// beneath `reads`; else why not.
    fn may(
        &self,
        path: &Path,
        need: Need,
        user: ProgramUser,
        reads: &[PathBuf],
    ) -> Result<(), Denied> {
        let real = path.canonicalize().map_err(|e| Denied {
            why: format!("it cannot be found: {e}"),
            fix: Fix::Missing,
        })?;
        if need == Need::Execute && !real.is_file() {
            return Err(Denied {
                why: format!("{} is not a file", real.display()),
                fix: Fix::Missing,
            });
        }
        if self.confines_reads() {
            let allowed = self.landlock_reads();
            if !allowed.iter().chain(reads).any(|d| real.starts_with(d)) {
                return Err(Denied {
                    why: format!(
                        "{} is outside the directories the sandbox lets programs read (the \
                         system's, the program's own, those of files on its command line, and \
                         --sandbox-read paths)",
                        real.display()
                    ),
                    fix: Fix::Landlock,
                });
            }
        }
        permitted(&real, need, user)
    }

    /// What to do about `denied`, a file `user` cannot `need` at `path`.
    fn fix(&self, path: &Path, need: Need, user: ProgramUser, denied: &Fix) -> String {
        let dir = path
            .parent()
            .map_or_else(|| "/".to_string(), |d| d.display().to_string());
        let bits = match need {
            Need::Read => "r",
            Need::Execute => "rx",
        };
        match (denied, user) {
            (Fix::Missing, _) => "name an existing file by its absolute path".into(),
            (Fix::Landlock, _) => format!(
                "grant the sandbox reads beneath {dir} with --sandbox-read {dir} (of arena \
                 bot-host or arena standalone; processes.sandbox.extra_read in bot-host's \
                 config), or move it beneath a system directory such as /opt"
            ),
            (Fix::File, ProgramUser::Nobody) => {
                format!("`chmod a+{bits} {}`", path.display())
            }
            (Fix::File, ProgramUser::Caller(_)) => {
                format!("`chmod u+{bits} {}`", path.display())
            }
            (Fix::Dir, ProgramUser::Nobody) => "move the program and its files to a directory \
                 every user may enter and read (e.g. /opt/arena-bots, with `chmod -R a+rX`; \
                 nothing under /root is), or run arena as an ordinary user"
                .into(),
            (Fix::Dir, ProgramUser::Caller(_)) => {
                "move the program and its files to a directory its user may enter and read".into()
            }
        }
    }

    /// The first file named `name` on the sandbox's `PATH` that `user` can execute.
    fn find_on_path(&self, name: &str, user: ProgramUser) -> Option<PathBuf> {
        self.policy()
            .path
            .split(':')
            .filter(|d| !d.is_empty())
            .map(|d| Path::new(d).join(name))
            .find(|p| p.is_file() && permitted(p, Need::Execute, user).is_ok())
    }
}

/// The interpreter of the script `file` and the first word after it, if it starts with `#!`.
fn shebang(file: &Path) -> Option<(String, Option<String>)> {
    let mut head = [0u8; 256];
    let n = std::fs::File::open(file).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let interpreter = words.next()?.to_string();
    Some((interpreter, words.next().map(str::to_string)))
}

#[cfg(unix)]
fn current_uid() -> u32 {
    // SAFETY: geteuid(2) takes nothing and cannot fail.
    unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn current_uid() -> u32 {
    0
}

/// `Ok` if `user` may do `need` to the file `real` (a canonical path) by its permissions.
#[cfg(unix)]
fn permitted(real: &Path, need: Need, user: ProgramUser) -> Result<(), Denied> {
    use std::os::unix::fs::MetadataExt;
    match user {
        ProgramUser::Caller(_) => {
            use std::os::unix::ffi::OsStrExt;
            let c = std::ffi::CString::new(real.as_os_str().as_bytes()).map_err(|_| Denied {
                why: format!("{} holds a NUL byte", real.display()),
                fix: Fix::Missing,
            })?;
            let mode = match need {
                Need::Read => libc::R_OK,
                Need::Execute => libc::X_OK,
            };
            // SAFETY: access(2) reads the NUL-terminated path, which outlives the call.
            if unsafe { libc::access(c.as_ptr(), mode) } == 0 {
                Ok(())
            } else {
                Err(Denied {
                    why: std::io::Error::last_os_error().to_string(),
                    fix: Fix::File,
                })
            }
        }
        ProgramUser::Nobody => {
            // The bits that apply to nobody: the owner's, the group's or the others'.
            let bits = |m: &std::fs::Metadata| -> u32 {
                let mode = m.mode();
                if m.uid() == NOBODY.0 {
                    (mode >> 6) & 7
                } else if m.gid() == NOBODY.1 {
                    (mode >> 3) & 7
                } else {
                    mode & 7
                }
            };
            let mut dirs: Vec<&Path> = real.ancestors().skip(1).collect();
            dirs.reverse();
            for dir in dirs {
                let m = std::fs::metadata(dir).map_err(|e| Denied {
                    why: format!("{}: {e}", dir.display()),
                    fix: Fix::Missing,
                })?;
                if bits(&m) & 1 == 0 {
                    return Err(Denied {
                        why: format!(
                            "the directory {} (mode {:04o}, owner uid {}) does not let nobody in",
                            dir.display(),
                            m.mode() & 0o7777,
                            m.uid()
                        ),
                        fix: Fix::Dir,
                    });
                }
            }
            let m = std::fs::metadata(real).map_err(|e| Denied {
                why: format!("{}: {e}", real.display()),
                fix: Fix::Missing,
            })?;
            // Into a directory is what reading files beneath it takes.
            let want = match need {
                Need::Read if m.is_dir() => 1,
                Need::Read => 4,
                Need::Execute => 1,
            };
            if bits(&m) & want == 0 {
                return Err(Denied {
                    why: format!(
                        "its mode {:04o} (owner uid {}) does not let nobody {} it",
                        m.mode() & 0o7777,
                        m.uid(),
                        need.verb()
                    ),
                    fix: Fix::File,
                });
            }
            Ok(())
        }
    }
}

#[cfg(not(unix))]
fn permitted(_real: &Path, _need: Need, _user: ProgramUser) -> Result<(), Denied> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::{Layers, Policy};

    fn chmod(p: &Path, mode: u32) {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A directory every user may enter, in which tests lay out programs.
    fn open_dir() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        chmod(d.path(), 0o755);
        d
    }

    fn write(p: &Path, text: &str, mode: u32) {
        std::fs::write(p, text).unwrap();
        chmod(p, mode);
    }

    /// Programs as root's are run: as nobody, without Landlock (its rules are tested apart).
    fn as_nobody() -> Sandbox {
        Sandbox::with_layers(
            Policy::default(),
            Layers {
                drops_root: true,
                ..Layers::default()
            },
        )
    }

    fn landlocked(extra_read: Vec<PathBuf>) -> Sandbox {
        Sandbox::with_layers(
            Policy {
                extra_read,
                ..Policy::default()
            },
            Layers {
                landlock_abi: 3,
                ..Layers::default()
            },
        )
    }

    #[test]
    fn a_program_nobody_cannot_reach_is_refused_naming_the_directory_the_user_and_the_fix() {
        let d = open_dir();
        let private = d.path().join("private");
        std::fs::create_dir(&private).unwrap();
        chmod(&private, 0o700);
        let bot = private.join("bot");
        write(&bot, "#!/bin/sh\n", 0o755);
        let e = as_nobody()
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err()
            .to_string();
        for needle in [
            &format!("bot program {}", bot.display()),
            "nobody, the user bot programs run as here (arena runs as root), cannot execute",
            &format!("the directory {} (mode 0700", private.display()),
            "move the program",
            "nothing under /root is",
        ] {
            assert!(e.contains(needle), "{needle:?} not in {e}");
        }
    }

    #[test]
    fn a_file_that_is_not_executable_or_a_script_nobody_cannot_read_is_refused() {
        let d = open_dir();
        let bot = d.path().join("bot");
        write(&bot, "#!/bin/sh\n", 0o644);
        let e = as_nobody()
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err();
        assert!(e.problem.contains("cannot execute"), "{e}");
        assert!(e.problem.contains("mode 0644"), "{e}");
        assert_eq!(e.fix, format!("`chmod a+rx {}`", bot.display()));
        // Executable but unreadable: the interpreter could not read it.
        write(&bot, "#!/bin/sh\n", 0o711);
        let e = as_nobody()
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err();
        assert!(e.problem.contains("cannot read the script"), "{e}");
        write(&bot, "#!/bin/sh\n", 0o755);
        assert_eq!(
            as_nobody()
                .check_program(bot.to_str().unwrap(), &[])
                .unwrap(),
            bot
        );
    }

    #[test]
    fn an_interpreter_or_an_argument_out_of_reach_is_named() {
        let d = open_dir();
        let private = d.path().join("venv");
        std::fs::create_dir(&private).unwrap();
        chmod(&private, 0o700);
        let python = private.join("python");
        write(&python, "#!/bin/sh\n", 0o755);
        let bot = d.path().join("bot");
        write(&bot, &format!("#!{} -u\n", python.display()), 0o755);
        let e = as_nobody()
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err();
        assert!(
            e.problem.contains(&format!(
                "cannot execute its interpreter {}",
                python.display()
            )),
            "{e}"
        );
        let script = private.join("bot.py");
        write(&script, "", 0o644);
        let e = as_nobody()
            .check_program("sh", &[script.display().to_string()])
            .unwrap_err();
        assert!(
            e.problem
                .contains(&format!("cannot read the file {}", script.display())),
            "{e}"
        );
        // `#!/usr/bin/env NAME` is looked up on the sandbox's PATH.
        write(&bot, "#!/usr/bin/env no-such-interpreter-here\n", 0o755);
        let e = as_nobody()
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err();
        assert!(
            e.problem.contains("\"no-such-interpreter-here\"") && e.problem.contains("PATH"),
            "{e}"
        );
        let e = as_nobody()
            .check_program("no-such-program-here", &[])
            .unwrap_err();
        assert!(
            e.problem.contains("no program \"no-such-program-here\""),
            "{e}"
        );
        let e = as_nobody().check_program("./bot", &[]).unwrap_err();
        assert!(e.problem.contains("relative path"), "{e}");
    }

    #[test]
    fn landlock_reads_are_checked_and_the_fix_names_the_flag_that_grants_one() {
        let d = open_dir();
        let elsewhere = open_dir();
        let python = elsewhere.path().join("python");
        write(&python, "#!/bin/sh\n", 0o755);
        let bot = d.path().join("bot");
        write(&bot, &format!("#!{}\n", python.display()), 0o755);
        let e = landlocked(Vec::new())
            .check_program(bot.to_str().unwrap(), &[])
            .unwrap_err();
        assert!(
            e.problem
                .contains("outside the directories the sandbox lets programs read"),
            "{e}"
        );
        assert!(
            e.fix
                .contains(&format!("--sandbox-read {}", elsewhere.path().display())),
            "{e}"
        );
        let granted = landlocked(vec![elsewhere.path().to_path_buf()]);
        granted.check_program(bot.to_str().unwrap(), &[]).unwrap();
    }

    #[test]
    fn a_secret_is_exposed_only_where_the_sandbox_lets_programs_read_it() {
        let d = open_dir();
        let data = d.path().join("data");
        std::fs::create_dir(&data).unwrap();
        chmod(&data, 0o755);
        let why = as_nobody()
            .exposes(&data)
            .expect("nobody may enter a 0755 directory");
        assert!(why.contains("run as nobody, and nobody may read"), "{why}");
        // Under Landlock too: a program's own directory may hold the secret.
        let both = Sandbox::with_layers(
            Policy::default(),
            Layers {
                drops_root: true,
                landlock_abi: 3,
                ..Layers::default()
            },
        );
        assert!(both.exposes(&data).is_some());
        chmod(&data, 0o700);
        assert_eq!(as_nobody().exposes(&data), None);
        // The caller's own programs under Landlock: exposed only beneath granted directories.
        assert_eq!(landlocked(Vec::new()).exposes(&data), None);
        let why = landlocked(vec![d.path().to_path_buf()])
            .exposes(&data)
            .expect("beneath a --sandbox-read path");
        assert!(why.contains("let read beneath"), "{why}");
        // Isolation off is warned about elsewhere, not refused here.
        let off = Sandbox::new(Policy {
            isolation: Isolation::Off,
            ..Policy::default()
        });
        assert_eq!(off.exposes(&data), None);
    }
}
