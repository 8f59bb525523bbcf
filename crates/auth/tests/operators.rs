//! Operator tokens against a real (embedded) store: issued once, checked with one read and one
//! hash, refused alike when unknown or wrong, revoked by name.

use std::sync::Arc;

use arena_auth::operators;
use arena_auth::{Authenticator, Caller};
use arena_store::{EmbeddedStore, Store};

fn headers(token: &str) -> http::HeaderMap {
    let mut h = http::HeaderMap::new();
    h.insert(
        http::header::AUTHORIZATION,
        format!("Bearer {token}").parse().unwrap(),
    );
    h
}

#[tokio::test]
async fn operator_tokens_are_issued_checked_and_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let issued = operators::add(&*store, "alice").await.unwrap();
    assert!(operators::parse(issued.token.expose()).is_some());
    assert!(
        operators::add(&*store, "alice").await.is_err(),
        "names are unique"
    );
    let bob = operators::add(&*store, "bob").await.unwrap();
    let listed = operators::list(&*store).await.unwrap();
    assert_eq!(listed.len(), 2);
    assert!(
        listed
            .iter()
            .all(|(_, r)| !r.token_sha256.contains(issued.token.expose())),
        "only hashes are stored"
    );

    let auth = Authenticator::new(Some(store.clone()));
    let create = "/arena.v1.Matchmaker/CreateCompetition";
    assert_eq!(
        auth.authorize(create, &headers(issued.token.expose()), None)
            .await
            .unwrap(),
        Caller::Operator("alice".into())
    );
    // A wrong secret under a real id, and an unknown id, get the same answer.
    let real = issued.token.expose();
    let wrong_secret = format!(
        "{}{}",
        &real[..real.len() - 1],
        if real.ends_with('A') { 'B' } else { 'A' }
    );
    let unknown_id = format!("aop.{}.{}", "Z".repeat(12), &real[real.len() - 43..]);
    let a = auth
        .authorize(create, &headers(&wrong_secret), None)
        .await
        .unwrap_err();
    let b = auth
        .authorize(create, &headers(&unknown_id), None)
        .await
        .unwrap_err();
    assert_eq!(a.code(), tonic::Code::Unauthenticated);
    assert_eq!((a.code(), a.message()), (b.code(), b.message()));

    assert_eq!(operators::remove(&*store, "alice").await.unwrap(), 1);
    assert_eq!(
        auth.authorize(create, &headers(real), None)
            .await
            .unwrap_err()
            .code(),
        tonic::Code::Unauthenticated,
        "a revoked token no longer works"
    );
    assert_eq!(
        auth.authorize(create, &headers(bob.token.expose()), None)
            .await
            .unwrap(),
        Caller::Operator("bob".into())
    );
    assert_eq!(operators::remove(&*store, "alice").await.unwrap(), 0);
}
