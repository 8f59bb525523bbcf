//! `arena`: the one entry point for users and for every service role.

mod compete_cmd;
mod ddz_cmd;
mod deals_cmd;
mod experiment_cmd;
mod progress;
mod store_args;

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
    /// The deal library: measure difficulty (GDI), query equal-strength deals, generate on demand.
    #[command(subcommand)]
    Deals(deals_cmd::DealsCommand),
    /// A competition among built-in landlord bots: duplicate, equal-strength, random or difficulty-adjusted deals.
    Compete(compete_cmd::CompeteArgs),
    /// Experiments: `paper` reproduces the equal-strength paper and writes a report.
    #[command(subcommand)]
    Experiment(experiment_cmd::ExperimentCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ddz(cmd) => ddz_cmd::run(cmd),
        Command::Deals(cmd) => deals_cmd::run(cmd),
        Command::Compete(a) => compete_cmd::run(a),
        Command::Experiment(cmd) => experiment_cmd::run(cmd),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
