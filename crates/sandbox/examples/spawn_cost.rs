//! Measures what the sandbox adds to starting a process: spawns `/bin/true` and waits for it,
//! plainly, in the sandbox with isolation off, and in the full sandbox.
//!
//! `cargo run --release -p arena-sandbox --example spawn_cost [N]`

use std::process::Command;
use std::time::Instant;

use arena_sandbox::{Isolation, Limits, Policy, Sandbox};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let dir = std::env::temp_dir();
    let off = Sandbox::new(Policy {
        isolation: Isolation::Off,
        ..Policy::default()
    });
    let on = Sandbox::new(Policy::default());
    println!("{on}");
    let cases: [(&str, Option<&Sandbox>); 3] = [
        ("plain", None),
        ("isolation off", Some(&off)),
        ("full sandbox", Some(&on)),
    ];
    for (name, sandbox) in cases {
        let started = Instant::now();
        for _ in 0..n {
            let mut cmd = Command::new("/bin/true");
            cmd.current_dir(&dir);
            if let Some(s) = sandbox {
                s.configure(&mut cmd, &Limits::HOST_DEFAULT, &[])
                    .expect("configured");
            }
            let status = cmd.status().expect("spawned");
            assert!(status.success(), "{status}");
        }
        let each = started.elapsed() / n;
        println!(
            "{name:>14}: {:>8.2} ms per spawn and wait",
            each.as_secs_f64() * 1000.0
        );
    }
}
