//! gRPC health that follows the store: a role whose store lost its data reports NOT_SERVING for
//! its services (and overall) until the store is whole again, and counts each loss.

use tokio::sync::watch;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

/// Follows `whole` (from the store's instance watch) until it closes: NOT_SERVING for
/// `services` and the server as a whole while the store is not whole, SERVING again after.
/// Counts each loss in `arena.store.data_loss` with `role`.
pub async fn follow_store(
    mut whole: watch::Receiver<bool>,
    reporter: HealthReporter,
    services: Vec<&'static str>,
    role: &'static str,
) {
    loop {
        if whole.changed().await.is_err() {
            return;
        }
        let ok = *whole.borrow_and_update();
        let status = if ok {
            ServingStatus::Serving
        } else {
            crate::metrics::metrics()
                .store_data_loss
                .add(1, &crate::metrics::attr("role", role));
            ServingStatus::NotServing
        };
        for s in &services {
            reporter.set_service_status(*s, status).await;
        }
        reporter.set_service_status("", status).await;
    }
}
