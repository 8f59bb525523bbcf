//! The blocking façade: [`Program`] for callers without a tokio runtime (a `cmd:` bot called by a
//! game loop on an ordinary thread). It is the async [`crate::Program`], whose pipe tasks run on
//! one small runtime shared by every blocking program of the process (so a program's output and
//! stderr are read while its caller is busy elsewhere), with each call blocking its caller
//! until done.
//!
//! Do not call it from async code (it would block a runtime thread; tokio refuses): use
//! [`crate::Program`] there.

use std::process::ExitStatus;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;

use crate::CmdSpec;
use crate::fault::Fault;
use crate::lines::Output;
use crate::program::{self, Ended, Launch, SpawnError};
use crate::protocol::LineProtocol;

/// The runtime whose tasks serve the pipes of blocking programs.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("arena-line")
            .enable_all()
            .build()
            // Without threads or an epoll instance, no program can be run at all.
            .expect("arena-line: cannot start the runtime that serves program pipes")
    })
}

/// A running program, spoken to by blocking calls. Dropping it kills its process group and
/// reaps it.
#[derive(Debug)]
pub struct Program {
    inner: program::Program,
}

impl Program {
    /// Starts `spec` as `launch` says.
    pub fn spawn(spec: &CmdSpec, launch: &Launch) -> Result<Program, SpawnError> {
        let _in_runtime = runtime().enter();
        program::Program::spawn(spec, launch).map(|inner| Program { inner })
    }

    /// The async program underneath.
    pub fn as_async(&mut self) -> &mut program::Program {
        &mut self.inner
    }

    /// See [`crate::Program::id`].
    pub fn id(&self) -> u32 {
        self.inner.id()
    }

    /// See [`crate::Program::launch`].
    pub fn launch(&self) -> &Launch {
        self.inner.launch()
    }

    /// See [`crate::Program::send_lines`]; never blocks.
    pub fn send_lines<S: AsRef<str>>(&self, lines: &[S]) {
        self.inner.send_lines(lines);
    }

    /// Its next output and when it was read, waiting until `until`; `None` on timeout.
    pub fn recv_until(&mut self, until: Instant) -> Option<(Instant, Output)> {
        let until = tokio::time::Instant::from_std(until);
        runtime().block_on(self.inner.recv_until(until))
    }

    /// See [`crate::Program::try_recv`]; never blocks.
    pub fn try_recv(&mut self) -> Option<(Instant, Output)> {
        self.inner.try_recv()
    }

    /// See [`crate::Program::wait_exit`].
    pub fn wait_exit(&mut self, within: Duration) -> bool {
        runtime().block_on(self.inner.wait_exit(within))
    }

    /// See [`crate::Program::kill`].
    pub fn kill(&mut self) -> Option<ExitStatus> {
        runtime().block_on(self.inner.kill())
    }

    /// See [`crate::Program::describe`].
    pub fn describe(&self, status: ExitStatus) -> String {
        self.inner.describe(status)
    }

    /// See [`crate::Program::stderr_tail`].
    pub fn stderr_tail(&mut self, wait: Duration) -> Option<String> {
        runtime().block_on(self.inner.stderr_tail(wait))
    }

    /// See [`crate::Program::crash`].
    pub fn crash(&mut self, what: &str, read_error: Option<String>) -> Fault {
        runtime().block_on(self.inner.crash(what, read_error))
    }

    /// See [`crate::Program::close`].
    pub fn close<S: AsRef<str>>(&mut self, farewell: &[S], grace: Duration) -> Ended {
        runtime().block_on(self.inner.close(farewell, grace))
    }

    /// See [`crate::join`].
    pub fn join<P: LineProtocol + ?Sized>(
        &mut self,
        protocol: &P,
        within: Duration,
        heard: impl FnMut(&str),
    ) -> Result<Option<String>, Fault> {
        runtime().block_on(crate::protocol::join(
            &mut self.inner,
            protocol,
            within,
            heard,
        ))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // Inside a runtime it cannot block: the async program's drop kills the group at once
        // and tokio reaps it in the background.
        if tokio::runtime::Handle::try_current().is_err() {
            self.kill();
        }
    }
}
