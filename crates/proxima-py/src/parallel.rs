//! Rows of a batch computed on `threads` threads and written in place, each into its own slot.
//!
//! Why the order (and every bit of every row) does not depend on the thread count: each row
//! is a pure function of its own inputs — a cold query, no state shared between rows, no warm
//! start carried from one row to the next — and row i is written only into slot i of the
//! output arrays, by whichever thread computed it (the outputs are split into disjoint
//! blocks, [`Rows::split_at`]). So `threads=1`, `2` or `None` return identical arrays, which
//! the test suite checks bit for bit. When rows fail, the lowest failing index is reported,
//! whatever order they ran in.
//!
//! `threads=1` runs on the calling thread. `threads=k ≥ 2` (`None`: one per core) also runs
//! on the calling thread, helped by k − 1 threads of a pool built once per count and kept
//! (building a pool costs tens of microseconds, more than a small batch). The rows are cut
//! into blocks of about n / (64 × k) rows (at least [`MIN_ROWS_PER_TASK`]), handed out in
//! order from one queue: a thread takes the next block when it finishes one, so a thread
//! that starts late or is descheduled on a busy machine leaves its share to the others
//! instead of holding a fixed half; the caller starts at once, with no thread to wake first.
//! Blocks are disjoint row ranges, so outputs are written without sharing beyond the cache
//! lines at block boundaries.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use pyo3::PyResult;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::errors::invalid;

/// Rows handed to one task at least (queries take microseconds: smaller tasks would spend
/// more on scheduling than on work).
pub const MIN_ROWS_PER_TASK: usize = 8;

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

/// Output storage of a batch: rows that split into two disjoint parts.
pub trait Rows: Send + Sized {
    /// Number of rows.
    fn len(&self) -> usize;
    /// Rows `..k` and `k..`.
    fn split_at(self, k: usize) -> (Self, Self);
}

/// The first failure of a batch: the lowest row index wins, whatever order rows ran in.
pub struct FirstFailure<E>(Mutex<Option<(usize, E)>>);

impl<E> FirstFailure<E> {
    /// No failure yet.
    pub fn new() -> Self {
        FirstFailure(Mutex::new(None))
    }

    /// Records the failure of row `i` unless a lower row failed already.
    pub fn record(&self, i: usize, e: E) {
        let mut slot = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.as_ref().is_none_or(|(j, _)| i < *j) {
            *slot = Some((i, e));
        }
    }

    /// The lowest failing row and its failure.
    pub fn into_inner(self) -> Option<(usize, E)> {
        self.0.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Blocks handed out per worker (more blocks: better balance, more queue traffic).
const BLOCKS_PER_WORKER: usize = 64;

/// Calls `leaf(offset, part)` on disjoint parts of `rows` covering it, `offset` being the
/// index of the part's first row, on `threads` threads (see the module docs). Call it with the
/// GIL released. Errors only when a thread pool cannot be started.
pub fn fill<R: Rows>(
    rows: R,
    threads: Option<usize>,
    leaf: &(impl Fn(usize, R) + Sync),
) -> Result<(), String> {
    let n = rows.len();
    let workers = threads.unwrap_or_else(rayon::current_num_threads).max(1);
    if workers == 1 || n <= MIN_ROWS_PER_TASK {
        leaf(0, rows);
        return Ok(());
    }
    let size = (n / (BLOCKS_PER_WORKER * workers)).max(MIN_ROWS_PER_TASK);
    let mut blocks = Vec::with_capacity(n / size + 1);
    let (mut rest, mut offset) = (rows, 0);
    while rest.len() > size {
        let (block, tail) = rest.split_at(size);
        blocks.push((offset, block));
        offset += size;
        rest = tail;
    }
    blocks.push((offset, rest));
    let queue = Mutex::new(blocks.into_iter());
    let work = || {
        loop {
            let next = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).next();
            let Some((offset, block)) = next else { break };
            leaf(offset, block);
        }
    };
    let helpers = pool(workers - 1)?;
    helpers.in_place_scope(|scope| {
        for _ in 1..workers {
            scope.spawn(|_| work());
        }
        work();
    });
    Ok(())
}
