//! The Linux sandbox: the probe, and the `pre_exec` hook that turns std's forked child into the
//! supervisor and forks the program.
//!
//! Everything that runs between `fork` and `exec` runs in a copy of a (possibly multithreaded)
//! caller, where only async-signal-safe work is allowed: no allocation, no locks. So every
//! string, path, map line and the Landlock ruleset (its file descriptor) is prepared in
//! [`install`], before the spawn; the hook itself makes plain system calls (through `nix`,
//! whose calls used here take `&CStr` or integers and allocate nothing) and, for the last
//! Landlock step, `RulesetCreated::restrict_self`, which makes two system calls and allocates
//! nothing.
//!
//! std's order in the forked child: stdio, user and group, working directory, process group,
//! then the `pre_exec` closures, then `exec`. Ours runs as the supervisor (still outside the new
//! PID namespace, which only its children enter); it forks the program, which returns from the
//! closure so that std executes the command in it; the supervisor never returns.

use std::ffi::CStr;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr,
    Scope, path_beneath_rules,
};
use nix::errno::Errno;
use nix::fcntl::{OFlag, open};
use nix::mount::{MsFlags, mount};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, SigmaskHow, Signal, sigaction};
use nix::sys::stat::Mode;
use nix::sys::wait::{WaitStatus, waitpid};
use nix::time::{ClockId, clock_gettime};
use nix::unistd::{ForkResult, Gid, Pid, Uid, fork, getpid, getppid, setgid, setgroups, setuid};

use crate::{Isolation, Layers, Limits, Sandbox, SandboxError};

pub(crate) use crate::access::NOBODY;

/// The highest Landlock ABI whose rights this crate was written and tested against; newer
/// kernels are used at this level.
const LANDLOCK_ABI_USED: u8 = 7;

/// The hostname programs see (their UTS namespace's).
const HOSTNAME: &str = "arena-sandbox";

/// The exit code of a supervisor whose own set-up failed after the fork of the program.
const SUPERVISOR_FAILED: i32 = 125;

/// Everything the hook needs, prepared before the spawn.
struct Plan {
    layers: Layers,
    isolate: bool,
    /// Set when programs run as `nobody`.
    drop_to: Option<(Uid, Gid)>,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    unshare: CloneFlags,
    limits: Limits,
    /// The Landlock ruleset, complete but for the fresh `/proc`, which exists only once the
    /// program has mounted it.
    ruleset: Option<OwnedFd>,
    /// The rights to grant on the fresh `/proc`.
    proc_access: u64,
    lifeline: Lifeline,
}

/// The pipe whose write end only the caller's process holds: when it is closed (the process
/// died), supervisors see their read end hang up.
#[derive(Copy, Clone)]
struct Lifeline {
    read: RawFd,
    write: RawFd,
}

fn lifeline() -> Result<Lifeline, SandboxError> {
    static LIFELINE: OnceLock<Result<Lifeline, String>> = OnceLock::new();
    LIFELINE
        .get_or_init(|| {
            // Both ends close on exec, so no executed program (sandboxed or not) holds them;
            // supervisors, which never execute, close the write end first thing.
            let (r, w) = nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| e.to_string())?;
            // Kept open for the life of the process: that is the point.
            Ok(Lifeline {
                read: into_raw(r),
                write: into_raw(w),
            })
        })
        .clone()
        .map_err(SandboxError::Lifeline)
}

fn into_raw(fd: OwnedFd) -> RawFd {
    use std::os::fd::IntoRawFd;
    fd.into_raw_fd()
}

