//! Pairs of square roots and reciprocals in single packed instructions.
//!
//! The ellipsoid rows are limited by the divider (square roots and divisions), and their
//! roots and reciprocals come in independent pairs (one per ellipsoid). SSE2 (baseline on
//! x86-64) has two-lane `sqrtpd` and `divpd`, reached here through `pulp`'s safe token (its
//! check is a cached flag). IEEE 754 square root and division are correctly rounded lane by
//! lane, so every lane equals the scalar `f64::sqrt` or `/` bit for bit, including NaN,
//! infinities, zeros and subnormals; other targets take the scalar operations.

/// (√x, √y) in one packed square root.
#[inline(always)]
pub(crate) fn sqrt_pair(x: f64, y: f64) -> (f64, f64) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V1::try_new() {
        let roots = simd.sqrt_f64x2(pulp::f64x2(x, y));
        return (roots.0, roots.1);
    }
    (x.sqrt(), y.sqrt())
}

/// (√x, √y, 1/x, 1/y): the two roots in one packed square root, the two reciprocals in one
/// packed division.
#[inline(always)]
pub(crate) fn roots_and_reciprocals(x: f64, y: f64) -> (f64, f64, f64, f64) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V1::try_new() {
        let v = pulp::f64x2(x, y);
        let roots = simd.sqrt_f64x2(v);
        let recips = simd.div_f64x2(simd.splat_f64x2(1.0), v);
        return (roots.0, roots.1, recips.0, recips.1);
    }
    (x.sqrt(), y.sqrt(), 1.0 / x, 1.0 / y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_equal_the_scalar_operations_bit_for_bit() {
        let values = [
            0.0,
            -0.0,
            1.0,
            2.0,
            3.0,
            1e-310,
            1e300,
            f64::MIN_POSITIVE,
            0.1 + 0.2,
            -4.0,
            f64::INFINITY,
            f64::NAN,
        ];
        for &x in &values {
            for &y in &values {
                let (rx, ry) = sqrt_pair(x, y);
                assert_eq!((rx.to_bits(), ry.to_bits()), (x.sqrt().to_bits(), y.sqrt().to_bits()));
                let (sx, sy, ix, iy) = roots_and_reciprocals(x, y);
                assert_eq!(
                    [sx, sy, ix, iy].map(f64::to_bits),
                    [x.sqrt(), y.sqrt(), 1.0 / x, 1.0 / y].map(f64::to_bits)
                );
            }
        }
    }
}
