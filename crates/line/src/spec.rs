//! `cmd:PROGRAM [ARGS]`: the command line of a bot program.

use std::fmt;

/// A program and its arguments, split from a command line the way a POSIX shell splits words
/// (quotes and backslashes work; variables, globs and pipes are not expanded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdSpec {
    program: String,
    args: Vec<String>,
}

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
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// Reads `cmd:PROGRAM [ARGS]`; the `cmd:` prefix is optional, so `python3 bot.py` works too.
    pub fn parse(spec: &str) -> Result<CmdSpec, SpecError> {
        let line = spec.strip_prefix("cmd:").unwrap_or(spec);
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
            program,
            args: words.collect(),
        })
    }

    /// The program: a path, or a name looked up on `PATH`.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// The command line without `cmd:`, quoted so that [`CmdSpec::parse`] reads it back.
    pub fn command_line(&self) -> String {
        shell_words::join(std::iter::once(&self.program).chain(&self.args))
    }
}

impl fmt::Display for CmdSpec {
    /// `cmd:` and the command line, quoted so that [`CmdSpec::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cmd:")?;
        f.write_str(&self.command_line())
    }
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
