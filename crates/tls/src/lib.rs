//! TLS for arena's gRPC servers and clients, configured from PEM files (as Kubernetes mounts
//! them from a TLS Secret): a server's certificate and key, the CA its clients are checked
//! against (mutual TLS), the CA a client trusts and the certificate it presents.
//!
//! Files are read and checked once, when the configuration is made, so a bad file stops a service
//! at start-up rather than at its first connection. Every error names the file and the setting it
//! came from (a flag or an environment variable, as the caller calls it) and says what is wrong;
//! none repeats the file's content.
//!
//! TLS is rustls with the ring provider (tonic's `tls-ring` feature). A client given no CA file
//! trusts the system's roots.

use std::path::PathBuf;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tonic::transport::{Certificate, ClientTlsConfig, Identity, ServerTlsConfig};

/// A TLS file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{setting} {}: {problem}", path.display())]
pub struct TlsFileError {
    /// The setting that named the file (e.g. `--tls-cert-file`).
    pub setting: String,
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

/// A file and the setting that named it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFile {
    /// The setting that named the file, for messages (e.g. `--tls-cert-file` or
    /// `ARENA_CA_FILE`).
    pub setting: String,
    /// The file.
    pub path: PathBuf,
}

impl TlsFile {
    /// `path`, named by `setting`.
    pub fn new(setting: impl Into<String>, path: impl Into<PathBuf>) -> TlsFile {
        TlsFile {
            setting: setting.into(),
            path: path.into(),
        }
    }

    fn error(&self, problem: impl Into<String>) -> TlsFileError {
        TlsFileError {
            setting: self.setting.clone(),
            path: self.path.clone(),
            problem: problem.into(),
        }
    }

    fn read(&self) -> Result<Vec<u8>, TlsFileError> {
        std::fs::read(&self.path).map_err(|e| self.error(format!("cannot read it: {e}")))
    }

    /// The file's PEM text, checked to hold at least one certificate and nothing unreadable.
    pub fn read_certificates(&self) -> Result<Vec<u8>, TlsFileError> {
        let pem = self.read()?;
        let mut count = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            cert.map_err(|e| self.error(format!("is not valid PEM: {e}")))?;
            count += 1;
        }
        if count == 0 {
            return Err(self.error("holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
        }
        Ok(pem)
    }

    /// The file's PEM text, checked to hold a private key (PKCS#8, PKCS#1 or SEC1).
    pub fn read_private_key(&self) -> Result<Vec<u8>, TlsFileError> {
        let pem = self.read()?;
        PrivateKeyDer::from_pem_slice(&pem).map_err(|e| match e {
            rustls_pki_types::pem::Error::NoItemsFound => {
                self.error("holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
            }
            e => self.error(format!("is not a valid PEM private key: {e}")),
        })?;
        Ok(pem)
    }

    /// The CA certificate(s) of the file.
    pub fn ca_certificate(&self) -> Result<Certificate, TlsFileError> {
        self.read_certificates().map(Certificate::from_pem)
    }
}

/// A certificate (chain) and its private key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPairFiles {
    /// The certificate, followed by any intermediates.
    pub cert: TlsFile,
    /// Its private key.
    pub key: TlsFile,
}

impl KeyPairFiles {
    /// The identity the files hold.
    pub fn identity(&self) -> Result<Identity, TlsFileError> {
        Ok(Identity::from_pem(
            self.cert.read_certificates()?,
            self.key.read_private_key()?,
        ))
    }
}

/// What a TLS server needs: its identity and, for mutual TLS, the CA of its clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerTlsFiles {
    /// The server's certificate and key.
    pub identity: KeyPairFiles,
    /// When set, every client must present a certificate issued by this CA (mutual TLS).
    pub client_ca: Option<TlsFile>,
}

impl ServerTlsFiles {
    /// Reads and checks the files: tonic's server configuration.
    ///
    /// It is checked whole too (the key must fit the certificate), so the error comes now
    /// rather than at the first connection.
    pub fn server_config(&self) -> Result<ServerTlsConfig, TlsFileError> {
        let mut config = ServerTlsConfig::new().identity(self.identity.identity()?);
        if let Some(ca) = &self.client_ca {
            config = config.client_ca_root(ca.ca_certificate()?);
        }
        tonic::transport::Server::builder()
            .tls_config(config.clone())
            .map_err(|e| {
                let cert = &self.identity.cert;
                cert.error(format!(
                    "with {} {}: not a usable certificate and key: {}",
                    self.identity.key.setting,
                    self.identity.key.path.display(),
                    error_chain(&e)
                ))
            })?;
        Ok(config)
    }
}

