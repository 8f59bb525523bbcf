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
    /// The deal library's gRPC address (`arena standalone` serves it on :50053).
    #[arg(
        long,
        env = "ARENA_DEAL_LIBRARY",
        default_value = "http://127.0.0.1:50053"
    )]
    pub library: String,
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

/// A secret seed for a fresh deal stream: deals generated from a known seed could be dealt by
/// anyone, who would then know every hand of a table from their own.
pub fn secret_seed() -> Result<u64> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b)
        .map_err(|e| anyhow::anyhow!("drawing a secret seed from the system: {e}"))?;
    Ok(u64::from_le_bytes(b).max(1))
}

/// What a measured competition needs from its panel's library.
#[derive(Clone, Debug, PartialEq)]
pub struct Wanted {
    /// The panel.
    pub panel: v1::PanelSpec,
    /// Deals within `eps` of `centre`: the target of equal-strength, and for
    /// difficulty-adjusted competitions a ball holding every GDI vector.
    pub centre: Vec<f64>,
    /// The radius.
    pub eps: f64,
    /// Bombs per deal.
    pub bombs: u32,
    /// Distinct deals the competition deals.
    pub need: u64,
}

/// What `spec` needs from the library, or `None` when it deals fresh cards (duplicate, random,
/// Mahjong).
pub fn wanted(spec: &v1::CompetitionSpec) -> Result<Option<Wanted>> {
    if spec.game() == v1::Game::Mahjong {
        return Ok(None);
    }
    let format = match spec.format_kind() {
        v1::CompetitionFormat::Unspecified => arena_matchmaker::format_of_name(&spec.format),
        typed => Some(typed),
    };
    let panel = spec.panel.clone().unwrap_or_default();
    let scoring =
        arena_games::ddz::names::scoring_of("panel.scoring", &panel.scoring, panel.scoring_kind)
            .map_err(anyhow::Error::msg)?
            .unwrap_or(ddz::Scoring::Difficulty);
    let bombs = spec.bombs.max(1);
    let need = spec.participants.len() as u64 * u64::from(spec.matches) * u64::from(spec.rounds);
    let (centre, eps) = match format {
        Some(v1::CompetitionFormat::EqualStrength) => (spec.centre.clone(), spec.eps),
        Some(v1::CompetitionFormat::DifficultyAdjusted) => {
            // Any measured deal of the right dimension: GDI values lie in [0, 1], so every
            // vector is within √dim / 2 of the cube's centre.
            let dim = arena_deals::levels::gdi_dimension(scoring, bombs);
            (vec![0.5; dim], (dim as f64).sqrt())
        }
        _ => return Ok(None),
    };
    Ok(Some(Wanted {
        panel,
        centre,
        eps,
        bombs,
        need,
    }))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: &str) -> v1::CompetitionSpec {
        v1::CompetitionSpec {
            format: format.into(),
            centre: vec![0.9, 0.5, 0.1],
            eps: 0.2,
            participants: vec!["a".into(), "b".into(), "c".into()],
            matches: 2,
            rounds: 5,
            panel: Some(v1::PanelSpec {
                landlords: "ladder:5".into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn measured_formats_want_a_deal_per_table_and_round_and_fresh_ones_nothing() {
        let w = wanted(&spec("equal-strength")).unwrap().unwrap();
        assert_eq!(
            (w.need, w.centre.as_slice(), w.eps),
            (30, &[0.9, 0.5, 0.1][..], 0.2)
        );
        let w = wanted(&spec("difficulty-adjusted")).unwrap().unwrap();
        assert_eq!((w.need, w.bombs), (30, 1));
        // A ball around the cube's centre holding every GDI vector of three values.
        assert_eq!(w.centre, [0.5; 3]);
        assert!(arena_deals::levels::distance(&[0.0, 1.0, 0.0], &w.centre) <= w.eps);
        let w = wanted(&v1::CompetitionSpec {
            bombs: 2,
            ..spec("difficulty-adjusted")
        })
        .unwrap()
        .unwrap();
        assert_eq!(w.centre.len(), 5);
        for format in ["duplicate", "random"] {
            assert_eq!(wanted(&spec(format)).unwrap(), None, "{format}");
        }
        let mahjong = v1::CompetitionSpec {
            game: v1::Game::Mahjong as i32,
            ..spec("equal-strength")
        };
        assert_eq!(wanted(&mahjong).unwrap(), None);
    }
}
