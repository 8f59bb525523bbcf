//! What the matchmaker's tests share.

use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use arena_store::Store;
use prost::Message;

/// Plays the next queued table as a referee of the test's own would: its result is written and
/// the job acknowledged. The job and its result.
pub async fn play_next(store: &Arc<dyn Store>) -> (v1::TableJob, v1::TableResult) {
    let entry = store
        .next_job(
            "test-referee",
            Duration::from_secs(60),
            Duration::from_secs(5),
        )
        .await
        .unwrap()
        .expect("a queued table");
    let v1::QueuedJob {
        job: Some(v1::queued_job::Job::Table(job)),
    } = v1::QueuedJob::decode(entry.payload.as_slice()).unwrap()
    else {
        panic!("not a table job");
    };
    let (result, replay) = arena_referee::run_table(&job, &Default::default(), None)
        .await
        .unwrap();
    store
        .put_result(
            &job.table_id,
            Some(&job.competition),
            &result.encode_to_vec(),
            &replay.encode_to_vec(),
        )
        .await
        .unwrap();
    store.ack_job(&entry.entry_id).await.unwrap();
    (job, result)
}
