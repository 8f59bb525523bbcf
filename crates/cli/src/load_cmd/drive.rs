//! A run: registers and connects the fleet, submits its tables, measures each step and reports.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use arena_proto::v1;
use tokio::sync::{Semaphore, watch};

use super::args::RunArgs;
use super::fleet::{Behaviour, Dial, Fleet, Identity, bot_task, register};
use super::measure::{Measure, ProcMeasure, Progress, Watched, status_line};
use super::tally::{Shared, histogram, lock};
use crate::client;

/// Table submissions in progress at once.
pub(super) const SUBMITS_AT_ONCE: usize = 16;

/// The job of table `n` of this run, seating three of `bots`.
pub(super) fn table_job(a: &RunArgs, run: &str, n: u64, bots: &[String]) -> v1::TableJob {
    let seat = |j: u64| bots[((3 * n + j) % bots.len() as u64) as usize].clone();
    let deal = ddz::Deal::generate(a.seed, n);
    v1::TableJob {
        table_id: format!("{}-{run}-{n}", a.prefix),
        game: "ddz".into(),
        seats: (0..3).map(|j| v1::SeatSpec { bot: seat(j) }).collect(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: deal.to_string(),
            rules: "competition".into(),
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
            fixed_bid: 1,
            scoring: "competition".into(),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: a.decision_ms.saturating_mul(5),
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed.wrapping_add(n),
        labels: [("load".to_string(), run.to_string())].into(),
        lane: a.lane.clone(),
        ..Default::default()
    }
}

pub(super) async fn load(mut a: RunArgs) -> Result<()> {
    // Every address from here on is the one to dial: given, or found in the data directory.
    a.bot_host = Some(
        a.auth
            .address(a.bot_host.as_deref(), client::Role::BotHost)?,
    );
    a.matchmaker = Some(
        a.auth
            .address(a.matchmaker.as_deref(), client::Role::Matchmaker)?,
    );
    a.referee = Some(
        a.auth
            .address(a.referee.as_deref(), client::Role::Referee)?,
    );
    let steps: Vec<usize> = if a.steps.is_empty() {
        vec![a.bots]
    } else {
        a.steps.clone()
    };
    let most = *steps.last().unwrap_or(&a.bots);
    let names: Vec<String> = (0..most).map(|i| format!("{}-{i:05}", a.prefix)).collect();
    let mut watched = Watched {
        procs: a.watch.clone(),
    };
    watched
        .procs
        .push(("arena load".into(), std::process::id()));
    let t0 = Instant::now();
    let tokens = register(&a, &names).await?;
    eprintln!(
        "arena load: {} bots registered in {:.1} s through {}",
        names.len(),
        t0.elapsed().as_secs_f64(),
        a.matchmaker()
    );
    let referee = if a.idle {
        None
    } else {
        let channel = client::connect(a.referee(), client::Role::Referee, &a.auth).await?;
        Some(v1::table_referee_client::TableRefereeClient::new(channel))
    };
    let dial = if a.connections == 0 {
        Dial::Own(a.bot_host().to_string())
    } else {
        let mut clients = Vec::with_capacity(a.connections);
        for _ in 0..a.connections {
            clients.push(
                arena_sdk::connect(a.bot_host(), &arena_tls::ClientTlsFiles::default()).await?,
            );
        }
        Dial::Shared(clients)
    };
    let sh = Arc::new(Shared::new());
    let how = Arc::new(Behaviour {
        think: a.think,
        crash: a.crash_rate,
        hang: a.hang_rate,
        garbage: a.garbage_rate,
        restart: Duration::from_millis(a.restart_ms),
        capacity: a.capacity,
        seed: a.seed,
    });
    let fleet = Fleet {
        sh: Arc::clone(&sh),
        how,
        dial,
        gate: Arc::new(Semaphore::new(a.connect_burst)),
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut interrupt = interrupted();
    let mut bots = tokio::task::JoinSet::new();
    let run_id = format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0)
    );
    let mut progress = Progress::new(Duration::from_secs(a.progress_secs.max(1)));
    let mut table_no = 0u64;
    let mut outcome = Ok(());
    for &step in &steps {
        // Connect the bots up to this step.
        let before = watched.sample();
        let connect_start = Instant::now();
        for i in bots.len()..step {
            let me = Identity {
                index: i,
                name: names[i].clone(),
                token: tokens[i].clone(),
            };
            bots.spawn(bot_task(fleet.clone(), me, stop_rx.clone()));
        }
        loop {
            let connected = sh.connected.load(Ordering::Relaxed) as usize;
            if connected >= step {
                break;
            }
            if sh.refused.load(Ordering::Relaxed) > 0 && a.crash_rate == 0.0 {
                outcome = Err(anyhow::anyhow!(
                    "bot-host refused bots: {}",
                    lock(&sh.errors).get("refused").cloned().unwrap_or_default()
                ));
                break;
            }
            if connect_start.elapsed() > Duration::from_secs(300) {
                outcome = Err(anyhow::anyhow!(
                    "only {connected} of {step} bots connected within 300 s (last error: {:?})",
                    lock(&sh.errors).values().last()
                ));
                break;
            }
            progress.show(status_line(&sh, step, connect_start));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if outcome.is_err() {
            break;
        }
        let connect_secs = connect_start.elapsed().as_secs_f64();
        // Let the connections settle (first keepalives, presence writes) before sampling memory.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let with = watched.sample();
        let mut playing = with.clone();
        let mut peak_in_flight = 0;
        // Play (or hold).
        *lock(&sh.latency) = histogram();
        let decisions0 = sh.decisions.load(Ordering::Relaxed);
        let (finished0, without0, verdicts0) = {
            let b = lock(&sh.book);
            (b.finished, b.without_outcome, b.verdicts.clone())
        };
        sh.step_base.store(finished0, Ordering::Relaxed);
        let start = Instant::now();
        let deadline = (a.duration > 0).then(|| start + Duration::from_secs(a.duration));
        let seated = &names[..step];
        if let Some(referee) = &referee {
            let slots = Arc::new(Semaphore::new(a.in_flight));
            let mut submitted = 0u64;
            let mut submits = tokio::task::JoinSet::new();
            let mut sampled = Instant::now();
            // The RSS when the most tables were in flight: what they hold.
            let mut peak = |peak_in_flight: &mut usize, playing: &mut Vec<_>, force: bool| {
                if force || sampled.elapsed() >= Duration::from_secs(1) {
                    sampled = Instant::now();
                    let n = lock(&sh.book).in_flight.len();
                    if n >= *peak_in_flight && n > 0 {
                        *peak_in_flight = n;
                        *playing = watched.sample();
                    }
                }
            };
            'submitting: while a.tables == 0 || submitted < a.tables {
                if deadline.is_some_and(|d| Instant::now() >= d) || *interrupt.borrow() {
                    break;
                }
                peak(&mut peak_in_flight, &mut playing, false);
                let permit = tokio::select! {
                    p = slots.clone().acquire_owned() => p.context("the table slots closed")?,
                    () = tokio::time::sleep(Duration::from_millis(100)) => {
                        progress.show(status_line(&sh, step, start));
                        continue;
                    }
                    _ = interrupt.changed() => continue,
                };
                let job = table_job(&a, &run_id, table_no, seated);
                table_no += 1;
                lock(&sh.book)
                    .in_flight
                    .insert(job.table_id.clone(), permit);
                // Several submissions at once: each is a store write on the referee's side.
                while submits.len() >= SUBMITS_AT_ONCE
                    || (submitted + 1 == a.tables && !submits.is_empty())
                {
                    match submits.join_next().await {
                        Some(Ok(Ok(()))) | None => {}
                        Some(Ok(Err(e))) => {
                            outcome = Err(e);
                            break 'submitting;
                        }
                        Some(Err(e)) => {
                            outcome = Err(anyhow::anyhow!("a submission task failed: {e}"));
                            break 'submitting;
                        }
                    }
                }
                let (mut referee, book, url) =
                    (referee.clone(), Arc::clone(&sh), a.referee().to_string());
                submits.spawn(async move {
                    let id = job.table_id.clone();
                    match referee
                        .submit_table(v1::SubmitTableRequest { job: Some(job) })
                        .await
                    {
                        Ok(_) => Ok(()),
                        Err(s) => {
                            lock(&book.book).in_flight.remove(&id);
                            Err(client::status(s)
                                .context(format!("submitting table {id} to {url}")))
                        }
                    }
                });
                submitted += 1;
                progress.show(status_line(&sh, step, start));
            }
            while let Some(done) = submits.join_next().await {
                if let Ok(Err(e)) = done
                    && outcome.is_ok()
                {
                    outcome = Err(e);
                }
            }
            peak(&mut peak_in_flight, &mut playing, true);
            // The tables in flight finish (a hung seat takes the hard cap).
            let patience = Duration::from_millis(u64::from(a.decision_ms) * 5 * 60)
                .max(Duration::from_secs(60));
            let waited = Instant::now();
            while !lock(&sh.book).in_flight.is_empty() {
                peak(&mut peak_in_flight, &mut playing, false);
                if waited.elapsed() > patience {
                    let left = lock(&sh.book).in_flight.len();
                    outcome = Err(anyhow::anyhow!(
                        "{left} tables did not finish within {} s",
                        patience.as_secs()
                    ));
                    break;
                }
                progress.show(status_line(&sh, step, start));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        } else {
            while deadline.is_some_and(|d| Instant::now() < d) && !*interrupt.borrow() {
                progress.show(status_line(&sh, step, start));
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(200)) => {}
                    _ = interrupt.changed() => {}
                }
            }
        }
        let after = watched.sample();
        let book = lock(&sh.book);
        let end = if a.idle {
            Instant::now()
        } else {
            book.last_end.unwrap_or_else(Instant::now).max(start)
        };
        let mut verdicts = book.verdicts.clone();
        for (k, n) in &verdicts0 {
            if let Some(v) = verdicts.get_mut(k) {
                *v -= n;
            }
        }
        verdicts.retain(|_, n| *n > 0);
        let m = Measure {
            bots: step,
            wall: end - start,
            tables: book.finished - finished0,
            without_outcome: book.without_outcome - without0,
            decisions: sh.decisions.load(Ordering::Relaxed) - decisions0,
            latency: lock(&sh.latency).clone(),
            verdicts,
            procs: watched
                .procs
                .iter()
                .enumerate()
                .map(|(i, (name, _))| {
                    let rss = |s: &[Option<(u64, Duration)>]| s[i].map(|x| x.0);
                    let cpu = match (with[i], after[i]) {
                        (Some(w), Some(x)) => Some(x.1.saturating_sub(w.1)),
                        _ => None,
                    };
                    ProcMeasure {
                        name: name.clone(),
                        rss_before: rss(&before),
                        rss_with: rss(&with),
                        rss_playing: rss(&playing),
                        cpu,
                    }
                })
                .collect(),
            connect_secs,
            peak_in_flight,
        };
        drop(book);
        progress.done();
        let json = m.json(&a, &sh, a.idle);
        if a.json {
            println!("{json}");
        } else {
            m.print(&a, &sh, a.idle);
        }
        if let Some(path) = &a.results {
            use std::io::Write as _;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening --results {}", path.display()))?;
            writeln!(f, "{json}").with_context(|| format!("writing {}", path.display()))?;
        }
        if outcome.is_err() || *interrupt.borrow() {
            break;
        }
    }
    // Every bot drains (its tables in flight end), within a bound.
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while bots.join_next().await.is_some() {}
    })
    .await;
    bots.abort_all();
    outcome
}

