//! Rows of a batch computed on `threads` threads, in input order.
//!
//! Why the order (and every bit of every row) does not depend on the thread count: each row
//! is a pure function of its own inputs — a cold query, no state shared between rows, no warm
//! start carried from one row to the next — and rayon's indexed `collect` writes row i into
//! slot i whatever thread computed it. So `threads=1`, `2` or `None` return identical arrays,
//! which the test suite checks bit for bit.
//!
//! `threads=1` runs on the calling thread (no pool); `threads=k ≥ 2` runs on a pool of k
//! threads built once per k and kept (building a pool costs tens of microseconds, more than a
//! small batch); `None` uses rayon's global pool (one thread per core, or
//! `RAYON_NUM_THREADS`).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use pyo3::PyResult;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::errors::invalid;

/// Rows handed to one task at least (queries take microseconds: smaller tasks would spend
/// more on scheduling than on work).
const MIN_ROWS_PER_TASK: usize = 8;

/// The pools built so far, by thread count.
static POOLS: LazyLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = LazyLock::new(Default::default);

/// The thread count of a `threads=` argument: `None` (all cores) or at least 1.
pub fn thread_count(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(k) if k >= 1 => Ok(Some(usize::try_from(k).unwrap_or(usize::MAX).min(1024))),
        Some(k) => Err(invalid(format!("threads: must be >= 1 (or None for every core), got {k}"))),
    }
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>, String> {
    let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("proxima-{i}"))
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?,
    );
    pools.insert(threads, p.clone());
    Ok(p)
}

/// `f(0), f(1), ..., f(n - 1)` in that order, computed on `threads` threads. Call it with the
/// GIL released. Errors only when a thread pool cannot be started.
pub fn map_rows<T: Send>(n: usize, threads: Option<usize>, f: impl Fn(usize) -> T + Sync) -> Result<Vec<T>, String> {
    let run = || (0..n).into_par_iter().with_min_len(MIN_ROWS_PER_TASK).map(&f).collect();
    match threads {
        Some(1) => Ok((0..n).map(&f).collect()),
        _ if n <= 1 => Ok((0..n).map(&f).collect()),
        None => Ok(run()),
        Some(k) => Ok(pool(k)?.install(run)),
    }
}
