//! The exported Verilog of a PL top under Verilator, in this process:
//! [`VerilatedTop`] implements [`PlTop`] over a shared library (`shim.cpp`
//! plus the Verilated model) that [`library`] builds on first use and
//! caches under the target directory, keyed by the Verilog's hash, and
//! that is loaded at run time (`libloading`). The shim reproduces
//! [`crate::axi::AccelBench`]'s clocking and handshakes clock for clock
//! (checked by `sim`'s engine-equivalence tests).

pub mod library;

use crate::axi::{
    AxiTimeout, PlTop, StreamWord, ENGINES_ACCEL, KECCAK_ACCEL, MLDSA_ACCEL, NTT_ACCEL,
    SLHDSA_ACCEL, SLHDSA_SHA2_ACCEL,
};
use crate::export::Design;
use libloading::Library;
use std::collections::HashMap;
use std::ffi::{c_int, c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The entry points of one loaded library (see `shim.cpp`).
struct Api {
    new: unsafe extern "C" fn() -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    cycles: unsafe extern "C" fn(*const c_void) -> u64,
    write: unsafe extern "C" fn(*mut c_void, u32, u32) -> c_int,
    read: unsafe extern "C" fn(*mut c_void, u32, *mut u32) -> c_int,
    run: unsafe extern "C" fn(*mut c_void, u64) -> u64,
    push_input: unsafe extern "C" fn(*mut c_void, *const StreamWord, usize),
    input_len: unsafe extern "C" fn(*const c_void) -> usize,
    drop_input: unsafe extern "C" fn(*mut c_void),
    pop_output: unsafe extern "C" fn(*mut c_void, *mut StreamWord) -> c_int,
    drop_output: unsafe extern "C" fn(*mut c_void),
    set_sink_ready: unsafe extern "C" fn(*mut c_void, bool),
    trace_open: unsafe extern "C" fn(*mut c_void, *const std::ffi::c_char) -> c_int,
    // Keeps the code above mapped.
    _lib: Library,
}

impl Api {
    fn load(path: &Path) -> Result<Api, String> {
        let err = |e: libloading::Error| format!("{}: {e}", path.display());
        // SAFETY: the library is one `library` built from shim.cpp; loading
        // it runs only the Verilator runtime's static constructors.
        let lib = unsafe { Library::new(path) }.map_err(err)?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol types match shim.cpp's declarations.
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }.map_err(err)?
            };
        }
        Ok(Api {
            new: sym!("pqcv_new"),
            free: sym!("pqcv_free"),
            cycles: sym!("pqcv_cycles"),
            write: sym!("pqcv_write"),
            read: sym!("pqcv_read"),
            run: sym!("pqcv_run"),
            push_input: sym!("pqcv_push_input"),
            input_len: sym!("pqcv_input_len"),
            drop_input: sym!("pqcv_drop_input"),
            pop_output: sym!("pqcv_pop_output"),
            drop_output: sym!("pqcv_drop_output"),
            set_sink_ready: sym!("pqcv_set_sink_ready"),
            trace_open: sym!("pqcv_trace_open"),
            _lib: lib,
        })
    }
}

/// Each library is loaded once per process.
fn api(path: PathBuf) -> Result<Arc<Api>, String> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<Api>>>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(Mutex::default).lock().unwrap();
    if let Some(a) = loaded.get(&path) {
        return Ok(a.clone());
    }
    let a = Arc::new(Api::load(&path)?);
    loaded.insert(path, a.clone());
    Ok(a)
}

/// Builds one library at a time per process (two tests asking for the
/// same design must not build it twice).
fn build_lock() -> std::sync::MutexGuard<'static, ()> {
    static BUILD: Mutex<()> = Mutex::new(());
    BUILD.lock().unwrap_or_else(|e| e.into_inner())
}

/// One instance of a Verilated top, reset as [`crate::axi::AccelBench::new`]
/// resets it (two clocks with `aresetn` low).
pub struct VerilatedTop {
    api: Arc<Api>,
    model: *mut c_void,
}

impl VerilatedTop {
    /// A fresh instance of `design` (built and cached on first use);
    /// `trace` selects the library variant that can write a VCD.
    pub fn new(design: &Design, trace: bool) -> Result<Self, String> {
        let path = {
            let _guard = build_lock();
            library::library_path(design, trace)?
        };
        let api = api(path)?;
        // SAFETY: `new` returns an owned model that `free` releases in Drop.
        let model = unsafe { (api.new)() };
        Ok(VerilatedTop { api, model })
    }