/// Installs the sandbox on `cmd` (whose working directory, environment and process group the
/// caller has set).
pub(crate) fn install(
    sandbox: &Sandbox,
    cmd: &mut Command,
    workdir: &Path,
    limits: &Limits,
) -> Result<(), SandboxError> {
    let isolate = sandbox.policy().isolation == Isolation::On;
    let layers = sandbox.layers();
    let drop_to =
        (isolate && layers.drops_root).then(|| (Uid::from_raw(NOBODY.0), Gid::from_raw(NOBODY.1)));
    let (map_uid, map_gid) = match drop_to {
        Some((u, g)) => (u.as_raw(), g.as_raw()),
        None => (Uid::effective().as_raw(), Gid::effective().as_raw()),
    };
    let mut unshare = CloneFlags::empty();
    if isolate {
        for (granted, flag) in [
            (layers.pid_ns, CloneFlags::CLONE_NEWPID),
            (layers.net_ns, CloneFlags::CLONE_NEWNET),
            (
                layers.ipc_uts_ns,
                CloneFlags::CLONE_NEWIPC | CloneFlags::CLONE_NEWUTS,
            ),
            (layers.mount_ns, CloneFlags::CLONE_NEWNS),
        ] {
            if granted {
                unshare |= flag;
            }
        }
    }
    let abi = landlock_abi(layers.landlock_abi.min(LANDLOCK_ABI_USED));
    let ruleset = if isolate && layers.landlock_abi > 0 {
        Option::<OwnedFd>::from(ruleset(sandbox, cmd, workdir, abi)?)
    } else {
        None
    };
    let mut plan = Plan {
        layers,
        isolate,
        drop_to,
        uid_map: format!("0 {map_uid} 1\n").into_bytes(),
        gid_map: format!("0 {map_gid} 1\n").into_bytes(),
        unshare,
        limits: *limits,
        ruleset,
        proc_access: AccessFs::from_read(abi).bits(),
        lifeline: lifeline()?,
    };
    // SAFETY: the closure runs in the forked child before exec. It only makes
    // async-signal-safe system calls on data prepared above (see the module docs); it neither
    // allocates nor takes locks.
    unsafe {
        cmd.pre_exec(move || supervisor(&mut plan));
    }
    Ok(())
}

/// The Landlock ruleset for a program: created here, in the caller, so that the child only has
/// to enforce it.
fn ruleset(
    sandbox: &Sandbox,
    cmd: &Command,
    workdir: &Path,
    abi: ABI,
) -> Result<RulesetCreated, SandboxError> {
    let mut reads: Vec<PathBuf> = crate::SYSTEM_READ_DIRS
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    // Not /proc: the host's would show every process of the host (and their command lines).
    // The PID namespace's own is added by the program once it has mounted it.
    let program = Path::new(cmd.get_program());
    if program.components().count() > 1
        && let Some(dir) = workdir.join(program).parent()
        && let Ok(dir) = dir.canonicalize()
    {
        reads.push(dir);
    }
    for arg in cmd.get_args() {
        let p = workdir.join(arg);
        if p.is_file()
            && let Some(dir) = p.parent()
            && let Ok(dir) = dir.canonicalize()
        {
            reads.push(dir);
        }
    }
    reads.extend(
        sandbox
            .policy()
            .extra_read
            .iter()
            .filter(|p| p.exists())
            .cloned(),
    );
    let fail = |e: &dyn std::fmt::Display| SandboxError::Landlock(e.to_string());
    let mut rs = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(|e| fail(&e))?;
    if abi >= ABI::V4 {
        // No TCP bind or connect: no network even where there is no network namespace.
        rs = rs
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| fail(&e))?;
    }
    if abi >= ABI::V6 {
        // No signals to, and no abstract sockets of, processes outside the sandbox.
        rs = rs.scope(Scope::from_all(abi)).map_err(|e| fail(&e))?;
    }
    rs.create()
        .map_err(|e| fail(&e))?
        .add_rules(path_beneath_rules(&reads, AccessFs::from_read(abi)))
        .map_err(|e| fail(&e))?
        .add_rules(path_beneath_rules([workdir], AccessFs::from_all(abi)))
        .map_err(|e| fail(&e))?
        .add_rules(path_beneath_rules(["/dev/null"], AccessFs::from_all(abi)))
        .map_err(|e| fail(&e))
}

fn landlock_abi(v: u8) -> ABI {
    match v {
        0 => ABI::Unsupported,
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        6 => ABI::V6,
        _ => ABI::V7,
    }
}

fn os(e: Errno) -> io::Error {
    io::Error::from_raw_os_error(e as i32)
}

/// Writes `bytes` to the file at `path` (a `/proc` control file).
fn write_file(path: &CStr, bytes: &[u8]) -> Result<(), Errno> {
    let fd = open(path, OFlag::O_WRONLY | OFlag::O_CLOEXEC, Mode::empty())?;
    let n = nix::unistd::write(&fd, bytes)?;
    if n == bytes.len() {
        Ok(())
    } else {
        Err(Errno::EIO)
    }
}

/// Maps root of the new user namespace (created just before) to the caller's ids.
fn write_id_maps(uid_map: &[u8], gid_map: &[u8]) -> Result<(), Errno> {
    write_file(c"/proc/self/setgroups", b"deny")?;
    write_file(c"/proc/self/uid_map", uid_map)?;
    write_file(c"/proc/self/gid_map", gid_map)
}

