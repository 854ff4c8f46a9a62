//! `fanorona net`: inspect network files, evaluate a position, convert to and from
//! safetensors.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fanorona_data::{Existing, Output};
use fanorona_engine::eval::NetEvaluator;
use fanorona_nn::{Activation, Network, QuantisedNetwork};

use crate::exit::bad_input;

/// Inspect network files, evaluate positions, convert to and from safetensors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: NetCommand,
}

#[derive(Debug, clap::Subcommand)]
enum NetCommand {
    /// Architecture, description, parameter count and checksum of a network file.
    Info(InfoArgs),
    /// The network's value and score of one position (no search: what the search's leaves
    /// get).
    Eval(EvalArgs),
    /// Write a network file in another format (safetensors, as PyTorch saves).
    Export(ExportArgs),
    /// Read a network from safetensors into the engine's network file.
    Import(ImportArgs),
}

#[derive(Debug, clap::Args)]
struct InfoArgs {
    /// Network file (`.fnet`).
    file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct EvalArgs {
    /// Network file (`.fnet`).
    file: PathBuf,
    /// Position string (default: the start position).
    #[arg(long, short)]
    position: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// safetensors: `layers.K.weight` `[outputs, inputs]` and `layers.K.bias`, F32.
    Safetensors,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// Network file (`.fnet`).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "safetensors")]
    format: Format,
    /// Output file (an existing one only with --force).
    #[arg(long, short)]
    out: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// safetensors file: `NAME.weight` `[outputs, inputs]` / `NAME.bias` pairs, layers in
    /// the order of the last number in NAME.
    file: PathBuf,
    /// Output network file (an existing one only with --force).
    #[arg(long, short)]
    out: PathBuf,
    /// Hidden activation, `crelu` or `relu` (default: the file's metadata, else crelu).
    #[arg(long)]
    activation: Option<String>,
    /// Replace the description (default: the file's metadata).
    #[arg(long)]
    description: Option<String>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        NetCommand::Info(a) => info(a),
        NetCommand::Eval(a) => eval(a),
        NetCommand::Export(a) => export(a),
        NetCommand::Import(a) => import(a),
    }
}

fn load(path: &Path) -> anyhow::Result<Network> {
    Ok(Network::read_file(path)?)
}

fn info(a: &InfoArgs) -> anyhow::Result<()> {
    let net = load(&a.file)?;
    let quantised = QuantisedNetwork::new(&net).err().map(|e| e.to_string());
    let engine = fanorona_nn::engine_check(&net).err().map(|e| e.to_string());
    let obj = serde_json::json!({
        "file": a.file.display().to_string(),
        "architecture": net.arch().to_string(),
        "layer_sizes": net.arch().layer_sizes(),
        "activation": net.arch().activation.name(),
        "buckets": net.arch().buckets,
        "description": net.description(),
        "parameters": net.arch().parameter_count(),
        "checksum": format!("{:08x}", net.checksum()),
        "integer_inference": quantised.is_none(),
        "integer_inference_error": quantised,
        "engine_loads": engine.is_none(),
        "engine_error": engine,
    });
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(out, "file          {}", a.file.display())?;
    writeln!(out, "architecture  {}", net.arch())?;
    writeln!(out, "description   {}", net.description())?;
    writeln!(out, "parameters    {}", net.arch().parameter_count())?;
    writeln!(out, "checksum      {:08x} (CRC-32 stored in the file)", net.checksum())?;
    match &obj["integer_inference_error"] {
        serde_json::Value::String(e) => writeln!(out, "inference     floats ({e})")?,
        _ => writeln!(out, "inference     integers (quantised)")?,
    }
    match &obj["engine_error"] {
        serde_json::Value::String(e) => writeln!(out, "engine        refuses it: {e}")?,
        _ => writeln!(out, "engine        loads it")?,
    }
    Ok(())
}

fn eval(a: &EvalArgs) -> anyhow::Result<()> {
    let pos = super::parse_position(a.position.as_deref())?;
    let net = Arc::new(load(&a.file)?);
    let value = net.evaluate(&pos);
    let mut evaluator =
        NetEvaluator::new(net.clone(), "net").unwrap_or_else(|_| NetEvaluator::float(net.clone(), "net"));
    let score = evaluator.score(&pos);
    let mut out = std::io::stdout().lock();
    if a.json {
        let obj = serde_json::json!({
            "position": pos.to_string(), "value": value, "score": score,
            "quantised": evaluator.is_quantised(),
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "position {pos}")?;
        writeln!(out, "value    {value:.6} (float network, side to move's view, -1..1)")?;
        let how = if evaluator.is_quantised() { "integer inference" } else { "float inference" };
        writeln!(out, "score    {score} (centi-stones, side to move's view, {how} as the search)")?;
    }
    Ok(())
}

/// Writes `bytes` to `out` through its temporary (refusing an existing file unless `force`).
fn write_output(out: &Path, force: bool, inputs: &[&Path], bytes: &[u8]) -> anyhow::Result<()> {
    let existing = if force { Existing::Replace } else { Existing::Refuse };
    let output = Output::new(out, existing)?;
    if let Some(f) = inputs.iter().find(|f| output.clobbers(f)) {
        return Err(bad_input(format!("--out {}", out.display()), format!("{} is the input", f.display())));
    }
    let part = output.write_path();
    let r =
        std::fs::write(&part, bytes).map_err(|e| anyhow::Error::new(e).context(part.display().to_string()));
    match r.and_then(|()| output.commit().map_err(anyhow::Error::new)) {
        Ok(()) => Ok(()),
        Err(e) => {
            output.abandon();
            Err(e)
        }
    }
}

fn export(a: &ExportArgs) -> anyhow::Result<()> {
    let net = load(&a.file)?;
    let bytes = match a.format {
        Format::Safetensors => net.to_safetensors(),
    };
    write_output(&a.out, a.force, &[&a.file], &bytes)?;
    eprintln!("wrote {} ({}, {} bytes)", a.out.display(), net.arch(), bytes.len());
    Ok(())
}

fn import(a: &ImportArgs) -> anyhow::Result<()> {
    let activation = a
        .activation
        .as_deref()
        .map(str::parse::<Activation>)
        .transpose()
        .map_err(|e| bad_input("--activation", e))?;
    let mut net = Network::read_safetensors(&a.file, activation)?;
    if let Some(d) = &a.description {
        net.set_description(d.clone());
    }
    // A network the engine would refuse is refused here, not at its first game.
    fanorona_nn::engine_check(&net).map_err(|e| bad_input(a.file.display(), e))?;
    write_output(&a.out, a.force, &[&a.file], &net.to_bytes())?;
    eprintln!("wrote {} ({}, checksum {:08x})", a.out.display(), net.arch(), net.checksum());
    Ok(())
}
