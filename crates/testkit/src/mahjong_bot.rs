//! A remote Mahjong bot for tests and benchmarks: one `BotGateway.Play` stream to bot-host, any
//! number of tables at once, every answer taken from the legal actions the request's observation
//! lists (so it needs no rules engine and never answers illegally).
//!
//! It wins whenever it may, claims nothing, and otherwise discards the first tile listed. It
//! says in `Hello` that it plays Mahjong only. What it did is counted in [`Stats`], shared with
//! the caller while it plays, so a test can wait for the bot to be connected or for answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arena_proto::v1::{
    self, bot_gateway_client::BotGatewayClient, bot_to_host::Msg as Out, host_to_bot::Msg as In,
};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

/// The release the bot reports unless told otherwise.
pub const RELEASE: &str = "testkit-mahjong-1";

/// What the bot did, counted as it plays (shared by every session of one [`play_forever`]).
#[derive(Debug, Default)]
pub struct Stats {
    /// `Welcome`s received: sessions bot-host accepted.
    pub welcomed: AtomicU64,
    /// Requests answered.
    pub answered: AtomicU64,
    /// Requests whose legal actions held nothing the bot could read (answered with no action,
    /// which the referee judges malformed).
    pub unreadable: AtomicU64,
    /// Tables that ended.
    pub tables: AtomicU64,
}

impl Stats {
    fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// A counter's value now.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// How the bot plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release reported in `Hello`.
    pub release: String,
    /// Tables at once.
    pub capacity: u32,
    /// Stop after this many tables ended (0 = no limit).
    pub tables: u64,
    /// Where the bot counts what it did.
    pub stats: Arc<Stats>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release: RELEASE.into(),
            capacity: 64,
            tables: 0,
            stats: Arc::default(),
        }
    }
}

/// The legal action `text` (`discard 5S`, `self-drawn-win`, `chow 7M`, `pass`, …, as
/// [`v1::MahjongObservation::legal`] spells them) as a message; `None` if it names no action.
pub fn action_of_legal(text: &str) -> Option<v1::MahjongAction> {
    let mut words = text.split_whitespace();
    let name = words.next()?;
    let kind = v1::MahjongActionKind::from_str_name(&format!(
        "MAHJONG_ACTION_KIND_{}",
        name.to_ascii_uppercase().replace('-', "_")
    ))
    .filter(|k| *k != v1::MahjongActionKind::Unspecified)?;
    let tile = words.next().unwrap_or_default().to_string();
    if words.next().is_some() {
        return None;
    }
    Some(v1::MahjongAction {
        kind: kind as i32,
        tile,
    })
}

/// The bot's answer to `req`: a win if one is legal, else a pass if legal (a claim), else the
/// first legal action (on its turn, a discard). `None` if the request is no Mahjong request or
/// lists nothing readable.
pub fn choose(req: &v1::DecisionRequest) -> Option<v1::Action> {
    let Some(v1::Observation {
        game: Some(v1::observation::Game::Mahjong(o)),
    }) = &req.observation
    else {
        return None;
    };
    let legal: Vec<v1::MahjongAction> = o.legal.iter().filter_map(|l| action_of_legal(l)).collect();
    use v1::MahjongActionKind as K;
    let rank = |a: &v1::MahjongAction| match a.kind() {
        K::Win | K::SelfDrawnWin | K::RobKong => 0,
        K::Pass => 1,
        _ => 2,
    };
    // `min_by_key` keeps the first of equals: the first listed discard.
    let pick = legal.into_iter().min_by_key(rank)?;
    Some(v1::Action {
        game: Some(v1::action::Game::Mahjong(pick)),
    })
}