/// What a TLS client needs: whom to trust and, for mutual TLS, its own identity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientTlsFiles {
    /// The CA the server's certificate must come from; `None` trusts the system's roots.
    pub ca: Option<TlsFile>,
    /// The certificate and key to present to servers that ask for one.
    pub identity: Option<KeyPairFiles>,
}

impl ClientTlsFiles {
    /// Reads and checks the files: tonic's client configuration (the server's name is taken
    /// from the URL it connects to).
    pub fn client_config(&self) -> Result<ClientTlsConfig, TlsFileError> {
        let config = match &self.ca {
            Some(ca) => ClientTlsConfig::new().ca_certificate(ca.ca_certificate()?),
            None => ClientTlsConfig::new().with_native_roots(),
        };
        Ok(match &self.identity {
            Some(pair) => config.identity(pair.identity()?),
            None => config,
        })
    }
}

/// An error and its sources, on one line (tonic's transport errors keep the reason in a source).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_test_ca::TestCa;

    fn pair(leaf: &arena_test_ca::Leaf) -> KeyPairFiles {
        KeyPairFiles {
            cert: TlsFile::new("--tls-cert-file", &leaf.cert_file),
            key: TlsFile::new("--tls-key-file", &leaf.key_file),
        }
    }

    #[test]
    fn good_files_make_configurations() {
        let ca = TestCa::new("test CA");
        let server = ca.server(&["localhost"]);
        let files = ServerTlsFiles {
            identity: pair(&server),
            client_ca: Some(TlsFile::new("--tls-client-ca-file", ca.cert_file())),
        };
        files.server_config().expect("a server configuration");
        let client = ClientTlsFiles {
            ca: Some(TlsFile::new("ARENA_CA_FILE", ca.cert_file())),
            identity: Some(pair(&ca.client("bot"))),
        };
        client.client_config().expect("a client configuration");
        ClientTlsFiles::default()
            .client_config()
            .expect("the system's roots");
    }

    #[test]
    fn bad_files_are_named_with_their_setting_and_problem() {
        let ca = TestCa::new("test CA");
        let server = ca.server(&["localhost"]);
        let missing = ca.dir().join("missing.pem");
        let garbage = ca.dir().join("garbage.pem");
        std::fs::write(&garbage, "hello").unwrap();
        let broken = ca.dir().join("broken.pem");
        std::fs::write(&broken, "-----BEGIN CERTIFICATE-----\nAAA\n").unwrap();
        let expect = |result: Result<ServerTlsConfig, TlsFileError>, words: &[&str]| {
            let e = result.expect_err("a bad file").to_string();
            for w in words {
                assert!(e.contains(w), "{w:?} missing from {e:?}");
            }
            // No key material in messages.
            assert!(!e.contains(server.key_pem.lines().nth(1).unwrap()), "{e}");
        };
        let with = |cert: &std::path::Path, key: &std::path::Path| ServerTlsFiles {
            identity: KeyPairFiles {
                cert: TlsFile::new("--tls-cert-file", cert),
                key: TlsFile::new("--tls-key-file", key),
            },
            client_ca: None,
        };
        let m = missing.display().to_string();
        expect(
            with(&missing, &server.key_file).server_config(),
            &["--tls-cert-file", &m, "cannot read it"],
        );
        expect(
            with(&server.cert_file, &missing).server_config(),
            &["--tls-key-file", &m, "cannot read it"],
        );
        expect(
            with(&garbage, &server.key_file).server_config(),
            &["--tls-cert-file", "holds no PEM certificate"],
        );
        expect(
            with(&broken, &server.key_file).server_config(),
            &["--tls-cert-file", "broken.pem", "not valid PEM"],
        );
        // A certificate where the key should be.
        expect(
            with(&server.cert_file, &server.cert_file).server_config(),
            &["--tls-key-file", "holds no PEM private key"],
        );
        // A key that is not the certificate's.
        let other = ca.server(&["other"]);
        expect(
            with(&server.cert_file, &other.key_file).server_config(),
            &[
                "--tls-cert-file",
                "--tls-key-file",
                "not a usable certificate and key",
            ],
        );
        let mut files = with(&server.cert_file, &server.key_file);
        files.client_ca = Some(TlsFile::new("--tls-client-ca-file", &garbage));
        expect(
            files.server_config(),
            &["--tls-client-ca-file", "garbage.pem"],
        );
        let client = ClientTlsFiles {
            ca: Some(TlsFile::new("ARENA_CA_FILE", &missing)),
            identity: None,
        };
        let e = client.client_config().expect_err("missing CA").to_string();
        assert!(
            e.starts_with(&format!("ARENA_CA_FILE {m}: cannot read it")),
            "{e}"
        );
    }
}
