//! A sandboxed program sees none of its host: not its environment or command line, not its
//! processes, not the network, not files outside what it was allowed.

mod common;

use std::io::Write;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use arena_sandbox::{Limits, Policy, Sandbox};
use common::*;

#[test]
fn the_program_cannot_read_its_hosts_environment_or_command_line_or_see_its_processes() {
    let s = sandbox();
    let dir = workdir(&s);
    // The host is a process of its own here, with a secret in its environment and on its
    // command line (its supervisor is a copy of it).
    let script = r#"
echo "ppid $PPID"
cat /proc/$PPID/environ /proc/$PPID/cmdline 2>/dev/null
for p in /proc/[0-9]*; do
  echo "proc ${p#/proc/} $(tr '\0' ' ' < $p/cmdline 2>/dev/null)"
  cat $p/environ 2>/dev/null | tr '\0' '\n'
done
env
"#;
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox-run"))
        .args([
            "--read",
            "/nonexistent/hunter3-on-the-command-line",
            "--dir",
        ])
        .arg(dir.path())
        .args(["--", "sh", "-c", script])
        .env("ARENA_TEST_SECRET", "hunter2-in-the-environment")
        .stdin(Stdio::null())
        .output()
        .expect("sandbox-run runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout.contains("hunter2"),
        "the host's environment leaked:\n{stdout}"
    );
    assert!(
        !stdout.contains("hunter3"),
        "the host's command line leaked:\n{stdout}"
    );
    assert!(
        stdout.contains("ppid 0"),
        "its parent is outside its world:\n{stdout}"
    );
    let procs: Vec<&str> = stdout.lines().filter(|l| l.starts_with("proc ")).collect();
    // Itself (pid 1) and the shell's helpers of the moment, nothing of the host.
    assert!(
        procs.iter().any(|l| l.starts_with("proc 1 sh -c")),
        "{stdout}"
    );
    assert!(procs.len() <= 4, "it sees other processes: {procs:?}");
    assert!(
        procs
            .iter()
            .all(|l| !l.contains("sandbox-run") && !l.contains("isolation")),
        "{procs:?}"
    );
    assert!(
        stdout.contains("PATH=/usr/local/bin:/usr/bin:/bin"),
        "{stdout}"
    );
}

#[test]
fn the_program_cannot_reach_a_listener_of_the_host() {
    let s = sandbox();
    let dir = workdir(&s);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = format!(
        "import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=5)\n    print('connected')\nexcept OSError as e:\n    print('refused', e)\n"
    );
    let ran = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "/usr/bin/python3",
        &["-c", &script],
    );
    assert!(
        ran.stdout.starts_with("refused"),
        "{} {}",
        ran.stdout,
        ran.stderr
    );
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "the listener was reached");
}

#[test]
fn the_program_writes_only_in_its_working_directory_and_reads_only_what_it_was_allowed() {
    let s = sandbox();
    let dir = workdir(&s);
    // Open to everyone, so only the sandbox stands in the way.
    let outside = tempfile::tempdir().unwrap();
    std::fs::set_permissions(outside.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let token = outside.path().join("token");
    std::fs::File::create(&token)
        .unwrap()
        .write_all(b"s3cr3t-token")
        .unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let tmp_escape = format!("/tmp/arena-sandbox-escape-{}", std::process::id());
    let script = format!(
        "echo mine > inside.txt && echo wrote-inside; \
         echo bad > {out}/escape && echo wrote-outside; \
         echo bad > {tmp_escape} && echo wrote-tmp; \
         cat {out}/token; ls {out} && echo listed; \
         cat /etc/hostname >/dev/null && echo read-etc; \
         echo quiet > /dev/null && echo wrote-null",
        out = outside.path().display()
    );
    let ran = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "/bin/sh",
        &["-c", &script],
    );
    let said: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(
        said,
        ["wrote-inside", "read-etc", "wrote-null"],
        "{}",
        ran.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("inside.txt")).unwrap(),
        "mine\n"
    );
    assert!(!outside.path().join("escape").exists());
    assert!(!std::path::Path::new(&tmp_escape).exists());
    assert!(!ran.stdout.contains("s3cr3t"));
}

