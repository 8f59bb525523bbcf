//! `cmd:PROGRAM [ARGS]`: the command line of a bot program, and `PROTOCOL:PROGRAM [ARGS]` for a
//! program speaking another of its game's protocols (`botzone:python3 bot.py`).

use std::fmt;
use std::path::{Path, PathBuf};

/// A program and its arguments, split from a command line the way a POSIX shell splits words
/// (quotes and backslashes work; variables, globs and pipes are not expanded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdSpec {
    /// The game's program protocol it speaks, when not its default line protocol.
    protocol: Option<String>,
    program: String,
    args: Vec<String>,
}

/// The longest protocol name a spec may start with.
pub const MAX_PROTOCOL_CHARS: usize = 32;

/// Why a `cmd:` spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Nothing after `cmd:`.
    #[error("{spec:?} names no program (write e.g. cmd:python3 bot.py)")]
    NoProgram {
        /// The spec as given.
        spec: String,
    },
    /// Quotes that do not close.
    #[error("cannot split {spec:?} into words: a quote is not closed")]
    Quoting {
        /// The spec as given.
        spec: String,
    },
}

impl CmdSpec {
    /// A program with its arguments.
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> CmdSpec {
        CmdSpec {
            protocol: None,
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// This command speaking the game's program protocol `protocol` (`None`: its default line
    /// protocol).
    pub fn with_protocol(mut self, protocol: Option<&str>) -> CmdSpec {
        self.protocol = protocol.map(str::to_string);
        self
    }

    /// Reads `cmd:PROGRAM [ARGS]`, or `PROTOCOL:PROGRAM [ARGS]` for a program speaking the
    /// protocol of that name (a lower-case word, hyphens allowed, e.g. `botzone`; whether the
    /// game has it is the game's to say). The `cmd:` prefix is optional, so `python3 bot.py`
    /// works too.
    pub fn parse(spec: &str) -> Result<CmdSpec, SpecError> {
        let (protocol, line) = match spec.split_once(':') {
            Some(("cmd", rest)) => (None, rest),
            Some((head, rest)) if is_protocol_name(head) => (Some(head.to_string()), rest),
            _ => (None, spec),
        };
        let mut words = shell_words::split(line)
            .map_err(|_| SpecError::Quoting {
                spec: spec.to_string(),
            })?
            .into_iter();
        let program =
            words
                .next()
                .filter(|p| !p.is_empty())
                .ok_or_else(|| SpecError::NoProgram {
                    spec: spec.to_string(),
                })?;
        Ok(CmdSpec {
            protocol,
            program,
            args: words.collect(),
        })
    }

    /// The game's program protocol it speaks, when not the default (`botzone`).
    pub fn protocol(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// The program: a path, or a name looked up on `PATH`.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// This command with its relative paths made absolute against `cwd`, the way every host
    /// of programs reads them: a program starts in a directory of its own (a fresh temporary
    /// one, or bot-host's), where `./mybot` or `bot.py` name nothing. The program is resolved
    /// when named by a path (it holds a `/`); an argument is when it names a file or directory
    /// that exists under `cwd` and is no option (`-m`). Paths are made absolute lexically, so
    /// symlinks are kept (a virtualenv's `python` finds its environment through its link).
    pub fn resolve(&self, cwd: &Path) -> CmdSpec {
        let absolute = |p: &str| -> PathBuf { cwd.join(p).components().collect() };
        let program = if self.program.contains('/') {
            absolute(&self.program).display().to_string()
        } else {
            self.program.clone()
        };
        let args = self.args.iter().map(|arg| {
            let abs = absolute(arg);
            if !arg.starts_with('-') && !Path::new(arg).is_absolute() && abs.exists() {
                abs.display().to_string()
            } else {
                arg.clone()
            }
        });
        CmdSpec::new(program, args).with_protocol(self.protocol())
    }

    /// The command line without `cmd:`, quoted so that [`CmdSpec::parse`] reads it back.
    pub fn command_line(&self) -> String {
        shell_words::join(std::iter::once(&self.program).chain(&self.args))
    }
}

impl fmt::Display for CmdSpec {
    /// `cmd:` (or the protocol's name and `:`) and the command line, quoted so that
    /// [`CmdSpec::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.protocol().unwrap_or("cmd"))?;
        f.write_str(":")?;
        f.write_str(&self.command_line())
    }
}

/// Whether `head` (what comes before a spec's first `:`) names a protocol: a lower-case letter,
/// then lower-case letters, digits or hyphens, at most [`MAX_PROTOCOL_CHARS`] in all. A program
/// path (`/usr/bin/x`, `./bot`) or a command with a space before its first `:` is none.
fn is_protocol_name(head: &str) -> bool {
    let mut chars = head.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && head.len() <= MAX_PROTOCOL_CHARS
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl std::str::FromStr for CmdSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<CmdSpec, SpecError> {
        CmdSpec::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let s = CmdSpec::parse("cmd:python3 'my bot.py' --level 3").unwrap();
        assert_eq!(s.program(), "python3");
        assert_eq!(s.args(), ["my bot.py", "--level", "3"]);
        assert_eq!(s.to_string(), "cmd:python3 'my bot.py' --level 3");
        assert_eq!(s.command_line(), "python3 'my bot.py' --level 3");
        assert_eq!(s.to_string().parse::<CmdSpec>().unwrap(), s);
        assert_eq!(
            CmdSpec::parse("./bot").unwrap(),
            CmdSpec::new("./bot", [""; 0])
        );
    }

    #[test]
    fn relative_paths_are_made_absolute_and_names_and_options_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path();
        std::fs::write(cwd.join("bot.py"), "").unwrap();
        let s = CmdSpec::parse("cmd:./bots/../mybot --level 2").unwrap();
        assert_eq!(
            s.resolve(cwd),
            CmdSpec::new(format!("{}/bots/../mybot", cwd.display()), ["--level", "2"])
        );
        let s = CmdSpec::parse("cmd:python3 bot.py -m missing.py").unwrap();
        assert_eq!(
            s.resolve(cwd),
            CmdSpec::new(
                "python3",
                [
                    format!("{}/bot.py", cwd.display()),
                    "-m".into(),
                    "missing.py".into()
                ]
            )
        );
        let s = CmdSpec::parse("cmd:/usr/bin/env ./x").unwrap();
        assert_eq!(s.resolve(cwd).program(), "/usr/bin/env");
    }

    #[test]
    fn a_protocol_prefix_is_kept_and_written_back() {
        let s = CmdSpec::parse("botzone:python3 bot.py").unwrap();
        assert_eq!(s.protocol(), Some("botzone"));
        assert_eq!(s.program(), "python3");
        assert_eq!(s.to_string(), "botzone:python3 bot.py");
        assert_eq!(s.to_string().parse::<CmdSpec>().unwrap(), s);
        assert_eq!(s.command_line(), "python3 bot.py");
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(s.resolve(dir.path()).protocol(), Some("botzone"));
        assert_eq!(
            CmdSpec::parse("botzone-simpleio:./bot").unwrap().protocol(),
            Some("botzone-simpleio")
        );
        // `cmd:` is the default protocol; a path or a command with a space first is no prefix.
        assert_eq!(CmdSpec::parse("cmd:python3 x.py").unwrap().protocol(), None);
        assert_eq!(CmdSpec::parse("./a:b").unwrap().program(), "./a:b");
        let s = CmdSpec::parse("sh -c 'echo a:b'").unwrap();
        assert_eq!((s.protocol(), s.program()), (None, "sh"));
        assert_eq!(CmdSpec::parse("Bot:x").unwrap().program(), "Bot:x");
    }

    #[test]
    fn bad_specs_say_why() {
        let e = CmdSpec::parse("cmd:").unwrap_err();
        assert!(e.to_string().contains("names no program"), "{e}");
        let e = CmdSpec::parse("cmd:   ").unwrap_err();
        assert!(matches!(e, SpecError::NoProgram { .. }));
        let e = CmdSpec::parse("cmd:python3 'bot.py").unwrap_err();
        assert!(e.to_string().contains("quote is not closed"), "{e}");
        let e = CmdSpec::parse("cmd:''").unwrap_err();
        assert!(matches!(e, SpecError::NoProgram { .. }));
    }
}
