//! A certificate authority for tests: made fresh in each test, never trusted by anything else.
//!
//! [`TestCa::new`] makes a self-signed CA; [`TestCa::server`] and [`TestCa::client`] issue leaf
//! certificates signed by it. Every PEM is also written to a file in a temporary directory that
//! lives as long as the CA, because the code under test reads certificates and keys from files.
//!
//! ```
//! let ca = arena_test_ca::TestCa::new("arena test CA");
//! let server = ca.server(&["localhost", "127.0.0.1"]);
//! assert!(std::fs::read_to_string(&server.cert_file).unwrap().contains("BEGIN CERTIFICATE"));
//! assert!(std::fs::read_to_string(ca.cert_file()).unwrap().contains("BEGIN CERTIFICATE"));
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType,
};

/// A certificate and its private key, as PEM text and as files.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The certificate, PEM.
    pub cert_pem: String,
    /// The private key (PKCS#8), PEM.
    pub key_pem: String,
    /// A file holding [`Leaf::cert_pem`].
    pub cert_file: PathBuf,
    /// A file holding [`Leaf::key_pem`].
    pub key_file: PathBuf,
}

/// A self-signed certificate authority and the directory its files are written to.
pub struct TestCa {
    issuer: Issuer<'static, KeyPair>,
    cert_pem: String,
    cert_file: PathBuf,
    dir: tempfile::TempDir,
    issued: AtomicUsize,
}

impl std::fmt::Debug for TestCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestCa")
            .field("cert_file", &self.cert_file)
            .finish_non_exhaustive()
    }
}

impl TestCa {
    /// A new CA whose certificate names `common_name`.
    ///
    /// # Panics
    ///
    /// If a key cannot be generated or a file cannot be written: this is test set-up.
    pub fn new(common_name: &str) -> TestCa {
        let key = KeyPair::generate().expect("a CA key");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params.self_signed(&key).expect("the CA certificate");
        let dir = tempfile::tempdir().expect("a directory for the CA's files");
        let cert_pem = cert.pem();
        let cert_file = dir.path().join("ca.pem");
        std::fs::write(&cert_file, &cert_pem).expect("write the CA certificate");
        TestCa {
            issuer: Issuer::new(params, key),
            cert_pem,
            cert_file,
            dir,
            issued: AtomicUsize::new(0),
        }
    }

    /// The CA certificate, PEM.
    pub fn cert_pem(&self) -> &str {
        &self.cert_pem
    }

    /// A file holding the CA certificate.
    pub fn cert_file(&self) -> &Path {
        &self.cert_file
    }

    /// The directory the CA writes its files to (removed when the CA is dropped).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A server certificate for `names` (DNS names or IP addresses), signed by this CA.
    pub fn server(&self, names: &[&str]) -> Leaf {
        self.leaf(names, ExtendedKeyUsagePurpose::ServerAuth)
    }

    /// A client certificate (for mutual TLS) with common name `name`, signed by this CA.
    pub fn client(&self, name: &str) -> Leaf {
        self.leaf(&[name], ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn leaf(&self, names: &[&str], usage: ExtendedKeyUsagePurpose) -> Leaf {
        let key = KeyPair::generate().expect("a leaf key");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("leaf parameters");
        params
            .distinguished_name
            .push(DnType::CommonName, names.first().copied().unwrap_or("leaf"));
        params.subject_alt_names = names
            .iter()
            .map(|n| match n.parse() {
                Ok(ip) => SanType::IpAddress(ip),
                Err(_) => SanType::DnsName((*n).try_into().expect("a DNS name")),
            })
            .collect();
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        params.extended_key_usages = vec![usage];
        let cert = params
            .signed_by(&key, &self.issuer)
            .expect("a leaf certificate");
        let n = self.issued.fetch_add(1, Ordering::Relaxed);
        let cert_file = self.dir.path().join(format!("leaf-{n}.pem"));
        let key_file = self.dir.path().join(format!("leaf-{n}.key"));
        let (cert_pem, key_pem) = (cert.pem(), key.serialize_pem());
        std::fs::write(&cert_file, &cert_pem).expect("write a leaf certificate");
        std::fs::write(&key_file, &key_pem).expect("write a leaf key");
        Leaf {
            cert_pem,
            key_pem,
            cert_file,
            key_file,
        }
    }
}
