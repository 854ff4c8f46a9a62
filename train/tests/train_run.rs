//! End-to-end runs of the trainer on small synthetic data: export equals burn, resume equals
//! an uninterrupted run, errors are clear.
#![allow(clippy::unwrap_used)]

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fanorona_core::Position;
use fanorona_core::Rng;
use fanorona_engine::eval::{Evaluator, NetEvaluator};
use fanorona_nn::{Network, encode_as};
use fanorona_train::burn::prelude::*;
use fanorona_train::{Progress, TrainConfig, TrainError, load_checkpoint, write_synthetic_games};

fn data(dir: &Path, files: u64, games: u64) -> Vec<PathBuf> {
    (0..files)
        .map(|i| {
            let p = dir.join(format!("games-{i}.bin"));
            write_synthetic_games(&p, games, 100 + i).unwrap();
            p
        })
        .collect()
}

fn small_config(epochs: u32) -> TrainConfig {
    let mut c = TrainConfig::default();
    c.model.hidden = vec![32, 8];
    c.optim.batch_size = 128;
    c.optim.epochs = epochs;
    c.optim.warmup_steps = 10;
    c.optim.lr = 3e-3;
    c.data.shuffle_buffer = 2000;
    c.data.val_fraction = 0.2;
    c.seed = 5;
    c
}

