//! `fanorona serve`: the board in the browser (replay, analyse, play) over a local web server.

use std::io::Write;
use std::path::PathBuf;

use fanorona_web::{Config, ServeError, Server};

use crate::exit::bad_input;

/// Serve the board in the browser: replay the games of record files (self-play, match or loop
/// run directories), analyse positions with any engine spec, play against any engine. Prints
/// the address; serves until interrupted.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Record files, or directories searched for record files, to list for replay.
    files: Vec<PathBuf>,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Append finished games played in the page to this record file (created if absent).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Endgame tables (from `fanorona tb generate`) whose values the page shows.
    #[arg(long)]
    tb: Option<PathBuf>,
    /// The engine spec of requests that name no level or spec (each turn or search stops within
    /// 5 seconds).
    #[arg(long, default_value = fanorona_web::DEFAULT_ENGINE)]
    engine: String,
    #[command(flatten)]
    draw: super::DrawArgs,
    /// Print the address as one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = Config {
        host: args.host.clone(),
        port: args.port,
        files: args.files.clone(),
        save: args.save.clone(),
        tb: args.tb.clone(),
        rules: args.draw.rules(),
        engine: args.engine.clone(),
    };
    let server = Server::bind(config).map_err(|e| match e {
        ServeError::Bind { .. } => anyhow::Error::new(e),
        ServeError::Files(_) | ServeError::Tablebase { .. } | ServeError::Engine { .. } => {
            bad_input("serve", e)
        }
    })?;
    let addr = server.addr()?;
    let url = format!("http://{addr}/");
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::json!({ "url": url, "address": addr.to_string() }))?;
    } else {
        writeln!(out, "serving on {url} (Ctrl-C to stop)")?;
    }
    out.flush()?;
    drop(out);
    if args.open {
        open_browser(&url);
    }
    server.run();
    Ok(())
}

/// Asks the desktop to open `url`; says so when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