/// Becomes true at the first SIGINT or SIGTERM: no new table is submitted, the tables in
/// flight finish and the measurement so far is reported (a step of `--steps` not yet begun is
/// not). A second signal exits at once, reporting nothing.
pub(super) fn interrupted() -> watch::Receiver<bool> {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = watch::channel(false);
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        eprintln!("arena load: cannot watch for SIGINT and SIGTERM; a signal stops it at once");
        return rx;
    };
    tokio::spawn(async move {
        for n in 0.. {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
            if n > 0 {
                eprintln!("arena load: a second signal: stopping at once, no report");
                std::process::exit(130);
            }
            eprintln!(
                "arena load: stopping: no new tables; the tables in flight finish, then the \
                 report (a second signal stops at once)"
            );
            let _ = tx.send(true);
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_seats_three_different_bots_in_turn() {
        let a = RunArgs::try_parse_from_default();
        let bots: Vec<String> = (0..7).map(|i| format!("b{i}")).collect();
        let seats = |n| -> Vec<String> {
            table_job(&a, "r", n, &bots)
                .seats
                .into_iter()
                .map(|s| s.bot)
                .collect()
        };
        assert_eq!(seats(0), ["b0", "b1", "b2"]);
        assert_eq!(seats(1), ["b3", "b4", "b5"]);
        assert_eq!(seats(2), ["b6", "b0", "b1"]);
        let job = table_job(&a, "r", 2, &bots);
        assert_eq!(job.table_id, "load-r-2");
        assert_eq!(job.time.unwrap().hard_cap_ms, 5000);
    }

    impl RunArgs {
        fn try_parse_from_default() -> RunArgs {
            #[derive(clap::Parser)]
            struct P {
                #[command(flatten)]
                r: RunArgs,
            }
            <P as clap::Parser>::parse_from(["load"]).r
        }
    }
}
