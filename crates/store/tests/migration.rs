//! Data written before schema version 2 (Dou Dizhu panels and deal records without a game tag)
//! is migrated by both backends: read back as game-tagged values, and rewritten in the current
//! version once, with the version recorded.

mod common;

use arena_store::prelude::*;
use arena_store::{DealRecord, DealSource, EmbeddedStore, Game, Panel, RedisStore, SCHEMA_VERSION};
use redb::{ReadableDatabase, TableDefinition};

/// A panel exactly as version 1 wrote it.
const V1_PANEL: &str = r#"{"id":"p-old","landlords":["ladder:1/2","ladder:2/2"],"down":"expert","up":"seed","scoring":"difficulty"}"#;
/// A deal record exactly as version 1 wrote it (the gdi value needs every digit to read back).
const V1_RECORD: &str = r#"{"id":"g7-bx-3","deal":"3456789TJQKA2 3456789TJQKA2 3456789TJQKA2 BR","source":[{"seed":7,"bombs":null},3],"panel":"p-old","levels":[-2,2],"counts":[1,1],"gdi":[0.30000000000000004]}"#;

fn expected_panel() -> Panel {
    Panel {
        id: "p-old".into(),
        game: Game::LEGACY,
        seats: vec![
            vec!["ladder:1/2".into(), "ladder:2/2".into()],
            vec!["expert".into()],
            vec!["seed".into()],
        ],
        scoring: "difficulty".into(),
    }
}

fn expected_record() -> DealRecord {
    DealRecord {
        id: "g7-bx-3".into(),
        game: Game::LEGACY,
        deal: "3456789TJQKA2 3456789TJQKA2 3456789TJQKA2 BR".into(),
        source: Some((
            DealSource {
                seed: 7,
                bombs: None,
            },
            3,
        )),
        panel: "p-old".into(),
        levels: vec![-2, 2],
        counts: vec![1, 1],
        gdi: vec![0.1 + 0.2],
    }
}

fn is_current(json: &[u8]) -> bool {
    let value: serde_json::Value = serde_json::from_slice(json).expect("JSON");
    value["v"] == SCHEMA_VERSION && value["game"] == "ddz"
}

const PANELS: TableDefinition<&str, &[u8]> = TableDefinition::new("panels");
const DEALS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("deals");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

#[tokio::test]
async fn an_embedded_file_from_before_version_2_is_migrated_at_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(arena_store::embedded::FILE_NAME);
    {
        // The file as an older arena left it: no `meta` table, version 1 values.
        let db = redb::Database::create(&file).expect("create");
        let txn = db.begin_write().expect("write");
        txn.open_table(PANELS)
            .expect("panels")
            .insert("p-old", V1_PANEL.as_bytes())
            .expect("insert");
        txn.open_table(DEALS)
            .expect("deals")
            .insert(("p-old", "g7-bx-3"), V1_RECORD.as_bytes())
            .expect("insert");
        txn.commit().expect("commit");
    }
    let store = EmbeddedStore::open(dir.path()).expect("open migrates");
    assert_eq!(
        store.panel("p-old").await.expect("panel"),
        Some(expected_panel())
    );
    assert_eq!(
        store.deals("p-old").await.expect("deals"),
        vec![expected_record()]
    );
    assert_eq!(
        store
            .measured_indices(
                "p-old",
                &DealSource {
                    seed: 7,
                    bombs: None
                }
            )
            .await
            .expect("indices"),
        Vec::<u64>::new(),
        "the migration rewrites values, it does not invent index marks"
    );
    drop(store);

    let db = redb::Database::open(&file).expect("reopen raw");
    let txn = db.begin_read().expect("read");
    let panels = txn.open_table(PANELS).expect("panels");
    let deals = txn.open_table(DEALS).expect("deals");
    let meta = txn.open_table(META).expect("meta");
    assert!(is_current(
        panels.get("p-old").expect("get").expect("panel").value()
    ));
    assert!(is_current(
        deals
            .get(("p-old", "g7-bx-3"))
            .expect("get")
            .expect("deal")
            .value()
    ));
    assert_eq!(
        meta.get("schema").expect("get").expect("version").value(),
        u64::from(SCHEMA_VERSION)
    );
}

