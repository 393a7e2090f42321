#!/usr/bin/env python3
"""Extracts the few ACVP cases the firmware embeds for its start-up self-tests.

Reads pqc/tests/vectors/*/{prompt,expectedResults}.json.gz (NIST ACVP
gen-val files) and writes selftest/vectors/*.bin plus the generated module
selftest/src/vectors.rs (crate pqc-selftest). Deterministic: rerunning it on the same vector files
gives byte-identical output (scripts/test.d/20-ps-app.sh checks this).

Selection (the smallest inputs, to keep the image small):
  ML-DSA-44/65/87: keyGen (first case; pk and sk kept as SHA3-256 digests),
    sigGen deterministic/external/pure (full expected signature),
    sigVer external/pure: one valid and one invalid case.
  SLH-DSA-SHAKE-128f and -SHA2-128f: keyGen (first case, full sk/pk),
    sigGen deterministic/external/pure (signature kept as its SHA3-256
    digest), sigVer external/pure: one invalid case (the valid direction is
    checked on the signature the sigGen test produced and matched).
Digests are computed here with Python's hashlib, independently of pqc.

Usage: python3 scripts/extract_selftest_vectors.py [--check]
  --check: write nothing; exit 1 if the committed files differ from what
           the vector files give.
"""
import gzip
import hashlib
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "pqc" / "tests" / "vectors"
OUT_BIN = ROOT / "selftest" / "vectors"
OUT_RS = ROOT / "selftest" / "src" / "vectors.rs"

ML_DSA_SETS = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
SLH_DSA_SETS = ["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-128f"]
# The case whose expected signature the corrupt-selftest feature flips.
CORRUPTIBLE = "mldsa44_siggen_signature"


def load(folder):
    prompt = json.load(gzip.open(SRC / folder / "prompt.json.gz"))
    expected = json.load(gzip.open(SRC / folder / "expectedResults.json.gz"))
    answers = {}
    for group in expected["testGroups"]:
        for test in group["tests"]:
            answers[test["tcId"]] = test
    cases = []
    for group in prompt["testGroups"]:
        fields = {k: v for k, v in group.items() if k != "tests"}
        for test in group["tests"]:
            cases.append((fields, test, answers[test["tcId"]]))
    return cases


def b(hexstr):
    return bytes.fromhex(hexstr)


def smallest(cases, key):
    return min(cases, key=lambda c: (key(c), c[1]["tcId"]))


def size(case):
    return len(case[1].get("message", "")) + len(case[1].get("context", ""))


blobs = {}


def blob(name, data):
    blobs[name] = data
    return f'include_bytes!("../vectors/{name}.bin")'


def sha3(data):
    return hashlib.sha3_256(data).digest()


def rs_bytes(data):
    return "[" + ", ".join(f"0x{x:02x}" for x in data) + "]"


def mldsa(set_name, keygen, siggen, sigver):
    tag = set_name.replace("ML-DSA-", "mldsa")
    kg = [c for c in keygen if c[0]["parameterSet"] == set_name][0]
    sg = smallest(
        [c for c in siggen if c[0]["parameterSet"] == set_name and c[0]["deterministic"]
         and c[0]["signatureInterface"] == "external" and c[0].get("preHash") == "pure"],
        size)
    sv_pool = [c for c in sigver if c[0]["parameterSet"] == set_name
               and c[0]["signatureInterface"] == "external" and c[0].get("preHash") == "pure"]
    sv = [smallest([c for c in sv_pool if c[2]["testPassed"] == want], size) for want in (True, False)]
    sig_expr = blob(f"{tag}_siggen_signature", b(sg[2]["signature"]))
    if f"{tag}_siggen_signature" == CORRUPTIBLE:
        sig_expr = f"&corruptible({sig_expr})"
    ver = []
    for i, (fields, test, answer) in enumerate(sv):
        ver.append(f"""MlDsaSigVer {{
            tc_id: {test["tcId"]},
            pk: {blob(f"{tag}_sigver{i}_pk", b(test["pk"]))},
            message: {blob(f"{tag}_sigver{i}_message", b(test["message"]))},
            context: {blob(f"{tag}_sigver{i}_context", b(test["context"]))},
            signature: {blob(f"{tag}_sigver{i}_signature", b(test["signature"]))},
            valid: {"true" if answer["testPassed"] else "false"},
        }}""")
    return f"""MlDsaSet {{
        name: "{set_name}",
        keygen: MlDsaKeyGen {{
            tc_id: {kg[1]["tcId"]},
            seed: {rs_bytes(b(kg[1]["seed"]))},
            pk_sha3_256: {rs_bytes(sha3(b(kg[2]["pk"])))},
            sk_sha3_256: {rs_bytes(sha3(b(kg[2]["sk"])))},
        }},
        siggen: MlDsaSigGen {{
            tc_id: {sg[1]["tcId"]},
            sk: {blob(f"{tag}_siggen_sk", b(sg[1]["sk"]))},
            message: {blob(f"{tag}_siggen_message", b(sg[1]["message"]))},
            context: {blob(f"{tag}_siggen_context", b(sg[1]["context"]))},
            signature: {sig_expr},
        }},
        sigver: [{", ".join(ver)}],
    }}"""


