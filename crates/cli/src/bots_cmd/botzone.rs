//! `arena bots add NAME --botzone FILE`: a bot written for Botzone, built the way Botzone
//! builds it, into a directory of its own that bot-host starts it in.
//!
//! - C++ (`.cpp`, `.cc`, `.cxx`) is compiled as Botzone compiles it: `g++ -D_BOTZONE_ONLINE -O2
//!   -Wall`, with `#include "jsoncpp/json.h"` (Botzone's path for its JSON library) resolved to
//!   the machine's jsoncpp (Debian's `libjsoncpp-dev`) through a one-line header in the bot's
//!   directory, linked with `-ljsoncpp -lpthread`. C (`.c`) likewise with gcc.
//! - Python (`.py`) is copied and run by the machine's `python3`.
//! - `--botzone-data DIR` is copied to the bot's `data/`, read-only (Botzone's user files, a
//!   bot's weights).
//!
//! The directory holds `bot` (or `bot.py`), `data/` and `botzone.json` (what was built, from
//! what, with which limits). Botzone's limits per language are the defaults: 256 MiB, and its
//! time per turn (C++ 1 s, Python 6 s; keep-running turns after the first 1 s and 4 s), which
//! the table's clock enforces: the command says which clock the bot needs.

use std::fs;
use std::io::Read as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// How long a compiler may run on one bot.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(180);

/// The most compiler output quoted when a build fails, in bytes.
const COMPILER_QUOTE_BYTES: usize = 4000;

/// Where Debian's `libjsoncpp-dev` puts jsoncpp's headers (`json/json.h` below it).
pub const JSONCPP_INCLUDE: &str = "/usr/include/jsoncpp";

/// A language Botzone runs, with its limits there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    /// C++, compiled by g++.
    Cpp,
    /// C, compiled by gcc.
    C,
    /// Python 3, run by the machine's python3.
    Python,
}

impl Language {
    /// The language of a source file, by its extension.
    pub fn of(file: &Path) -> Result<Language> {
        let ext = file
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        Ok(match ext.as_str() {
            "cpp" | "cc" | "cxx" => Language::Cpp,
            "c" => Language::C,
            "py" => Language::Python,
            _ => bail!(
                "--botzone: {} is not a bot arena can build: give a C++ (.cpp, .cc, .cxx), C (.c) \
                 or Python (.py) file",
                file.display()
            ),
        })
    }

    /// Its name as Botzone's language list writes it.
    pub fn name(self) -> &'static str {
        match self {
            Language::Cpp => "C++",
            Language::C => "C",
            Language::Python => "Python 3",
        }
    }

    /// Botzone's time per turn, in milliseconds: the first turn (and every turn of a bot that
    /// does not keep running), and the later turns of a keep-running bot.
    pub fn time_ms(self) -> (u32, u32) {
        match self {
            Language::Cpp | Language::C => (1000, 1000),
            Language::Python => (6000, 4000),
        }
    }

    /// Botzone's memory limit, in MiB.
    pub fn memory_mb(self) -> u32 {
        256
    }
}

/// A Botzone bot built into its directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// Its directory (the working directory it is started in).
    pub dir: PathBuf,
    /// Its language.
    pub language: Language,
    /// The command line to register, with its protocol prefix (`botzone:/dir/bot`).
    pub command: String,
}

/// Builds `source` into `dir` (made if missing, emptied of an earlier build's files), with a
/// copy of `data` as its read-only `data/`, speaking `protocol` (`botzone`,
/// `botzone-simpleio`).
pub fn build(source: &Path, dir: &Path, data: Option<&Path>, protocol: &str) -> Result<Built> {
    let language = Language::of(source)?;
    let meta = fs::metadata(source)
        .with_context(|| format!("--botzone: cannot read {}", source.display()))?;
    if !meta.is_file() {
        bail!("--botzone: {} is not a file", source.display());
    }
    if !dir.is_absolute() {
        bail!(
            "the bot's directory {} must be an absolute path",
            dir.display()
        );
    }
    fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    for stale in ["bot", "bot.py", "data", ".include", "botzone.json"] {
        let path = dir.join(stale);
        if path.is_dir() {
            make_writable(&path)?;
            fs::remove_dir_all(&path)
        } else if path.exists() {
            fs::remove_file(&path)
        } else {
            Ok(())
        }
        .with_context(|| format!("removing the earlier build's {}", path.display()))?;
    }
    let command = match language {
        Language::Python => {
            let target = dir.join("bot.py");
            fs::copy(source, &target)
                .with_context(|| format!("copying {} into {}", source.display(), dir.display()))?;
            fs::set_permissions(&target, fs::Permissions::from_mode(0o644))?;
            arena_line::CmdSpec::new("python3", [target.display().to_string()])
                .with_protocol(Some(protocol))
                .to_string()
        }
        Language::Cpp | Language::C => {
            let target = dir.join("bot");
            compile(language, source, dir, &target)?;
            fs::set_permissions(&target, fs::Permissions::from_mode(0o755))?;
            arena_line::CmdSpec::new(target.display().to_string(), [""; 0])
                .with_protocol(Some(protocol))
                .to_string()
        }
    };
    if let Some(data) = data {
        copy_read_only(data, &dir.join("data"))
            .with_context(|| format!("copying --botzone-data {}", data.display()))?;
    }
    let (first, later) = language.time_ms();
    let record = serde_json::json!({
        "source": source.display().to_string(),
        "language": language.name(),
        "protocol": protocol,
        "command": command,
        "time_ms": first,
        "keep_running_time_ms": later,
        "memory_mb": language.memory_mb(),
    });
    fs::write(
        dir.join("botzone.json"),
        serde_json::to_string_pretty(&record)? + "\n",
    )?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    Ok(Built {
        dir: dir.to_path_buf(),
        language,
        command,
    })
}

