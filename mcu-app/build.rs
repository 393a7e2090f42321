//! Puts the selected board's memory map where cortex-m-rt's `link.x` looks
//! for `memory.x`, for the bare-metal build only (the host build is a stub).
use std::path::PathBuf;

const BOARDS: [(&str, &str); 3] = [
    ("CARGO_FEATURE_BOARD_NETDUINOPLUS2", "netduinoplus2"),
    ("CARGO_FEATURE_BOARD_MPS2_AN500", "mps2-an500"),
    ("CARGO_FEATURE_BOARD_STM32F407_DISC1", "stm32f407-disc1"),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=memory");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return;
    }
    let chosen: Vec<&str> = BOARDS
        .iter()
        .filter(|(feature, _)| std::env::var_os(feature).is_some())
        .map(|&(_, board)| board)
        .collect();
    let [board] = chosen[..] else {
        panic!("select exactly one board feature (board-netduinoplus2, board-mps2-an500, board-stm32f407-disc1), got {chosen:?}");
    };
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::copy(dir.join(format!("memory/{board}.x")), out.join("memory.x"))
        .expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
}