/// Connects to bot-host's bot port at `url` (`http://…`) as `bot` with `token` and plays until
/// the stream ends or [`Options::tables`] tables have ended. Returns how many tables ended.
pub async fn play(url: &str, bot: &str, token: &str, options: &Options) -> Result<u64, String> {
    let mut client = BotGatewayClient::connect(url.to_string())
        .await
        .map_err(|e| format!("connecting to {url}: {e}"))?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let out = |msg| {
        tx.send(v1::BotToHost { msg: Some(msg) })
            .map_err(|_| "the outgoing stream closed".to_string())
    };
    out(Out::Hello(v1::Hello {
        bot: bot.into(),
        release: options.release.clone(),
        capacity: options.capacity,
        resume_session: String::new(),
        games: vec![v1::Game::Mahjong as i32],
    }))?;
    let mut request = tonic::Request::new(UnboundedReceiverStream::new(rx));
    let bearer = format!("Bearer {token}")
        .parse()
        .map_err(|_| "the token is no valid metadata value".to_string())?;
    request.metadata_mut().insert("authorization", bearer);
    let mut inbound = client
        .play(request)
        .await
        .map_err(|s| format!("bot-host refused the stream: {s}"))?
        .into_inner();
    let stats = &options.stats;
    let mut ended = 0;
    while let Some(msg) = inbound.next().await {
        match msg.map_err(|s| format!("the stream failed: {s}"))?.msg {
            Some(In::Welcome(_)) => Stats::add(&stats.welcomed),
            Some(In::Request(req)) => {
                let action = choose(&req);
                if action.is_none() {
                    Stats::add(&stats.unreadable);
                }
                out(Out::Reply(v1::DecisionReply {
                    request_id: req.request_id,
                    table_id: req.table_id,
                    action,
                }))?;
                Stats::add(&stats.answered);
            }
            Some(In::Ping(p)) => out(Out::Pong(v1::Pong { nonce: p.nonce }))?,
            Some(In::End(_)) => {
                Stats::add(&stats.tables);
                ended += 1;
                if options.tables > 0 && ended >= options.tables {
                    break;
                }
            }
            _ => {}
        }
    }
    Ok(ended)
}

/// [`play`] again whenever the stream ends (as a real bot reconnects), `backoff` apart; runs
/// until the task is dropped.
pub async fn play_forever(
    url: &str,
    bot: &str,
    token: &str,
    options: &Options,
    backoff: Duration,
) -> ! {
    loop {
        let _ = play(url, bot, token, options).await;
        tokio::time::sleep(backoff).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(legal: &[&str]) -> v1::DecisionRequest {
        v1::DecisionRequest {
            observation: Some(v1::Observation {
                game: Some(v1::observation::Game::Mahjong(v1::MahjongObservation {
                    legal: legal.iter().map(|s| s.to_string()).collect(),
                    ..Default::default()
                })),
            }),
            ..Default::default()
        }
    }

    fn picked(legal: &[&str]) -> Option<(v1::MahjongActionKind, String)> {
        match choose(&request(legal))?.game {
            Some(v1::action::Game::Mahjong(a)) => Some((a.kind(), a.tile)),
            _ => None,
        }
    }

    #[test]
    fn every_legal_spelling_reads_as_its_action() {
        use v1::MahjongActionKind as K;
        let cases = [
            ("discard 5S", K::Discard, "5S"),
            ("self-drawn-win", K::SelfDrawnWin, ""),
            ("concealed-kong E", K::ConcealedKong, "E"),
            ("added-kong 3T", K::AddedKong, "3T"),
            ("pass", K::Pass, ""),
            ("win", K::Win, ""),
            ("kong", K::Kong, ""),
            ("pung", K::Pung, ""),
            ("chow 7M", K::Chow, "7M"),
            ("rob-kong", K::RobKong, ""),
        ];
        for (text, kind, tile) in cases {
            let a = action_of_legal(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!((a.kind(), a.tile.as_str()), (kind, tile), "{text}");
        }
        for bad in ["", "unspecified", "discard 5S 6S", "hu"] {
            assert_eq!(action_of_legal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn it_wins_when_it_may_passes_on_claims_and_else_discards_the_first_listed() {
        use v1::MahjongActionKind as K;
        assert_eq!(
            picked(&["pass", "pung", "win"]),
            Some((K::Win, String::new()))
        );
        assert_eq!(
            picked(&["pass", "chow 3M", "pung"]),
            Some((K::Pass, String::new()))
        );
        assert_eq!(
            picked(&["discard 1M", "discard 9T", "concealed-kong E"]),
            Some((K::Discard, "1M".into()))
        );
        assert_eq!(
            picked(&["discard 1M", "self-drawn-win"]),
            Some((K::SelfDrawnWin, String::new()))
        );
        assert_eq!(picked(&[]), None);
        assert_eq!(choose(&v1::DecisionRequest::default()), None);
    }
}
