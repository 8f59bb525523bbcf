//! What a newcomer reads from the README's first command, `arena compete`: in plain words what
//! was run, how to read the standings and which way is better, where the deals are kept, and
//! what to run next.

mod common;

#[test]
fn compete_explains_itself_and_says_what_to_run_next() {
    let dir = arena_testkit::private_tempdir();
    let data = dir.path().to_str().unwrap();
    let (out, err, ok) = common::arena(&[
        "compete",
        "--data-dir",
        data,
        "--tables",
        "expert,random,seed",
        "--matches",
        "3",
        "--rounds",
        "4",
        "--panel",
        "ladder:5",
    ]);
    assert!(ok, "{err}");
    // Paragraphs are wrapped: compare with the line breaks undone.
    let text = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "A competition in the equal-strength format among 3 Dou Dizhu landlord bots",
        "against the same two `expert` farmers, 3 matches of 4 games",
        "the equal-strength method of Li, Chen, Zheng and Meng, \"Equal-strength deals in competitive Dou Dizhu\" (CAAI Transactions on Intelligent Systems, 2021",
        "docs/deals.md",
        "a higher score and a lower rank are better",
        "Place 1 is the strongest bot",
        &format!("from the deal library in the data directory {data}"),
        "Next:",
        "arena compete --heatmap",
        "arena standalone",
        "http://127.0.0.1:8054/",
        "docs/bots.md",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{out}");
    }
    // No line of the report's prose is wider than a terminal.
    for line in out.lines().filter(|l| !l.starts_with("  ")) {
        assert!(line.chars().count() <= 100, "{line}");
    }
}

/// Starts `cmd` (stderr piped), reads its stderr until a line for which `at` holds, sends it
/// SIGINT as Ctrl-C would, and returns its exit status, all it wrote to stderr and its stdout (if
/// piped).
fn interrupt_when(
    cmd: &mut std::process::Command,
    at: impl Fn(&str) -> bool,
) -> (std::process::ExitStatus, String, String) {
    let mut child = cmd.stderr(std::process::Stdio::piped()).spawn().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(n > 0, "it ended before the line to interrupt at:\n{seen}");
        seen.push_str(&line);
        if at(&line) {
            break;
        }
    }
    // SAFETY: kill(2) with our child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    std::io::Read::read_to_string(&mut stderr, &mut seen).unwrap();
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
    }
    (child.wait().unwrap(), seen, out)
}

#[test]
fn compete_interrupted_while_measuring_says_what_it_kept() {
    let dir = arena_testkit::private_tempdir();
    // The default panel of 70 landlords: measuring the deals takes long enough to interrupt.
    let (status, seen, _) = interrupt_when(
        std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["compete", "--data-dir", dir.path().to_str().unwrap()])
            .args([
                "--tables",
                "expert,random",
                "--matches",
                "20",
                "--rounds",
                "20",
            ])
            .stdout(std::process::Stdio::null()),
        |line| line.contains("more on demand") || line.contains("more\n"),
    );
    assert_eq!(status.code(), Some(130), "{seen}");
    assert!(
        seen.contains("interrupted: the deals measured so far are kept"),
        "{seen}"
    );
    assert!(!seen.contains("error:"), "{seen}");
}

#[test]
fn compete_interrupted_while_playing_says_nothing_was_ranked() {
    let dir = arena_testkit::private_tempdir();
    // Search landlords take long enough per game to be interrupted mid-play; a small panel
    // measures the four deals quickly first.
    let (status, seen, out) = interrupt_when(
        std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["compete", "--data-dir", dir.path().to_str().unwrap()])
            .args([
                "--format",
                "duplicate",
                "--tables",
                "search:samples=1000,expert",
                "--matches",
                "2",
                "--rounds",
                "2",
                "--panel",
                "ladder:5",
            ])
            .stdout(std::process::Stdio::piped()),
        |line| line.starts_with("playing "),
    );
    assert_eq!(status.code(), Some(130), "{seen}");
    assert!(
        seen.contains("interrupted while the games were played")
            && seen.contains("the deals stay in the library"),
        "{seen}"
    );
    // Not the measuring phase's handler, which would wait for a second Ctrl-C.
    assert!(!seen.contains("finishing the deals in progress"), "{seen}");
    assert!(!out.contains("Place 1"), "{out}");
}

#[test]
fn competition_create_interrupted_says_the_competition_goes_on() {
    let (sa, _) = common::Standalone::start(&[], &[], &[]);
    let (status, seen, _) = interrupt_when(
        common::client_command(
            sa.data_dir(),
            &[
                "competition",
                "create",
                "--matchmaker",
                &sa.matchmaker,
                "--name",
                "long",
                "--format",
                "random",
                "--participants",
                "expert,seed",
                "--matches",
                "50",
                "--rounds",
                "50",
            ],
        )
        .stdout(std::process::Stdio::null()),
        |line| line.contains("competition long created"),
    );
    assert_eq!(status.code(), Some(130), "{seen}");
    assert!(
        seen.contains("stopped following long; the competition goes on"),
        "{seen}"
    );
    assert!(!seen.contains("error:"), "{seen}");
    // It does go on: still there, not cancelled.
    let (out, err, ok) = sa.client(&["competition", "list", "--matchmaker", &sa.matchmaker]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("long ")).unwrap();
    assert!(!line.contains("cancelled"), "{line}");
}
