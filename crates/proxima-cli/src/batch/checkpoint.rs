//! The checkpoint of a `proxima batch` run: `OUT.checkpoint`, appended to chunk by chunk, so
//! a killed run restarted with the same arguments computes only the chunks it lacks.
//!
//! # Layout (little-endian)
//!
//! ```text
//! header   "PROXIMA-BATCH-CK" (16 bytes) | version u32 = 1 | fingerprint u64 | rows u64
//!          | chunk_size u64 | row_bytes u64 | crc32 of the header's previous bytes (u32)
//! record   chunk u64 | queries u64 | crc32 of (chunk, queries, rows) u32
//!          | rows: min(chunk_size, rows − chunk · chunk_size) × row_bytes
//! ```
//!
//! The fingerprint covers everything that decides the rows' bits except the thread count
//! (which does not): the program version, the inputs' bytes (URDF, SRDF, configurations), the
//! built world (every piece's shape and pose, the pair list), the mode, margin, limit policy
//! and chunk size. A checkpoint with another fingerprint or shape is never resumed.
//!
//! Each record is written with one `write` call; a run killed in the middle of one leaves a
//! short or corrupt last record, which reading detects (length, CRC, chunk index) and drops:
//! the file is truncated after the last whole record and appending goes on from there. The
//! data is flushed to disk (`fdatasync`) at most once a second, and at the end; a killed
//! process loses nothing that `write` returned, a machine crash at most the last second.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

const MAGIC: &[u8; 16] = b"PROXIMA-BATCH-CK";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 16 + 4 + 8 * 4 + 4;
const RECORD_HEADER_BYTES: usize = 8 + 8 + 4;
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// What a checkpoint must match to be resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// Hash of the inputs and options ([`Fingerprint`]).
    pub fingerprint: u64,
    /// Configurations.
    pub rows: u64,
    /// Configurations per chunk.
    pub chunk_size: u64,
    /// Bytes per encoded row.
    pub row_bytes: u64,
}

impl Key {
    fn chunk_count(&self) -> u64 {
        self.rows.div_ceil(self.chunk_size)
    }

    fn payload_bytes(&self, chunk: u64) -> u64 {
        let start = chunk * self.chunk_size;
        self.chunk_size.min(self.rows - start) * self.row_bytes
    }

    fn header(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(HEADER_BYTES);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        for v in [self.fingerprint, self.rows, self.chunk_size, self.row_bytes] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        let crc = crc32fast::hash(&h);
        h.extend_from_slice(&crc.to_le_bytes());
        h
    }
}

/// FNV-1a, 64 bits: a stable hash of the run's inputs (the same on every platform and build).
#[derive(Debug, Clone)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// Adds `bytes`, preceded by their length (so `("ab", "c")` and `("a", "bc")` differ).
    pub fn add(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// The hash.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// A completed chunk read back from a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    /// Chunk index.
    pub chunk: usize,
    /// Piece pairs it queried.
    pub queries: u64,
    /// Its encoded rows.
    pub rows: Vec<u8>,
}

/// An open checkpoint, appended to.
#[derive(Debug)]
pub struct Checkpoint {
    file: File,
    path: PathBuf,
    key: Key,
    last_sync: Instant,
}

impl Checkpoint {
    /// Opens `path` for `key`: a new file, or an existing one whose whole records are
    /// returned (a damaged tail is cut off). Errors: an existing file that belongs to another
    /// run (other fingerprint, shape or format).
    pub fn open(path: &Path, key: Key) -> Result<(Self, Vec<Done>)> {
        let mut done = Vec::new();
        let file = if path.exists() {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open the checkpoint {}", path.display()))?;
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
            let end = read_records(&bytes, &key, &mut done).with_context(|| {
                format!(
                    "{} is not a checkpoint of this run (other inputs or options); delete it or pass --fresh",
                    path.display()
                )
            })?;
            file.set_len(end as u64).with_context(|| format!("cannot truncate {}", path.display()))?;
            file.seek(SeekFrom::End(0))?;
            file
        } else {
            let mut file = OpenOptions::new()
                .create_new(true)
                .write(true)
                .open(path)
                .with_context(|| format!("cannot create the checkpoint {}", path.display()))?;
            file.write_all(&key.header()).with_context(|| format!("cannot write {}", path.display()))?;
            file.sync_data()?;
            file
        };
        Ok((Self { file, path: path.to_path_buf(), key, last_sync: Instant::now() }, done))
    }