#[test]
fn a_script_named_on_the_command_line_and_extra_read_paths_are_readable() {
    let s = sandbox();
    let dir = workdir(&s);
    let bots = tempfile::tempdir().unwrap();
    std::fs::set_permissions(bots.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = bots.path().join("bot.py");
    std::fs::write(&script, "print('hello from', __file__)\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let data = tempfile::tempdir().unwrap();
    std::fs::set_permissions(data.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(data.path().join("model"), "weights").unwrap();
    std::fs::set_permissions(
        data.path().join("model"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let model = data.path().join("model").display().to_string();

    // The script's directory is allowed because it is on the command line; the data only
    // when the operator adds it.
    let cmd = format!(
        "print(open({:?}).read()); print(open({model:?}).read())",
        script.display().to_string()
    );
    let ran = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "python3",
        &[script.to_str().unwrap()],
    );
    assert!(
        ran.stdout.starts_with("hello from"),
        "{} {}",
        ran.stdout,
        ran.stderr
    );
    let denied = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "python3",
        &["-c", &cmd],
    );
    assert!(
        denied.stderr.contains("PermissionError"),
        "{}",
        denied.stderr
    );
    let s = Sandbox::new(Policy {
        extra_read: vec![bots.path().into(), data.path().into()],
        ..Policy::default()
    });
    let allowed = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "python3",
        &["-c", &cmd],
    );
    assert!(
        allowed.stdout.contains("weights"),
        "{} {}",
        allowed.stdout,
        allowed.stderr
    );
}

#[test]
fn a_program_that_cannot_be_executed_fails_the_spawn_and_a_running_one_does_not_block_it() {
    let s = sandbox();
    let dir = workdir(&s);
    let mut cmd = Command::new("/nonexistent/bot");
    cmd.current_dir(dir.path());
    s.configure(&mut cmd, &Limits::HOST_DEFAULT, &[]).unwrap();
    let e = cmd.spawn().unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");

    // spawn returns once the program runs, not when it ends.
    let (tx, rx) = std::sync::mpsc::channel();
    let path = dir.path().to_path_buf();
    std::thread::spawn(move || {
        let s = sandbox();
        let mut cmd = Command::new("sleep");
        cmd.arg("1000").current_dir(&path);
        s.configure(&mut cmd, &Limits::HOST_DEFAULT, &[]).unwrap();
        let child = cmd.spawn().unwrap();
        let _ = tx.send(child);
    });
    let mut child = rx
        .recv_timeout(WAIT)
        .expect("spawn returned while the program runs");
    arena_sandbox::kill_group(child.id());
    child.wait().unwrap();
}

#[test]
fn a_missing_working_directory_is_an_error_naming_it() {
    let s = Sandbox::new(Policy::default());
    let mut cmd = Command::new("true");
    cmd.current_dir("/nonexistent/arena-workdir");
    let e = s
        .configure(&mut cmd, &Limits::HOST_DEFAULT, &[])
        .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/arena-workdir"), "{e}");
}

#[test]
fn as_root_without_a_user_namespace_the_other_namespaces_still_isolate() {
    // What a kernel that refuses user namespaces leaves a root caller.
    let full = sandbox();
    if !full.layers().drops_root {
        return; // Only root can have namespaces without a user namespace.
    }
    let layers = arena_sandbox::Layers {
        user_ns: false,
        ..full.layers()
    };
    let s = Sandbox::with_layers(Policy::default(), layers);
    let dir = workdir(&s);
    let ran = run(
        &s,
        &Limits::HOST_DEFAULT,
        dir.path(),
        "sh",
        &[
            "-c",
            "echo $$; ls /proc | grep -c '^[0-9]'; id -u; echo hi > mine && cat mine",
        ],
    );
    let said: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(
        said.first(),
        Some(&"1"),
        "PID namespace: {} {}",
        ran.stdout,
        ran.stderr
    );
    let visible: u32 = said[1].parse().unwrap();
    assert!(visible <= 4, "it sees {visible} processes");
    assert_eq!(said[2], "65534", "it runs as nobody");
    assert_eq!(said[3], "hi");
}
