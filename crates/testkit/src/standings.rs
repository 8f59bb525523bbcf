//! Following a competition's standings to the final ones.

use std::time::Duration;

use arena_proto::v1;
use tokio_stream::{Stream, StreamExt};

/// Reads a `WatchCompetition` stream of competition `name` until its final standings and
/// returns them; panics (naming the competition and what came last) on a stream error, on a
/// stream that ends before the final standings, or after `patience` without them.
pub async fn final_standings(
    name: &str,
    stream: impl Stream<Item = Result<v1::Standings, tonic::Status>>,
    patience: Duration,
) -> v1::Standings {
    let deadline = tokio::time::Instant::now() + patience;
    let mut stream = std::pin::pin!(stream);
    let mut last = None;
    loop {
        match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(Some(Ok(s))) if s.r#final => return s,
            Ok(Some(Ok(s))) => last = Some(s),
            Ok(Some(Err(e))) => panic!("watching {name}: {e}"),
            Ok(None) => panic!("the standings of {name} ended before the final ones: {last:?}"),
            Err(_) => panic!("no final standings of {name} after {patience:?}: {last:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standings(done: u64, last: bool) -> Result<v1::Standings, tonic::Status> {
        Ok(v1::Standings {
            tables_done: done,
            r#final: last,
            ..Default::default()
        })
    }

    #[tokio::test]
    async fn the_final_standings_are_the_first_marked_final() {
        let s = tokio_stream::iter([standings(1, false), standings(2, true), standings(3, true)]);
        let got = final_standings("cup", s, Duration::from_secs(5)).await;
        assert_eq!(got.tables_done, 2);
    }

    #[tokio::test]
    #[should_panic(expected = "the standings of cup ended before the final ones")]
    async fn a_stream_that_ends_early_fails() {
        let s = tokio_stream::iter([standings(1, false)]);
        final_standings("cup", s, Duration::from_secs(5)).await;
    }

    #[tokio::test(start_paused = true)]
    #[should_panic(expected = "no final standings of cup after")]
    async fn a_stream_that_never_finishes_fails_after_the_patience() {
        let s = tokio_stream::pending::<Result<v1::Standings, tonic::Status>>();
        final_standings("cup", s, Duration::from_secs(5)).await;
    }
}