fn quiet(_: &Progress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::start();
    while out.len() < n {
        let moves = pos.legal_moves();
        if moves.is_empty() || rng.below(60) == 0 {
            pos = Position::start();
            continue;
        }
        pos.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

#[test]
fn exported_network_matches_burn_and_loads_in_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let files = data(dir.path(), 2, 40);
    let out = dir.path().join("run");
    let mut epochs_seen = 0;
    let report = fanorona_train::train(&small_config(2), &files, &out, None, &mut |p| {
        if let Progress::EpochEnd(_) = p {
            epochs_seen += 1;
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(epochs_seen, 2);
    assert_eq!(report.epochs.len(), 2);
    assert!(report.data.train_games > 0 && report.data.val_games > 0);
    assert_eq!(report.data.train_games + report.data.val_games, 80);
    for m in &report.epochs {
        assert!(m.train_loss.is_finite() && m.val_loss.is_finite(), "{m:?}");
        assert!((0.0..=1.0).contains(&m.val_accuracy));
    }
    for f in
        ["config.toml", "state.json", "metrics.csv", "metrics.json", "loss.png", "best.fnet", "last.fnet"]
    {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let csv = std::fs::read_to_string(out.join("metrics.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);

    // The engine's plain-Rust forward pass equals burn's on 1000 positions.
    let net = Network::read_file(&report.best_net).unwrap();
    let device = Device::flex();
    let arch = small_config(2).architecture().unwrap();
    let model = load_checkpoint(&out.join("best.bpk"), &arch, &device).unwrap();
    let positions = random_positions(1000, 9);
    // The default encoding's inputs (threat planes: 180).
    let xs: Vec<f32> = positions.iter().flat_map(|p| encode_as(arch.encoding, p)).collect();
    let x = Tensor::<2>::from_data(TensorData::new(xs, [positions.len(), arch.encoding.inputs()]), &device);
    let burn_values: Vec<f32> = model.forward(x).into_data().try_to_vec().unwrap();
    let mut worst = 0.0f32;
    let mut ev = NetEvaluator::load(&report.best_net).unwrap();
    let mut float = NetEvaluator::float(std::sync::Arc::new(net.clone()), "float");
    for (p, b) in positions.iter().zip(&burn_values) {
        let v = net.evaluate(p);
        worst = worst.max((v - b).abs());
        assert!((float.value(p) - v).abs() < 1e-5);
        // The search's integer network stays within a few centi-stones of the float one.
        let q = fanorona_engine::eval::Evaluator::evaluate(&mut ev, p);
        assert!((q - fanorona_nn::value_to_score(v)).abs() <= 40, "{q} vs {v}");
    }
    assert!(worst < 1e-5, "largest difference {worst}");
    // The trained net is not constant.
    let spread = burn_values.iter().cloned().fold(f32::MIN, f32::max)
        - burn_values.iter().cloned().fold(f32::MAX, f32::min);
    assert!(spread > 1e-3, "{spread}");
    assert!(ev.evaluate(&Position::start()).abs() < 2000);

    // A second run into the same directory is refused.
    let again = fanorona_train::train(&small_config(2), &files, &out, None, &mut quiet);
    assert!(matches!(again, Err(TrainError::Config(_))), "{again:?}");
}

#[test]
fn resumed_run_equals_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = data(dir.path(), 2, 25);
    let config = small_config(4);

    let straight = dir.path().join("straight");
    let a = fanorona_train::train(&config, &files, &straight, None, &mut quiet).unwrap();

    // Killed in the middle of epoch 3.
    let killed = dir.path().join("killed");
    let stop = fanorona_train::train(&config, &files, &killed, None, &mut |p| match p {
        Progress::Step { epoch: 3, step: 2, .. } => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    });
    assert!(matches!(stop, Err(TrainError::Stopped)), "{stop:?}");
    let b = fanorona_train::resume(&killed, &mut quiet).unwrap();

    assert_eq!(a.epochs.len(), 4);
    assert_eq!(b.epochs.len(), 4);
    let na = Network::read_file(&straight.join("last.fnet")).unwrap();
    let nb = Network::read_file(&killed.join("last.fnet")).unwrap();
    let mut worst = 0.0f32;
    for (la, lb) in na.layers().iter().zip(nb.layers()) {
        for (x, y) in la.weights().iter().chain(la.bias()).zip(lb.weights().iter().chain(lb.bias())) {
            worst = worst.max((x - y).abs());
        }
    }
    assert!(worst <= 1e-6, "weights differ by {worst}");
    for (ma, mb) in a.epochs.iter().zip(&b.epochs) {
        assert!((ma.val_loss - mb.val_loss).abs() < 1e-6, "{ma:?} vs {mb:?}");
        assert_eq!(ma.step, mb.step);
    }
    // Resuming a finished run returns it unchanged.
    let c = fanorona_train::resume(&killed, &mut quiet).unwrap();
    assert_eq!(c.epochs.len(), 4);
    for (mb, mc) in b.epochs.iter().zip(&c.epochs) {
        assert_eq!((mb.epoch, mb.step), (mc.epoch, mc.step));
        assert!((mb.train_loss - mc.train_loss).abs() < 1e-12);
    }
}

#[test]
fn warm_start_and_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let files = data(dir.path(), 1, 20);
    let mut config = small_config(1);

    // Warm start from a network of the right architecture.
    let arch = config.architecture().unwrap();
    let init = Arc::new(Network::random(&arch, 77).unwrap());
    let init_path = dir.path().join("init.fnet");
    init.write_file(&init_path).unwrap();
    let r = fanorona_train::train(&config, &files, &dir.path().join("warm"), Some(&init_path), &mut quiet);
    assert!(r.is_ok(), "{r:?}");

    // ... and of the wrong one.
    config.model.hidden = vec![16];
    let e = fanorona_train::train(&config, &files, &dir.path().join("wrong"), Some(&init_path), &mut quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("init.fnet") && e.contains("threats:180-16-1"), "{e}");

    // A corrupt record file names itself.
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, b"not a record file").unwrap();
    let e = fanorona_train::train(&config, &[bad], &dir.path().join("bad"), None, &mut quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.bin"), "{e}");

    // Nothing to resume.
    let e = fanorona_train::resume(&dir.path().join("nothing"), &mut quiet).unwrap_err().to_string();
    assert!(e.contains("nothing"), "{e}");

    // A missing input.
    let e = fanorona_train::train(
        &config,
        &[dir.path().join("missing.bin")],
        &dir.path().join("m"),
        None,
        &mut quiet,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("missing.bin"), "{e}");
}

#[test]
fn a_state_file_of_another_version_is_refused_as_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let files = data(dir.path(), 1, 20);
    let run = dir.path().join("run");
    fanorona_train::train(&small_config(1), &files, &run, None, &mut quiet).unwrap();
    let state = run.join("state.json");
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.contains("\"version\": 1"), "{text}");
    std::fs::write(&state, text.replacen("\"version\": 1", "\"version\": 7", 1)).unwrap();
    let e = fanorona_train::resume(&run, &mut quiet).unwrap_err();
    assert!(e.is_bad_input(), "{e}");
    assert!(
        e.to_string().contains("state file version 7") && e.to_string().contains("reads version 1"),
        "{e}"
    );
    std::fs::write(&state, text.replacen("\"version\": 1,", "", 1)).unwrap();
    let e = fanorona_train::resume(&run, &mut quiet).unwrap_err();
    assert!(e.is_bad_input() && e.to_string().contains("no version"), "{e}");
}

#[test]
fn a_moved_run_directory_resumes_from_anywhere() {
    // Paths in state.json are relative to the run directory: the run and its data moved
    // together (or a resume from another working directory) continue.
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first");
    std::fs::create_dir_all(first.join("data")).unwrap();
    let files = data(&first.join("data"), 1, 40);
    let config = small_config(2);
    let run = first.join("runs").join("r");
    let stop = fanorona_train::train(&config, &files, &run, None, &mut |p| match p {
        Progress::Step { epoch: 2, step: 1, .. } => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    });
    assert!(matches!(stop, Err(TrainError::Stopped)), "{stop:?}");
    let state = std::fs::read_to_string(run.join("state.json")).unwrap();
    assert!(!state.contains(first.to_str().unwrap()), "absolute paths saved: {state}");
    let moved = dir.path().join("moved");
    std::fs::rename(&first, &moved).unwrap();
    let r = fanorona_train::resume(&moved.join("runs").join("r"), &mut quiet).unwrap();
    assert_eq!(r.epochs.len(), 2);
    assert!(r.best_net.starts_with(&moved) && r.best_net.is_file(), "{}", r.best_net.display());
}

#[test]
fn directories_are_searched_for_record_files() {
    // A loop or match run directory: record files at any depth among other files.
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("gen-001").join("gate");
    std::fs::create_dir_all(&nested).unwrap();
    let a = data(&dir.path().join("gen-001"), 1, 5);
    let b = data(&nested, 1, 5);
    std::fs::write(nested.join("state.json"), "{}").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a record file").unwrap();
    std::fs::copy(&b[0], nested.join("unfinished.bin.part")).unwrap();
    let found = fanorona_train::expand_inputs(&[dir.path().to_path_buf()]).unwrap();
    assert_eq!(found, vec![a[0].clone(), b[0].clone()]);
}

#[test]
fn the_split_follows_the_game_not_the_file_name() {
    // Every generation of a loop writes `games.bin`: the split must key on the game's identity
    // (run seed, run-wide index), so a copy under another name splits the same way and two runs
    // named alike split differently.
    let dir = tempfile::tempdir().unwrap();
    let a = data(dir.path(), 2, 40);
    let renamed = dir.path().join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    let copy = renamed.join("games.bin");
    std::fs::copy(&a[0], &copy).unwrap();
    let games = |file: &Path, out: &str| {
        fanorona_train::train(
            &small_config(1),
            &[file.to_path_buf()],
            &dir.path().join(out),
            None,
            &mut quiet,
        )
        .unwrap()
    };
    let (original, copied) = (games(&a[0], "r1"), games(&copy, "r2"));
    assert_eq!(original.data.val_games, copied.data.val_games);
    assert_eq!(original.data.val_samples, copied.data.val_samples);
    assert_eq!(original.epochs[0].val_loss, copied.epochs[0].val_loss);
    let held_out = |seed| {
        (0..40).filter(move |&index| {
            fanorona_train::split_of(fanorona_train::GameId { seed, index }, 0.2)
                == fanorona_train::Split::Validation
        })
    };
    assert_eq!(held_out(100).count() as u64, original.data.val_games);
    assert_ne!(held_out(100).collect::<Vec<_>>(), held_out(101).collect::<Vec<_>>());
}
