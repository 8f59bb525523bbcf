//! SubmitTable cannot write a table that a competition or a ladder schedules: a submitted table
//! under such an id would take the real table's result slot and finish its deal group early,
//! serving the deal of a table still being played.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::sync::Arc;

use arena_proto::v1;
use arena_proto::v1::table_referee_server::TableReferee;
use arena_referee::RefereeService;
use arena_store::visibility::{COMPETITION_KIND, DEAL_GROUP_LABEL};
use arena_store::{EmbeddedStore, Store};
use tonic::{Code, Request};

fn job(id: &str) -> v1::TableJob {
    v1::TableJob {
        table_id: id.into(),
        game: "ddz".into(),
        seats: ["expert", "random", "random"]
            .map(|b| v1::SeatSpec { bot: b.into() })
            .to_vec(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup::default())),
        seed: 1,
        ..Default::default()
    }
}

async fn submit(svc: &RefereeService, job: v1::TableJob) -> Result<(), tonic::Status> {
    svc.submit_table(Request::new(v1::SubmitTableRequest { job: Some(job) }))
        .await
        .map(|_| ())
}

#[tokio::test]
async fn tables_of_competitions_ladders_and_deal_groups_cannot_be_submitted() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    store
        .put_record(COMPETITION_KIND, "cup", b"a competition")
        .await
        .unwrap();
    let svc = RefereeService::new(store.clone());
    let refused = [
        (job("cup/m0/r0/t1"), "under competition \"cup\""),
        (job("cup/m0/r0/t1/f"), "under competition \"cup\""),
        (
            v1::TableJob {
                competition: "cup".into(),
                ..job("cup-2")
            },
            "under competition \"cup\"",
        ),
        (job("ladder/p7/a"), "\"ladder\" is the ladder's"),
        (
            job("ladder-mahjong/p1/r0"),
            "\"ladder-mahjong\" is the ladder's",
        ),
        (
            v1::TableJob {
                labels: [(DEAL_GROUP_LABEL.to_string(), "solo/g".to_string())].into(),
                ..job("solo-1")
            },
            "label is set only by the matchmaker",
        ),
        (
            v1::TableJob {
                placement: Some(Box::default()),
                ..job("solo-2")
            },
            "placement is set only by the matchmaker",
        ),
    ];
    for (j, why) in refused {
        let id = j.table_id.clone();
        let e = submit(&svc, j).await.unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{id}: {e:?}");
        assert!(
            e.message()
                .starts_with(&format!("job.table_id: table {id:?} cannot be submitted")),
            "{id}: {e:?}"
        );
        assert!(e.message().contains(why), "{id}: {e:?}");
    }
    assert_eq!(
        store.job_counts().await.unwrap().waiting,
        0,
        "nothing refused was queued"
    );
    // Any other table is queued as before, a competition's name as a prefix of its own too.
    submit(&svc, job("solo-3")).await.unwrap();
    submit(&svc, job("cupboard/1")).await.unwrap();
}
