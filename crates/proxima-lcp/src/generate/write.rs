//! Writing generated problems in the harness format (`../shared/bench/lcp/FORMAT.md`):
//! `NAME.M.mtx` (coordinate real general, sorted, zeros dropped), `NAME.q.mtx` (array n × 1),
//! optional `NAME.z.mtx` (planted solution), and one `manifest.json` per family directory.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde_json::json;

use super::{Family, GeneratedProblem, RhsKind, generate};
use crate::io::{MANIFEST_FORMAT_VERSION, Manifest, ManifestProblem, write_mtx_array, write_mtx_csr};

fn create(path: &Path) -> std::io::Result<BufWriter<File>> {
    Ok(BufWriter::with_capacity(1 << 20, File::create(path)?))
}

/// Writes `problem` into `dir` (which must exist) and returns its manifest entry. `comment`
/// lines go after each file's banner.
pub fn write_problem(
    dir: &Path,
    problem: &GeneratedProblem,
    comment: &str,
) -> std::io::Result<ManifestProblem> {
    let csr = problem.matrix.to_csr();
    let m_file = format!("{}.M.mtx", problem.name);
    let q_file = format!("{}.q.mtx", problem.name);
    let mut out = create(&dir.join(&m_file))?;
    write_mtx_csr(&mut out, &csr, Some(comment))?;
    out.flush()?;
    let mut out = create(&dir.join(&q_file))?;
    write_mtx_array(&mut out, problem.b.len(), 1, &problem.b, Some(comment))?;
    out.flush()?;
    let z_file = match &problem.solution {
        Some(z) => {
            let name = format!("{}.z.mtx", problem.name);
            let mut out = create(&dir.join(&name))?;
            write_mtx_array(&mut out, z.len(), 1, z, Some(&format!("{comment}\nplanted solution")))?;
            out.flush()?;
            Some(name)
        }
        None => None,
    };
    Ok(ManifestProblem {
        name: problem.name.clone(),
        m: m_file,
        q: q_file,
        z: z_file,
        n: csr.n(),
        nnz: Some(csr.values().iter().filter(|v| **v != 0.0).count()),
        symmetric: Some(problem.symmetric),
        params: problem.params.clone(),
    })
}

/// Generates problems `0..count` of `family` (seed `seed`, right-hand side `rhs`), writes them
/// and `manifest.json` into `dir` (created if missing), and returns the manifest.
pub fn write_family(
    dir: &Path,
    family: &Family,
    rhs: RhsKind,
    seed: u64,
    count: usize,
) -> std::io::Result<Manifest> {
    std::fs::create_dir_all(dir)?;
    let mut problems = Vec::with_capacity(count);
    for index in 0..count {
        let p = generate(family, rhs, seed, index).map_err(std::io::Error::other)?;
        let comment = format!("proxima generate {} {} seed={seed}", family.name(), p.name);
        problems.push(write_problem(dir, &p, &comment)?);
    }
    let manifest = Manifest {
        format_version: MANIFEST_FORMAT_VERSION,
        family: family.name(),
        description: Some(describe(family, rhs)),
        generator: Some("proxima_lcp::generate".into()),
        seed: Some(seed),
        params: json!({"count": count, "rhs": rhs.label(), "zero_fraction": rhs.zero_fraction()}),
        problems,
    };
    let mut out = create(&dir.join("manifest.json"))?;
    serde_json::to_writer_pretty(&mut out, &manifest).map_err(std::io::Error::other)?;
    writeln!(out)?;
    out.flush()?;
    Ok(manifest)
}

fn describe(family: &Family, rhs: RhsKind) -> String {
    let what = match family {
        Family::FluidBanded { .. } => "spec 7.2 Fluid(G): random 7-band SPD, lambda_min shifted to 0.5",
        Family::FluidGrid(s) if s.dims.len() == 2 => "2D 5-point grid Poisson, solid walls, open top",
        Family::FluidGrid(_) => "3D 7-point grid Poisson, solid walls, open top",
        Family::Contact { .. } => {
            "spec 7.2 Contact(K_c): 6x6-blocked Stewart-Trinkle pattern, K = 4, mu = 0.5"
        }
        Family::DensePd { .. } => "spec 7.2 Dense PD(N): O diag(1/N..1) O^T",
        Family::DensePsd { .. } => "spec 7.2 Dense PSD(N, ratio): zero eigenvalues",
    };
    format!("{what}; rhs {}", rhs.label())
}