/// Compiles `source` to `target` as Botzone does, `jsoncpp/json.h` resolved through a header
/// in `dir`.
fn compile(language: Language, source: &Path, dir: &Path, target: &Path) -> Result<()> {
    let include = dir.join(".include");
    let (compiler, mut args) = match language {
        Language::Cpp => {
            if !Path::new(JSONCPP_INCLUDE).join("json/json.h").is_file() {
                bail!(
                    "--botzone: C++ bots include Botzone's \"jsoncpp/json.h\", and this machine \
                     has no jsoncpp ({JSONCPP_INCLUDE}/json/json.h): install Debian's \
                     libjsoncpp-dev (apt-get install libjsoncpp-dev)"
                );
            }
            fs::create_dir_all(include.join("jsoncpp"))?;
            // Botzone's image has the library's amalgamated header at this path; the system's
            // headers say the same under `json/`.
            fs::write(include.join("jsoncpp/json.h"), "#include <json/json.h>\n")?;
            ("g++", vec!["-x".to_string(), "c++".to_string()])
        }
        Language::C => ("gcc", Vec::new()),
        Language::Python => unreachable!("Python is not compiled"),
    };
    args.extend(
        [
            "-D_BOTZONE_ONLINE",
            "-O2",
            "-Wall",
            "-I",
            &include.display().to_string(),
            "-I",
            JSONCPP_INCLUDE,
            &source.display().to_string(),
            "-x",
            "none",
            "-o",
            &target.display().to_string(),
        ]
        .map(str::to_string),
    );
    match language {
        Language::Cpp => args.extend(["-ljsoncpp", "-lpthread"].map(str::to_string)),
        _ => args.extend(["-lm", "-lpthread"].map(str::to_string)),
    }
    let started = Instant::now();
    let mut child = Command::new(compiler)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("--botzone: cannot run {compiler} (is it installed?)"))?;
    // The compiler's output is read on threads, so that a long error list cannot fill a pipe
    // and stall it while its exit is waited for.
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.by_ref().take(1 << 20).read_to_end(&mut buf);
            let _ = std::io::copy(&mut r, &mut std::io::sink());
            buf
        })
    };
    let out = read(Box::new(child.stdout.take().expect("piped")));
    let err = read(Box::new(child.stderr.take().expect("piped")));
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > COMPILE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "--botzone: {compiler} did not finish compiling {} within {} s",
                source.display(),
                COMPILE_TIMEOUT.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut said = out.join().unwrap_or_default();
    said.extend(err.join().unwrap_or_default());
    if !status.success() {
        let text = String::from_utf8_lossy(&said);
        let cut = if text.len() > COMPILER_QUOTE_BYTES {
            let mut end = COMPILER_QUOTE_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}…", &text[..end])
        } else {
            text.into_owned()
        };
        bail!(
            "--botzone: {compiler} could not compile {} ({status}); the command: {compiler} {}\n{cut}",
            source.display(),
            arena_line::CmdSpec::new(compiler, &args).command_line()
        );
    }
    Ok(())
}

/// Copies the directory `from` to `to`, its files readable by all and writable by none, its
/// directories likewise (a bot reads its data, it does not change it).
fn copy_read_only(from: &Path, to: &Path) -> Result<()> {
    let meta = fs::symlink_metadata(from).with_context(|| format!("reading {}", from.display()))?;
    if meta.is_dir() {
        fs::create_dir_all(to)?;
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            copy_read_only(&entry.path(), &to.join(entry.file_name()))?;
        }
        fs::set_permissions(to, fs::Permissions::from_mode(0o555))?;
    } else if meta.is_file() {
        fs::copy(from, to)?;
        fs::set_permissions(to, fs::Permissions::from_mode(0o444))?;
    } else {
        bail!(
            "{} is neither a file nor a directory (links are not followed)",
            from.display()
        );
    }
    Ok(())
}