/// Becomes `uid`/`gid` with no supplementary groups (from root).
fn become_user(uid: Uid, gid: Gid) -> Result<(), Errno> {
    setgroups(&[])?;
    setgid(gid)?;
    setuid(uid)
}

/// Default dispositions for every signal: the caller's handlers (a runtime's SIGCHLD handler
/// writing to its own descriptors) must not run in the supervisor, and ignored signals must not
/// stay ignored in the program.
fn reset_signals() {
    let dfl = SigAction::new(SigHandler::SigDfl, SaFlags::empty(), SigSet::empty());
    for sig in Signal::iterator() {
        if sig != Signal::SIGKILL && sig != Signal::SIGSTOP {
            // SAFETY: installing the default disposition runs no code of ours in a handler.
            let _ = unsafe { sigaction(sig, &dfl) };
        }
    }
    let _ = nix::sys::signal::sigprocmask(SigmaskHow::SIG_SETMASK, Some(&SigSet::empty()), None);
}

/// The sandbox's supervisor: sets up the namespaces, forks the program (which returns so that
/// std executes the command) and supervises it until it ends. Returns only an error of its own
/// set-up before the fork, which std reports to the caller as the spawn's error.
fn supervisor(plan: &mut Plan) -> io::Result<()> {
    // SAFETY: close(2) on a descriptor number; the write end is ours to drop in this copy.
    unsafe {
        libc::close(plan.lifeline.write);
    }
    reset_signals();
    setrlimit(Resource::RLIMIT_CORE, 0, 0).map_err(os)?;
    if plan.isolate && plan.layers.user_ns {
        if let Some((uid, gid)) = plan.drop_to {
            become_user(uid, gid).map_err(os)?;
            // A change of user makes the process undumpable, and /proc/self of an undumpable
            // process belongs to root, so the maps below could not be written.
            prctl::set_dumpable(true).map_err(os)?;
        }
        unshare(CloneFlags::CLONE_NEWUSER | plan.unshare).map_err(os)?;
        write_id_maps(&plan.uid_map, &plan.gid_map).map_err(os)?;
        // The supervisor holds a copy of the caller's memory: no one may read it.
        prctl::set_dumpable(false).map_err(os)?;
    } else if !plan.unshare.is_empty() {
        unshare(plan.unshare).map_err(os)?;
    }
    if plan.unshare.contains(CloneFlags::CLONE_NEWUTS) {
        nix::unistd::sethostname(HOSTNAME).map_err(os)?;
    }
    let me = getpid();
    // SAFETY: the child only makes async-signal-safe calls until it executes the program.
    match unsafe { fork() }.map_err(os)? {
        ForkResult::Child => program(plan, me),
        ForkResult::Parent { child } => supervise(plan, child),
    }
}

/// The program's side, between the fork and std's exec.
fn program(plan: &mut Plan, supervisor: Pid) -> io::Result<()> {
    let l = plan.layers;
    if plan.isolate && l.mount_ns {
        // Nothing mounted here may propagate back to the host.
        mount(
            None::<&CStr>,
            c"/",
            None::<&CStr>,
            MsFlags::MS_REC | MsFlags::MS_PRIVATE,
            None::<&CStr>,
        )
        .map_err(os)?;
        if l.fresh_proc {
            mount(
                Some(c"proc"),
                c"/proc",
                Some(c"proc"),
                MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
                None::<&CStr>,
            )
            .map_err(os)?;
        }
    }
    if plan.isolate
        && !l.user_ns
        && let Some((uid, gid)) = plan.drop_to
    {
        become_user(uid, gid).map_err(os)?;
    }
    set_limits(&plan.limits).map_err(os)?;
    // After every change of credentials, which would clear it. The supervisor is
    // single-threaded, so this fires exactly when it dies.
    prctl::set_pdeathsig(Signal::SIGKILL).map_err(os)?;
    if !l.pid_ns && getppid() != supervisor {
        // The supervisor died before the line above: nothing would kill us with it.
        return Err(os(Errno::ESRCH));
    }
    if plan.isolate {
        prctl::set_no_new_privs().map_err(os)?;
        if l.user_ns {
            // Root of its own user namespace, but with no capability left after exec.
            for cap in 0..64 {
                // SAFETY: prctl(2) with integer arguments.
                if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0 {
                    break;
                }
            }
        }
        if let Some(rs) = &plan.ruleset {
            if l.fresh_proc {
                allow_proc(rs.as_raw_fd(), plan.proc_access).map_err(os)?;
            }
            // SAFETY: landlock_restrict_self(2) with a ruleset descriptor and no flags.
            let r =
                unsafe { libc::syscall(libc::SYS_landlock_restrict_self, rs.as_raw_fd(), 0u32) };
            if r != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    // Whatever the caller left open without close-on-exec must not reach the program.
    // SAFETY: close_range(2) with integer arguments.
    unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
    }
    Ok(())
}

/// `struct landlock_path_beneath_attr` of the kernel's ABI (packed).
#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Adds the fresh `/proc` to the ruleset `rs` with the rights `access`.
fn allow_proc(rs: RawFd, access: u64) -> Result<(), Errno> {
    const LANDLOCK_RULE_PATH_BENEATH: u32 = 1;
    let proc = open(
        c"/proc",
        OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )?;
    let attr = PathBeneathAttr {
        allowed_access: access,
        parent_fd: proc.as_raw_fd(),
    };
    // SAFETY: landlock_add_rule(2) reads `attr`, which lives across the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            rs,
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneathAttr,
            0u32,
        )
    };
    Errno::result(r).map(drop)
}

