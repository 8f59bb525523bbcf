//! Program bots (`cmd:PROGRAM [ARGS]`) named on the command line, checked before the first
//! table: their relative paths resolved against the current directory the same way for every
//! game ([`CmdSpec::resolve`]: programs start in a directory of their own), and the sandbox
//! asked whether the user programs run as can start them ([`Sandbox::check_program`]). A
//! program that cannot start is refused with one error naming the path, the user and the fix,
//! instead of losing every hand to a "crashed" verdict.

use anyhow::{Context, Result};
use arena_line::CmdSpec;
use arena_sandbox::{Policy, Sandbox};

/// The sandbox `cmd:` bots of the match commands run in (the default policy).
pub fn match_sandbox() -> Sandbox {
    Sandbox::new(Policy::default())
}

/// Whether the seat name `name` is a program of `game`'s: `cmd:PROGRAM`, or `NAME:PROGRAM` for one
/// of its other program protocols ([`crate::Game::program_protocols`]).
pub fn is_program(game: crate::GameKind, name: &str) -> bool {
    name.starts_with("cmd:")
        || game.program_protocols().iter().any(|p| {
            name.strip_prefix(p.name)
                .is_some_and(|r| r.starts_with(':'))
        })
}

/// `command` (`cmd:PROGRAM`, `NAME:PROGRAM` for another of `game`'s protocols, or a bare
/// command line) resolved against the current directory and checked against `sandbox`, its
/// protocol against `game`'s; the command line to start it by.
pub fn prepare(game: crate::GameKind, command: &str, sandbox: &Sandbox) -> Result<CmdSpec> {
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let spec = CmdSpec::parse(command)?.resolve(&cwd);
    game.check_protocol(spec.protocol())
        .map_err(|e| anyhow::anyhow!("{command}: {e}"))?;
    sandbox.check_program(spec.program(), spec.args())?;
    Ok(spec)
}
