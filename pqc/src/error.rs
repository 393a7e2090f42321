//! The error type shared by the signature schemes (ML-DSA, SLH-DSA).
//!
//! Every public entry point that parses caller input returns [`Error`]
//! instead of panicking. Verification failures are deliberately not
//! detailed (no oracle on which check failed).

use core::fmt;

/// Why an operation on caller-supplied input was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A byte string has the wrong length for its parameter set.
    InvalidLength {
        /// What was being decoded, e.g. `"ML-DSA-44 public key"`.
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length that was given.
        got: usize,
    },
    /// The context string is longer than 255 bytes (FIPS 204 / FIPS 205).
    ContextTooLong {
        /// The length that was given.
        got: usize,
    },
    /// An encoding has the right length but is not a valid encoding
    /// (e.g. non-canonical hint bits or out-of-range key coefficients).
    MalformedEncoding {
        /// What was being decoded.
        what: &'static str,
    },
    /// The signature does not verify for this key, message and context.
    InvalidSignature,
    /// The pre-hash algorithm is not supported, or the digest given for it
    /// has the wrong length.
    UnsupportedHash,
    /// Signing gave up after the FIPS 204 Appendix C attempt limit; only a
    /// malformed (inconsistent) secret key gets there in practice.
    SigningFailed,
    /// An output buffer supplied by the caller is too small.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        got: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength {
                what,
                expected,
                got,
            } => write!(f, "{what}: expected {expected} bytes, got {got}"),
            Error::ContextTooLong { got } => {
                write!(f, "context string of {got} bytes exceeds 255 bytes")
            }
            Error::MalformedEncoding { what } => write!(f, "{what}: malformed encoding"),
            Error::InvalidSignature => f.write_str("signature verification failed"),
            Error::UnsupportedHash => {
                f.write_str("unsupported pre-hash algorithm or digest length")
            }
            Error::SigningFailed => f.write_str("signing exceeded its attempt limit"),
            Error::BufferTooSmall { needed, got } => {
                write!(f, "output buffer of {got} bytes, {needed} needed")
            }
        }
    }
}

impl core::error::Error for Error {}

/// Result alias for the signature schemes.
pub type Result<T> = core::result::Result<T, Error>;

/// `Ok` if a buffer has the length its parameter set requires.
pub(crate) fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::InvalidLength {
            what,
            expected,
            got,
        })
    }
}

/// The one-byte length of a context string (FIPS 204/205 allow at most 255).
pub(crate) fn check_ctx(ctx: &[u8]) -> Result<u8> {
    u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong { got: ctx.len() })
}