fn set_limits(l: &Limits) -> Result<(), Errno> {
    const MIB: u64 = 1024 * 1024;
    let set = |r: Resource, v: u64| setrlimit(r, v, v);
    if l.cpu_seconds > 0 {
        let s = u64::from(l.cpu_seconds);
        // SIGXCPU at the soft limit, SIGKILL a second later.
        setrlimit(Resource::RLIMIT_CPU, s, s + 1)?;
    }
    if l.memory_mb > 0 {
        set(Resource::RLIMIT_AS, u64::from(l.memory_mb) * MIB)?;
    }
    if l.processes > 0 {
        set(Resource::RLIMIT_NPROC, u64::from(l.processes))?;
    }
    if l.open_files > 0 {
        set(Resource::RLIMIT_NOFILE, u64::from(l.open_files))?;
    }
    if l.file_size_mb > 0 {
        set(Resource::RLIMIT_FSIZE, u64::from(l.file_size_mb) * MIB)?;
    }
    Ok(())
}

/// Milliseconds on the monotonic clock.
fn now_ms() -> u64 {
    clock_gettime(ClockId::CLOCK_MONOTONIC).map_or(0, |t| {
        (t.tv_sec() as u64).saturating_mul(1000) + (t.tv_nsec() as u64) / 1_000_000
    })
}

/// How the wait for the program ended.
#[derive(PartialEq)]
enum Ended {
    Exited,
    WallTime,
    CallerGone,
}

