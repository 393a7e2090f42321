//! Loader for the NIST ACVP vector sets in `pqc/tests/vectors/` (gzip-compressed
//! copies of the ACVP-Server gen-val JSON files; `SHA256SUMS` covers them).
//!
//! Each folder has `prompt.json.gz` (inputs) and `expectedResults.json.gz`
//! (answers), joined here by `tgId`/`tcId`.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;

/// One test case with the fields of its group, its prompt and its expected result.
pub struct Case {
    /// The test group object (parameterSet, signatureInterface, preHash, …).
    pub group: Value,
    /// The prompt's test object (inputs).
    pub prompt: Value,
    /// The expected-results test object (answers).
    pub expected: Value,
}

impl Case {
    /// `tcId` of the case.
    pub fn tc_id(&self) -> u64 {
        self.prompt["tcId"].as_u64().expect("tcId")
    }
    /// `tgId` of the case's test group.
    pub fn tg_id(&self) -> u64 {
        self.group["tgId"].as_u64().expect("tgId")
    }
    /// rnd of an ML-DSA sigGen case (FIPS 204 Algorithm 2): 32 zero bytes
    /// when the group is deterministic, else the prompt's `rnd`.
    pub fn mldsa_rnd(&self) -> [u8; 32] {
        if self.group_bool("deterministic") {
            [0; 32]
        } else {
            self.input_hex("rnd").try_into().expect("rnd: 32 bytes")
        }
    }
    /// A string field of the group.
    pub fn group_str(&self, key: &str) -> &str {
        self.group[key]
            .as_str()
            .unwrap_or_else(|| panic!("group field {key}"))
    }
    /// A boolean field of the group (false when absent).
    pub fn group_bool(&self, key: &str) -> bool {
        self.group[key].as_bool().unwrap_or(false)
    }
    /// A hex field of the prompt, falling back to the group (keys live in
    /// either place depending on the set).
    pub fn input_hex(&self, key: &str) -> Vec<u8> {
        let v = if self.prompt.get(key).is_some() {
            &self.prompt[key]
        } else {
            &self.group[key]
        };
        hex_field(v, key)
    }
    /// Whether the prompt (or group) has a field.
    pub fn has_input(&self, key: &str) -> bool {
        self.prompt.get(key).is_some() || self.group.get(key).is_some()
    }
    /// A hex field of the expected result.
    pub fn expected_hex(&self, key: &str) -> Vec<u8> {
        hex_field(&self.expected[key], key)
    }
}

fn hex_field(v: &Value, key: &str) -> Vec<u8> {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("hex field {key} missing"));
    hex::decode(s).unwrap_or_else(|e| panic!("hex field {key}: {e}"))
}

fn read_gz_json(path: &PathBuf) -> Value {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads every case of one vector folder, e.g. `"ML-DSA-keyGen-FIPS204"`.
pub fn load(folder: &str) -> Vec<Case> {
    // Relative to the crate that includes this module (`pqc`, or `sim`'s
    // co-simulation tests), both top-level members of the workspace.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../pqc/tests/vectors")
        .join(folder);
    let prompt = read_gz_json(&dir.join("prompt.json.gz"));
    let expected = read_gz_json(&dir.join("expectedResults.json.gz"));
    let mut cases = Vec::new();
    for group in prompt["testGroups"].as_array().expect("testGroups") {
        let tg_id = group["tgId"].as_u64().expect("tgId");
        let expected_group = expected["testGroups"]
            .as_array()
            .expect("expected testGroups")
            .iter()
            .find(|g| g["tgId"].as_u64() == Some(tg_id))
            .unwrap_or_else(|| panic!("{folder}: no expected group {tg_id}"));
        let mut group_fields = group.clone();
        group_fields
            .as_object_mut()
            .expect("group object")
            .remove("tests");
        for test in group["tests"].as_array().expect("tests") {
            let tc_id = test["tcId"].as_u64().expect("tcId");
            let answer = expected_group["tests"]
                .as_array()
                .expect("expected tests")
                .iter()
                .find(|t| t["tcId"].as_u64() == Some(tc_id))
                .unwrap_or_else(|| panic!("{folder}: no expected case {tc_id}"))
                .clone();
            cases.push(Case {
                group: group_fields.clone(),
                prompt: test.clone(),
                expected: answer,
            });
        }
    }
    cases
}
