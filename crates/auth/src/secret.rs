//! [`Secret`]: a string that never shows up in logs, `--help` or `Debug` output, and
//! [`read_secret_file`] for secrets mounted as files.

use std::fmt;
use std::path::Path;

use crate::AuthError;

/// The longest secret read from a file, in bytes: a token is tens of bytes; a file much larger
/// than this is the wrong file.
pub const MAX_SECRET_BYTES: u64 = 4096;

/// A secret string. `Debug` and `Display` print `(secret)`; [`Secret::expose`] gives the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value, for the one place that must send or compare it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(secret)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(secret)")
    }
}

/// Reads a secret from a file (a Kubernetes Secret mounted as a volume, or a file the operator
/// made with mode 0600): the first line, trimmed. Fails naming the file when it cannot be read,
/// is empty, or is implausibly large; the error never contains the file's content.
pub fn read_secret_file(path: &Path) -> Result<Secret, AuthError> {
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| AuthError::SecretFile(format!("cannot read the secret file {shown}: {e}")))?;
    if !meta.is_file() {
        return Err(AuthError::SecretFile(format!(
            "the secret file {shown} is not a regular file"
        )));
    }
    if meta.len() > MAX_SECRET_BYTES {
        return Err(AuthError::SecretFile(format!(
            "the secret file {shown} is {} bytes, more than a secret ({MAX_SECRET_BYTES} bytes at most): is it the right file?",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| AuthError::SecretFile(format!("cannot read the secret file {shown}: {e}")))?;
    let value = text.lines().next().unwrap_or("").trim();
    if value.is_empty() {
        return Err(AuthError::SecretFile(format!(
            "the secret file {shown} is empty"
        )));
    }
    if value.chars().any(|c| c.is_control() || c == ' ') {
        return Err(AuthError::SecretFile(format!(
            "the secret in {shown} contains spaces or control characters; a token is one word"
        )));
    }
    Ok(Secret::new(value))
}

/// Writes a new random token to `path` with mode 0600 unless the file exists; returns the token
/// in the file and whether this call made it. What `arena standalone` does on first start.
pub fn ensure_token_file(path: &Path) -> Result<(Secret, bool), AuthError> {
    if path.exists() {
        return Ok((read_secret_file(path)?, false));
    }
    let token = crate::token::random_text(crate::token::TOKEN_BYTES)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let made = options.open(path).and_then(|mut f| {
        use std::io::Write;
        f.write_all(token.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()
    });
    match made {
        Ok(()) => Ok((Secret::new(token), true)),
        // Another process made it meanwhile: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            Ok((read_secret_file(path)?, false))
        }
        Err(e) => Err(AuthError::SecretFile(format!(
            "cannot create the token file {}: {e}",
            path.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "(secret) (secret)");
        assert_eq!(s.expose(), "hunter2");
    }

    #[test]
    fn secret_files_are_read_trimmed_and_bad_ones_named_without_their_content() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("token");
        std::fs::write(&good, "  abc-def \nsecond line\n").unwrap();
        assert_eq!(read_secret_file(&good).unwrap().expose(), "abc-def");
        let empty = dir.path().join("empty");
        std::fs::write(&empty, "\n").unwrap();
        let e = read_secret_file(&empty).unwrap_err().to_string();
        assert!(e.contains("empty") && e.contains("empty"), "{e}");
        let spaced = dir.path().join("spaced");
        std::fs::write(&spaced, "two words\n").unwrap();
        let e = read_secret_file(&spaced).unwrap_err().to_string();
        assert!(!e.contains("two words"), "{e}");
        let e = read_secret_file(&dir.path().join("missing"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_is_made_once_with_mode_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("operator.token");
        let (first, made) = ensure_token_file(&path).unwrap();
        assert!(made);
        assert_eq!(first.expose().len(), 43);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let (again, made) = ensure_token_file(&path).unwrap();
        assert!(!made);
        assert_eq!(again, first);
    }
}
