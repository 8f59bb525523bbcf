//! Progress bars for long work: a bar fed by an atomic counter that worker threads bump.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Runs `work` while a bar shows `counter` against `total` with the rate and ETA. The bar is
/// drawn on stderr and hidden when stderr is not a terminal.
pub fn with_bar<T>(total: u64, unit: &str, counter: &AtomicU64, work: impl FnOnce() -> T) -> T {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} · {{per_sec}} · ETA {{eta}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(counter.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let out = work();
        done.store(true, Ordering::Relaxed);
        bar.finish_and_clear();
        out
    })
}