    /// The NTT top (`ntt_accel`).
    pub fn ntt(trace: bool) -> Result<Self, String> {
        Self::new(&design(NTT_ACCEL), trace)
    }

    /// The Keccak top (`keccak_accel`).
    pub fn keccak(trace: bool) -> Result<Self, String> {
        Self::new(&design(KECCAK_ACCEL), trace)
    }

    /// The ML-DSA engine top (`mldsa_accel`).
    pub fn mldsa(trace: bool) -> Result<Self, String> {
        Self::new(&design(MLDSA_ACCEL), trace)
    }

    /// The SLH-DSA engine top (`slhdsa_accel`).
    pub fn slhdsa(trace: bool) -> Result<Self, String> {
        Self::new(&design(SLHDSA_ACCEL), trace)
    }

    /// The SLH-DSA engine top of the SHA2 sets on SHA-256
    /// (`slhdsa_sha2_accel`).
    pub fn slhdsa_sha2(trace: bool) -> Result<Self, String> {
        Self::new(&design(SLHDSA_SHA2_ACCEL), trace)
    }

    /// Both engines on one sponge (`engines_accel`).
    pub fn engines(trace: bool) -> Result<Self, String> {
        Self::new(&design(ENGINES_ACCEL), trace)
    }

    /// Starts writing every signal as a VCD waveform to `path` (needs an
    /// instance made with `trace`).
    pub fn trace_to(&mut self, path: &Path) -> Result<(), String> {
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("{}: NUL in path", path.display()))?;
        // SAFETY: the model is live; the path is a NUL-terminated string.
        match unsafe { (self.api.trace_open)(self.model, c.as_ptr()) } {
            1 => Ok(()),
            _ => Err("this Verilator model was built without tracing".into()),
        }
    }

    fn status(&self, code: c_int, kind: &'static str, offset: u32) -> Result<(), AxiTimeout> {
        match code {
            0 => Ok(()),
            1 => Err(AxiTimeout { kind, offset }),
            // AccelBench asserts the same.
            _ => panic!(
                "{} not OKAY",
                if kind == "write" { "BRESP" } else { "RRESP" }
            ),
        }
    }
}

fn design(name: &str) -> Design {
    crate::axi::designs()
        .into_iter()
        .find(|d| d.name == name)
        .expect("design in the registry")
}

impl Drop for VerilatedTop {
    fn drop(&mut self) {
        // SAFETY: the model came from `new` and is released once.
        unsafe { (self.api.free)(self.model) }
    }
}

// SAFETY (for every call below): `self.model` is the live model this
// instance owns; the shim keeps no pointer to the arguments.
impl PlTop for VerilatedTop {
    fn cycles(&self) -> u64 {
        unsafe { (self.api.cycles)(self.model) }
    }
    fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout> {
        let code = unsafe { (self.api.write)(self.model, offset, value) };
        self.status(code, "write", offset)
    }
    fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout> {
        let mut value = 0;
        let code = unsafe { (self.api.read)(self.model, offset, &mut value) };
        self.status(code, "read", offset).map(|()| value)
    }
    fn run(&mut self, max: u64) -> u64 {
        unsafe { (self.api.run)(self.model, max) }
    }
    fn push_input(&mut self, words: &[StreamWord]) {
        unsafe { (self.api.push_input)(self.model, words.as_ptr(), words.len()) }
    }
    fn input_drained(&self) -> bool {
        unsafe { (self.api.input_len)(self.model) == 0 }
    }
    fn drop_input(&mut self) {
        unsafe { (self.api.drop_input)(self.model) }
    }
    fn pop_output(&mut self) -> Option<StreamWord> {
        let mut w = StreamWord {
            data: 0,
            last: false,
        };
        (unsafe { (self.api.pop_output)(self.model, &mut w) } == 1).then_some(w)
    }
    fn drop_output(&mut self) {
        unsafe { (self.api.drop_output)(self.model) }
    }
    fn set_sink_ready(&mut self, ready: bool) {
        unsafe { (self.api.set_sink_ready)(self.model, ready) }
    }
}

#[cfg(test)]
pub(crate) mod tests;
