//! `fanorona net` from the outside: info, eval, and the safetensors round trip.

use std::process::Output;

use fanorona_nn::{Architecture, Network};

mod common;
use common::{fanorona, stderr};

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn info_eval_and_the_safetensors_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut net = Network::random(&Architecture::mlp(&[16, 8]).expect("arch"), 3).expect("net");
    net.set_description("round trip");
    let src = dir.path().join("a.fnet");
    net.write_file(&src).expect("write");
    let s = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    let info = json(&fanorona(&["net", "info", &s(&src), "--json"]));
    assert_eq!(info["architecture"], "stones:90-16-8-1");
    assert_eq!(info["parameters"], 90 * 16 + 16 + 16 * 8 + 8 + 9);
    assert_eq!(info["checksum"], format!("{:08x}", net.checksum()));
    assert_eq!(info["description"], "round trip");
    let text = String::from_utf8(fanorona(&["net", "info", &s(&src)]).stdout).expect("utf-8");
    assert!(text.contains("parameters    1601") && text.contains("round trip"), "{text}");

    let start = fanorona_core::Position::start();
    let e = json(&fanorona(&["net", "eval", &s(&src), "--json"]));
    assert_eq!(e["value"].as_f64().expect("value") as f32, net.evaluate(&start));

    let st = dir.path().join("a.safetensors");
    let o = fanorona(&["net", "export", &s(&src), "--format", "safetensors", "-o", &s(&st)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&st).expect("read"), net.to_safetensors());
    let back = dir.path().join("b.fnet");
    let o = fanorona(&["net", "import", &s(&st), "-o", &s(&back)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&back).expect("read"), std::fs::read(&src).expect("read"));
    // Refusals: an existing output, the input as output, a file that is not a network.
    let o = fanorona(&["net", "import", &s(&st), "-o", &s(&back)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exists already"), "{}", stderr(&o));
    let o = fanorona(&["net", "export", &s(&src), "-o", &s(&src), "--force"]);
    assert_eq!(o.status.code(), Some(2));
    let o = fanorona(&["net", "import", &s(&src), "-o", &s(&dir.path().join("c.fnet"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("safetensors"), "{}", stderr(&o));
    assert!(!dir.path().join("c.fnet").exists());
    let o = fanorona(&["net", "info", &s(&st)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a fanorona network file"), "{}", stderr(&o));
    let o = fanorona(&["net", "export", &s(&src), "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
