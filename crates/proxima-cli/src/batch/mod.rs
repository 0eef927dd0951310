//! `proxima batch`: a robot's certified self-distances (or collision verdicts) for a file of
//! configurations on every core, with a progress bar, written as `.npy`, `.npz` or `.csv`,
//! resumable: a killed run restarted with the same arguments continues from its checkpoint
//! and writes the same file as an uninterrupted run.
//!
//! The work is [`proxima_scene::batch::RobotBatch`]: chunks of `--chunk-size` configurations
//! on `--threads` threads, rows in input order, the same bits for any thread count. Every
//! finished chunk is appended to `OUT.checkpoint` ([`checkpoint`]); at the end the rows are
//! written to a temporary file beside `OUT`, which is renamed to `OUT`, and the checkpoint is
//! removed. So `OUT` either does not exist or is complete. A restart verifies that the
//! checkpoint was made from the same inputs and options (thread count aside) and computes
//! only the missing chunks; `--fresh` discards a checkpoint instead.
//!
//! Pairs, geometry and configuration files as in `proxima check` (meshes become exact convex
//! hulls; CSV with an optional joint-name header, or `.npy` float64 / float32 of shape
//! (N, dof)). What each output holds: [`output`].

pub mod checkpoint;
pub mod output;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use proxima_geom::Pose;
use proxima_robot::LimitPolicy;
use proxima_scene::batch::{
    BatchMode, BatchResult, BatchSettings, DEFAULT_CHUNK_SIZE, RobotBatch, thread_count,
};
use proxima_scene::{RobotQuerySettings, RobotWorld, RobotWorldBuilder};

use crate::configs::{RobotArgs, read_configs};
use checkpoint::{Checkpoint, Fingerprint, Key};
use output::{OutputKind, RowCodec, render};

/// What `proxima batch` computes per configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// The minimum signed distance, its pair, bracket and witness points.
    Distance,
    /// Every pair's signed distance (and the minimum).
    AllPairs,
    /// In collision or not, stopping at the first colliding pair.
    Collision,
}

/// Arguments of `proxima batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// The robot.
    #[command(flatten)]
    pub robot: RobotArgs,
    /// Configurations: a NumPy .npy array (N, dof) or a CSV file (optional header of joint names).
    #[arg(long)]
    pub configs: PathBuf,
    /// Output: .npy (the main array), .npz (every array) or .csv.
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// What to compute per configuration.
    #[arg(long, value_enum, default_value_t = Mode::Distance)]
    pub mode: Mode,
    /// Safety margin in metres: distances are exact up to it (+inf beyond); in collision mode,
    /// "in collision" means closer than it.
    #[arg(long, allow_hyphen_values = true)]
    pub margin: Option<f64>,
    /// Configurations per chunk (the unit of work, progress and checkpoints).
    #[arg(long, default_value_t = DEFAULT_CHUNK_SIZE)]
    pub chunk_size: usize,
    /// Clamp joint values into their limits instead of rejecting them.
    #[arg(long)]
    pub clamp: bool,
    /// Discard an existing checkpoint instead of resuming from it.
    #[arg(long)]
    pub fresh: bool,
}

