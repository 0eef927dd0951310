//! Rigid poses: world = R · local + t.
//!
//! R must be a rotation to 1e-6 (max |RᵀR − I| ≤ 1e-6 and det R > 0); it is used *as given*
//! (never re-orthonormalized) so results match data files written with finite precision. The
//! error e = max |RᵀR − I| is kept ([`Pose::orthonormality_error`]): algorithms that work in a
//! shape's own frame use Rᵀ as R⁻¹, which distorts lengths by up to 3e (‖RᵀR − I‖₂ ≤ 3e), and
//! their certificates account for it. A witness such an algorithm builds is a point of the
//! shape as placed, R·S + t: where it went through Rᵀ it is moved there through the exact
//! inverse (`shape/onto_placed.rs`), so |p_b − p_a| never falls below the proven lower bound.

use nalgebra::{Isometry3, Matrix3, Point3, Rotation3, Translation3, UnitQuaternion, Vector3};

use crate::error::GeomError;

/// Tolerance on max |RᵀR − I| accepted by [`Pose::new`].
pub const ROTATION_TOLERANCE: f64 = 1e-6;

/// Tolerance on | |q| − 1 | accepted by [`Pose::from_quaternion`].
pub const QUATERNION_TOLERANCE: f64 = 1e-6;

/// A rigid motion: rotation matrix R and translation t.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    rotation: Matrix3<f64>,
    translation: Vector3<f64>,
    /// max |RᵀR − I|.
    ortho_error: f64,
}

impl Default for Pose {
    fn default() -> Self {
        Self::identity()
    }
}

