//! The simulated bots: each a task playing on the Rust SDK's connection, with its think time
//! and injected faults, reconnecting on the client retry policy's backoff; and their
//! registration.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Context as _, Result};
use arena_proto::v1;
use arena_proto::v1::bot_gateway_client::BotGatewayClient;
use arena_proto::v1::host_to_bot::Msg as In;
use arena_sdk::Backoff;
use arena_sdk::connection::{self, Connection};
use rand::rngs::SmallRng;
use rand::{Rng as _, SeedableRng as _};
use tokio::sync::{Semaphore, watch};
use tonic::transport::Channel;

use super::args::{RunArgs, Think};
use super::tally::Shared;
use crate::client;

/// How the bots behave: what every bot task reads.
pub(super) struct Behaviour {
    pub(super) think: Think,
    pub(super) crash: f64,
    pub(super) hang: f64,
    pub(super) garbage: f64,
    pub(super) restart: Duration,
    pub(super) capacity: u32,
    pub(super) seed: u64,
}

/// The SDK's default Dou Dizhu bot: the first legal answer to everything.
pub(super) struct FirstLegal;

impl arena_sdk::ddz::DdzBot for FirstLegal {}

impl FirstLegal {
    /// The answer to `r`, an increment or a whole request: the first legal answer reads no
    /// events, so an increment's are dropped rather than rebuilt into a history (what the SDK's
    /// connection does for a bot that reads them), and the answer is the SDK's own.
    fn answer(r: &mut v1::DecisionRequest) -> v1::Action {
        if let Some(o) = r.observation.as_mut() {
            o.events.clear();
            o.events_from = 0;
        }
        arena_sdk::Bot::decide(&mut arena_sdk::ddz::Adapter::new(FirstLegal), r)
    }
}

impl Behaviour {
    /// The misbehaviour drawn for one request, named by the verdict it earns: a crash
    /// (`Disconnected`: the connection dropped), a hang (`Timeout`: no answer) or garbage
    /// (`Malformed`: an empty answer); `None` for the first legal answer.
    pub(super) fn fault(&self, rng: &mut SmallRng) -> Option<v1::VerdictKind> {
        if self.crash + self.hang + self.garbage == 0.0 {
            return None;
        }
        let u: f64 = rng.random();
        if u < self.crash {
            Some(v1::VerdictKind::Disconnected)
        } else if u < self.crash + self.hang {
            Some(v1::VerdictKind::Timeout)
        } else if u < self.crash + self.hang + self.garbage {
            Some(v1::VerdictKind::Malformed)
        } else {
            None
        }
    }
}

/// How one connection of a bot ended.
pub(super) enum Ended {
    /// Drained after the stop (or stopped before its welcome).
    Stopped,
    /// A simulated crash.
    Crashed,
    /// Lost (transport error, a status another attempt may fix), after its welcome or before.
    Lost { welcomed: bool },
    /// Refused for good (a bad token, the bot connected elsewhere).
    Refused,
}

/// Where a bot's connection comes from.
#[derive(Clone)]
pub(super) enum Dial {
    /// A connection of its own per connect.
    Own(String),
    /// One of a few shared connections.
    Shared(Vec<BotGatewayClient<Channel>>),
}

/// What every bot task shares.
#[derive(Clone)]
pub(super) struct Fleet {
    pub(super) sh: Arc<Shared>,
    pub(super) how: Arc<Behaviour>,
    pub(super) dial: Dial,
    /// Bounds the connection attempts in progress.
    pub(super) gate: Arc<Semaphore>,
}

/// One bot: its place in the fleet, its registered name and token.
pub(super) struct Identity {
    pub(super) index: usize,
    pub(super) name: String,
    pub(super) token: String,
}