/// Makes `dir` and the directories below it writable by their owner again, so that an earlier
/// build's read-only `data/` can be removed.
fn make_writable(dir: &Path) -> Result<()> {
    if fs::symlink_metadata(dir)?.is_dir() {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
        for entry in fs::read_dir(dir)? {
            make_writable(&entry?.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn languages_come_from_the_extension_and_others_are_refused() {
        assert_eq!(Language::of(Path::new("a/b.cpp")).unwrap(), Language::Cpp);
        assert_eq!(Language::of(Path::new("b.PY")).unwrap(), Language::Python);
        assert_eq!(Language::of(Path::new("b.c")).unwrap(), Language::C);
        let e = Language::of(Path::new("bot.rs")).unwrap_err().to_string();
        assert!(e.contains("bot.rs") && e.contains(".cpp"), "{e}");
        assert_eq!(Language::Python.time_ms(), (6000, 4000));
        assert_eq!(Language::Cpp.time_ms(), (1000, 1000));
    }

    #[test]
    fn a_cpp_bot_including_botzones_jsoncpp_header_is_built_and_runs() {
        if !Path::new(JSONCPP_INCLUDE).join("json/json.h").is_file() {
            panic!("this test needs Debian's libjsoncpp-dev (.ci/run installs it)");
        }
        let src = tempfile::tempdir().unwrap();
        let file = write(
            src.path(),
            "bot.cpp",
            r#"#include <iostream>
#include <string>
#include "jsoncpp/json.h"
int main() {
#ifndef _BOTZONE_ONLINE
    return 3;
#endif
    std::string line; std::getline(std::cin, line);
    Json::Reader reader; Json::Value input; reader.parse(line, input);
    Json::Value out; out["response"] = (int)input["requests"].size();
    Json::FastWriter writer; std::cout << writer.write(out) << std::endl;
}
"#,
        );
        let data = tempfile::tempdir().unwrap();
        fs::create_dir(data.path().join("w")).unwrap();
        write(&data.path().join("w"), "weights.bin", "123");
        let out = tempfile::tempdir().unwrap();
        let dir = out.path().join("mybot");
        let built = build(&file, &dir, Some(data.path()), "botzone").unwrap();
        assert_eq!(built.language, Language::Cpp);
        assert_eq!(built.command, format!("botzone:{}/bot", dir.display()));
        let run = Command::new(dir.join("bot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        run.stdin
            .as_ref()
            .unwrap()
            .write_all(b"{\"requests\":[1,2,3],\"responses\":[1,2]}\n")
            .unwrap();
        let output = run.wait_with_output().unwrap();
        assert!(output.status.success(), "{output:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            "{\"response\":3}"
        );
        let weights = dir.join("data/w/weights.bin");
        assert_eq!(fs::read_to_string(&weights).unwrap(), "123");
        assert_eq!(
            fs::metadata(&weights).unwrap().permissions().mode() & 0o777,
            0o444
        );
        let record: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("botzone.json")).unwrap()).unwrap();
        assert_eq!(record["language"], "C++");
        assert_eq!(record["time_ms"], 1000);
        // Building again replaces the earlier build, its read-only data included.
        build(&file, &dir, None, "botzone").unwrap();
        assert!(!dir.join("data").exists());
    }

    #[test]
    fn a_bot_that_does_not_compile_is_refused_with_the_compilers_words() {
        let src = tempfile::tempdir().unwrap();
        let file = write(
            src.path(),
            "bad.cpp",
            "int main() { return undefined_thing; }\n",
        );
        let out = tempfile::tempdir().unwrap();
        let e = build(&file, &out.path().join("b"), None, "botzone")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("could not compile") && e.contains("undefined_thing"),
            "{e}"
        );
    }

    #[test]
    fn a_python_bot_is_copied_and_run_by_python3() {
        let src = tempfile::tempdir().unwrap();
        let file = write(src.path(), "b.py", "print('{}')\n");
        let out = tempfile::tempdir().unwrap();
        let dir = out.path().join("py bot");
        let built = build(&file, &dir, None, "botzone-simpleio").unwrap();
        assert_eq!(
            built.command,
            format!("botzone-simpleio:python3 '{}/bot.py'", dir.display())
        );
        assert!(dir.join("bot.py").is_file());
        let e = build(&out.path().join("missing.py"), &dir, None, "botzone")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read") && e.contains("missing.py"), "{e}");
    }
}
