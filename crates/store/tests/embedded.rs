//! The embedded store beyond the conformance suite: persistence across reopening, sharing a data
//! directory, other processes, damaged files, and the runtimes it is driven from.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use arena_store::conformance::{self, generated, sample_panel, sample_record};
use arena_store::embedded::FILE_NAME;
use std::time::{Duration, Instant};

use arena_store::prelude::*;
use arena_store::{DealSource, EmbeddedStore, JobCounts, StoreError};

fn current_thread() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

const SOURCE: DealSource = DealSource {
    seed: 4,
    bombs: Some(1),
};

#[test]
fn reopening_the_data_directory_sees_everything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("nested/data");
    let panel = sample_panel("p-persist");
    let mut records: Vec<_> = (0..500)
        .map(|i| generated("p-persist", SOURCE, i * 3))
        .collect();
    records.push(sample_record("p-persist", "i-imported", None));

    {
        let store = EmbeddedStore::open(&data).expect("open creates the directories");
        assert!(data.join(FILE_NAME).is_file());
        current_thread().block_on(async {
            store.put_panel(&panel).await.expect("panel");
            assert_eq!(store.put_deals(&records).await.expect("deals"), 501);
            let ids = [records[0].id.clone(), records[1].id.clone()];
            assert_eq!(
                store.claim_deals("cup", &ids).await.expect("claim"),
                [true, true]
            );
        });
    }

    let store = EmbeddedStore::open(&data).expect("reopen");
    current_thread().block_on(async {
        assert_eq!(store.panels().await.expect("panels"), vec![panel.clone()]);
        assert_eq!(store.deal_count("p-persist").await.expect("count"), 501);
        let mut read = store.deals("p-persist").await.expect("deals");
        read.sort_by(|a, b| a.id.cmp(&b.id));
        let mut expected = records.clone();
        expected.sort_by(|a, b| a.id.cmp(&b.id));
        assert_eq!(read, expected);
        assert_eq!(
            store
                .measured_indices("p-persist", &SOURCE)
                .await
                .expect("indices"),
            (0..500).map(|i| i * 3).collect::<Vec<u64>>()
        );
        let used = store.used_deals().await.expect("used");
        assert_eq!(used.get(&records[1].id).map(String::as_str), Some("cup"));
        assert_eq!(used.len(), 2);
        // Writing the same batch after the restart still counts nothing twice.
        assert_eq!(store.put_deals(&records).await.expect("again"), 0);
    });
}

#[test]
fn a_data_directory_held_by_another_process_is_in_use() {
    let dir = tempfile::tempdir().expect("temp dir");
    // redb's locks belong to an open file, not to a process, so a database opened directly on the
    // file holds it exactly as another arena process would.
    let other = redb::Database::create(dir.path().join(FILE_NAME)).expect("other holder");
    match EmbeddedStore::open(dir.path()) {
        Err(StoreError::InUse(message)) => {
            let canonical = dir.path().canonicalize().expect("canonical");
            assert_eq!(
                message,
                format!(
                    "data directory {} is in use by another arena process",
                    canonical.display()
                )
            );
        }
        other => panic!("expected InUse, got {other:?}"),
    }
    drop(other);
    EmbeddedStore::open(dir.path()).expect("free again once the other holder is gone");
}

#[test]
fn handles_of_one_directory_share_one_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = EmbeddedStore::open(dir.path()).expect("open");
    let second = EmbeddedStore::open(&dir.path().join(".")).expect("open by another path");
    let rt = current_thread();
    rt.block_on(async {
        let (a, b) = (generated("p-two", SOURCE, 1), generated("p-two", SOURCE, 2));
        // Interleaved writes through both handles: all kept, each counted once.
        let (ab, ba) = ([a.clone(), b.clone()], [b, a]);
        let (x, y) = tokio::join!(first.put_deals(&ab), second.put_deals(&ba));
        assert_eq!(x.expect("first") + y.expect("second"), 2);
        assert_eq!(second.deal_count("p-two").await.expect("count"), 2);
    });
    // Dropping one handle leaves the other working; a new handle joins the live one.
    drop(first);
    let third = EmbeddedStore::open(dir.path()).expect("open while the second is live");
    rt.block_on(async {
        assert_eq!(third.deal_count("p-two").await.expect("count"), 2);
        assert_eq!(
            second
                .measured_indices("p-two", &SOURCE)
                .await
                .expect("indices"),
            [1, 2]
        );
    });
}

