//! What `check` and `batch` share: the robot arguments (URDF, SRDF, package directories) and
//! configuration files — CSV with one configuration per line (optionally a header of joint
//! names, in any order; `#` comments and blank lines skipped), or NumPy `.npy` arrays of shape
//! (dof,) or (n, dof), float64 or float32, C order.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_robot::{LoadOptions, Robot, Srdf};

use proxima_cli_support::files::read_text;

use crate::npy::{Table, read_npy};

/// The robot of `check` and `batch`.
#[derive(Debug, Args)]
pub struct RobotArgs {
    /// The robot's URDF file.
    #[arg(long)]
    pub urdf: PathBuf,
    /// An SRDF file whose disable_collisions pairs are not checked.
    #[arg(long)]
    pub srdf: Option<PathBuf>,
    /// A directory searched for package:// mesh URIs (repeatable).
    #[arg(long = "package-dir")]
    pub package_dirs: Vec<PathBuf>,
}

impl RobotArgs {
    /// The robot (meshes as exact convex hulls) and its SRDF with the SRDF's text.
    pub fn load(&self) -> Result<(Robot, Option<(Srdf, String)>)> {
        let options = LoadOptions { package_dirs: self.package_dirs.clone(), ..LoadOptions::default() };
        let robot = Robot::from_urdf_file(&self.urdf, &options)?;
        let srdf = match &self.srdf {
            None => None,
            Some(p) => {
                let text = read_text(p)?;
                Some((Srdf::parse(&text, &p.display().to_string())?, text))
            }
        };
        Ok((robot, srdf))
    }
}

/// Comma-, space- or tab-separated numbers.
pub fn parse_list(text: &str) -> Result<Vec<f64>> {
    text.split([',', ' ', '\t'])
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| w.parse::<f64>().with_context(|| format!("value {i} ({w:?}) is not a number")))
        .collect()
}

/// The configurations of a `.npy` or CSV file (every row as long as the first; at least one
/// row). A CSV header of joint names reorders the columns into `robot`'s order.
pub fn read_configs(path: &Path, robot: &Robot) -> Result<Table> {
    let is_npy = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"));
    let table = if is_npy {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        read_npy(&bytes).with_context(|| format!("{}", path.display()))?
    } else {
        read_csv(&read_text(path)?, robot).with_context(|| format!("{}", path.display()))?
    };
    if table.rows() == 0 {
        bail!("{}: no configurations", path.display());
    }
    Ok(table)
}

fn read_csv(text: &str, robot: &Robot) -> Result<Table> {
    let mut header: Option<Vec<String>> = None;
    let mut table = Table { width: 0, values: Vec::new() };
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if table.values.is_empty() && header.is_none() && cells.iter().any(|c| c.parse::<f64>().is_err()) {
            header = Some(cells.iter().map(|c| c.to_string()).collect());
            continue;
        }
        let values = parse_list(line).with_context(|| format!("line {}", k + 1))?;
        let q = match &header {
            None => values,
            Some(names) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                robot.configuration_from_names(&names, &values).with_context(|| format!("line {}", k + 1))?
            }
        };
        if table.values.is_empty() {
            table.width = q.len();
        } else if q.len() != table.width {
            bail!("line {}: {} values, the first configuration has {}", k + 1, q.len(), table.width);
        }
        table.values.extend(q);
    }
    Ok(table)
}