impl Pose {
    /// The identity.
    pub fn identity() -> Self {
        Self { rotation: Matrix3::identity(), translation: Vector3::zeros(), ortho_error: 0.0 }
    }
    /// From a row-major rotation matrix and a translation (validated).
    pub fn new(rotation_rows: [[f64; 3]; 3], translation: [f64; 3]) -> Result<Self, GeomError> {
        let r = Matrix3::from_row_slice(&rotation_rows.concat());
        Self::from_matrix(r, Vector3::from(translation))
    }
    /// From an nalgebra matrix and vector (validated).
    pub fn from_matrix(rotation: Matrix3<f64>, translation: Vector3<f64>) -> Result<Self, GeomError> {
        // Every batch row and Python call makes a pose: the finiteness tests are one pass of
        // `is_finite` per entry without iterator adaptors (the error text as before).
        if !all_finite(rotation.as_slice()) {
            return Err(GeomError::NonFinite { what: "pose rotation" });
        }
        if !all_finite(translation.as_slice()) {
            return Err(GeomError::NonFinite { what: "pose translation" });
        }
        let err = orthonormality_error(&rotation);
        if err > ROTATION_TOLERANCE || rotation.determinant() <= 0.0 {
            return Err(GeomError::NotRotation { error: err });
        }
        Ok(Self { rotation, translation, ortho_error: err })
    }
    /// From a unit quaternion `[w, x, y, z]` (world = q·p·q* + t) and a translation. The
    /// quaternion must have norm 1 to [`QUATERNION_TOLERANCE`]; it is used as given (the
    /// rotation matrix is the standard formula evaluated on it, not on a renormalized copy).
    ///
    /// Errors: [`GeomError::NonFinite`] for NaN/∞, [`GeomError::NotUnitQuaternion`] when
    /// | |q| − 1 | > [`QUATERNION_TOLERANCE`].
    pub fn from_quaternion(q: [f64; 4], translation: [f64; 3]) -> Result<Self, GeomError> {
        if q.iter().any(|v| !v.is_finite()) {
            return Err(GeomError::NonFinite { what: "pose quaternion" });
        }
        let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
            return Err(GeomError::NotUnitQuaternion { norm });
        }
        let [w, x, y, z] = q;
        let r = Matrix3::new(
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        );
        Self::from_matrix(r, Vector3::from(translation))
    }
    /// A pose from parts the caller has already validated (a rotation checked by
    /// [`Pose::from_matrix`] times an exact rotation, finite numbers).
    pub(crate) fn from_parts_unchecked(rotation: Matrix3<f64>, translation: Vector3<f64>) -> Self {
        // The product's distortion is measured, not assumed (certificates account for it).
        Self { rotation, translation, ortho_error: orthonormality_error(&rotation) }
    }
    /// A pure translation.
    pub fn from_translation(t: [f64; 3]) -> Result<Self, GeomError> {
        Self::new([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], t)
    }
    /// R.
    pub fn rotation(&self) -> &Matrix3<f64> {
        &self.rotation
    }
    /// t.
    pub fn translation(&self) -> &Vector3<f64> {
        &self.translation
    }
    /// R · p + t.
    pub fn transform_point(&self, p: &Point3<f64>) -> Point3<f64> {
        Point3::from(self.rotation * p.coords + self.translation)
    }
    /// R · v.
    pub fn transform_vector(&self, v: &Vector3<f64>) -> Vector3<f64> {
        self.rotation * v
    }
    /// Rᵀ (p − t) (uses the transpose as the inverse).
    pub fn inverse_transform_point(&self, p: &Point3<f64>) -> Point3<f64> {
        Point3::from(self.rotation.transpose() * (p.coords - self.translation))
    }
    /// max |RᵀR − I| (0 for exact rotations; up to [`ROTATION_TOLERANCE`] is accepted).
    pub fn orthonormality_error(&self) -> f64 {
        self.ortho_error
    }
    /// self ∘ other: first `other`, then `self`.
    pub fn compose(&self, other: &Pose) -> Pose {
        let rotation = self.rotation * other.rotation;
        Pose {
            rotation,
            translation: self.rotation * other.translation + self.translation,
            ortho_error: orthonormality_error(&rotation),
        }
    }
    /// self ∘ other ∘ q (first the rotation q, then `other`, then `self`): a revolute joint
    /// turned by q in its frame `other` on its parent link `self`. Bit for bit
    /// `self.compose(other).compose(&Pose::from(Isometry3::from_parts(Translation3::identity(), *q)))`,
    /// without measuring the intermediate pose's orthonormality or building q's pose, and
    /// with the product by q's matrix taken on its nonzero block when q turns about z (every
    /// joint of the shipped robots; see the private `z_block_product` for why the bits agree).
    pub fn compose_rotated(&self, other: &Pose, q: &UnitQuaternion<f64>) -> Pose {
        let frame = self.rotation * other.rotation;
        let frame_t = self.rotation * other.translation + self.translation;
        // The matrix `Pose::from` would hold (the same conversion).
        let m = *q.to_rotation_matrix().matrix();
        let block = z_block_product(&frame, &m);
        let rotation = block.unwrap_or_else(|| frame * m);
        // q's pose has translation +0: the composition adds frame·0 to frame_t. frame is
        // finite when the block product was taken (see there), so frame·0 is a vector of
        // signed zeros, and x + (±0) = x for x ≠ 0: frame_t itself unless it has a zero entry
        // (whose sign the sum could change).
        let translation = if block.is_some() && frame_t.x != 0.0 && frame_t.y != 0.0 && frame_t.z != 0.0 {
            frame_t
        } else {
            frame * Vector3::zeros() + frame_t
        };
        Pose { rotation, translation, ortho_error: orthonormality_error(&rotation) }
    }
}

