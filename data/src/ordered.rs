//! [`run_ordered`]: tasks `0..n` spread over worker threads, their results handed back on the
//! calling thread in task order (so what is written from them does not depend on the thread
//! count), the first failure stopping the rest. Self-play (games) and matches (pairs of games)
//! both run on it.

use std::collections::BTreeMap;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// One worker's job: runs task `index`. `None` when it gave up because `stop` was raised (its
/// result would be dropped anyway).
pub trait Task<T, E> {
    /// Runs task `index`.
    fn run(&mut self, index: u64, stop: &AtomicBool) -> Option<Result<T, E>>;
}

impl<T, E, F: FnMut(u64, &AtomicBool) -> Option<Result<T, E>>> Task<T, E> for F {
    fn run(&mut self, index: u64, stop: &AtomicBool) -> Option<Result<T, E>> {
        self(index, stop)
    }
}

/// The worker threads of a [`run_ordered`].
#[derive(Clone, Copy, Debug)]
pub struct Workers<'a> {
    /// How many (at least one is started).
    pub threads: usize,
    /// Their name's prefix (`NAME-K`).
    pub name: &'a str,
}

/// Runs the tasks of `tasks` on `workers.threads` threads, each with its own [`Task`] from
/// `make(k)` (dropped when the thread ends), and calls `consume(index, result)` on the calling
/// thread in increasing index order, starting at `tasks.start`.
///
/// Stops at the first error (of `make`, a task or `consume`; later errors are dropped) and
/// returns it, or when `consume` says [`ControlFlow::Break`]; either way the workers see the
/// stop flag, finish or abandon their task, and are joined before this returns. The results
/// of tasks past the stopping point are dropped. A thread that cannot be started is an error
/// made by `spawn_failed`.
///
/// # Errors
/// The first error, as above.
pub fn run_ordered<T, E, W, M, C>(
    workers: Workers<'_>,
    tasks: Range<u64>,
    make: M,
    mut consume: C,
    spawn_failed: impl FnOnce(std::io::Error) -> E,
) -> Result<(), E>
where
    T: Send,
    E: Send,
    W: Task<T, E>,
    M: Fn(usize) -> Result<W, E> + Sync,
    C: FnMut(u64, T) -> Result<ControlFlow<()>, E>,
{
    let next = AtomicU64::new(tasks.start);
    let stop = AtomicBool::new(false);
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<T, E>)>();
        for k in 0..workers.threads.max(1) {
            let tx = tx.clone();
            let (next, stop, make, end) = (&next, &stop, &make, tasks.end);
            let spawned = std::thread::Builder::new()
                .name(format!("{}-{k}", workers.name))
                .spawn_scoped(scope, move || work(k, make, next, end, stop, &tx));
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                failure = Some(spawn_failed(e));
                break;
            }
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut want = tasks.start;
        for (i, r) in rx {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            match r {
                Ok(t) => {
                    pending.insert(i, t);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(e);
                    continue;
                }
            }
            while let Some(t) = pending.remove(&want) {
                want += 1;
                match consume(want - 1, t) {
                    Ok(ControlFlow::Continue(())) => {}
                    Ok(ControlFlow::Break(())) => {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(e);
                        break;
                    }
                }
            }
        }
    });
    failure.map_or(Ok(()), Err)
}

/// A worker thread: takes task numbers until they run out or `stop` is raised.
fn work<T, E, W: Task<T, E>>(
    k: usize,
    make: &(impl Fn(usize) -> Result<W, E> + Sync),
    next: &AtomicU64,
    end: u64,
    stop: &AtomicBool,
    tx: &mpsc::Sender<(u64, Result<T, E>)>,
) {
    let mut task = match make(k) {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send((next.load(Ordering::Relaxed), Err(e)));
            return;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= end {
            break;
        }
        let Some(r) = task.run(i, stop) else { break };
        if tx.send((i, r)).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workers(threads: usize) -> Workers<'static> {
        Workers { threads, name: "test" }
    }

    fn square(i: u64, _: &AtomicBool) -> Option<Result<u64, String>> {
        // Later tasks finish first, so results arrive out of order.
        std::thread::yield_now();
        Some(Ok(i * i))
    }

    #[test]
    fn results_come_in_task_order_for_any_thread_count() {
        for threads in [1, 2, 5, 16] {
            let mut got = Vec::new();
            run_ordered(
                workers(threads),
                3..40,
                |_| Ok(square),
                |i, v| {
                    got.push((i, v));
                    Ok(ControlFlow::Continue(()))
                },
                |e| e.to_string(),
            )
            .unwrap();
            assert_eq!(got, (3..40).map(|i| (i, i * i)).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    #[test]
    fn the_first_failure_stops_the_rest() {
        let ran = AtomicU64::new(0);
        let mut got = Vec::new();
        let r = run_ordered(
            workers(4),
            0..1_000_000,
            |_| {
                Ok(|i: u64, _: &AtomicBool| {
                    ran.fetch_add(1, Ordering::Relaxed);
                    Some(if i == 10 { Err(format!("task {i} failed")) } else { Ok(i) })
                })
            },
            |i, v| {
                got.push((i, v));
                Ok(ControlFlow::Continue(()))
            },
            |e| e.to_string(),
        );
        assert_eq!(r, Err("task 10 failed".to_string()));
        assert!(ran.load(Ordering::Relaxed) < 1_000_000, "the workers stopped");
        assert!(got.len() <= 10 && got.iter().enumerate().all(|(k, &(i, v))| i == k as u64 && v == i));
    }

    #[test]
    fn consume_can_stop_or_fail_the_run() {
        let mut got = Vec::new();
        let r = run_ordered(
            workers(3),
            0..1_000,
            |_| Ok(square),
            |i, _| {
                got.push(i);
                Ok(if i == 7 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
            },
            |e| e.to_string(),
        );
        assert_eq!((r, got), (Ok(()), (0..8).collect()));
        let r = run_ordered(
            workers(3),
            0..1_000,
            |_| Ok(square),
            |i, _| Err(format!("at {i}")),
            |e| e.to_string(),
        );
        assert_eq!(r, Err("at 0".to_string()));
    }

    #[test]
    fn a_worker_that_cannot_start_is_the_error_and_the_stop_flag_reaches_tasks() {
        let r = run_ordered(
            workers(2),
            0..10,
            |k| if k == 1 { Err(format!("worker {k}")) } else { Ok(square) },
            |_, _| Ok(ControlFlow::Continue(())),
            |e| e.to_string(),
        );
        // Worker 0 may have run every task first; worker 1's error is reported either way.
        assert_eq!(r, Err("worker 1".to_string()));
        // A task that watches the flag gives up once consume has said stop.
        let r = run_ordered(
            workers(2),
            0..10,
            |_| {
                Ok(|i: u64, stop: &AtomicBool| {
                    if i > 0 {
                        while !stop.load(Ordering::Relaxed) {
                            std::thread::yield_now();
                        }
                        return None;
                    }
                    Some(Ok::<u64, String>(i))
                })
            },
            |_, _| Ok(ControlFlow::Break(())),
            |e| e.to_string(),
        );
        assert_eq!(r, Ok(()));
    }
}
