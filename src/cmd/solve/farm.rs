//! `fanorona solve --split`, `--task` and `--merge`: one proof farmed out over many machines
//! (a Slurm job array: solve/solve-array.sbatch), each task solving its share of the positions a
//! few turns from the root, the root's value joined from their checked proofs.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use fanorona_data::Shard;
use fanorona_solve::check::check;
use fanorona_solve::farm::{Frontier, key_of, position};
use fanorona_solve::{Proven, file, solve};

use super::{Args, open_tables, options, value_key};
use crate::exit::bad_input;

fn frontier_path(dir: &Path) -> PathBuf {
    dir.join("frontier.txt")
}

fn proof_path(dir: &Path, i: usize) -> PathBuf {
    dir.join("proofs").join(format!("{i:07}.fproof"))
}

fn read_frontier(dir: &Path) -> anyhow::Result<Frontier> {
    let path = frontier_path(dir);
    Frontier::read(&path).map_err(|e| match e.is_bad_input() {
        true => bad_input("the split", e),
        false => anyhow::Error::new(e),
    })
}

/// `--split PLIES --out DIR`: writes the frontier.
pub fn split(args: &Args, plies: u32, out: &Path) -> anyhow::Result<()> {
    let pos = crate::cmd::parse_position(args.position.as_deref())?;
    let f = fanorona_solve::farm::split(&pos, plies).map_err(|e| bad_input("--split", e))?;
    let proofs = out.join("proofs");
    std::fs::create_dir_all(&proofs).map_err(|e| bad_input(format!("creating {}", proofs.display()), e))?;
    let path = frontier_path(out);
    fanorona_io::write_atomic(&path, f.to_text().as_bytes())?;
    let mut o = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "root": pos.to_string(), "plies": plies, "positions": f.positions.len(),
            "frontier": path.display().to_string(),
        });
        writeln!(o, "{obj}")?;
    } else {
        writeln!(
            o,
            "{} distinct positions {plies} turns from {pos}: {}; solve them with `fanorona solve --task {}` (one task, or a job array), then `fanorona solve --merge {}`",
            f.positions.len(),
            path.display(),
            out.display(),
            out.display()
        )?;
    }
    Ok(())
}

fn shard(args: &Args) -> anyhow::Result<Shard> {
    match &args.shard {
        Some(s) => s.parse::<Shard>().map_err(|e| bad_input("--shard", e)),
        None => Shard::from_env(|k| std::env::var(k).ok(), None)
            .map_err(|e| bad_input("shard from the environment", e))
            .map(|s| s.unwrap_or(Shard::ONE)),
    }
}

/// `--task DIR`: solves this shard's positions of the split, each proof written as it is
/// found; positions proven by an earlier run are skipped.
pub fn task(args: &Args, dir: &Path) -> anyhow::Result<()> {
    let f = read_frontier(dir)?;
    let shard = shard(args)?;
    let tb = open_tables(args)?;
    let opts = options(args)?;
    let (mut proven, mut skipped, mut open, mut nodes) = (0u64, 0u64, 0u64, 0u64);
    let mine = f
        .positions
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % u64::from(shard.count) == u64::from(shard.index));
    for (i, &k) in mine {
        let path = proof_path(dir, i);
        if path.exists() {
            skipped += 1;
            continue;
        }
        let pos =
            position(k).ok_or_else(|| bad_input("the split", format!("position {} is not legal", i + 1)))?;
        let s = solve(&pos, tb.as_ref(), &opts, &mut |_| {})?;
        nodes += s.questions.iter().map(|q| q.stats.nodes).sum::<u64>();
        if matches!(s.value, Some(Proven::Win | Proven::Draw | Proven::Loss)) {
            file::write(&path, &s.proof)?;
            proven += 1;
        } else {
            open += 1;
        }
    }
    let mut o = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "shard": format!("{}/{}", shard.index, shard.count),
            "proven": proven, "already": skipped, "open": open, "nodes": nodes,
        });
        writeln!(o, "{obj}")?;
    } else {
        writeln!(
            o,
            "shard {}/{}: {proven} proven, {skipped} proven before, {open} not settled within the budget ({nodes} nodes)",
            shard.index, shard.count
        )?;
    }
    Ok(())
}

/// `--merge DIR`: checks every proof of the split and joins the root's value.
pub fn merge(args: &Args, dir: &Path) -> anyhow::Result<()> {
    let f = read_frontier(dir)?;
    let tb = open_tables(args)?;
    let mut values = HashMap::new();
    for (i, &k) in f.positions.iter().enumerate() {
        let path = proof_path(dir, i);
        if !path.exists() {
            continue;
        }
        let proof = file::read(&path).map_err(|e| bad_input(format!("reading {}", path.display()), e))?;
        if key_of(&proof.root) != k {
            return Err(bad_input(
                path.display().to_string(),
                "the proof is of another position than the split's",
            ));
        }
        let (value, _) = check(&proof, tb.as_ref())
            .map_err(|e| bad_input(format!("the proof {} does not hold", path.display()), e))?;
        values.insert(k, value);
    }
    let value = f.join(|k| values.get(&k).copied());
    let mut o = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "position": f.root.to_string(), "plies": f.plies, "positions": f.positions.len(),
            "proven": values.len(), "value": value_key(value),
        });
        writeln!(o, "{obj}")?;
    } else {
        writeln!(
            o,
            "{} of {} positions {} turns from {} proven (every proof checked): {}",
            values.len(),
            f.positions.len(),
            f.plies,
            f.root,
            super::value_text(&f.root, value)
        )?;
    }
    Ok(())
}