/// Waits for the program, kills it at the wall-time limit or when the caller's process is gone,
/// and ends the same way it did.
fn supervise(plan: &Plan, child: Pid) -> ! {
    // SAFETY: pidfd_open(2) with integer arguments; the result is checked below.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.as_raw(), 0) } as RawFd;
    let pidfd = (pidfd >= 0).then(|| {
        // SAFETY: a fresh descriptor that nothing else owns.
        unsafe { OwnedFd::from_raw_fd(pidfd) }
    });
    detach_descriptors(plan.lifeline.read, pidfd.as_ref().map(AsRawFd::as_raw_fd));
    let wall_ms = u64::from(plan.limits.wall_seconds) * 1000;
    let deadline = (wall_ms > 0).then(|| now_ms() + wall_ms);
    // SAFETY: the lifeline's read end stays open for the life of this process.
    let lifeline = unsafe { BorrowedFd::borrow_raw(plan.lifeline.read) };
    let ended = loop {
        let left = deadline.map(|d| d.saturating_sub(now_ms()));
        if left == Some(0) {
            break Ended::WallTime;
        }
        // Without a pidfd, look for the program's end every 50 ms.
        let cap = if pidfd.is_some() { 60_000 } else { 50 };
        let timeout = match left {
            Some(ms) => PollTimeout::from(ms.min(cap) as u16),
            None if pidfd.is_some() => PollTimeout::NONE,
            None => PollTimeout::from(cap as u16),
        };
        let mut fds = [
            PollFd::new(lifeline, PollFlags::POLLIN),
            PollFd::new(lifeline, PollFlags::empty()),
        ];
        if let Some(p) = &pidfd {
            use std::os::fd::AsFd;
            fds[1] = PollFd::new(p.as_fd(), PollFlags::POLLIN);
        }
        let n = match poll(&mut fds[..1 + usize::from(pidfd.is_some())], timeout) {
            Ok(n) => n,
            Err(Errno::EINTR) => continue,
            Err(_) => break Ended::CallerGone,
        };
        if n > 0 && fds[0].any().unwrap_or(true) {
            break Ended::CallerGone;
        }
        if pidfd.is_some() && fds[1].any().unwrap_or(false) {
            break Ended::Exited;
        }
        if pidfd.is_none() && exited(child) {
            break Ended::Exited;
        }
    };
    if ended != Ended::Exited {
        let _ = nix::sys::signal::kill(child, Signal::SIGKILL);
    }
    if ended == Ended::CallerGone && !plan.layers.pid_ns {
        // No PID namespace to take the program's descendants along: the whole process group
        // (this supervisor too; no one is left to tell).
        let _ = nix::sys::signal::kill(Pid::from_raw(0), Signal::SIGKILL);
    }
    let status = loop {
        match waitpid(child, None) {
            Err(Errno::EINTR) => continue,
            Ok(WaitStatus::Exited(_, code)) => break Err(code),
            Ok(WaitStatus::Signaled(_, sig, _)) => break Ok(sig),
            Ok(_) => continue,
            Err(_) => exit(SUPERVISOR_FAILED),
        }
    };
    match (ended, status) {
        (Ended::WallTime, _) => die_by(Signal::SIGALRM),
        (_, Err(code)) => exit(code),
        (_, Ok(Signal::SIGKILL)) if cpu_limit_reached(plan.limits.cpu_seconds) => {
            die_by(Signal::SIGXCPU)
        }
        (_, Ok(sig)) => die_by(sig),
    }
}

/// True if the reaped program used at least `limit` CPU seconds (0: no limit).
fn cpu_limit_reached(limit: u32) -> bool {
    if limit == 0 {
        return false;
    }
    getrusage(UsageWho::RUSAGE_CHILDREN).is_ok_and(|u| {
        let secs = u.user_time().tv_sec() + u.system_time().tv_sec();
        secs >= i64::from(limit)
    })
}

/// True once the child has exited (left waitable).
fn exited(child: Pid) -> bool {
    crate::supervise::exited_unreaped(child.as_raw() as u32)
}

/// Makes the supervisor hold nothing of the caller's: its standard streams go to `/dev/null`
/// (so the caller sees the program's output end when the program closes it), and every other
/// descriptor is closed (std's error pipe among them, so that the spawn returns once the
/// program has executed) except `keep`.
fn detach_descriptors(lifeline: RawFd, pidfd: Option<RawFd>) {
    if let Ok(null) = open(c"/dev/null", OFlag::O_RDWR, Mode::empty()) {
        for target in 0..3 {
            // SAFETY: dup2(2) on descriptor numbers.
            unsafe {
                libc::dup2(null.as_raw_fd(), target);
            }
        }
        // Closed with the others below (it is at least 3, since 0..2 were open).
        std::mem::forget(null);
    }
    let mut keep = [lifeline, pidfd.unwrap_or(lifeline)];
    keep.sort_unstable();
    let mut from: u32 = 3;
    for k in keep {
        let k = k as u32;
        if k >= from {
            if k > from {
                close_range(from, k - 1);
            }
            from = k + 1;
        }
    }
    close_range(from, u32::MAX);
}

fn close_range(first: u32, last: u32) {
    // SAFETY: close_range(2) with integer arguments.
    unsafe {
        libc::syscall(libc::SYS_close_range, first, last, 0u32);
    }
}

fn exit(code: i32) -> ! {
    // SAFETY: _exit(2) ends the process without running the caller's exit handlers.
    unsafe { libc::_exit(code) }
}

/// Ends the supervisor by `sig`, as its program ended (core dumps are off).
fn die_by(sig: Signal) -> ! {
    let dfl = SigAction::new(SigHandler::SigDfl, SaFlags::empty(), SigSet::empty());
    // SAFETY: installing the default disposition runs no code of ours in a handler.
    let _ = unsafe { sigaction(sig, &dfl) };
    let mut set = SigSet::empty();
    set.add(sig);
    let _ = nix::sys::signal::sigprocmask(SigmaskHow::SIG_UNBLOCK, Some(&set), None);
    let _ = nix::sys::signal::raise(sig);
    // A signal whose default is to be ignored cannot end a process: say it the shell's way.
    exit(128 + sig as i32)
}

