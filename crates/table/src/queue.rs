//! What travels on the job stream, and how a referee reads it.
//!
//! Entries are encoded [`v1::QueuedJob`]s (a table or a GDI batch). A bare encoded
//! [`v1::TableJob`] is accepted too. The entry's table id (given to `Store::enqueue_job` of
//! `arena-store`) tells the two apart and must match the job's.
//!
//! The codec lives here, next to the validation of the table job it carries ([`crate::job`]),
//! because three services use it: the matchmaker and the deal library write the stream and the
//! referee reads it. In the referee crate it made the other two depend on a service.

use arena_proto::v1;
use prost::Message;

/// The payload enqueued for a table job (by the matchmaker and the referee's `Enqueue`).
pub fn encode_table_job(job: &v1::TableJob) -> Vec<u8> {
    v1::QueuedJob {
        job: Some(v1::queued_job::Job::Table(job.clone())),
    }
    .encode_to_vec()
}

/// A queue entry, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Queued {
    /// A table to play.
    Table(v1::TableJob),
    /// Deals to measure.
    Gdi(v1::GdiBatch),
    /// Not a job this referee can read: why, and the table job if one could be read at all.
    Bad {
        /// The job, when the payload held one (with a mismatched table id).
        job: Option<v1::TableJob>,
        /// What is wrong, naming the field where there is one.
        error: String,
    },
}

/// Reads the payload of the entry queued for `table_id`.
pub fn decode(table_id: &str, payload: &[u8]) -> Queued {
    let mismatch = |job: v1::TableJob| Queued::Bad {
        error: format!(
            "job.table_id: {:?} does not match the table id {table_id:?} it was queued under",
            job.table_id
        ),
        job: Some(job),
    };
    let queued_err = match v1::QueuedJob::decode(payload) {
        Ok(v1::QueuedJob {
            job: Some(v1::queued_job::Job::Table(job)),
        }) if job.table_id == table_id => return Queued::Table(job),
        Ok(v1::QueuedJob {
            job: Some(v1::queued_job::Job::Gdi(batch)),
        }) => return Queued::Gdi(batch),
        Ok(v1::QueuedJob {
            job: Some(v1::queued_job::Job::Table(job)),
        }) => {
            // A bare TableJob can look like a QueuedJob; try that reading before giving up.
            match v1::TableJob::decode(payload) {
                Ok(bare) if bare.table_id == table_id => return Queued::Table(bare),
                _ => return mismatch(job),
            }
        }
        Ok(v1::QueuedJob { job: None }) => "it holds no job".to_string(),
        Err(e) => e.to_string(),
    };
    match v1::TableJob::decode(payload) {
        Ok(job) if job.table_id == table_id => Queued::Table(job),
        _ => Queued::Bad {
            job: None,
            error: format!(
                "the payload queued for table {table_id:?} ({} bytes) is not an arena.v1.QueuedJob: {queued_err}",
                payload.len()
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str) -> v1::TableJob {
        v1::TableJob {
            table_id: id.into(),
            game: "ddz".into(),
            seed: 3,
            ..Default::default()
        }
    }

    #[test]
    fn queued_and_bare_table_jobs_read_back_and_garbage_is_explained() {
        assert_eq!(
            decode("t1", &encode_table_job(&job("t1"))),
            Queued::Table(job("t1"))
        );
        assert_eq!(
            decode("t1", &job("t1").encode_to_vec()),
            Queued::Table(job("t1"))
        );
        let Queued::Bad {
            job: Some(j),
            error,
        } = decode("t2", &encode_table_job(&job("t1")))
        else {
            panic!()
        };
        assert_eq!(j.table_id, "t1");
        assert!(error.starts_with("job.table_id:"), "{error}");
        let Queued::Bad { job: None, error } = decode("t3", b"\xff\xff\xff") else {
            panic!()
        };
        assert!(error.contains("not an arena.v1.QueuedJob"), "{error}");
        let Queued::Bad { job: None, .. } = decode("t4", b"") else {
            panic!()
        };
        let gdi = v1::QueuedJob {
            job: Some(v1::queued_job::Job::Gdi(v1::GdiBatch {
                operation: "op".into(),
                count: 3,
                ..Default::default()
            })),
        };
        assert!(matches!(decode("op-0", &gdi.encode_to_vec()), Queued::Gdi(b) if b.count == 3));
    }
}
