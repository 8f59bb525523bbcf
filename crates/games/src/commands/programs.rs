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

/// `command` (with or without `cmd:`) resolved against the current directory and checked
/// against `sandbox`; the command line to start it by.
pub fn prepare(command: &str, sandbox: &Sandbox) -> Result<CmdSpec> {
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let spec = CmdSpec::parse(command)?.resolve(&cwd);
    sandbox.check_program(spec.program(), spec.args())?;
    Ok(spec)
}
