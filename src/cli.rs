//! The command line: one subcommand per job.

use clap::{Parser, Subcommand};

use crate::cmd;

/// Fanorona: rules, engine, self-play data, value-network training and engine matches.
///
/// Exit codes: 0 success, 1 failure, 2 bad input or usage.
#[derive(Debug, Parser)]
#[command(name = "fanorona", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count turn sequences from a position (move generator check and benchmark).
    Perft(cmd::perft::Args),
    /// Draw a position and list its legal turns.
    Show(cmd::show::Args),
    /// Run as an engine program over the text protocol on stdin/stdout.
    Engine(cmd::engine::Args),
    /// Search a position: score, depth, nodes, nodes per second, principal variation.
    Analyse(cmd::analyse::Args),
    /// Play against the computer in the terminal.
    Play(cmd::play::Args),
    /// Search benchmark: node-count signature and nodes per second.
    Bench(cmd::bench::Args),
    /// Generate self-play games into a record file.
    Selfplay(cmd::selfplay::Args),
    /// Inspect, check, export and merge game record files.
    Data(cmd::data::Args),
    /// Engine matches: Elo with intervals, SPRT; gauntlets and round robins with ratings.
    Eval(Box<cmd::eval::Args>),
    /// The board in the browser: replay record files, analyse positions, play any engine.
    Serve(cmd::serve::Args),
    /// Endgame tablebases: generate every position up to N stones, probe positions.
    Tb(cmd::tb::Args),
    /// Prove a position's value (the start position by default) and check proofs.
    Solve(cmd::solve::Args),
    /// Opening books: build one from games, show a position's turns.
    Book(cmd::book::Args),
    /// Opening suites by analysis: build one (positions a few turns in, kept by their score),
    /// check one.
    Suite(cmd::suite::Args),
    /// Tune numbers of an engine spec by SPSA games (search knobs, handcrafted weights).
    Tune(cmd::tune::Args),
    /// Network files: info, a position's evaluation, safetensors export and import.
    Net(cmd::net::Args),
    /// Train the value network on record files (burn), exported for `eval=net:PATH`.
    #[cfg(feature = "train")]
    Train(cmd::train::Args),
    /// Run the self-improvement loop: self-play, train, gate, promote, repeat.
    #[cfg(feature = "train")]
    Loop(cmd::loop_cmd::Args),
}

/// Parses the command line and runs the chosen command.
pub fn run() -> anyhow::Result<()> {
    // clap prints --help/--version and exits 0, and exits 2 on a usage error.
    let cli = Cli::parse();
    match &cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
        Command::Data(a) => cmd::data::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Tb(a) => cmd::tb::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Suite(a) => cmd::suite::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Net(a) => cmd::net::run(a),
        #[cfg(feature = "train")]
        Command::Train(a) => cmd::train::run(a),
        #[cfg(feature = "train")]
        Command::Loop(a) => cmd::loop_cmd::run_cmd(a),
    }
}
