//! What client commands ask of a running deal library (`arena.v1.DealLibrary`): following a
//! long operation, counting the deals a competition may use, and finding the deals a measured
//! competition lacks (`arena competition create`, `arena deals find --library`).

use anyhow::{Result, bail};
use arena_proto::v1;
use tokio_stream::StreamExt;

use crate::client::{self, ClientAuth, status};

/// A deal-library client sending the operator token.
pub type Client = v1::deal_library_client::DealLibraryClient<client::Authed>;

/// Where a client finds the deal library.
#[derive(clap::Args, Clone, Debug)]
pub struct LibraryAddr {
    /// The deal library's gRPC address [default: the one the `arena standalone` of --data-dir
    /// wrote to its endpoints.json, else http://127.0.0.1:50053].
    #[arg(long, env = "ARENA_DEAL_LIBRARY")]
    pub library: Option<String>,
}

/// Connects to the deal library at `url`.
pub async fn connect(url: &str, auth: &ClientAuth) -> Result<Client> {
    Ok(v1::deal_library_client::DealLibraryClient::new(
        client::connect(url, client::Role::DealLibrary, auth).await?,
    ))
}

/// Follows operation `op` until it is done, showing its progress on stderr unless `quiet`
/// (`unit` names what it counts); its last state (a failed operation's holds its error).
pub async fn follow(
    client: &mut Client,
    op: v1::Operation,
    unit: &str,
    quiet: bool,
) -> Result<v1::Operation> {
    let mut stream = client
        .watch_operation(v1::GetOperationRequest { id: op.id.clone() })
        .await
        .map_err(status)?
        .into_inner();
    let mut last = op;
    while !last.done {
        let Some(next) = stream.next().await else {
            break;
        };
        last = next.map_err(status)?;
        if !quiet {
            eprint!(
                "\r{}/{} {unit}, {:.0} games/s   ",
                last.progress, last.total, last.games_per_second
            );
        }
    }
    if !quiet {
        eprintln!();
    }
    Ok(last)
}

/// A secret seed for a fresh deal stream ([`arena_deals::find::secret_seed`]).
pub fn secret_seed() -> Result<u64> {
    arena_deals::find::secret_seed().map_err(anyhow::Error::msg)
}

pub use arena_deals::wanted::Wanted;

/// What `spec` needs from the library ([`arena_deals::wanted::wanted`]).
pub fn wanted(spec: &v1::CompetitionSpec) -> Result<Option<Wanted>> {
    arena_deals::wanted::wanted(spec).map_err(anyhow::Error::msg)
}

/// Unused deals of `w.panel` within `w.eps` of `w.centre`.
pub async fn available(client: &mut Client, w: &Wanted) -> Result<u64> {
    Ok(client
        .query(v1::QueryRequest {
            panel: Some(w.panel.clone()),
            centre: w.centre.clone(),
            eps: w.eps,
            count: 0,
            include_used: false,
        })
        .await
        .map_err(status)?
        .into_inner()
        .available)
}

/// Asks the library to generate and measure fresh deals (from a secret seed) until `count` more
/// lie within `w.eps` of `w.centre`, following it to the end.
pub async fn find(
    client: &mut Client,
    w: &Wanted,
    count: u64,
    quiet: bool,
) -> Result<v1::Operation> {
    let count = u32::try_from(count)
        .map_err(|_| anyhow::anyhow!("{count} deals are more than one generation may find"))?;
    let op = client
        .find(v1::FindRequest {
            panel: Some(w.panel.clone()),
            centre: w.centre.clone(),
            eps: w.eps,
            count,
            bombs: Some(w.bombs),
            seed: secret_seed()?,
            max_tries: 0,
        })
        .await
        .map_err(status)?
        .into_inner();
    let last = follow(client, op, "deals found", quiet).await?;
    if !last.error.is_empty() {
        bail!("deal library operation {}: {}", last.id, last.error);
    }
    Ok(last)
}

/// Makes sure the library holds the unused deals measured competition `spec` needs, asking it to
/// find the missing ones; returns how many it found.
pub async fn prepare(url: &str, auth: &ClientAuth, spec: &v1::CompetitionSpec) -> Result<u64> {
    let Some(w) = wanted(spec)? else {
        return Ok(0);
    };
    let mut client = connect(url, auth).await?;
    let have = available(&mut client, &w).await?;
    if have >= w.need {
        return Ok(0);
    }
    let missing = w.need - have;
    eprintln!(
        "the library holds {have} unused deals fit for {}; asking the deal library at {url} to \
         find {missing} more",
        spec.name
    );
    let op = find(&mut client, &w, missing, false).await?;
    eprintln!(
        "found {} deals in {:.1} s ({} tried, {} games)",
        op.progress, op.seconds, op.tried, op.games
    );
    Ok(op.progress)
}