    /// Appends chunk `chunk`'s encoded rows in one write.
    pub fn append(&mut self, chunk: usize, queries: u64, rows: &[u8]) -> Result<()> {
        debug_assert_eq!(rows.len() as u64, self.key.payload_bytes(chunk as u64));
        let mut record = Vec::with_capacity(RECORD_HEADER_BYTES + rows.len());
        record.extend_from_slice(&(chunk as u64).to_le_bytes());
        record.extend_from_slice(&queries.to_le_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&record);
        crc.update(rows);
        record.extend_from_slice(&crc.finalize().to_le_bytes());
        record.extend_from_slice(rows);
        self.file.write_all(&record).with_context(|| format!("cannot write {}", self.path.display()))?;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.file.sync_data().with_context(|| format!("cannot sync {}", self.path.display()))?;
            self.last_sync = Instant::now();
        }
        Ok(())
    }

    /// Flushes to disk (the run is complete; the output is written next).
    pub fn sync(&mut self) -> Result<()> {
        self.file.sync_data().with_context(|| format!("cannot sync {}", self.path.display()))
    }

    /// Deletes the file (the output is complete).
    pub fn remove(self) -> Result<()> {
        drop(self.file);
        std::fs::remove_file(&self.path).with_context(|| format!("cannot remove {}", self.path.display()))
    }
}

/// Checks the header against `key` and collects the whole records; returns the length of
/// the valid prefix.
fn read_records(bytes: &[u8], key: &Key, done: &mut Vec<Done>) -> Result<usize> {
    if bytes.len() < HEADER_BYTES || &bytes[..16] != MAGIC {
        bail!("no checkpoint header");
    }
    if bytes[..HEADER_BYTES] != key.header()[..] {
        bail!("another run's header");
    }
    let mut seen = vec![false; key.chunk_count() as usize];
    let mut at = HEADER_BYTES;
    while let Some(head) = bytes.get(at..at + RECORD_HEADER_BYTES) {
        let chunk = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let queries = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
        let crc = u32::from_le_bytes(head[16..20].try_into().expect("4 bytes"));
        if chunk >= key.chunk_count() {
            break;
        }
        let len = key.payload_bytes(chunk) as usize;
        let Some(rows) = bytes.get(at + RECORD_HEADER_BYTES..at + RECORD_HEADER_BYTES + len) else { break };
        let mut check = crc32fast::Hasher::new();
        check.update(&head[..16]);
        check.update(rows);
        if check.finalize() != crc {
            break;
        }
        if !seen[chunk as usize] {
            seen[chunk as usize] = true;
            done.push(Done { chunk: chunk as usize, queries, rows: rows.to_vec() });
        }
        at += RECORD_HEADER_BYTES + len;
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Key {
        Key { fingerprint: 42, rows: 10, chunk_size: 4, row_bytes: 3 }
    }

    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("proxima-ck-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    /// Records survive a reopen; a torn last record (any cut inside it) is dropped and
    /// appending continues after the last whole one; another key is refused.
    #[test]
    fn reopen_truncates_a_torn_tail() {
        let path = scratch("torn");
        let (mut ck, done) = Checkpoint::open(&path, key()).unwrap();
        assert!(done.is_empty());
        ck.append(1, 7, &[1; 12]).unwrap();
        ck.append(2, 8, &[2; 6]).unwrap(); // the last chunk has 10 − 8 = 2 rows
        drop(ck);
        let full = std::fs::read(&path).unwrap();
        let first_end = HEADER_BYTES + RECORD_HEADER_BYTES + 12;
        for cut in first_end..full.len() {
            std::fs::write(&path, &full[..cut]).unwrap();
            let (mut ck, done) = Checkpoint::open(&path, key()).unwrap();
            assert_eq!(done, [Done { chunk: 1, queries: 7, rows: vec![1; 12] }], "cut at {cut}");
            ck.append(0, 9, &[0; 12]).unwrap();
            drop(ck);
            let (_, done) = Checkpoint::open(&path, key()).unwrap();
            assert_eq!(done.iter().map(|d| d.chunk).collect::<Vec<_>>(), [1, 0]);
        }
        // a flipped payload byte ends the valid prefix there
        let mut bad = full.clone();
        bad[first_end - 1] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(Checkpoint::open(&path, key()).unwrap().1.is_empty());
        std::fs::write(&path, &full).unwrap();
        let other = Key { fingerprint: 43, ..key() };
        let e = Checkpoint::open(&path, other).unwrap_err();
        assert!(format!("{e:#}").contains("--fresh"), "{e:#}");
        assert!(Checkpoint::open(&path, Key { chunk_size: 5, ..key() }).is_err());
        std::fs::write(&path, b"hello").unwrap();
        assert!(Checkpoint::open(&path, key()).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn fingerprint_separates_fields() {
        let a = Fingerprint::default().add(b"ab").add(b"c").value();
        let b = Fingerprint::default().add(b"a").add(b"bc").value();
        assert_ne!(a, b);
        assert_eq!(a, Fingerprint::default().add(b"ab").add(b"c").value());
    }
}
