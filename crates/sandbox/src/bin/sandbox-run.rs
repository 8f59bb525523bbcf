//! `sandbox-run`: runs one program in the sandbox, its standard streams the caller's, and exits
//! as it did. For trying a bot under the limits and layers bot-host would use, and for the
//! tests that SIGKILL a host of sandboxed programs.
//!
//! ```text
//! sandbox-run [--off] [--cpu S] [--memory MIB] [--processes N] [--open-files N]
//!             [--file-size MIB] [--wall S] [--dir DIR] [--read PATH]... -- PROGRAM [ARGS]...
//! ```
//!
//! Limits not given are the host defaults. It prints the sandbox and the limits to stderr,
//! then `supervisor PID` once the program runs.

use std::process::{Command, ExitCode};

use arena_sandbox::{Isolation, Limits, Policy, Sandbox, describe_status};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sandbox-run: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut args = std::env::args().skip(1);
    let mut policy = Policy::default();
    let mut limits = Limits::HOST_DEFAULT;
    let mut dir = None;
    let mut command = Vec::new();
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let mut number = |name: &str| -> Result<u32, String> {
            let v = value(name)?;
            v.parse()
                .map_err(|_| format!("{name} takes a whole number, not {v:?}"))
        };
        match a.as_str() {
            "--off" => policy.isolation = Isolation::Off,
            "--cpu" => limits.cpu_seconds = number("--cpu")?,
            "--memory" => limits.memory_mb = number("--memory")?,
            "--processes" => limits.processes = number("--processes")?,
            "--open-files" => limits.open_files = number("--open-files")?,
            "--file-size" => limits.file_size_mb = number("--file-size")?,
            "--wall" => limits.wall_seconds = number("--wall")?,
            "--dir" => dir = Some(value("--dir")?),
            "--read" => policy.extra_read.push(value("--read")?.into()),
            "--" => {
                command.extend(args.by_ref());
                break;
            }
            other => return Err(format!("unknown option {other:?} (the command follows --)")),
        }
    }
    let Some((program, rest)) = command.split_first() else {
        return Err("no command given after --".into());
    };
    let sandbox = Sandbox::new(policy);
    eprintln!("sandbox-run: {sandbox}; limits: {limits}");
    for w in sandbox.warnings() {
        eprintln!("sandbox-run: WARNING: {w}");
    }
    let mut cmd = Command::new(program);
    cmd.args(rest);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    sandbox
        .configure(&mut cmd, &limits, &["LANG".into(), "LC_ALL".into()])
        .map_err(|e| e.to_string())?;
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    eprintln!("supervisor {}", child.id());
    let status = child.wait().map_err(|e| e.to_string())?;
    eprintln!("sandbox-run: {}", describe_status(status, &limits));
    Ok(ExitCode::from(status.code().map_or(1, |c| c as u8)))
}
