//! `fanorona data export --format npz` and `--format jsonl` from the outside: the archive's
//! arrays against the library's samples, shards, refusals, and no half-written output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use fanorona_data::{SampleConfig, Samples};
use fanorona_nn::{Encoding, encode_as};

mod common;
use common::{fanorona, stderr};

fn games(dir: &Path, name: &str, n: &str, seed: &str) -> PathBuf {
    let out = dir.join(name);
    let o = fanorona(&[
        "selfplay",
        "-n",
        n,
        "-o",
        out.to_str().expect("utf-8"),
        "--seed",
        seed,
        "-t",
        "1",
        "--white",
        "alphabeta:depth=1,eval=handcrafted",
        "--black",
        "alphabeta:depth=1,eval=material",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// An array of an archive: its `.npy` header dict and its data bytes.
#[derive(Debug)]
struct Array {
    descr: String,
    shape: Vec<usize>,
    data: Vec<u8>,
}

fn u16_at(b: &[u8], i: usize) -> usize {
    u16::from_le_bytes([b[i], b[i + 1]]) as usize
}

fn u32_at(b: &[u8], i: usize) -> usize {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize
}

/// Reads a stored zip of `.npy` files through its central directory (no zip64 here).
fn read_npz(path: &Path) -> BTreeMap<String, Array> {
    let z = std::fs::read(path).expect("archive");
    let eocd = z.len() - 22;
    assert_eq!(&z[eocd..eocd + 4], b"PK\x05\x06");
    let (count, mut at) = (u16_at(&z, eocd + 10), u32_at(&z, eocd + 16));
    let mut out = BTreeMap::new();
    for _ in 0..count {
        assert_eq!(&z[at..at + 4], b"PK\x01\x02");
        assert_eq!(u16_at(&z, at + 10), 0, "stored");
        let (crc, size) = (u32_at(&z, at + 16) as u32, u32_at(&z, at + 24));
        let (name_len, extra, comment) = (u16_at(&z, at + 28), u16_at(&z, at + 30), u16_at(&z, at + 32));
        let local = u32_at(&z, at + 42);
        let name = String::from_utf8(z[at + 46..at + 46 + name_len].to_vec()).expect("name");
        at += 46 + name_len + extra + comment;
        let start = local + 30 + u16_at(&z, local + 26) + u16_at(&z, local + 28);
        let member = &z[start..start + size];
        assert_eq!(crc32fast::hash(member), crc, "{name}");
        assert_eq!(&member[..8], b"\x93NUMPY\x01\x00");
        let hlen = u16_at(member, 8);
        assert_eq!((10 + hlen) % 64, 0);
        let dict = std::str::from_utf8(&member[10..10 + hlen]).expect("header");
        let descr = dict.split("'descr': '").nth(1).and_then(|s| s.split('\'').next()).expect("descr");
        let shape = dict.split("'shape': (").nth(1).and_then(|s| s.split(')').next()).expect("shape");
        let shape = shape.split(',').filter_map(|d| d.trim().parse().ok()).collect();
        let array = Array { descr: descr.into(), shape, data: member[10 + hlen..].to_vec() };
        out.insert(name.trim_end_matches(".npy").to_string(), array);
    }
    out
}

fn export(args: &[&str]) -> Output {
    fanorona(&[&["data", "export", "--format", "npz"], args].concat())
}

#[test]
fn the_arrays_are_the_samples_of_the_library() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (games(dir.path(), "a.bin", "5", "1"), games(dir.path(), "b.bin", "3", "2"));
    let out = dir.path().join("s.npz");
    let args = ["-o", out.to_str().expect("utf-8"), "--mirror", "--skip-plies", "2", "--json"];
    let o = export(&[&args[..], &[a.to_str().expect("a"), b.to_str().expect("b")]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let config = SampleConfig { skip_plies: 2, mirror: true, score_weight: 0.5, ..SampleConfig::default() };
    let expected: Vec<_> = Samples::open(&[a, b], config).collect::<Result<_, _>>().expect("samples");
    let n = expected.len();
    assert_eq!(report["samples"], n);
    assert_eq!(report["games"], 8);
    let arrays = read_npz(&out);
    let names: Vec<&str> = arrays.keys().map(String::as_str).collect();
    let all =
        ["action", "depth", "exploration", "game", "has_score", "inputs", "mirrored", "plies_left", "ply"];
    assert_eq!(names, [&all[..], &["result", "score", "stm", "target"]].concat());
    let dtypes = [
        ("inputs", "|u1"),
        ("result", "|i1"),
        ("score", "<i4"),
        ("has_score", "|b1"),
        ("target", "<f4"),
        ("ply", "<u4"),
        ("game", "<u8"),
        ("stm", "|u1"),
        ("mirrored", "|b1"),
        ("action", "<u2"),
        ("depth", "<u2"),
        ("exploration", "|b1"),
        ("plies_left", "<u4"),
    ];
    for (name, descr) in dtypes {
        assert_eq!(arrays[name].descr, descr, "{name}");
        // The trainer's default encoding: stone and threat planes.
        let width = if name == "inputs" { vec![n, 180] } else { vec![n] };
        assert_eq!(arrays[name].shape, width, "{name}");
    }
    for (i, s) in expected.iter().enumerate() {
        let row: Vec<u8> = encode_as(Encoding::ThreatPlanes, &s.position).iter().map(|&x| x as u8).collect();
        assert_eq!(&arrays["inputs"].data[180 * i..180 * (i + 1)], &row[..], "row {i}");
        assert_eq!(arrays["result"].data[i] as i8, s.result as i8);
        let score = i32::from_le_bytes(arrays["score"].data[4 * i..4 * i + 4].try_into().expect("4"));
        assert_eq!(score, s.score.unwrap_or(0));
        assert_eq!(arrays["has_score"].data[i], u8::from(s.score.is_some()));
        let target = f32::from_le_bytes(arrays["target"].data[4 * i..4 * i + 4].try_into().expect("4"));
        assert_eq!(target, s.target);
        let ply = u32::from_le_bytes(arrays["ply"].data[4 * i..4 * i + 4].try_into().expect("4"));
        assert_eq!(ply, s.ply);
        let game = u64::from_le_bytes(arrays["game"].data[8 * i..8 * i + 8].try_into().expect("8"));
        assert_eq!(game, s.game);
        assert_eq!(arrays["stm"].data[i], s.position.turn() as u8);
        assert_eq!(arrays["mirrored"].data[i], u8::from(s.mirrored));
        let u16_at = |a: &str| u16::from_le_bytes(arrays[a].data[2 * i..2 * i + 2].try_into().expect("2"));
        assert_eq!((u16_at("action"), u16_at("depth")), (s.action, s.depth));
        assert_eq!(arrays["exploration"].data[i], u8::from(s.exploration));
        let left = u32::from_le_bytes(arrays["plies_left"].data[4 * i..4 * i + 4].try_into().expect("4"));
        assert_eq!(left, s.plies_left);
    }
    assert!(expected.iter().any(|s| s.score.is_some()) && expected.iter().any(|s| s.mirrored));
}

#[test]
fn shards_split_the_same_rows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = games(dir.path(), "a.bin", "4", "3");
    let whole = dir.path().join("w.npz");
    assert!(export(&["-o", whole.to_str().expect("w"), a.to_str().expect("a")]).status.success());
    let whole = read_npz(&whole);
    let n = whole["result"].shape[0];
    let base = dir.path().join("sh.npz");
    let o = export(&["-o", base.to_str().expect("b"), "--shard-size", "50", a.to_str().expect("a")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut inputs = Vec::new();
    let mut k = 0;
    while dir.path().join(format!("sh-{k:05}.npz")).exists() {
        let s = read_npz(&dir.path().join(format!("sh-{k:05}.npz")));
        let rows = s["result"].shape[0];
        assert!(rows == 50 || !dir.path().join(format!("sh-{:05}.npz", k + 1)).exists(), "shard {k}: {rows}");
        inputs.extend_from_slice(&s["inputs"].data);
        k += 1;
    }
    assert_eq!(k, n.div_ceil(50));
    assert_eq!(inputs, whole["inputs"].data);
    assert!(!base.exists());
}

#[test]
fn outputs_are_refused_replaced_and_never_half_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = games(dir.path(), "a.bin", "2", "4");
    let (a_s, out) = (a.to_str().expect("a"), dir.path().join("o.npz"));
    let out_s = out.to_str().expect("o");
    std::fs::write(&out, b"keep").expect("write");
    let o = export(&["-o", out_s, a_s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exists already"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).expect("read"), b"keep");
    assert!(export(&["-o", out_s, "--force", a_s]).status.success());
    assert!(read_npz(&out)["inputs"].shape[0] > 0);
    // A damaged second input: nothing is left under the output's name, not even shards.
    let mut bad = std::fs::read(&a).expect("read");
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    let damaged = dir.path().join("damaged.bin");
    std::fs::write(&damaged, &bad).expect("write");
    let new = dir.path().join("new.npz");
    let o =
        export(&["-o", new.to_str().expect("n"), "--shard-size", "10", a_s, damaged.to_str().expect("d")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let left: Vec<_> =
        std::fs::read_dir(dir.path()).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().starts_with("new")), "{left:?}");
    // An input as the output, and a device.
    let o = export(&["-o", a_s, "--force", a_s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(export(&["-o", "/dev/null", a_s]).status.success());
    let o = export(&[a_s]);
    assert_eq!(o.status.code(), Some(2), "npz needs --out");
    let o = export(&["-o", out_s, "--force", "--score-weight", "2", a_s]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn jsonl_has_scores_depths_exploration_and_positions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = games(dir.path(), "a.bin", "2", "5");
    let o = fanorona(&["data", "export", "--format", "jsonl", "--positions", a.to_str().expect("a")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).expect("utf-8");
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(lines.len(), 2);
    for g in &lines {
        let turns = g["turns"].as_array().expect("turns").len();
        for key in ["scores", "depths", "exploration", "positions"] {
            assert_eq!(g[key].as_array().expect(key).len(), turns, "{key}");
        }
        assert_eq!(g["positions"][0], g["start"]);
        assert!(g["scores"].as_array().expect("scores").iter().any(|s| s.is_i64()));
        assert!(g["exploration"][0].as_bool().expect("bool"), "the random opening");
    }
}
