//! Prints the ratio tables (medians, ours/peer) from the results criterion
//! has stored, without measuring anything:
//! `cargo bench -p pqc --bench bench_report`.
//!
//! It reads every result under the criterion directory, so it shows the
//! latest run of each benchmark (the date of each file is not shown; run the
//! `mldsa` and `slhdsa` benches together for a coherent table).

mod common;

use std::time::SystemTime;

fn main() {
    let dir = common::criterion_dir();
    let all = common::load(&dir, SystemTime::UNIX_EPOCH);
    if all.is_empty() {
        eprintln!(
            "no criterion results under {}: run `cargo bench -p pqc --bench mldsa` \
             and `--bench slhdsa` first",
            dir.display()
        );
        std::process::exit(1);
    }
    let of = |scheme: &str| -> Vec<common::Measured> {
        all.iter()
            .filter(|m| m.group.starts_with(scheme))
            .cloned()
            .collect()
    };
    let (mldsa, slhdsa) = (of("ML-DSA "), of("SLH-DSA "));
    println!(
        "## ML-DSA\n\n{}",
        common::ratio_table(&mldsa, &["fips204", "ml-dsa"])
    );
    println!(
        "## SLH-DSA\n\n{}",
        common::ratio_table(&slhdsa, &["fips205", "slh-dsa"])
    );
}
