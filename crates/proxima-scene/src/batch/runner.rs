//! Chunks of a batch on a thread pool, every chunk handed back to the calling thread.
//!
//! A batch of `n` rows is cut into chunks of `chunk_size` consecutive rows (the last one
//! shorter); chunk boundaries depend only on `n` and `chunk_size`, never on the thread count.
//! Each worker owns one workspace (created once per worker, reused for every chunk it runs)
//! and takes the next chunk from a shared counter, so chunks start in increasing order and at
//! most `threads` are in flight; a finished chunk goes through a channel to the calling
//! thread, which hands it to the sink (in completion order, tagged with its index). With one
//! thread everything runs on the calling thread.
//!
//! # Determinism
//!
//! A chunk's rows must be a function of the chunk alone (the compute function resets any
//! per-workspace state it carries from one row to the next at the start of a chunk). Then
//! which worker ran which chunk changes nothing, and callers that place chunk `c` at rows
//! `c · chunk_size ..` get the same bits for any thread count.
//!
//! # Failures
//!
//! A chunk reports the first row that failed in it. After a failure in chunk `c` no chunk
//! after `c` is started, but every chunk before it (already started: chunks start in
//! increasing order) runs to its end; the reported failure is the one of the lowest row, so
//! the same error comes back whatever the thread count.
//!
//! # Why rayon
//!
//! A pool that lives across calls (threads are not spawned per batch: many small batches from
//! Python would pay for it) and is shared with the Python binding's other batches; one pool
//! per thread count, built on first use and kept.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, LazyLock, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::SceneError;

/// The pools built so far, by thread count.
static POOLS: LazyLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = LazyLock::new(Default::default);

/// The thread count of a `threads` setting: `None` is one per core.
pub fn thread_count(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1)
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>, SceneError> {
    let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("proxima-batch-{i}"))
        .build()
        .map_err(|e| SceneError::invalid("threads", format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(threads, p.clone());
    Ok(p)
}

/// A failure inside a chunk: the row (batch index) and why.
pub(crate) type RowFailure = (usize, SceneError);

/// Runs `compute(workspace, chunk)` for every chunk index in `chunks` (ascending) on
/// `threads` threads, handing each result to `sink` on the calling thread. Returns `Ok(true)`
/// when every chunk ran, `Ok(false)` when the sink asked to stop, the lowest failing row's
/// error otherwise.
pub(crate) fn run_chunks<W, R: Send>(
    threads: usize,
    chunks: &[usize],
    init: &(dyn Fn() -> W + Sync),
    compute: &(dyn Fn(&mut W, usize) -> Result<R, RowFailure> + Sync),
    sink: &mut dyn FnMut(usize, R) -> ControlFlow<()>,
) -> Result<bool, SceneError> {
    debug_assert!(chunks.windows(2).all(|w| w[0] < w[1]), "chunks must ascend");
    if threads <= 1 || chunks.len() <= 1 {
        let mut ws = init();
        for &c in chunks {
            let rows = compute(&mut ws, c).map_err(|(_, e)| e)?;
            if sink(c, rows).is_break() {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    let workers = threads.min(chunks.len());
    let pool = pool(threads)?;
    let next = AtomicUsize::new(0);
    // No chunk with an index above `stop` starts (a failure or the sink's stop lowers it).
    let stop = AtomicUsize::new(usize::MAX);
    let failure: Mutex<Option<RowFailure>> = Mutex::new(None);
    let mut stopped = false;
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, failure) = (&next, &stop, &failure);
            scope.spawn(move |_| {
                let mut ws = init();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&c) = chunks.get(k) else { break };
                    if c > stop.load(Ordering::Acquire) {
                        break;
                    }
                    match compute(&mut ws, c) {
                        Ok(rows) => {
                            if tx.send((c, rows)).is_err() {
                                break;
                            }
                        }
                        Err((row, e)) => {
                            stop.fetch_min(c, Ordering::AcqRel);
                            let mut slot = failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                            if slot.as_ref().is_none_or(|(r, _)| row < *r) {
                                *slot = Some((row, e));
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        for (c, rows) in rx.iter() {
            if stopped {
                continue;
            }
            if sink(c, rows).is_break() {
                stopped = true;
                stop.store(0, Ordering::Release);
                // chunk indices above 0 no longer start; a chunk 0 cannot still be pending
                // (it is the first handed out), so the workers wind down
            }
        }
    });
    if let Some((_, e)) = failure.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
        return Err(e);
    }
    Ok(!stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows 5·c .. 5·c + 5; rows 12 and 31 fail. Whatever the thread count, the error is row
    /// 12's, every chunk before its chunk reached the sink and none after 6.
    #[test]
    fn lowest_failing_row_wins() {
        for threads in [1, 2, 3] {
            let chunks: Vec<usize> = (0..10).collect();
            let compute = |_: &mut (), c: usize| -> Result<usize, RowFailure> {
                for row in 5 * c..5 * c + 5 {
                    if row == 12 || row == 31 {
                        return Err((row, SceneError::invalid(format!("row {row}"), "fails")));
                    }
                }
                Ok(c)
            };
            let mut seen = Vec::new();
            let e = run_chunks(threads, &chunks, &|| (), &compute, &mut |c, r| {
                assert_eq!(c, r);
                seen.push(c);
                ControlFlow::Continue(())
            })
            .unwrap_err();
            assert_eq!(e, SceneError::invalid("row 12", "fails"), "{threads} threads");
            seen.sort();
            assert_eq!(&seen[..2], &[0, 1], "{threads} threads");
            assert!(seen.iter().all(|&c| c != 2 && c != 6 && c <= 6 + threads), "{seen:?}");
        }
    }

    #[test]
    fn every_chunk_once() {
        for threads in [1, 2, 3, 8] {
            let chunks: Vec<usize> = (0..50).filter(|c| c % 3 != 1).collect();
            let mut seen = Vec::new();
            let done = run_chunks(
                threads,
                &chunks,
                &|| 0usize,
                &|count, c| {
                    *count += 1;
                    Ok(c * 10)
                },
                &mut |c, r| {
                    assert_eq!(r, c * 10);
                    seen.push(c);
                    ControlFlow::Continue(())
                },
            )
            .unwrap();
            assert!(done);
            seen.sort();
            assert_eq!(seen, chunks);
        }
    }
}
