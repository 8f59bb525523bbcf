//! `arena operators …`: operator tokens.

use anyhow::Result;
use clap::{Args, Subcommand};

/// Operator token commands.
#[derive(Subcommand)]
pub enum OperatorsCommand {
    /// Issue an operator token for NAME, printed once (only its hash is stored).
    Add(OperatorNameArgs),
    /// List operators and their token ids (never the tokens).
    List(OperatorsListArgs),
    /// Revoke every token of NAME.
    Remove(OperatorNameArgs),
}

#[derive(Args)]
pub struct OperatorNameArgs {
    /// The operator's name.
    pub(super) name: String,
    #[command(flatten)]
    pub(super) registry: crate::bots_cmd::RegistryArgs,
}

#[derive(Args)]
pub struct OperatorsListArgs {
    #[command(flatten)]
    pub(super) registry: crate::bots_cmd::RegistryArgs,
}

/// Runs `arena operators …`: on the store, or through a running matchmaker (with an operator
/// token: the bootstrap one of the data directory, or `ARENA_OPERATOR_TOKEN`).
pub fn operators(cmd: OperatorsCommand) -> Result<()> {
    use crate::bots_cmd::Registry;
    let rt = crate::store_args::runtime()?;
    rt.block_on(async {
        match cmd {
            OperatorsCommand::Add(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let issued = registry.add_operator(&a.name).await?;
                println!(
                    "operator {:?} (token id {}) in {}",
                    issued.name,
                    issued.id,
                    registry.describe()
                );
                println!("token (shown once; only its SHA-256 is stored):");
                println!("{}", issued.token);
            }
            OperatorsCommand::List(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let list = registry.list_operators().await?;
                if list.is_empty() {
                    println!("no operator tokens in {}", registry.describe());
                }
                for o in list {
                    println!("{:<20} {}", o.name, o.id);
                }
            }
            OperatorsCommand::Remove(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let n = registry.remove_operator(&a.name).await?;
                println!("revoked {n} token(s) of {:?}", a.name);
            }
        }
        Ok(())
    })
}