#[test]
fn reopening_while_an_abandoned_write_finishes_is_not_an_error() {
    // A caller gives up on a write (a timeout, Ctrl-C) and reopens the directory at once: the
    // abandoned write still finishes on its blocking thread, whole or not at all, and the reopen
    // shares or waits for the closing database instead of reporting another process.
    let dir = tempfile::tempdir().expect("temp dir");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    for round in 0..5u64 {
        let panel = format!("p-abandoned-{round}");
        let batch: Vec<_> = (0..1_000).map(|i| generated(&panel, SOURCE, i)).collect();
        let store = EmbeddedStore::open(dir.path()).expect("open");
        rt.block_on(async {
            let give_up = std::time::Duration::from_micros(round * 2_000);
            let _ = tokio::time::timeout(give_up, store.put_deals(&batch)).await;
        });
        drop(store);
        std::thread::sleep(std::time::Duration::from_micros(round * 1_000));
        let store = EmbeddedStore::open(dir.path()).expect("reopen right away");
        rt.block_on(async {
            let count = store.deal_count(&panel).await.expect("count");
            assert!(count == 0 || count == 1_000, "half a batch: {count}");
            // Whatever happened, the batch can be written now and is then whole.
            store.put_deals(&batch).await.expect("write again");
            assert_eq!(store.deal_count(&panel).await.expect("count"), 1_000);
        });
    }
}

#[test]
fn a_directory_this_process_just_closed_is_waited_for_while_its_lock_is_released() {
    let dir = tempfile::tempdir().expect("temp dir");
    drop(EmbeddedStore::open(dir.path()).expect("open"));
    // Stands for the last handle still closing the file: the lock is held a little longer.
    let closing = redb::Database::create(dir.path().join(FILE_NAME)).expect("hold the file");
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(closing);
    });
    let start = std::time::Instant::now();
    let store = EmbeddedStore::open(dir.path()).expect("opened once the lock is released");
    assert!(start.elapsed() >= std::time::Duration::from_millis(250));
    release.join().expect("release thread");
    current_thread().block_on(async {
        store
            .put_panel(&sample_panel("p-after"))
            .await
            .expect("usable");
    });
    drop(store);

    // Held for good (another process): after the wait, the error.
    let _held = redb::Database::create(dir.path().join(FILE_NAME)).expect("hold the file");
    match EmbeddedStore::open(dir.path()) {
        Err(StoreError::InUse(message)) => {
            assert!(
                message.contains("in use by another arena process"),
                "{message}"
            )
        }
        other => panic!("expected InUse, got {other:?}"),
    }
}

#[test]
fn a_file_that_is_not_a_database_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(FILE_NAME), vec![0x5a; 64 * 1024]).expect("write garbage");
    match EmbeddedStore::open(dir.path()) {
        Err(StoreError::Corrupt { key, reason }) => {
            assert!(key.ends_with(FILE_NAME), "{key}");
            assert!(reason.contains("Not a redb database"), "{reason}");
        }
        other => panic!("expected Corrupt naming the file, got {other:?}"),
    }
}

/// The store holds secrets (a ladder's deal key, a competition's seed) and bot programs run on
/// the same host: only its owner may read it.
#[cfg(unix)]
#[test]
fn a_new_store_is_private_and_an_old_world_readable_file_is_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("new/data");
    let store = EmbeddedStore::open(&data).expect("open");
    assert_eq!(mode(&data), 0o700, "the data directory");
    assert_eq!(mode(&dir.path().join("new")), 0o700, "a parent it made");
    assert_eq!(mode(store.path()), 0o600, "the database file");
    drop(store);

    let old = dir.path().join("old");
    std::fs::create_dir(&old).unwrap();
    let file = old.join(FILE_NAME);
    drop(EmbeddedStore::open(&old).expect("open"));
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let _store = EmbeddedStore::open(&old).expect("reopen");
    assert_eq!(
        mode(&file),
        0o600,
        "a store made before stores were private"
    );
}

#[test]
fn a_data_directory_that_cannot_be_created_is_unavailable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"not a directory").expect("write");
    match EmbeddedStore::open(&file.join("data")) {
        Err(StoreError::Unavailable(message)) => {
            assert!(
                message.contains("cannot create data directory"),
                "{message}"
            )
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[test]
fn one_store_serves_one_short_lived_runtime_after_another() {
    // As a CLI does: each command builds a small current-thread runtime, uses the store, drops it.
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EmbeddedStore::open(dir.path()).expect("open");
    for i in 0..3 {
        current_thread().block_on(async {
            store
                .put_deals(&[generated("p-cli", SOURCE, i)])
                .await
                .expect("put");
            assert_eq!(store.deal_count("p-cli").await.expect("count"), i + 1);
        });
    }
    current_thread().block_on(conformance::run_all(&store));
}

/// Drives a future on this thread with no tokio runtime at all.
fn block_on_without_tokio<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
        std::thread::yield_now();
    }
}

