//! What a newcomer reads from the README's first command, `arena compete`: in plain words what
//! was run, how to read the standings and which way is better, where the deals are kept, and
//! what to run next.

mod common;

#[test]
fn compete_explains_itself_and_says_what_to_run_next() {
    let dir = tempfile::tempdir().unwrap();
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
        "the equal-strength method of the paper on equal-strength deals for competitive Dou Dizhu",
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