def slhdsa(set_name, keygen, siggen, sigver):
    tag = set_name.replace("SLH-DSA-", "slhdsa_").replace("-", "_").lower()
    kg = [c for c in keygen if c[0]["parameterSet"] == set_name][0]
    sg = smallest(
        [c for c in siggen if c[0]["parameterSet"] == set_name and c[0]["deterministic"]
         and c[0]["signatureInterface"] == "external" and c[0].get("preHash") == "pure"],
        size)
    sv = smallest(
        [c for c in sigver if c[0]["parameterSet"] == set_name and not c[2]["testPassed"]
         and c[0]["signatureInterface"] == "external" and c[0].get("preHash") == "pure"],
        size)
    return f"""SlhDsaSet {{
        name: "{set_name}",
        keygen: SlhDsaKeyGen {{
            tc_id: {kg[1]["tcId"]},
            sk_seed: &{rs_bytes(b(kg[1]["skSeed"]))},
            sk_prf: &{rs_bytes(b(kg[1]["skPrf"]))},
            pk_seed: &{rs_bytes(b(kg[1]["pkSeed"]))},
            sk: &{rs_bytes(b(kg[2]["sk"]))},
            pk: &{rs_bytes(b(kg[2]["pk"]))},
        }},
        siggen: SlhDsaSigGen {{
            tc_id: {sg[1]["tcId"]},
            sk: &{rs_bytes(b(sg[1]["sk"]))},
            message: {blob(f"{tag}_siggen_message", b(sg[1]["message"]))},
            context: {blob(f"{tag}_siggen_context", b(sg[1]["context"]))},
            signature_sha3_256: {rs_bytes(sha3(b(sg[2]["signature"])))},
        }},
        sigver_invalid: SlhDsaSigVer {{
            tc_id: {sv[1]["tcId"]},
            pk: &{rs_bytes(b(sv[1]["pk"]))},
            message: {blob(f"{tag}_sigver_message", b(sv[1]["message"]))},
            context: {blob(f"{tag}_sigver_context", b(sv[1]["context"]))},
            signature: {blob(f"{tag}_sigver_signature", b(sv[1]["signature"]))},
        }},
    }}"""


def main():
    ml = [load(f"ML-DSA-{kind}-FIPS204") for kind in ("keyGen", "sigGen", "sigVer")]
    slh = [load(f"SLH-DSA-{kind}-FIPS205") for kind in ("keyGen", "sigGen", "sigVer")]
    ml_sets = [mldsa(s, *ml) for s in ML_DSA_SETS]
    slh_sets = [slhdsa(s, *slh) for s in SLH_DSA_SETS]
    text = f"""//! ACVP cases for the start-up self-tests. GENERATED by
//! `python3 scripts/extract_selftest_vectors.py` from pqc/tests/vectors;
//! do not edit. Digests are SHA3-256 computed by the script (hashlib).

use crate::selftest::{{
    corruptible, MlDsaKeyGen, MlDsaSet, MlDsaSigGen, MlDsaSigVer, SlhDsaKeyGen, SlhDsaSet,
    SlhDsaSigGen, SlhDsaSigVer,
}};

/// ML-DSA-44, -65, -87.
pub static ML_DSA: [MlDsaSet; 3] = [{", ".join(ml_sets)}];

/// SLH-DSA-SHAKE-128f and SLH-DSA-SHA2-128f.
pub static SLH_DSA: [SlhDsaSet; 2] = [{", ".join(slh_sets)}];
"""
    with tempfile.TemporaryDirectory() as tmp:
        formatted = pathlib.Path(tmp) / "vectors.rs"
        formatted.write_text(text)
        subprocess.run(["rustfmt", "--edition", "2021", str(formatted)], check=True)
        text = formatted.read_text()
    total = sum(len(d) for d in blobs.values())
    if "--check" in sys.argv[1:]:
        on_disk = {p.stem: p.read_bytes() for p in OUT_BIN.glob("*.bin")}
        if on_disk != blobs or not OUT_RS.exists() or OUT_RS.read_text() != text:
            print("self-test vectors are stale: rerun scripts/extract_selftest_vectors.py")
            sys.exit(1)
        print(f"self-test vectors up to date ({len(blobs)} blobs, {total} bytes)")
        return
    OUT_BIN.mkdir(parents=True, exist_ok=True)
    for old in OUT_BIN.glob("*.bin"):
        old.unlink()
    for name, data in sorted(blobs.items()):
        (OUT_BIN / f"{name}.bin").write_bytes(data)
    OUT_RS.write_text(text)
    print(f"wrote {len(blobs)} blobs ({total} bytes) and {OUT_RS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