/// f·m for m with the zero pattern of a rotation about z, on m's nonzero block: entry (i, j)
/// is f_i0 m_0j + f_i1 m_1j for j < 2 and f_i2 m_22 for j = 2; `None` (take the full
/// product) when m lacks the pattern or an entry comes out zero or not finite.
///
/// Why these are the full product's bits: the full entry sums the same two (one) products
/// and f_ik·(±0) for the other k, in whatever order the product sums them. A finite f_ik
/// times ±0 is ±0, and adding ±0 to a nonzero number is exact, so every order of the sum
/// ends at fl(f_i0 m_0j + f_i1 m_1j) (fl(f_i2 m_22)) whenever that is nonzero — a partial sum
/// of zeros only, met first, is ±0 and is absorbed the same way by the first nonzero term.
/// A zero result (whose sign the order could change) is refused. A non-finite f_ik makes its
/// products and so a result entry non-finite (∞·0 is NaN), refused too: accepted entries
/// imply a finite f.
#[inline(always)]
fn z_block_product(f: &Matrix3<f64>, m: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    if !(m[(0, 2)] == 0.0 && m[(1, 2)] == 0.0 && m[(2, 0)] == 0.0 && m[(2, 1)] == 0.0) {
        return None;
    }
    let entry = |i: usize, j: usize| f[(i, 0)] * m[(0, j)] + f[(i, 1)] * m[(1, j)];
    let p = Matrix3::new(
        entry(0, 0),
        entry(0, 1),
        f[(0, 2)] * m[(2, 2)],
        entry(1, 0),
        entry(1, 1),
        f[(1, 2)] * m[(2, 2)],
        entry(2, 0),
        entry(2, 1),
        f[(2, 2)] * m[(2, 2)],
    );
    p.iter().all(|x| x.is_finite() && *x != 0.0).then_some(p)
}

/// Whether every entry is finite (no NaN, no ±∞).
#[inline(always)]
fn all_finite(v: &[f64]) -> bool {
    let mut ok = true;
    for x in v {
        ok &= x.is_finite();
    }
    ok
}

/// max |RᵀR − I|. RᵀR is symmetric, and its (j, i) entry is the sum of the same products in
/// the same order as its (i, j) entry (bit for bit), so the six entries on and above the
/// diagonal give the maximum: 18 products instead of the 27 of the full matrix product, and
/// no temporary matrices. Each entry is Σ_k R_ki R_kj summed in the order k = 0, 1, 2, as the
/// matrix product sums it. For finite R the diagonal entries are never NaN (sums of squares,
/// +∞ at worst), and an off-diagonal product can only overflow when a diagonal entry is +∞
/// already: the maximum is then +∞, refused by the caller.
#[inline]
fn orthonormality_error(r: &Matrix3<f64>) -> f64 {
    let col = |j: usize| [r[(0, j)], r[(1, j)], r[(2, j)]];
    let (c0, c1, c2) = (col(0), col(1), col(2));
    let dot = |u: &[f64; 3], v: &[f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let entries = [
        (dot(&c0, &c0) - 1.0).abs(),
        (dot(&c1, &c1) - 1.0).abs(),
        (dot(&c2, &c2) - 1.0).abs(),
        dot(&c0, &c1).abs(),
        dot(&c0, &c2).abs(),
        dot(&c1, &c2).abs(),
    ];
    let mut m = entries[0];
    for e in &entries[1..] {
        if *e > m {
            m = *e;
        }
    }
    m
}

impl From<Isometry3<f64>> for Pose {
    fn from(iso: Isometry3<f64>) -> Self {
        let rotation = *iso.rotation.to_rotation_matrix().matrix();
        Pose { rotation, translation: iso.translation.vector, ortho_error: orthonormality_error(&rotation) }
    }
}

impl From<Pose> for Isometry3<f64> {
    /// Converts through a quaternion (re-orthonormalizes R).
    fn from(p: Pose) -> Self {
        let rot = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(p.rotation));
        Isometry3::from_parts(Translation3::from(p.translation), rot)
    }
}

#[cfg(test)]
mod tests {
    //! The six-entry orthonormality error against the full product it replaces,
    //! max |RᵀR − I| over all nine entries (nalgebra's product): equal bit for bit, on exact
    //! rotations, rotations written with few digits and matrices far from any rotation.

    use nalgebra::{Matrix3, Rotation3};

    use super::{Pose, orthonormality_error, z_block_product};
    use crate::error::GeomError;

    fn full(r: &Matrix3<f64>) -> f64 {
        (r.transpose() * r - Matrix3::identity()).abs().max()
    }