#[tokio::test]
async fn a_newer_embedded_file_is_refused_not_misread() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(arena_store::embedded::FILE_NAME);
    {
        let db = redb::Database::create(&file).expect("create");
        let txn = db.begin_write().expect("write");
        txn.open_table(META)
            .expect("meta")
            .insert("schema", u64::from(SCHEMA_VERSION) + 1)
            .expect("insert");
        txn.commit().expect("commit");
    }
    match EmbeddedStore::open(dir.path()) {
        Err(arena_store::StoreError::Corrupt { reason, .. }) => {
            assert!(reason.contains("newer"), "{reason}")
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

fn raw_conn() -> redis::Connection {
    redis::Client::open(common::SHARED_REDIS)
        .and_then(|c| c.get_connection())
        .expect("the shared Redis at 127.0.0.1:6379 is running")
}

#[tokio::test]
async fn redis_data_from_before_version_2_is_migrated_at_connect() {
    let prefix = common::random_prefix();
    let _cleanup = common::PrefixCleanup {
        url: common::SHARED_REDIS.to_string(),
        prefix: prefix.clone(),
    };
    let mut conn = raw_conn();
    let (panels, deals, schema) = (
        format!("{prefix}:{{ctl}}:panels"),
        format!("{prefix}:{{p:p-old}}:deals"),
        format!("{prefix}:{{ctl}}:schema"),
    );
    redis::cmd("HSET")
        .arg(&panels)
        .arg("p-old")
        .arg(V1_PANEL)
        .exec(&mut conn)
        .expect("panel");
    redis::cmd("HSET")
        .arg(&deals)
        .arg("g7-bx-3")
        .arg(V1_RECORD)
        .exec(&mut conn)
        .expect("deal");

    let store = RedisStore::connect(common::SHARED_REDIS, &prefix)
        .await
        .expect("connect migrates");
    assert_eq!(
        store.panel("p-old").await.expect("panel"),
        Some(expected_panel())
    );
    assert_eq!(
        store.deal("p-old", "g7-bx-3").await.expect("deal"),
        Some(expected_record())
    );

    let panel: Vec<u8> = redis::cmd("HGET")
        .arg(&panels)
        .arg("p-old")
        .query(&mut conn)
        .expect("get");
    let deal: Vec<u8> = redis::cmd("HGET")
        .arg(&deals)
        .arg("g7-bx-3")
        .query(&mut conn)
        .expect("get");
    assert!(is_current(&panel) && is_current(&deal));
    let version: u32 = redis::cmd("GET")
        .arg(&schema)
        .query(&mut conn)
        .expect("version");
    assert_eq!(version, SCHEMA_VERSION);
    assert_eq!(
        store.migrate().await.expect("again"),
        0,
        "current data is left alone"
    );
}

#[tokio::test]
async fn unmigrated_redis_values_read_back_as_current_ones() {
    // A role connected before another wrote old values (or while a migration runs) still reads
    // them.
    let (store, cleanup) = common::shared_redis_store().await;
    let mut conn = raw_conn();
    let deals = format!("{}:{{p:p-old}}:deals", cleanup.prefix);
    redis::cmd("HSET")
        .arg(&deals)
        .arg("g7-bx-3")
        .arg(V1_RECORD)
        .exec(&mut conn)
        .expect("deal");
    assert_eq!(
        store.deals("p-old").await.expect("deals"),
        vec![expected_record()]
    );
    let schema = format!("{}:{{ctl}}:schema", cleanup.prefix);
    redis::cmd("DEL")
        .arg(&schema)
        .exec(&mut conn)
        .expect("forget the version");
    assert_eq!(store.migrate().await.expect("migrate"), 1);
}

/// A prefix written by an arena before its keys carried Redis Cluster hash tags is refused at
/// connect, naming the old key found and what to do, rather than read as an empty store beside
/// the old data; nothing is written.
#[tokio::test]
async fn redis_data_in_the_untagged_key_layout_is_refused_at_connect() {
    let prefix = common::random_prefix();
    let _cleanup = common::PrefixCleanup {
        url: common::SHARED_REDIS.to_string(),
        prefix: prefix.clone(),
    };
    let mut conn = raw_conn();
    let old = format!("{prefix}:records:arena-instance");
    redis::cmd("HSET")
        .arg(&old)
        .arg("id")
        .arg("i-old")
        .exec(&mut conn)
        .expect("old instance record");
    match RedisStore::connect(common::SHARED_REDIS, &prefix).await {
        Err(arena_store::StoreError::Corrupt { key, reason }) => {
            assert_eq!(key, old);
            assert!(
                reason.contains("untagged key layout") && reason.contains("--redis-prefix"),
                "{reason}"
            );
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(&mut conn)
        .expect("keys");
    assert_eq!(keys, vec![old], "nothing was written");
}