/// The layers this kernel grants, tried once per process.
pub(crate) fn probe() -> Layers {
    static LAYERS: OnceLock<Layers> = OnceLock::new();
    *LAYERS.get_or_init(|| {
        let root = Uid::effective().is_root();
        let mut layers = try_layers(true, root);
        if !layers.user_ns && root {
            // Root can have the other namespaces without a user namespace.
            layers = try_layers(false, root);
        }
        layers.drops_root = root;
        layers.landlock_abi = landlock_version();
        layers
    })
}

const USER: i32 = 1;
const PID: i32 = 2;
const PROC: i32 = 4;
const NET: i32 = 8;
const IPC_UTS: i32 = 16;
const MOUNT: i32 = 32;

/// Tries the namespaces in a throwaway child: with a user namespace (as `nobody` when
/// `drop_root`), or without one.
fn try_layers(with_user_ns: bool, drop_root: bool) -> Layers {
    let (uid, gid) = if drop_root {
        NOBODY
    } else {
        (Uid::effective().as_raw(), Gid::effective().as_raw())
    };
    let uid_map = format!("0 {uid} 1\n").into_bytes();
    let gid_map = format!("0 {gid} 1\n").into_bytes();
    // SAFETY: the child only makes async-signal-safe calls and ends with _exit.
    let bits = match unsafe { fork() } {
        Err(_) => 0,
        Ok(ForkResult::Child) => exit(probe_child(with_user_ns, drop_root, &uid_map, &gid_map)),
        Ok(ForkResult::Parent { child }) => loop {
            match waitpid(child, None) {
                Err(Errno::EINTR) => continue,
                Ok(WaitStatus::Exited(_, bits)) => break bits,
                _ => break 0,
            }
        },
    };
    let has = |b| bits & b != 0;
    Layers {
        user_ns: has(USER),
        pid_ns: has(PID),
        fresh_proc: has(PROC),
        net_ns: has(NET),
        ipc_uts_ns: has(IPC_UTS),
        mount_ns: has(MOUNT),
        landlock_abi: 0,
        drops_root: false,
    }
}

fn probe_child(with_user_ns: bool, drop_root: bool, uid_map: &[u8], gid_map: &[u8]) -> i32 {
    let mut bits = 0;
    if with_user_ns {
        if drop_root
            && (become_user(Uid::from_raw(NOBODY.0), Gid::from_raw(NOBODY.1)).is_err()
                || prctl::set_dumpable(true).is_err())
        {
            return 0;
        }
        if unshare(CloneFlags::CLONE_NEWUSER).is_err() || write_id_maps(uid_map, gid_map).is_err() {
            return 0;
        }
        bits |= USER;
    }
    for (flags, bit) in [
        (CloneFlags::CLONE_NEWNET, NET),
        (CloneFlags::CLONE_NEWIPC | CloneFlags::CLONE_NEWUTS, IPC_UTS),
        (CloneFlags::CLONE_NEWNS, MOUNT),
        (CloneFlags::CLONE_NEWPID, PID),
    ] {
        if unshare(flags).is_ok() {
            bits |= bit;
        }
    }
    if bits & (PID | MOUNT) == PID | MOUNT {
        // SAFETY: as above.
        match unsafe { fork() } {
            Ok(ForkResult::Child) => {
                let ok = mount(
                    None::<&CStr>,
                    c"/",
                    None::<&CStr>,
                    MsFlags::MS_REC | MsFlags::MS_PRIVATE,
                    None::<&CStr>,
                )
                .and_then(|()| {
                    mount(
                        Some(c"proc"),
                        c"/proc",
                        Some(c"proc"),
                        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
                        None::<&CStr>,
                    )
                });
                exit(i32::from(ok.is_err()))
            }
            Ok(ForkResult::Parent { child }) => {
                if matches!(waitpid(child, None), Ok(WaitStatus::Exited(_, 0))) {
                    bits |= PROC;
                }
            }
            Err(_) => {}
        }
    }
    bits
}

/// The kernel's Landlock ABI version (0: none).
fn landlock_version() -> u8 {
    const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
    // SAFETY: landlock_create_ruleset(2) with a null attribute and the version flag only
    // returns a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u8::try_from(v.max(0)).unwrap_or(u8::MAX)
}
