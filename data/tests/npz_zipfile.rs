//! The `.npz` writer's archives, with and without the zip64 structures, read by Python's own
//! `zipfile` (the module `numpy.load` uses), which checks every member's CRC.

use fanorona_data::npy::{Dtype, header};
use fanorona_data::npz::{Column, NpzWriter};

const COLUMNS: [Column; 2] =
    [Column { name: "x", dtype: Dtype::U8, width: 2 }, Column { name: "y", dtype: Dtype::U32, width: 1 }];

fn python_members(path: &std::path::Path) -> String {
    let script = "import sys, zipfile\n\
                  z = zipfile.ZipFile(sys.argv[1])\n\
                  for i in z.infolist():\n    print(i.filename, z.read(i.filename).hex())\n";
    let out =
        std::process::Command::new("python3").arg("-c").arg(script).arg(path).output().expect("python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn python_reads_both_forms() {
    let dir = tempfile::tempdir().expect("tempdir");
    for zip64 in [false, true] {
        let mut w = NpzWriter::new(&COLUMNS, dir.path()).expect("writer");
        if zip64 {
            w = w.force_zip64();
        }
        w.append(3, &[&[1, 2, 3, 4, 5, 6], &[7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0]]).expect("append");
        let path = dir.path().join(format!("a{zip64}.npz"));
        let mut f = std::fs::File::create(&path).expect("create");
        w.finish(&mut f).expect("finish");
        drop(f);
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let mut x = header(Dtype::U8, &[3, 2]);
        x.extend_from_slice(&[1, 2, 3, 4, 5, 6]);
        let mut y = header(Dtype::U32, &[3]);
        y.extend_from_slice(&[7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0]);
        assert_eq!(python_members(&path), format!("x.npy {}\ny.npy {}\n", hex(&x), hex(&y)), "zip64 {zip64}");
    }
}
