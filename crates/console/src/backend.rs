//! The console's view of the matchmaker: the methods it calls, object-safe, with a blanket
//! implementation for every `arena.v1.Matchmaker` server implementation. The matchmaker role
//! (and standalone) hands the console the same service value it serves over gRPC, so the console
//! reads competitions, standings, replays and the leaderboard through the very code gRPC clients
//! do, visibility rules (no replay of a deal still being played) included.

use std::pin::Pin;

use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use futures_util::{Stream, StreamExt};
use tonic::{Request, Status};

/// A stream of standings updates, ending when the competition ends.
pub type StandingsStream = Pin<Box<dyn Stream<Item = Result<v1::Standings, Status>> + Send>>;

/// What the console asks of the matchmaker.
#[tonic::async_trait]
pub trait Backend: Send + Sync + 'static {
    /// Every competition.
    async fn competitions(&self) -> Result<Vec<v1::Competition>, Status>;
    /// One competition.
    async fn competition(&self, name: &str) -> Result<v1::Competition, Status>;
    /// Its standings now (final once it has finished).
    async fn standings(&self, name: &str) -> Result<v1::Standings, Status>;
    /// Its standings each time they change, until it ends.
    async fn watch(&self, name: &str) -> Result<StandingsStream, Status>;
    /// Every finished table's replay that may be shown.
    async fn replays(&self, name: &str) -> Result<Vec<v1::Replay>, Status>;
    /// One table's replay (`FAILED_PRECONDITION` while its deal is still being played).
    async fn replay(&self, table_id: &str) -> Result<v1::Replay, Status>;
    /// A game's ladder.
    async fn leaderboard(&self, game: &str) -> Result<v1::Leaderboard, Status>;
    /// Creates a competition.
    async fn create(&self, spec: v1::CompetitionSpec) -> Result<v1::Competition, Status>;
    /// Cancels a running competition.
    async fn cancel(&self, name: &str) -> Result<v1::Competition, Status>;
}

fn named(name: &str) -> Request<v1::CompetitionRequest> {
    Request::new(v1::CompetitionRequest { name: name.into() })
}

#[tonic::async_trait]
impl<M: Matchmaker> Backend for M {
    async fn competitions(&self) -> Result<Vec<v1::Competition>, Status> {
        Ok(self
            .list_competitions(Request::new(v1::ListCompetitionsRequest {}))
            .await?
            .into_inner()
            .competitions)
    }

    async fn competition(&self, name: &str) -> Result<v1::Competition, Status> {
        Ok(self.get_competition(named(name)).await?.into_inner())
    }

    async fn standings(&self, name: &str) -> Result<v1::Standings, Status> {
        Ok(self.get_standings(named(name)).await?.into_inner())
    }

    async fn watch(&self, name: &str) -> Result<StandingsStream, Status> {
        Ok(self
            .watch_competition(named(name))
            .await?
            .into_inner()
            .boxed())
    }

    async fn replays(&self, name: &str) -> Result<Vec<v1::Replay>, Status> {
        let mut stream = self.export_replays(named(name)).await?.into_inner().boxed();
        let mut out = Vec::new();
        while let Some(r) = stream.next().await {
            out.push(r?);
        }
        Ok(out)
    }

    async fn replay(&self, table_id: &str) -> Result<v1::Replay, Status> {
        Ok(self
            .get_replay(Request::new(v1::GetTableRequest {
                table_id: table_id.into(),
            }))
            .await?
            .into_inner())
    }

    async fn leaderboard(&self, game: &str) -> Result<v1::Leaderboard, Status> {
        Ok(self
            .get_leaderboard(Request::new(v1::LeaderboardRequest {
                // The first page, as large as a page may be: what the console shows.
                limit: arena_ratings::MAX_LEADERBOARD_PAGE as u32,
                game: game.into(),
                page_token: String::new(),
            }))
            .await?
            .into_inner())
    }

    async fn create(&self, spec: v1::CompetitionSpec) -> Result<v1::Competition, Status> {
        Ok(self
            .create_competition(Request::new(v1::CreateCompetitionRequest {
                spec: Some(spec),
            }))
            .await?
            .into_inner())
    }

    async fn cancel(&self, name: &str) -> Result<v1::Competition, Status> {
        Ok(self.cancel_competition(named(name)).await?.into_inner())
    }
}
