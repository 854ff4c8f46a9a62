//! `fanorona engine`: speak the engine protocol (docs/PROTOCOL.md) on stdin/stdout.

use fanorona_engine::EvalSpec;
use fanorona_engine::protocol::{EngineConfig, run_engine};
use fanorona_engine::search::{MAX_HASH_MIB, check_threads};
use fanorona_engine::spec::MAX_QWIDTH;

use crate::exit::bad_input;

/// Run as an engine program over the text protocol (fep, position, go, stop, quit) on
/// standard input and output.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Evaluator: material, handcrafted, embedded (the network built into the binary) or net:PATH.
    #[arg(long, default_value = "handcrafted")]
    eval: String,
    /// Transposition table size in MiB (0: none).
    #[arg(long, default_value_t = fanorona_engine::spec::DEFAULT_HASH_MIB)]
    hash: usize,
    /// Search threads sharing the table (option `Threads`; at most the machine's).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A directory of endgame tables (`fanorona tb generate`) to probe in the search.
    #[arg(long)]
    tb: Option<std::path::PathBuf>,
    /// Captures searched at each quiescence node past its first turn, most stones first
    /// (option `QuiescenceWidth`; 0: every one).
    #[arg(long, default_value_t = 0)]
    qwidth: usize,
    /// An opening book (`fanorona book build`) to play from while it holds the position
    /// (options `BookFile`, and `OwnBook`, which it turns on).
    #[arg(long)]
    book: Option<std::path::PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let eval: EvalSpec = args.eval.parse().map_err(|e| bad_input("--eval", e))?;
    if args.hash > MAX_HASH_MIB {
        return Err(bad_input(
            "--hash",
            format!("{} MiB is more than the {MAX_HASH_MIB} MiB allowed", args.hash),
        ));
    }
    let threads = check_threads(args.threads).map_err(|e| bad_input("--threads", e))?;
    if args.qwidth > MAX_QWIDTH {
        return Err(bad_input(
            "--qwidth",
            format!("{} is more than {MAX_QWIDTH} (0: every capture)", args.qwidth),
        ));
    }
    // Load the network now, so that a bad file is reported before the session starts.
    eval.build().map_err(|e| bad_input("--eval", e))?;
    // Open the tables now too, so that a bad file is reported before the session starts.
    if let Some(dir) = &args.tb {
        fanorona_engine::tablebase::open_shared(dir).map_err(|e| bad_input("--tb", e))?;
    }
    // And the book, checked through before the session starts.
    if let Some(path) = &args.book {
        fanorona_engine::book::open_shared(path).map_err(|e| bad_input("--book", e))?;
    }
    let config = EngineConfig {
        eval,
        hash_mib: args.hash,
        threads,
        rules: fanorona_core::DrawRules::default(),
        tb: args.tb.clone(),
        qwidth: args.qwidth,
        book: args.book.clone(),
        own_book: args.book.is_some(),
    };
    // What the session cannot start with (a table the machine cannot give) is bad input too.
    run_engine(std::io::stdin().lock(), std::io::stdout(), config).map_err(|e| {
        if e.kind() == std::io::ErrorKind::InvalidInput { bad_input("engine", e) } else { e.into() }
    })
}
