//! The `TableReferee` gRPC service: submit a job to the queue, read results and replays back.

use std::sync::Arc;

use arena_games::validate;
use arena_proto::v1;
use arena_proto::v1::table_referee_server::{TableReferee, TableRefereeServer};
use arena_serve::{ApiError, store_status};
use arena_store::Store;
use prost::Message;
use tonic::{Request, Response, Status};
use tracing::Instrument;

use arena_table::queue::encode_table_job;

/// Serves `TableReferee` over a store.
#[derive(Clone)]
pub struct RefereeService {
    store: Arc<dyn Store>,
}

impl RefereeService {
    async fn submit(
        &self,
        request: v1::SubmitTableRequest,
    ) -> Result<v1::SubmitTableResponse, ApiError> {
        let Some(mut job) = request.job else {
            return Err(ApiError::Invalid("job: missing".into()));
        };
        // Stamped here, whatever the client sent: the wait is measured from this queue.
        job.labels.extend(arena_telemetry::job_labels());
        validate(&job).map_err(|e| ApiError::Invalid(e.to_string()))?;
        if let Some(why) = arena_store::visibility::why_reserved(
            &*self.store,
            &job.table_id,
            &job.competition,
            &job.labels,
            job.placement.is_some(),
        )
        .await?
        {
            return Err(ApiError::Invalid(format!(
                "job.table_id: table {} cannot be submitted: {why}",
                arena_proto::text::quote(&job.table_id)
            )));
        }
        if self.store.result(&job.table_id).await?.is_some() {
            return Err(ApiError::AlreadyExists(format!(
                "job.table_id: table {:?} already has a result",
                job.table_id
            )));
        }
        let lane = match job.lane.as_str() {
            "" => None,
            lane => Some(self.store.lane(lane).map_err(|e| match e {
                arena_store::StoreError::Invalid(why) => {
                    ApiError::Invalid(format!("job.lane: {why}"))
                }
                e => e.into(),
            })?),
        };
        let stream_id = lane
            .as_deref()
            .unwrap_or(&*self.store)
            .enqueue_job(&job.table_id, &encode_table_job(&job))
            .await?;
        tracing::info!(table_id = %job.table_id, stream_id, "table submitted");
        Ok(v1::SubmitTableResponse {
            table_id: job.table_id,
            stream_id,
        })
    }

    /// `FAILED_PRECONDITION` unless the table's deal may be shown (see
    /// [`arena_store::visibility`]).
    async fn check_shown(
        &self,
        id: &str,
        labels: &std::collections::HashMap<String, String>,
    ) -> Result<(), ApiError> {
        match arena_store::visibility::may_show(&*self.store, labels).await? {
            Ok(()) => Ok(()),
            Err(why) => Err(ApiError::FailedPrecondition(format!(
                "table {id:?} is not shown yet: {why}"
            ))),
        }
    }

    /// The service over `store`.
    pub fn new(store: Arc<dyn Store>) -> RefereeService {
        RefereeService { store }
    }

    /// The service as a tonic server, ready to add to a router.
    pub fn into_server(self) -> TableRefereeServer<RefereeService> {
        TableRefereeServer::new(self)
    }
}

fn table_id(req: &v1::GetTableRequest) -> Result<&str, ApiError> {
    if req.table_id.is_empty() {
        return Err(ApiError::Invalid("table_id: is empty".into()));
    }
    if req.table_id.len() > arena_table::job::MAX_TABLE_ID_BYTES {
        return Err(ApiError::OutOfRange(format!(
            "table_id: at most {} bytes",
            arena_table::job::MAX_TABLE_ID_BYTES
        )));
    }
    if req.table_id.chars().any(char::is_control) {
        return Err(ApiError::Invalid(format!(
            "table_id: {:?} contains a control character",
            req.table_id
        )));
    }
    Ok(&req.table_id)
}

#[tonic::async_trait]
impl TableReferee for RefereeService {
    async fn submit_table(
        &self,
        request: Request<v1::SubmitTableRequest>,
    ) -> Result<Response<v1::SubmitTableResponse>, Status> {
        let span = tracing::info_span!("SubmitTable");
        arena_telemetry::propagation::set_parent(&span, request.metadata());
        self.submit(request.into_inner())
            .instrument(span)
            .await
            .map(Response::new)
            .map_err(Status::from)
    }

    async fn get_result(
        &self,
        request: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::TableResult>, Status> {
        let req = request.into_inner();
        let id = table_id(&req)?;
        let Some(bytes) = self.store.result(id).await.map_err(store_status)? else {
            return Err(ApiError::NotFound(format!(
                "table {id:?} has no result (unknown, or not finished yet)"
            ))
            .into());
        };
        let result = v1::TableResult::decode(bytes.as_slice()).map_err(|e| {
            ApiError::Internal(format!(
                "the stored result of table {id:?} does not decode: {e}"
            ))
        })?;
        // The labels name the deal: shown only once no table holding it is still played.
        self.check_shown(id, &result.labels).await?;
        Ok(Response::new(result))
    }

    async fn get_replay(
        &self,
        request: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::Replay>, Status> {
        let req = request.into_inner();
        let id = table_id(&req)?;
        let Some(bytes) = self.store.replay(id).await.map_err(store_status)? else {
            return Err(ApiError::NotFound(format!(
                "table {id:?} has no replay (unknown, or not finished yet)"
            ))
            .into());
        };
        let replay = v1::Replay::decode(bytes.as_slice()).map_err(|e| {
            ApiError::Internal(format!(
                "the stored replay of table {id:?} does not decode: {e}"
            ))
        })?;
        let labels = replay
            .job
            .as_ref()
            .map(|j| j.labels.clone())
            .unwrap_or_default();
        self.check_shown(id, &labels).await?;
        Ok(Response::new(replay))
    }
}
