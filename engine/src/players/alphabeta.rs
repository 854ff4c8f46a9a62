//! The alpha-beta player: a [`Searcher`] with fixed limits per turn.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_book::Book;
use fanorona_core::Game;

use crate::eval::Evaluator;
use crate::player::{Decision, Player};
use crate::search::{Limits, SearchRoot, Searcher};
use crate::spec::AlphaBetaSpec;

/// Searches each turn within the spec's limits. Deterministic for depth and node limits on one
/// thread.
#[derive(Debug)]
pub struct AlphaBetaPlayer {
    name: String,
    limits: Limits,
    searcher: Searcher,
    book: Option<Arc<Book>>,
}

impl AlphaBetaPlayer {
    /// A player searching with `eval` within `spec`'s limits. The search uses no randomness, so
    /// the seed is not needed.
    pub fn new(spec: AlphaBetaSpec, eval: Box<dyn Evaluator>, _seed: u64, name: String) -> AlphaBetaPlayer {
        let mut searcher = Searcher::new(eval, spec.hash_mib);
        searcher.set_threads(spec.threads);
        searcher.set_knobs(&spec.knobs.search());
        searcher.set_quiescence_width(spec.qwidth);
        AlphaBetaPlayer::with_searcher(spec.limits(), searcher, name)
    }

    /// A player searching with `searcher` (its table and threads) within `limits`.
    pub fn with_searcher(limits: Limits, searcher: Searcher, name: String) -> AlphaBetaPlayer {
        AlphaBetaPlayer { name, limits, searcher, book: None }
    }
}

impl AlphaBetaPlayer {
    /// The searcher, for settings beyond the spec.
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// Plays from `book` while it holds the position ([`crate::book::book_move`]), searching
    /// otherwise; `None`: always search.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, game: &Game) -> Decision {
        self.choose_within(game, self.limits)
    }

    fn choose_within(&mut self, game: &Game, limits: Limits) -> Decision {
        self.decide(game, limits, Arc::new(AtomicBool::new(false)))
    }
}

impl AlphaBetaPlayer {
    /// As [`Player::choose`], but the search ends early, with its best turn so far, once `stop`
    /// is set (a server whose client has gone).
    pub fn choose_until(&mut self, game: &Game, stop: Arc<AtomicBool>) -> Decision {
        self.decide(game, self.limits, stop)
    }

    fn decide(&mut self, game: &Game, limits: Limits, stop: Arc<AtomicBool>) -> Decision {
        if let Some(mv) = self.book.as_deref().and_then(|b| crate::book::book_move(b, game)) {
            return Decision { pv: vec![mv], ..Decision::unsearched(mv) };
        }
        let root = SearchRoot::from_game(game);
        let r = self.searcher.search(&root, limits, stop, &mut |_| {});
        let mv = r.best.unwrap_or_else(|| panic!("choose called on a position without legal turns"));
        Decision { mv, score: Some(r.score), depth: Some(r.depth), nodes: r.nodes, pv: r.pv, root: r.root }
    }
}
