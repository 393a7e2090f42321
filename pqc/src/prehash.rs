//! Pre-hash functions of HashML-DSA (FIPS 204 §5.4) and HashSLH-DSA
//! (FIPS 205 §10.2.2): the twelve hash functions ACVP tests, with their
//! DER-encoded object identifiers.
//!
//! The digest of the caller's message is the caller's hashing, outside the
//! signature schemes proper, so it uses RustCrypto `sha2`/`sha3` directly
//! rather than the Keccak backend.

use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// A pre-hash function accepted by HashSLH-DSA (the twelve ACVP tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreHash {
    /// SHA-224.
    Sha2_224,
    /// SHA-256.
    Sha2_256,
    /// SHA-384.
    Sha2_384,
    /// SHA-512.
    Sha2_512,
    /// SHA-512/224.
    Sha2_512_224,
    /// SHA-512/256.
    Sha2_512_256,
    /// SHA3-224.
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with a 256-bit output.
    Shake128,
    /// SHAKE256 with a 512-bit output.
    Shake256,
}

/// Longest pre-hash digest (64 bytes).
pub const MAX_DIGEST_BYTES: usize = 64;

impl PreHash {
    /// Every pre-hash function, in NIST OID order.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
        PreHash::Sha2_224,
        PreHash::Sha2_512_224,
        PreHash::Sha2_512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The ACVP name, e.g. `"SHA2-512/224"`, `"SHAKE-128"`.
    pub const fn name(self) -> &'static str {
        match self {
            PreHash::Sha2_224 => "SHA2-224",
            PreHash::Sha2_256 => "SHA2-256",
            PreHash::Sha2_384 => "SHA2-384",
            PreHash::Sha2_512 => "SHA2-512",
            PreHash::Sha2_512_224 => "SHA2-512/224",
            PreHash::Sha2_512_256 => "SHA2-512/256",
            PreHash::Sha3_224 => "SHA3-224",
            PreHash::Sha3_256 => "SHA3-256",
            PreHash::Sha3_384 => "SHA3-384",
            PreHash::Sha3_512 => "SHA3-512",
            PreHash::Shake128 => "SHAKE-128",
            PreHash::Shake256 => "SHAKE-256",
        }
    }

    /// Looks a function up by its ACVP name.
    pub fn from_name(name: &str) -> Option<PreHash> {
        PreHash::ALL.into_iter().find(|h| h.name() == name)
    }

    /// Digest length in bytes.
    pub const fn digest_bytes(self) -> usize {
        match self {
            PreHash::Sha2_224 | PreHash::Sha2_512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha2_256 | PreHash::Sha2_512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 | PreHash::Sha3_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }

    /// DER encoding of the function's OID (2.16.840.1.101.3.4.2.x).
    pub const fn oid(self) -> [u8; 11] {
        let last = match self {
            PreHash::Sha2_256 => 0x01,
            PreHash::Sha2_384 => 0x02,
            PreHash::Sha2_512 => 0x03,
            PreHash::Sha2_224 => 0x04,
            PreHash::Sha2_512_224 => 0x05,
            PreHash::Sha2_512_256 => 0x06,
            PreHash::Sha3_224 => 0x07,
            PreHash::Sha3_256 => 0x08,
            PreHash::Sha3_384 => 0x09,
            PreHash::Sha3_512 => 0x0A,
            PreHash::Shake128 => 0x0B,
            PreHash::Shake256 => 0x0C,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
        ]
    }

    /// `PH(msg)` into `out[..digest_bytes()]`; returns the digest length.
    pub fn digest(self, msg: &[u8], out: &mut [u8; MAX_DIGEST_BYTES]) -> usize {
        fn fixed<D: Digest>(msg: &[u8], out: &mut [u8]) {
            out.copy_from_slice(&D::digest(msg));
        }
        fn xof<X: Default + Update + ExtendableOutput>(msg: &[u8], out: &mut [u8]) {
            let mut x = X::default();
            x.update(msg);
            x.finalize_xof().read(out);
        }
        let len = self.digest_bytes();
        let o = &mut out[..len];
        match self {
            PreHash::Sha2_224 => fixed::<sha2::Sha224>(msg, o),
            PreHash::Sha2_256 => fixed::<sha2::Sha256>(msg, o),
            PreHash::Sha2_384 => fixed::<sha2::Sha384>(msg, o),
            PreHash::Sha2_512 => fixed::<sha2::Sha512>(msg, o),
            PreHash::Sha2_512_224 => fixed::<sha2::Sha512_224>(msg, o),
            PreHash::Sha2_512_256 => fixed::<sha2::Sha512_256>(msg, o),
            PreHash::Sha3_224 => fixed::<sha3::Sha3_224>(msg, o),
            PreHash::Sha3_256 => fixed::<sha3::Sha3_256>(msg, o),
            PreHash::Sha3_384 => fixed::<sha3::Sha3_384>(msg, o),
            PreHash::Sha3_512 => fixed::<sha3::Sha3_512>(msg, o),
            PreHash::Shake128 => xof::<sha3::Shake128>(msg, o),
            PreHash::Shake256 => xof::<sha3::Shake256>(msg, o),
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oids_lengths_and_names() {
        assert_eq!(
            PreHash::Sha2_256.oid(),
            [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        );
        let mut out = [0u8; MAX_DIGEST_BYTES];
        for ph in PreHash::ALL {
            assert_eq!(ph.digest(b"abc", &mut out), ph.digest_bytes());
            assert_eq!(PreHash::from_name(ph.name()), Some(ph));
        }
        // SHA-256("abc") from FIPS 180-4 Appendix B.1.
        PreHash::Sha2_256.digest(b"abc", &mut out);
        assert_eq!(out[..4], [0xba, 0x78, 0x16, 0xbf]);
        assert_eq!(
            PreHash::from_name("SHA2-512/224"),
            Some(PreHash::Sha2_512_224)
        );
        assert_eq!(PreHash::from_name("MD5"), None);
    }
}
