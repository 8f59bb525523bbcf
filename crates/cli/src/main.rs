//! `arena`: the one entry point for users and for every service role.

mod ddz_cmd;
mod progress;

use clap::{Parser, Subcommand};

/// arena: a platform where card-game AIs compete, fairly and at scale.
#[derive(Parser)]
#[command(name = "arena", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Dou Dizhu: legal moves, hand analysis, deals, self-play.
    #[command(subcommand)]
    Ddz(ddz_cmd::DdzCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ddz(cmd) => ddz_cmd::run(cmd),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
