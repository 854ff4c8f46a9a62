//! Searches the page starts and polls: `POST /api/search` starts one in a thread and returns
//! its id; `GET /api/search?id=` gives every completed depth so far (score, nodes, principal
//! variation) and, once done, the result; `POST /api/search/stop?id=` ends it early. A running
//! search holds one of the server's [`EngineSlots`] until it ends. A search nobody polls for
//! its grace period (the page that started it was closed) is stopped by its watchdog.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fanorona_core::{Game, Move, Position};
use fanorona_engine::score::forced;
use fanorona_engine::search::Info;
use fanorona_engine::{AlphaBetaSpec, PlayerSpec, SearchRoot, Searcher};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::slots::{EngineSlots, Slot};

/// Finished searches kept for polling.
const MAX_KEPT: usize = 32;

/// A score as text: centi-stones, or `win N` / `loss N` turns.
pub fn score_text(score: i32) -> String {
    match forced(score) {
        Some((true, n)) => format!("win {n}"),
        Some((false, n)) => format!("loss {n}"),
        None => score.to_string(),
    }
}

/// A principal variation in notation, each turn played from `pos` on.
pub(crate) fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for m in pv {
        out.push(m.to_string());
        if p.play(m).map(|n| p = n).is_err() {
            break;
        }
    }
    out
}

#[derive(Debug, Default)]
struct Progress {
    depths: Vec<Value>,
    result: Option<Value>,
}

#[derive(Debug)]
struct Job {
    stop: Arc<AtomicBool>,
    progress: Mutex<Progress>,
    /// When the search was last polled (or started).
    polled: Mutex<Instant>,
    /// Whether the search thread has ended.
    ended: AtomicBool,
}

impl Job {
    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn polled(&self) -> std::sync::MutexGuard<'_, Instant> {
        self.polled.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Stops `job` once it has not been polled for `grace`; returns when it has ended.
fn watchdog(job: &Job, grace: Duration) {
    let step = (grace / 4).clamp(Duration::from_millis(10), Duration::from_millis(250));
    while !job.ended.load(Ordering::SeqCst) {
        if job.polled().elapsed() > grace {
            job.stop.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(step);
    }
}

/// The searches of a server.
#[derive(Debug, Default)]
pub struct Searches {
    next: AtomicU64,
    jobs: Mutex<BTreeMap<u64, Arc<Job>>>,
}

impl Searches {
    fn jobs(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts searching the current position of `game` with `spec` (an alpha-beta spec, its
    /// limits, evaluator, hash, threads and tables), holding a slot of `slots` until it ends;
    /// it is stopped when not polled for `grace`.
    ///
    /// # Errors
    /// 400 for a spec that does not search or cannot be built, 409 for a finished game, 503
    /// when every engine slot is taken.
    pub fn start(
        &self,
        game: &Game,
        spec: &PlayerSpec,
        slots: &EngineSlots,
        grace: Duration,
    ) -> ApiResult<u64> {
        let PlayerSpec::AlphaBeta(ab) = spec else {
            return Err(ApiError::bad(format!(
                "engine {spec}: only alphabeta specs search (alphabeta:depth=N,...)"
            )));
        };
        if let Some(o) = game.outcome() {
            return Err(ApiError::conflict(format!("the game is over ({o}): nothing to search")));
        }
        let slot = slots.acquire()?;
        let searcher = build(ab)?;
        let mut jobs = self.jobs();
        while jobs.len() >= MAX_KEPT {
            let Some(oldest) = jobs.iter().find(|(_, j)| j.progress().result.is_some()).map(|(k, _)| *k)
            else {
                break;
            };
            jobs.remove(&oldest);
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job {
            stop: Arc::new(AtomicBool::new(false)),
            progress: Mutex::default(),
            polled: Mutex::new(Instant::now()),
            ended: AtomicBool::new(false),
        });
        jobs.insert(id, Arc::clone(&job));
        drop(jobs);
        let root = SearchRoot::from_game(game);
        let limits = ab.limits();
        let watched = Arc::clone(&job);
        let spawned = std::thread::Builder::new().name(format!("search-{id}")).spawn(move || {
            let caught =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(searcher, &root, limits, &job)));
            let result = caught.unwrap_or_else(|_| json!({ "error": "the search failed" }));
            job.ended.store(true, Ordering::SeqCst);
            // The slot is free before the search reads as done.
            drop::<Slot>(slot);
            job.progress().result = Some(result);
        });
        if let Err(e) = spawned {
            self.jobs().remove(&id);
            return Err(ApiError::busy(format!("cannot start a search thread: {e}")));
        }
        let dog = std::thread::Builder::new().name(format!("search-{id}-watchdog")).spawn({
            let job = Arc::clone(&watched);
            move || watchdog(&job, grace)
        });
        if dog.is_err() {
            // Unwatched, a search could outlive its page: refuse it instead.
            watched.stop.store(true, Ordering::SeqCst);
            return Err(ApiError::busy("cannot start a search's watchdog thread"));
        }
        Ok(id)
    }

    fn job(&self, id: u64) -> ApiResult<Arc<Job>> {
        self.jobs().get(&id).cloned().ok_or_else(|| {
            ApiError::not_found(format!("search {id} is not known (finished searches are kept for a while)"))
        })
    }

    /// What search `id` has found so far.
    ///
    /// # Errors
    /// 404 for an unknown id.
    pub fn poll(&self, id: u64) -> ApiResult<Value> {
        let job = self.job(id)?;
        *job.polled() = Instant::now();
        let p = job.progress();
        Ok(json!({ "id": id, "done": p.result.is_some(), "depths": p.depths, "result": p.result }))
    }

    /// Asks search `id` to stop (it reports its last completed depth).
    ///
    /// # Errors
    /// 404 for an unknown id.
    pub fn stop(&self, id: u64) -> ApiResult<Value> {
        self.job(id)?.stop.store(true, Ordering::Relaxed);
        Ok(json!({ "id": id, "stopping": true }))
    }
}

/// The searcher of an alpha-beta spec.
fn build(ab: &AlphaBetaSpec) -> ApiResult<Searcher> {
    let bad = |e: fanorona_engine::SpecError| ApiError::bad(format!("engine: {e}"));
    let mut searcher = ab.searcher(ab.evaluator(0).map_err(bad)?).map_err(bad)?;
    if let Some(dir) = &ab.tb {
        let tb = fanorona_engine::tablebase::open_shared(dir)
            .map_err(|e| ApiError::bad(format!("engine: tb={}: {e}", dir.display())))?;
        searcher.set_tablebase(Some(tb));
    }
    Ok(searcher)
}

/// Runs the search, recording each completed depth; its result.
fn run(mut searcher: Searcher, root: &SearchRoot, limits: fanorona_engine::Limits, job: &Job) -> Value {
    let pos = root.position;
    let r = searcher.search(root, limits, Arc::clone(&job.stop), &mut |i: &Info| {
        job.progress().depths.push(json!({
            "depth": i.depth, "score": i.score, "score_text": score_text(i.score), "nodes": i.nodes,
            "time_ms": i.elapsed.as_millis() as u64, "pv": pv_text(&pos, &i.pv),
        }));
    });
    json!({
        "best": r.best.map(|m| m.to_string()), "score": r.score, "score_text": score_text(r.score),
        "depth": r.depth, "nodes": r.nodes, "time_ms": r.elapsed.as_millis() as u64, "pv": pv_text(&pos, &r.pv),
        "stopped": job.stop.load(Ordering::Relaxed),
    })
}