/// One simulated bot, reconnecting after crashes and losses until `stop`.
pub(super) async fn bot_task(fleet: Fleet, me: Identity, mut stop: watch::Receiver<bool>) {
    let mut rng = SmallRng::seed_from_u64(
        fleet.how.seed ^ (me.index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut pause = None;
    let mut backoff = Backoff::CLIENT;
    loop {
        if let Some(p) = pause.take() {
            tokio::select! {
                () = tokio::time::sleep(p) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
        }
        if *stop.borrow() {
            return;
        }
        match connection(&fleet, &me, &mut rng, &mut stop).await {
            Ended::Stopped | Ended::Refused => return,
            Ended::Crashed => {
                backoff.reset();
                pause = Some(fleet.how.restart);
            }
            Ended::Lost { welcomed } => {
                if welcomed {
                    backoff.reset();
                }
                pause = Some(backoff.next_wait());
            }
        }
    }
}

pub(super) async fn connection(
    fleet: &Fleet,
    me: &Identity,
    rng: &mut SmallRng,
    stop: &mut watch::Receiver<bool>,
) -> Ended {
    let (sh, how, dial, gate) = (&fleet.sh, &*fleet.how, &fleet.dial, &fleet.gate);
    let (index, name, token) = (me.index, me.name.as_str(), me.token.as_str());
    // Held until the welcome: bounds the connection attempts in progress.
    let mut permit = match gate.clone().acquire_owned().await {
        Ok(p) => Some(p),
        Err(_) => return Ended::Stopped,
    };
    let mut client = match dial {
        Dial::Own(url) => {
            match arena_sdk::connect(url, &arena_tls::ClientTlsFiles::default()).await {
                Ok(c) => c,
                Err(e) => {
                    sh.lost.fetch_add(1, Ordering::Relaxed);
                    sh.error("connect", format!("{e:#}"));
                    return Ended::Lost { welcomed: false };
                }
            }
        }
        Dial::Shared(clients) => clients[index % clients.len()].clone(),
    };
    let hello = v1::Hello {
        bot: name.to_string(),
        release: "load".into(),
        capacity: how.capacity,
        resume_session: String::new(),
        games: vec![arena_sdk::ddz::GAME.into()],
        // As SDK bots do by default. The first legal answer needs no history, and every
        // increment carries the legal answers, so the increments need no rebuilding here.
        incremental_observations: true,
    };
    let mut conn = match Connection::open(&mut client, hello, token).await {
        Ok(c) => c,
        Err(e) if e.reconnects() => {
            sh.lost.fetch_add(1, Ordering::Relaxed);
            sh.error("lost", format!("{name}: {e}"));
            return Ended::Lost { welcomed: false };
        }
        Err(e) => {
            sh.refused.fetch_add(1, Ordering::Relaxed);
            sh.error("refused", format!("{name}: {e}"));
            return Ended::Refused;
        }
    };
    let tx = conn.sender();
    let mut welcomed = false;
    let mut draining = false;
    let ended = loop {
        let msg = tokio::select! {
            m = conn.next() => m,
            _ = stop.wait_for(|s| *s), if !draining => {
                draining = true;
                if !welcomed {
                    break Ended::Stopped;
                }
                tx.drain();
                continue;
            }
        };
        let msg = match msg {
            Ok(Some(m)) => m,
            Ok(None) if draining => break Ended::Stopped,
            Ok(None) => {
                sh.lost.fetch_add(1, Ordering::Relaxed);
                sh.error("lost", format!("{name}: bot-host ended the stream"));
                break Ended::Lost { welcomed };
            }
            Err(e) if !e.reconnects() => {
                sh.refused.fetch_add(1, Ordering::Relaxed);
                sh.error("refused", format!("{name}: {e}"));
                break Ended::Refused;
            }
            Err(_) if draining => break Ended::Stopped,
            Err(e) => {
                sh.lost.fetch_add(1, Ordering::Relaxed);
                sh.error("lost", format!("{name}: {e}"));
                break Ended::Lost { welcomed };
            }
        };
        match msg {
            In::Welcome(_) => {
                welcomed = true;
                permit = None;
                sh.welcomes.fetch_add(1, Ordering::Relaxed);
                sh.connected.fetch_add(1, Ordering::Relaxed);
            }
            In::Request(mut r) => {
                sh.request(&r.table_id);
                let action = match how.fault(rng) {
                    Some(v1::VerdictKind::Disconnected) => {
                        sh.forget(&r.table_id);
                        sh.crashes.fetch_add(1, Ordering::Relaxed);
                        break Ended::Crashed;
                    }
                    Some(v1::VerdictKind::Timeout) => {
                        sh.forget(&r.table_id);
                        sh.hangs.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    // Malformed: an empty answer.
                    Some(_) => {
                        sh.garbage.fetch_add(1, Ordering::Relaxed);
                        v1::Action::default()
                    }
                    None => FirstLegal::answer(&mut r),
                };
                let reply = connection::reply(&r, action);
                let think = how.think.sample(rng);
                if think.is_zero() {
                    sh.answered(&r.table_id);
                    tx.send(reply);
                } else {
                    let (sh, tx) = (Arc::clone(sh), tx.clone());
                    tokio::spawn(async move {
                        tokio::time::sleep(think).await;
                        sh.answered(&r.table_id);
                        tx.send(reply);
                    });
                }
            }
            In::End(e) => sh.end(&e),
            In::Notice(_) => {
                sh.notices.fetch_add(1, Ordering::Relaxed);
            }
            // The connection answers pings.
            In::Start(_) | In::Ping(_) => {}
        }
    };
    drop(permit);
    if welcomed {
        sh.connected.fetch_sub(1, Ordering::Relaxed);
    }
    ended
}

/// Registers `names` through the matchmaker's bot registry: their tokens (a new one for a bot
/// registered already).
pub(super) async fn register(a: &RunArgs, names: &[String]) -> Result<Vec<String>> {
    use v1::bot_registry_client::BotRegistryClient;
    let channel = client::connect(a.matchmaker(), client::Role::Matchmaker, &a.auth).await?;
    let registry = BotRegistryClient::new(channel);
    let mut tokens = vec![String::new(); names.len()];
    let mut tasks = tokio::task::JoinSet::new();
    let mut next = 0;
    // A few calls at once: the registry writes each bot to the store.
    while next < names.len() || !tasks.is_empty() {
        while next < names.len() && tasks.len() < 16 {
            let (mut reg, name, i) = (registry.clone(), names[next].clone(), next);
            tasks.spawn(async move {
                let added = reg
                    .add_bot(v1::AddBotRequest {
                        name: name.clone(),
                        ..Default::default()
                    })
                    .await;
                let answer = match added {
                    Err(s) if s.code() == tonic::Code::AlreadyExists => {
                        reg.rotate_bot_token(v1::BotNameRequest { name: name.clone() })
                            .await
                    }
                    other => other,
                };
                answer
                    .map(|r| (i, r.into_inner().token))
                    .map_err(|s| client::status(s).context(format!("registering bot {name}")))
            });
            next += 1;
        }
        if let Some(done) = tasks.join_next().await {
            let (i, token) = done.context("a registration task failed")??;
            tokens[i] = token;
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_come_at_their_rates() {
        let how = Behaviour {
            think: Think::Fixed(Duration::ZERO),
            crash: 0.1,
            hang: 0.2,
            garbage: 0.3,
            restart: Duration::ZERO,
            capacity: 1,
            seed: 1,
        };
        let mut rng = SmallRng::seed_from_u64(3);
        let mut n = [0u32; 4];
        for _ in 0..100_000 {
            n[match how.fault(&mut rng) {
                Some(v1::VerdictKind::Disconnected) => 0,
                Some(v1::VerdictKind::Timeout) => 1,
                Some(v1::VerdictKind::Malformed) => 2,
                Some(other) => panic!("no fault draws {other:?}"),
                None => 3,
            }] += 1;
        }
        for (i, want) in [0.1, 0.2, 0.3, 0.4].into_iter().enumerate() {
            let got = f64::from(n[i]) / 100_000.0;
            assert!((got - want).abs() < 0.01, "fault {i}: {got} for {want}");
        }
    }
}
