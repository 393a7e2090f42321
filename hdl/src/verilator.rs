//! Runs exported Verilog under Verilator (5.006 works) with a SystemVerilog
//! testbench, for cross-checks against the rust-hdl simulation.
//!
//! The caller writes its input vector files with [`VerilatorRun::write_input`],
//! then [`VerilatorRun::build_and_run`] compiles `verilator --binary` and runs
//! the model in a fresh directory under the Cargo target directory; the
//! testbench writes its results to files the caller reads back.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Warnings disabled for rust-hdl output, each for a reason:
/// - `WIDTH`: rust-hdl emits unsized literals and width-changing assigns.
/// - `UNUSEDSIGNAL`/`UNDRIVEN`/`PINCONNECTEMPTY`: generated wiring of
///   unused sub-block ports.
/// - `CASEINCOMPLETE`: generated `case` without a `default`.
/// - `INITIALDLY`/`MULTIDRIVEN`: rust-hdl's `initial` blocks on registers.
/// - `DECLFILENAME`/`EOFNEWLINE`/`UNOPTFLAT`: style and performance notes only.
pub const RUST_HDL_WNO: &[&str] = &[
    "-Wno-WIDTH",
    "-Wno-UNUSEDSIGNAL",
    "-Wno-UNDRIVEN",
    "-Wno-PINCONNECTEMPTY",
    "-Wno-CASEINCOMPLETE",
    "-Wno-INITIALDLY",
    "-Wno-MULTIDRIVEN",
    "-Wno-DECLFILENAME",
    "-Wno-EOFNEWLINE",
    "-Wno-UNOPTFLAT",
];

/// Whether a Verilator test should run. Returns `false` (after printing why)
/// only if `verilator` is missing and the `CI` variable is unset; in CI a
/// missing Verilator is a failure, so this panics.
pub fn verilator_required(test: &str) -> bool {
    let present = Command::new("verilator")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if present {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: verilator is not installed but CI is set (run scripts/setup.sh)");
    }
    eprintln!("SKIPPED {test}: verilator is not installed (scripts/setup.sh installs it)");
    false
}

/// The directory for Verilator work: `<target dir>/verilator/<name>`.
pub fn work_dir(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("verilator").join(name)
}

/// One Verilator build-and-run in its own directory.
pub struct VerilatorRun {
    dir: PathBuf,
}

impl VerilatorRun {
    /// Creates (emptying it first) the work directory for `name`.
    pub fn new(name: &str) -> std::io::Result<Self> {
        let dir = work_dir(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        Ok(Self { dir })
    }

    /// The work directory (the model runs with it as current directory).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a file (e.g. a `$readmemh` vector file) into the work directory.
    pub fn write_input(&self, file: &str, contents: &str) -> std::io::Result<()> {
        std::fs::write(self.dir.join(file), contents)
    }

    /// Reads a file the testbench wrote.
    pub fn read_output(&self, file: &str) -> std::io::Result<String> {
        std::fs::read_to_string(self.dir.join(file))
    }

    /// Writes `rtl` and `testbench`, builds with `verilator --binary` (top
    /// module `tb_top`), runs the model and returns its standard output.
    /// Fails with the tool's output if the build or the run fails.
    pub fn build_and_run(
        &self,
        rtl: &str,
        testbench: &str,
        tb_top: &str,
        extra_flags: &[&str],
    ) -> Result<String, String> {
        self.write_sources(rtl, "tb.sv", testbench)?;
        let mut build = Command::new("verilator");
        build
            .args(["--binary", "-O2", "--top-module", tb_top, "-Mdir", "obj"])
            .args(RUST_HDL_WNO)
            .args(extra_flags)
            .args(["rtl.v", "tb.sv"]);
        self.build_then_run(build, &format!("V{tb_top}"))
    }

    /// Writes `rtl` and a plain C++ testbench `main`, builds with
    /// `verilator --cc --exe --build` (top module `top`, model binary
    /// `obj/sim`), runs it and returns its standard output.
    pub fn build_and_run_cpp(
        &self,
        rtl: &str,
        testbench: &str,
        top: &str,
    ) -> Result<String, String> {
        self.write_sources(rtl, "tb.cpp", testbench)?;
        let mut build = Command::new("verilator");
        build
            .args(["--cc", "--exe", "--build", "-O2", "--top-module", top])
            .args(["-Mdir", "obj", "-o", "sim"])
            .args(RUST_HDL_WNO)
            .args(["rtl.v", "tb.cpp"]);
        self.build_then_run(build, "sim")
    }

    /// Writes the RTL to `rtl.v` and the testbench to `tb_file`.
    fn write_sources(&self, rtl: &str, tb_file: &str, testbench: &str) -> Result<(), String> {
        std::fs::write(self.dir.join("rtl.v"), rtl).map_err(|e| e.to_string())?;
        std::fs::write(self.dir.join(tb_file), testbench).map_err(|e| e.to_string())
    }

    /// Runs the Verilator `build` command in the work directory, then the
    /// model `obj/<model>`; returns the model's standard output, or the
    /// tool's output if either step fails.
    fn build_then_run(&self, mut build: Command, model: &str) -> Result<String, String> {
        let build = build
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run verilator: {e}"))?;
        if !build.status.success() {
            return Err(format!(
                "verilator build failed:\n{}\n{}",
                String::from_utf8_lossy(&build.stdout),
                String::from_utf8_lossy(&build.stderr)
            ));
        }
        let run = Command::new(self.dir.join("obj").join(model))
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run the Verilator model: {e}"))?;
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        if !run.status.success() {
            return Err(format!(
                "Verilator model failed ({}):\n{stdout}\n{}",
                run.status,
                String::from_utf8_lossy(&run.stderr)
            ));
        }
        Ok(stdout)
    }
}