#[test]
fn works_without_a_tokio_runtime() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EmbeddedStore::open(dir.path()).expect("open");
    let panel = sample_panel("p-plain");
    block_on_without_tokio(store.put_panel(&panel)).expect("put");
    assert_eq!(
        block_on_without_tokio(store.panel("p-plain")).expect("read"),
        Some(panel)
    );
    assert!(
        store.describe().starts_with("embedded ("),
        "{}",
        store.describe()
    );
    assert!(store.describe().contains(FILE_NAME), "{}", store.describe());
}

#[test]
fn jobs_results_and_bots_survive_reopening_and_presence_does_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let reclaim = Duration::from_millis(200);
    let bot = conformance::sample_bot("b-persist");
    let (ids, taken_at) = {
        let store = EmbeddedStore::open(dir.path()).expect("open");
        current_thread().block_on(async {
            let mut ids = Vec::new();
            for i in 0..3 {
                ids.push(
                    store
                        .enqueue_job(&format!("t{i}"), format!("job {i}").as_bytes())
                        .await
                        .expect("enqueue"),
                );
            }
            // The process "dies" holding job 0. Its clock starts before the call: the store stamps
            // the job somewhere within it, and a commit on a loaded machine takes milliseconds, so
            // an instant taken after the call would make a timely reclaim look early.
            let taken_at = Instant::now();
            let job = store
                .next_job("old-referee", reclaim, Duration::ZERO)
                .await
                .expect("next_job")
                .expect("job 0");
            assert_eq!(job.entry_id, ids[0]);
            assert!(
                store
                    .put_result("cup/t9", Some("cup"), b"result", b"replay")
                    .await
                    .expect("put_result")
            );
            assert!(store.add_bot(&bot).await.expect("add bot"));
            store
                .set_presence(&bot.name, "host", Duration::from_secs(60))
                .await
                .expect("presence");
            (ids, taken_at)
        })
    };

    let store = EmbeddedStore::open(dir.path()).expect("reopen");
    current_thread().block_on(async {
        assert_eq!(
            store.job_counts().await.expect("counts"),
            JobCounts {
                waiting: 2,
                pending: 1
            }
        );
        assert_eq!(
            store.results_for("cup").await.expect("results_for"),
            vec![("cup/t9".to_string(), b"result".to_vec())]
        );
        assert_eq!(
            store.replay("cup/t9").await.expect("replay"),
            Some(b"replay".to_vec())
        );
        assert!(
            !store
                .put_result("cup/t9", None, b"again", b"again")
                .await
                .expect("put_result"),
            "still written once"
        );
        assert_eq!(store.bot(&bot.name).await.expect("bot"), Some(bot.clone()));
        assert!(
            store
                .presence(&bot.name)
                .await
                .expect("presence")
                .is_empty(),
            "presence does not outlive the process"
        );

        // The waiting jobs in order; the dead referee's job once reclaim_after has passed since
        // it took it, as if it had never restarted.
        for (n, id) in ids.iter().enumerate().skip(1) {
            let job = store
                .next_job("new-referee", reclaim, Duration::ZERO)
                .await
                .expect("next_job");
            if taken_at.elapsed() + Duration::from_millis(5) < reclaim {
                let job = job.expect("a waiting job");
                assert_eq!((&job.entry_id, job.deliveries), (id, 1), "job {n}");
                store.ack_job(&job.entry_id).await.expect("ack");
            } else if let Some(job) = job {
                // A slow machine: job 0 may be reclaimable already and comes first.
                store.ack_job(&job.entry_id).await.expect("ack");
            }
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while store.job_counts().await.expect("counts") != JobCounts::default() {
            assert!(Instant::now() < deadline, "the queue did not drain");
            if let Some(job) = store
                .next_job("new-referee", reclaim, Duration::from_millis(50))
                .await
                .expect("next_job")
            {
                if job.entry_id == ids[0] {
                    assert_eq!(job.deliveries, 2, "reclaimed after the restart");
                    assert!(
                        taken_at.elapsed() + Duration::from_millis(5) >= reclaim,
                        "reclaimed {:?} after it was taken",
                        taken_at.elapsed()
                    );
                }
                store.ack_job(&job.entry_id).await.expect("ack");
            }
        }
        // Entry ids go on increasing after the restart.
        let next = store.enqueue_job("t3", b"job 3").await.expect("enqueue");
        let last: u64 = ids[2].parse().expect("a number");
        assert!(
            next.parse::<u64>().expect("a number") > last,
            "{next} after {last}"
        );
    });
}

