//! Pre-hash functions of HashML-DSA (FIPS 204 §5.4): the twelve hash
//! functions ACVP tests, with their DER-encoded object identifiers.
//!
//! The digest of the caller's message is computed with RustCrypto `sha2` /
//! `sha3`: it is the caller's hashing, outside ML-DSA proper, so it does not
//! go through the Keccak backend.

use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// Longest pre-hash digest (SHA-512, SHA3-512, SHAKE256 at 512 bits).
pub const MAX_DIGEST_LEN: usize = 64;

/// A HashML-DSA pre-hash function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlgorithm {
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// SHA-512/224.
    Sha512_224,
    /// SHA-512/256.
    Sha512_256,
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

impl HashAlgorithm {
    /// Every supported pre-hash.
    pub const ALL: [HashAlgorithm; 12] = [
        HashAlgorithm::Sha224,
        HashAlgorithm::Sha256,
        HashAlgorithm::Sha384,
        HashAlgorithm::Sha512,
        HashAlgorithm::Sha512_224,
        HashAlgorithm::Sha512_256,
        HashAlgorithm::Sha3_224,
        HashAlgorithm::Sha3_256,
        HashAlgorithm::Sha3_384,
        HashAlgorithm::Sha3_512,
        HashAlgorithm::Shake128,
        HashAlgorithm::Shake256,
    ];

    /// Last arc of the NIST OID 2.16.840.1.101.3.4.2.x.
    const fn oid_arc(self) -> u8 {
        match self {
            HashAlgorithm::Sha256 => 0x01,
            HashAlgorithm::Sha384 => 0x02,
            HashAlgorithm::Sha512 => 0x03,
            HashAlgorithm::Sha224 => 0x04,
            HashAlgorithm::Sha512_224 => 0x05,
            HashAlgorithm::Sha512_256 => 0x06,
            HashAlgorithm::Sha3_224 => 0x07,
            HashAlgorithm::Sha3_256 => 0x08,
            HashAlgorithm::Sha3_384 => 0x09,
            HashAlgorithm::Sha3_512 => 0x0A,
            HashAlgorithm::Shake128 => 0x0B,
            HashAlgorithm::Shake256 => 0x0C,
        }
    }

    /// DER encoding of the OID (tag, length, value) as it enters M′.
    pub const fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.oid_arc(),
        ]
    }

    /// Digest length in bytes.
    pub const fn digest_len(self) -> usize {
        match self {
            HashAlgorithm::Sha224 | HashAlgorithm::Sha512_224 | HashAlgorithm::Sha3_224 => 28,
            HashAlgorithm::Sha256
            | HashAlgorithm::Sha512_256
            | HashAlgorithm::Sha3_256
            | HashAlgorithm::Shake128 => 32,
            HashAlgorithm::Sha384 | HashAlgorithm::Sha3_384 => 48,
            HashAlgorithm::Sha512 | HashAlgorithm::Sha3_512 | HashAlgorithm::Shake256 => 64,
        }
    }

    /// The ACVP name (`"SHA2-512/224"`, `"SHAKE-128"`, …) → algorithm.
    pub fn from_acvp_name(name: &str) -> Option<Self> {
        Some(match name {
            "SHA2-224" => HashAlgorithm::Sha224,
            "SHA2-256" => HashAlgorithm::Sha256,
            "SHA2-384" => HashAlgorithm::Sha384,
            "SHA2-512" => HashAlgorithm::Sha512,
            "SHA2-512/224" => HashAlgorithm::Sha512_224,
            "SHA2-512/256" => HashAlgorithm::Sha512_256,
            "SHA3-224" => HashAlgorithm::Sha3_224,
            "SHA3-256" => HashAlgorithm::Sha3_256,
            "SHA3-384" => HashAlgorithm::Sha3_384,
            "SHA3-512" => HashAlgorithm::Sha3_512,
            "SHAKE-128" => HashAlgorithm::Shake128,
            "SHAKE-256" => HashAlgorithm::Shake256,
            _ => return None,
        })
    }

    /// PH(M): writes the digest into `out[..digest_len()]` and returns it.
    pub fn digest<'a>(self, msg: &[u8], out: &'a mut [u8; MAX_DIGEST_LEN]) -> &'a [u8] {
        fn fixed<D: Digest>(msg: &[u8], out: &mut [u8]) {
            out.copy_from_slice(&D::digest(msg));
        }
        fn xof<X: Default + Update + ExtendableOutput>(msg: &[u8], out: &mut [u8]) {
            let mut x = X::default();
            x.update(msg);
            x.finalize_xof().read(out);
        }
        let o = &mut out[..self.digest_len()];
        match self {
            HashAlgorithm::Sha224 => fixed::<sha2::Sha224>(msg, o),
            HashAlgorithm::Sha256 => fixed::<sha2::Sha256>(msg, o),
            HashAlgorithm::Sha384 => fixed::<sha2::Sha384>(msg, o),
            HashAlgorithm::Sha512 => fixed::<sha2::Sha512>(msg, o),
            HashAlgorithm::Sha512_224 => fixed::<sha2::Sha512_224>(msg, o),
            HashAlgorithm::Sha512_256 => fixed::<sha2::Sha512_256>(msg, o),
            HashAlgorithm::Sha3_224 => fixed::<sha3::Sha3_224>(msg, o),
            HashAlgorithm::Sha3_256 => fixed::<sha3::Sha3_256>(msg, o),
            HashAlgorithm::Sha3_384 => fixed::<sha3::Sha3_384>(msg, o),
            HashAlgorithm::Sha3_512 => fixed::<sha3::Sha3_512>(msg, o),
            HashAlgorithm::Shake128 => xof::<sha3::Shake128>(msg, o),
            HashAlgorithm::Shake256 => xof::<sha3::Shake256>(msg, o),
        }
        &out[..self.digest_len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oids_and_lengths() {
        assert_eq!(
            HashAlgorithm::Sha256.oid_der(),
            [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        );
        let mut out = [0u8; MAX_DIGEST_LEN];
        for alg in HashAlgorithm::ALL {
            assert_eq!(alg.digest(b"abc", &mut out).len(), alg.digest_len());
        }
        // SHA-256("abc") from FIPS 180-4 Appendix B.1.
        assert_eq!(
            HashAlgorithm::Sha256.digest(b"abc", &mut out)[..4],
            [0xba, 0x78, 0x16, 0xbf]
        );
        assert_eq!(
            HashAlgorithm::from_acvp_name("SHA2-512/224"),
            Some(HashAlgorithm::Sha512_224)
        );
        assert_eq!(HashAlgorithm::from_acvp_name("MD5"), None);
    }
}