/// Runs `proxima batch`.
pub fn run(args: &BatchArgs) -> Result<()> {
    let kind = OutputKind::of(&args.out)?;
    let (robot, srdf) = args.robot.load()?;
    let (srdf, srdf_text) = srdf.unzip();
    let configs = read_configs(&args.configs, &robot)?;
    let world =
        RobotWorldBuilder::new().robot(Arc::new(robot), Pose::identity(), "", "robot", srdf).build()?;
    if configs.width != world.dof() {
        bail!(
            "{}: {} values per configuration, the robot has {} joints ({})",
            args.configs.display(),
            configs.width,
            world.dof(),
            world.joint_names().join(", ")
        );
    }
    let limits = if args.clamp { LimitPolicy::Clamp } else { LimitPolicy::Reject };
    let mode = match args.mode {
        Mode::Distance => BatchMode::Distance,
        Mode::AllPairs => BatchMode::AllPairs,
        Mode::Collision => BatchMode::Collision,
    };
    let settings = BatchSettings::default()
        .with_threads(args.threads)
        .with_chunk_size(args.chunk_size)
        .with_mode(mode)
        .with_margin(args.margin)
        .with_query(RobotQuerySettings::default().with_warm_start(false).with_limits(limits));
    // every configuration is checked here, before any work or any file
    let batch = RobotBatch::new(&world, &configs.values, &settings)?;
    let codec = RowCodec::new(mode, world.pairs().len());
    let key = Key {
        fingerprint: fingerprint(args, &world, &settings, &srdf_text)?,
        rows: batch.len() as u64,
        chunk_size: settings.chunk_size as u64,
        row_bytes: codec.row_bytes() as u64,
    };

    let ck_path = checkpoint_path(&args.out);
    if args.fresh && ck_path.exists() {
        std::fs::remove_file(&ck_path).with_context(|| format!("cannot remove {}", ck_path.display()))?;
    }
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let (mut ck, done) = Checkpoint::open(&ck_path, key)?;
    let mut result = BatchResult::filled(mode, args.margin, world.pairs().len(), batch.len());
    let mut have = vec![false; batch.chunk_count()];
    let mut resumed = 0;
    for d in &done {
        let rows = batch.chunk_rows(d.chunk);
        codec.decode_into(&d.rows, &mut result, rows.start);
        result.queries += d.queries;
        have[d.chunk] = true;
        resumed += rows.len();
    }
    let todo: Vec<usize> = (0..batch.chunk_count()).filter(|&c| !have[c]).collect();
    let threads = thread_count(args.threads);
    if resumed > 0 {
        eprintln!("resuming from {}: {resumed} of {} configurations done", ck_path.display(), batch.len());
    }

    let bar = ProgressBar::new(batch.len() as u64).with_position(resumed as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} configurations  {elapsed_precise}  eta {eta}")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let mut failure = None;
    let complete = batch.run_chunks(&todo, &mut |c, part| {
        let rows = batch.chunk_rows(c);
        let bytes = codec.encode(&part);
        if let Err(e) = ck.append(c, part.queries, &bytes) {
            failure = Some(e);
            return std::ops::ControlFlow::Break(());
        }
        result.place(rows.start, &part);
        bar.inc(rows.len() as u64);
        std::ops::ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    if !complete? {
        bail!("the run stopped before its end");
    }
    let seconds = start.elapsed().as_secs_f64();
    ck.sync()?;
    let bytes = render(kind, &result, &world)?;
    write_atomically(&args.out, &bytes)?;
    ck.remove()?;

    let computed = batch.len() - resumed;
    let colliding = result.in_collision.iter().filter(|&&c| c).count();
    let what = match (mode, args.margin) {
        (BatchMode::Collision, Some(m)) => format!("closer than {m} m"),
        _ => "in collision".to_string(),
    };
    println!(
        "{}: {} configurations ({computed} computed, {resumed} from the checkpoint), {colliding} {what}; \
         {seconds:.3} s, {:.0} configurations/s on {threads} thread(s), {} piece-pair queries",
        args.out.display(),
        batch.len(),
        if seconds > 0.0 { computed as f64 / seconds } else { 0.0 },
        result.queries
    );
    Ok(())
}

/// `OUT.checkpoint` beside `OUT`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".checkpoint");
    out.with_file_name(name)
}

/// Writes `bytes` to a temporary file beside `path`, flushes it and renames it to `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(name);
    {
        use std::io::Write;
        let mut f =
            std::fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
        f.sync_all().with_context(|| format!("cannot sync {}", tmp.display()))?;
    }
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
}

/// Everything that decides the rows' bits: the program, the input files, the built world and
/// the options (not the thread count, which changes no bit).
fn fingerprint(
    args: &BatchArgs,
    world: &RobotWorld,
    settings: &BatchSettings,
    srdf: &Option<String>,
) -> Result<u64> {
    let mut f = Fingerprint::default();
    f.add(b"proxima batch/1").add(env!("CARGO_PKG_VERSION").as_bytes());
    f.add(
        &std::fs::read(&args.robot.urdf)
            .with_context(|| format!("cannot read {}", args.robot.urdf.display()))?,
    );
    f.add(srdf.as_deref().unwrap_or("").as_bytes());
    f.add(&std::fs::read(&args.configs).with_context(|| format!("cannot read {}", args.configs.display()))?);
    for p in world.pieces() {
        f.add(format!("{:?} {:?}", p.shape, p.local).as_bytes());
    }
    for k in 0..world.pairs().len() {
        let (a, b) = world.pair_names(k);
        f.add(a.as_bytes()).add(b.as_bytes());
    }
    f.add(
        format!(
            "{:?} {:?} {:?} {}",
            settings.mode,
            settings.margin.map(f64::to_bits),
            settings.query,
            settings.chunk_size
        )
        .as_bytes(),
    );
    Ok(f.value())
}