#[test]
fn next_job_waits_without_a_tokio_runtime() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EmbeddedStore::open(dir.path()).expect("open");
    let block = Duration::from_millis(50);
    let start = Instant::now();
    let job = block_on_without_tokio(store.next_job("plain", Duration::from_secs(60), block))
        .expect("next_job");
    assert_eq!(job, None);
    assert!(start.elapsed() >= block, "{:?}", start.elapsed());
    let id = block_on_without_tokio(store.enqueue_job("t", b"job")).expect("enqueue");
    let job = block_on_without_tokio(store.next_job("plain", Duration::from_secs(60), block))
        .expect("next_job")
        .expect("the job");
    assert_eq!(job.entry_id, id);
}

/// Where [`crashing_referee`] works, when it is run by
/// [`a_crash_after_taking_jobs_loses_no_job_and_no_result`].
const CRASH_DIR: &str = "ARENA_TEST_CRASH_DIR";

/// Not a test of its own: the process that
/// [`a_crash_after_taking_jobs_loses_no_job_and_no_result`] starts. It takes a job and writes its
/// result, takes another, and dies (`exit`: no destructor runs, so the store is never closed).
#[test]
#[ignore = "run by a_crash_after_taking_jobs_loses_no_job_and_no_result, in a process of its own"]
fn crashing_referee() {
    let Ok(dir) = std::env::var(CRASH_DIR) else {
        return;
    };
    let store = EmbeddedStore::open(std::path::Path::new(&dir)).expect("open");
    current_thread().block_on(async {
        let reclaim = Duration::from_secs(3600);
        let a = store
            .next_job("crasher", reclaim, Duration::ZERO)
            .await
            .expect("next_job")
            .expect("job a");
        assert_eq!(a.table_id, "cup/a");
        let finished = arena_store::FinishedJob {
            entry_id: &a.entry_id,
            table_id: &a.table_id,
            competition: Some("cup"),
            result: b"result a",
            replay: b"replay a",
        };
        assert_eq!(
            store.finish_jobs(&[finished]).await.expect("finish_jobs"),
            [true]
        );
        let b = store
            .next_job("crasher", reclaim, Duration::ZERO)
            .await
            .expect("next_job")
            .expect("job b");
        assert_eq!(b.table_id, "cup/b");
    });
    std::process::exit(0);
}

/// Taking a job is not `fsync`ed on its own; a process dying right after it must still lose
/// nothing: the result it wrote is there, and the job it held is handed out again.
#[test]
fn a_crash_after_taking_jobs_loses_no_job_and_no_result() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let store = EmbeddedStore::open(dir.path()).expect("open");
        current_thread().block_on(async {
            store
                .enqueue_jobs(&[("cup/a", b"job a"), ("cup/b", b"job b")])
                .await
                .expect("enqueue");
        });
    }
    let status = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "crashing_referee", "--ignored", "--nocapture"])
        .env(CRASH_DIR, dir.path())
        .status()
        .expect("the crashing process ran");
    assert!(status.success(), "the crashing process failed: {status}");

    let store = EmbeddedStore::open(dir.path()).expect("reopen after the crash");
    current_thread().block_on(async {
        assert_eq!(
            store.results_for("cup").await.expect("results_for"),
            vec![("cup/a".to_string(), b"result a".to_vec())]
        );
        let counts = store.job_counts().await.expect("counts");
        assert_eq!(
            counts.waiting + counts.pending,
            1,
            "{counts:?}: only b is left"
        );
        let again = store
            .next_job("another", Duration::from_millis(1), Duration::from_secs(5))
            .await
            .expect("next_job")
            .expect("b is handed out again");
        assert_eq!(again.table_id, "cup/b");
        assert_eq!(again.payload, b"job b");
    });
}

#[test]
fn every_lane_of_the_embedded_store_is_its_one_stream_and_a_bad_lane_is_still_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EmbeddedStore::open(dir.path()).expect("open");
    current_thread().block_on(async {
        let short = store.lane("short").expect("lane");
        short.enqueue_job("s/1", b"job").await.expect("enqueue");
        let job = store
            .next_job("referee", Duration::from_secs(60), Duration::ZERO)
            .await
            .expect("next_job")
            .expect("the lane's job, on the one stream");
        assert_eq!(job.table_id, "s/1");
        assert!(matches!(store.lane("No"), Err(StoreError::Invalid(_))));
    });
}
