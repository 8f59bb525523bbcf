//! What every stage needs: the store, threads, the stop flag, the report directory, and an
//! observer told what happens.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arena_compete::{Format, GameCache, Plan, Tables, play_plan, plot};
use arena_store::Store;

use crate::Error;

/// Sees a run's progress: one line per stage, and a counter while long work runs.
pub trait Observer: Sync {
    /// A line about what a stage does or did (the command prints it on stderr).
    fn note(&self, line: &str);
    /// Runs `work`, which bumps `counter` towards `total` `unit`s; a command line draws a bar.
    fn progress(&self, total: u64, unit: &str, counter: &AtomicU64, work: &mut dyn FnMut());
}

/// An observer that shows nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    fn note(&self, _: &str) {}
    fn progress(&self, _: u64, _: &str, _: &AtomicU64, work: &mut dyn FnMut()) {
        work();
    }
}

pub(crate) struct Ctx<'o> {
    pub(crate) rt: tokio::runtime::Handle,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) threads: usize,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) out: PathBuf,
    pub(crate) observer: &'o dyn Observer,
    /// Games played by the experiments (the library's measurement not included).
    pub(crate) games: u64,
    /// Plots that could not be drawn, and other things the reader should know.
    pub(crate) warnings: Vec<String>,
}

impl Ctx<'_> {
    pub(crate) fn note(&self, line: &str) {
        self.observer.note(line);
    }

    /// Runs `work` under the observer's progress display and hands back its result.
    pub(crate) fn with_progress<T>(
        &self,
        total: u64,
        unit: &str,
        counter: &AtomicU64,
        work: impl FnOnce() -> T,
    ) -> T {
        let mut work = Some(work);
        let mut out = None;
        self.observer.progress(total, unit, counter, &mut || {
            if let Some(w) = work.take() {
                out = Some(w());
            }
        });
        // An observer that did not run the work: run it here.
        match out {
            Some(o) => o,
            None => work.map_or_else(|| unreachable!("work ran but left no result"), |w| w()),
        }
    }

    pub(crate) fn check_stop(&self) -> Result<(), Error> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Error::Stopped);
        }
        Ok(())
    }

    /// Plays every plan, skipping games the cache holds, under one progress display.
    pub(crate) fn play(
        &mut self,
        what: &str,
        tables: &Tables,
        jobs: &[(&Plan, &Format)],
        cache: &mut GameCache,
    ) -> Result<Vec<Vec<Vec<f64>>>, Error> {
        let mut new: HashSet<(usize, &str)> = HashSet::new();
        for (p, _) in jobs {
            for round in p.matches.iter().flatten() {
                for (t, slot) in round.iter().enumerate() {
                    if !cache.contains(t, &slot.id) {
                        new.insert((t, slot.id.as_str()));
                    }
                }
            }
        }
        let total = new.len() as u64;
        drop(new);
        self.note(&format!("{what}: {total} games to play"));
        let counter = AtomicU64::new(0);
        let threads = self.threads;
        let out = self.with_progress(total, "games", &counter, || {
            jobs.iter()
                .map(|(p, f)| play_plan(tables, p, f, threads, cache, &counter))
                .collect::<Result<Vec<_>, _>>()
        })?;
        self.games += counter.load(Ordering::Relaxed);
        self.check_stop()?;
        Ok(out)
    }

    /// Draws a plot; a failure becomes a warning in the report instead of ending the run.
    pub(crate) fn plot(
        &mut self,
        file: &str,
        draw: impl FnOnce(&Path) -> Result<(), plot::PlotError>,
    ) -> Option<String> {
        let path = self.out.join(file);
        match draw(&path) {
            Ok(()) => Some(file.to_string()),
            Err(e) => {
                let msg = format!("{file} was not drawn: {e}");
                self.note(&format!("warning: {msg}"));
                self.warnings.push(msg);
                None
            }
        }
    }
}
