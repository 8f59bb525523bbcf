//! Each limit bites, and the verdict names it.

mod common;

use arena_sandbox::{Layers, Limits, Policy, Sandbox, describe_status};
use common::*;

#[test]
fn a_cpu_loop_is_killed_at_its_cpu_limit() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        cpu_seconds: 1,
        ..Limits::HOST_DEFAULT
    };
    let ran = run(
        &s,
        &limits,
        dir.path(),
        "python3",
        &["-c", "while True: pass"],
    );
    let said = describe_status(ran.status, &limits);
    assert_eq!(
        said,
        "killed by signal 24 (SIGXCPU): it used up its CPU-time limit of 1 s"
    );
}

#[test]
fn allocating_beyond_the_memory_limit_fails() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        memory_mb: 128,
        ..Limits::HOST_DEFAULT
    };
    let script = "try:\n    b = bytearray(512 << 20)\n    print('allocated')\nexcept MemoryError:\n    print('refused')\n";
    let ran = run(&s, &limits, dir.path(), "python3", &["-c", script]);
    assert_eq!(ran.stdout.trim(), "refused", "{}", ran.stderr);
    // The same allocation is fine under the host default of 1 GiB.
    let ran = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "python3",
        &["-c", script],
    );
    assert_eq!(ran.stdout.trim(), "allocated", "{}", ran.stderr);
}

#[test]
fn a_fork_bomb_is_bounded_by_the_process_limit() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        processes: 12,
        ..Limits::HOST_DEFAULT
    };
    let script = r#"
import os, time
n = 0
try:
    for _ in range(200):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        n += 1
except OSError as e:
    print("forked", n, e.errno, flush=True)
"#;
    let ran = run(&s, &limits, dir.path(), "python3", &["-c", script]);
    let words: Vec<&str> = ran.stdout.split_whitespace().collect();
    assert_eq!(
        words.first(),
        Some(&"forked"),
        "{} {}",
        ran.stdout,
        ran.stderr
    );
    let n: u32 = words[1].parse().unwrap();
    // The supervisor and the program count too.
    assert!((1..=10).contains(&n), "forked {n}");
    assert_eq!(words[2], libc_eagain(), "EAGAIN");
}

fn libc_eagain() -> &'static str {
    "11"
}

#[test]
fn writing_past_the_file_size_limit_is_stopped() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        file_size_mb: 1,
        ..Limits::HOST_DEFAULT
    };
    let script = "f = open('big', 'wb')\ntry:\n    f.write(b'x' * (4 << 20)); f.flush()\n    print('wrote')\nexcept OSError as e:\n    print('stopped', e.errno)\n";
    let ran = run(&s, &limits, dir.path(), "python3", &["-c", script]);
    assert_eq!(ran.stdout.trim(), "stopped 27", "EFBIG; {}", ran.stderr);
    let size = std::fs::metadata(dir.path().join("big")).unwrap().len();
    assert!(size <= 1 << 20, "{size} bytes written");
}

#[test]
fn too_many_open_files_are_refused() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        open_files: 32,
        ..Limits::HOST_DEFAULT
    };
    let script = "fs = []\ntry:\n    for _ in range(100): fs.append(open('/dev/null'))\nexcept OSError as e:\n    print('opened', len(fs), e.errno)\n";
    let ran = run(&s, &limits, dir.path(), "python3", &["-c", script]);
    let words: Vec<&str> = ran.stdout.split_whitespace().collect();
    assert_eq!(
        (words[0], words[2]),
        ("opened", "24"),
        "EMFILE; {}",
        ran.stdout
    );
    assert!(words[1].parse::<u32>().unwrap() < 32);
}

#[test]
fn a_sandbox_without_namespaces_still_runs_programs_under_landlock_and_limits() {
    // What a container that refuses user namespaces leaves: Landlock only.
    let full = sandbox();
    let layers = Layers {
        landlock_abi: full.layers().landlock_abi,
        drops_root: full.layers().drops_root,
        ..Layers::default()
    };
    let s = Sandbox::with_layers(Policy::default(), layers);
    let w = s.warnings().join("\n");
    assert!(
        w.contains("SANDBOX DEGRADED: the kernel refused user namespace, PID namespace"),
        "{w}"
    );
    let dir = workdir(&s);
    let limits = Limits {
        cpu_seconds: 1,
        ..Limits::HOST_DEFAULT
    };
    let ran = run(
        &s,
        &limits,
        dir.path(),
        "sh",
        &[
            "-c",
            "echo $$ > pid; cat /proc/1/cmdline || echo no-proc; cat pid",
        ],
    );
    assert!(
        ran.stdout.contains("no-proc"),
        "the host's /proc stays closed: {}",
        ran.stdout
    );
    assert_ne!(ran.stdout.lines().last(), Some("1"), "no PID namespace");
    let ran = run(
        &s,
        &limits,
        dir.path(),
        "python3",
        &["-c", "while True: pass"],
    );
    assert!(describe_status(ran.status, &limits).contains("SIGXCPU"));
}
