//! [`RoleHealth`]: gRPC health for a role's services, following its store.

use std::sync::Arc;

use arena_store::Store;
use tonic_health::ServingStatus;
use tonic_health::pb::health_server::HealthServer;
use tonic_health::server::HealthReporter;

/// The name a service is known by to health checks (`arena.v1.Matchmaker`).
pub fn service_name<S: tonic::server::NamedService>() -> &'static str {
    S::NAME
}

/// Health of one role: SERVING for its services (and overall) once built; NOT_SERVING while the
/// store lost its data (counted in `arena.store.data_loss`), and from [`RoleHealth::stopping`]
/// on. Dropping it stops following the store.
pub struct RoleHealth {
    reporter: HealthReporter,
    services: Vec<&'static str>,
    follow: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    _instance: Option<arena_store::instance::InstanceWatch>,
}

impl Drop for RoleHealth {
    fn drop(&mut self) {
        self.stop_following();
    }
}

impl RoleHealth {
    /// Health for `services` of `role` (e.g. `matchmaker`), following `store`'s instance record
    /// when one is given. Returns the health service to mount too (clone it for a second port).
    pub async fn new(
        role: &'static str,
        services: Vec<&'static str>,
        store: Option<Arc<dyn Store>>,
    ) -> (
        RoleHealth,
        HealthServer<impl tonic_health::pb::health_server::Health>,
    ) {
        let (reporter, service) = tonic_health::server::health_reporter();
        for s in &services {
            reporter
                .set_service_status(*s, ServingStatus::Serving)
                .await;
        }
        let (instance, follow) = match store {
            Some(store) => {
                let instance = arena_store::instance::watch_instance(
                    store,
                    arena_store::instance::CHECK_EVERY,
                    role,
                );
                let follow = tokio::spawn(arena_telemetry::health::follow_store(
                    instance.whole.clone(),
                    reporter.clone(),
                    services.clone(),
                    role,
                ));
                (Some(instance), Some(follow))
            }
            None => (None, None),
        };
        (
            RoleHealth {
                reporter,
                services,
                follow: std::sync::Mutex::new(follow),
                _instance: instance,
            },
            service,
        )
    }

    fn stop_following(&self) {
        let follow = self.follow.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = follow {
            t.abort();
        }
    }

    /// The reporter, to set statuses by hand.
    pub fn reporter(&self) -> &HealthReporter {
        &self.reporter
    }

    /// Shutdown begun: NOT_SERVING for every service and overall, for good (the store is no
    /// longer followed).
    pub async fn stopping(&self) {
        self.stop_following();
        for s in &self.services {
            self.reporter
                .set_service_status(*s, ServingStatus::NotServing)
                .await;
        }
        self.reporter
            .set_service_status("", ServingStatus::NotServing)
            .await;
    }
}
