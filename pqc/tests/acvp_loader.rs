//! The vector copies are intact and every folder loads with joined answers.
mod acvp;

#[test]
fn every_vector_folder_loads_with_the_documented_case_counts() {
    for (folder, count) in [
        ("ML-DSA-keyGen-FIPS204", 75),
        ("ML-DSA-sigGen-FIPS204", 360),
        ("ML-DSA-sigVer-FIPS204", 180),
        ("SLH-DSA-keyGen-FIPS205", 120),
        ("SLH-DSA-sigGen-FIPS205", 624),
        ("SLH-DSA-sigVer-FIPS205", 504),
    ] {
        let cases = acvp::load(folder);
        assert_eq!(cases.len(), count, "{folder}");
        println!("{folder}: {} cases", cases.len());
    }
}