    #[test]
    fn six_entries_give_the_full_products_maximum() {
        let mut checked = 0;
        for k in 0..200 {
            let f = k as f64;
            let r = *Rotation3::from_euler_angles(0.37 * f, 1.1 - 0.21 * f, 0.05 * f * f).matrix();
            // Exact, rounded to 4 and 7 digits, and scaled/sheared (not rotations).
            let round = |d: f64| r.map(|x| (x * d).round() / d);
            let mut skew = r;
            skew[(0, 1)] += 1e-3 * f;
            for m in [r, round(1e4), round(1e7), r * (1.0 + 1e-5 * f), skew] {
                assert_eq!(orthonormality_error(&m).to_bits(), full(&m).to_bits(), "{m}");
                checked += 1;
            }
        }
        assert_eq!(checked, 1000);
    }

    /// `compose_rotated` against the two compositions it replaces, bit for bit (signed zeros
    /// included): joints about z (the block product) and about other axes (the full one),
    /// angles with exact zeros in the matrix (0, ±π/2, ±π), frames with zero entries and
    /// zero translations (the fallbacks).
    #[test]
    fn compose_rotated_is_the_two_compositions() {
        use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
        let bits = |p: &Pose| {
            let mut v: Vec<u64> =
                p.rotation().iter().chain(p.translation().iter()).map(|x| x.to_bits()).collect();
            v.push(p.orthonormality_error().to_bits());
            v
        };
        let axes = [Vector3::z(), -Vector3::z(), Vector3::x(), Vector3::y(), Vector3::new(0.6, 0.0, 0.8)];
        let mut block = 0;
        let mut checked = 0;
        for k in 0..300 {
            let f = k as f64;
            let parent = Pose::from(Isometry3::new(
                Vector3::new(0.3 * f.sin(), -0.2, if k % 7 == 0 { 0.0 } else { 0.1 * f }),
                Vector3::new(0.37 * f, 1.1 - 0.21 * f, 0.05 * f * f),
            ));
            // Joint origins as URDFs write them: often ±π/2 about x, or nothing at all.
            let origin = match k % 4 {
                0 => Pose::identity(),
                1 => Pose::from(Isometry3::new(
                    Vector3::new(0.0, -0.316, 0.0),
                    Vector3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0),
                )),
                2 => Pose::from(Isometry3::new(
                    Vector3::new(0.0825, 0.0, 0.0),
                    Vector3::new(-std::f64::consts::FRAC_PI_2, 0.0, 0.0),
                )),
                _ => {
                    Pose::from(Isometry3::new(Vector3::new(0.1, 0.2, 0.3), Vector3::new(0.1 * f, 0.2, -0.3)))
                }
            };
            let angle = match k % 6 {
                0 => 0.0,
                1 => std::f64::consts::PI,
                2 => -std::f64::consts::FRAC_PI_2,
                _ => 2.9 * (0.7 * f).sin(),
            };
            for axis in axes {
                let q = UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), angle);
                let want = parent
                    .compose(&origin)
                    .compose(&Pose::from(Isometry3::from_parts(Translation3::identity(), q)));
                let got = parent.compose_rotated(&origin, &q);
                assert_eq!(bits(&got), bits(&want), "k {k} axis {axis:?}");
                if z_block_product(&(parent.rotation() * origin.rotation()), q.to_rotation_matrix().matrix())
                    .is_some()
                {
                    block += 1;
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 1500);
        // The block product answered for most joints about ±z (the others fell back).
        assert!(block > 400, "block products: {block}");
    }

    #[test]
    fn huge_and_non_finite_rotations_are_refused() {
        let mut big = Matrix3::identity();
        big[(0, 1)] = 1e200;
        assert!(matches!(
            Pose::from_matrix(big, nalgebra::Vector3::zeros()),
            Err(GeomError::NotRotation { .. })
        ));
        for bad in [f64::NAN, f64::INFINITY] {
            let mut m = Matrix3::identity();
            m[(2, 1)] = bad;
            assert!(matches!(
                Pose::from_matrix(m, nalgebra::Vector3::zeros()),
                Err(GeomError::NonFinite { what: "pose rotation" })
            ));
            assert!(matches!(
                Pose::from_matrix(Matrix3::identity(), nalgebra::Vector3::new(0.0, bad, 0.0)),
                Err(GeomError::NonFinite { what: "pose translation" })
            ));
        }
    }
}
