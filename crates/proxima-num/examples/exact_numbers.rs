//! Exact numbers: what `Rational` and `QuadraticField` give that `f64` cannot.
//!
//! `cargo run -p proxima-num --example exact_numbers`
//!
//! The pivoting solvers of `proxima-lcp` and the exact modes of `proxima-geom` are generic over
//! [`Field`]: the same code makes exact decisions in `Rational` (and `x + y·√d`) and tolerant
//! ones in `f64`. This example shows the three things a user meets: exact input text, the exact
//! value of an `f64`, and exact square roots for normalized directions.

use proxima_num::{Field, QuadraticField, Rational};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Exact input: "0.1" is one tenth, "11/30" is eleven thirtieths.
    let tenth = Rational::parse("0.1")?;
    assert_eq!(tenth, Rational::new(1, 10));
    let sum = tenth.add(&Rational::parse("11/30")?);
    println!("0.1 + 11/30 = {sum}");
    assert_eq!(sum, Rational::new(7, 15));

    // The f64 nearest to 0.1 is not one tenth: its exact value is a dyadic fraction.
    let f = Rational::from_f64_exact(0.1).ok_or("0.1 is finite")?;
    println!("the f64 0.1 is exactly {f}");
    assert_ne!(f, tenth);
    assert!(f > tenth); // it rounds up
    // ... and f64 sums drift where rationals do not.
    assert_ne!(0.1 + 0.2, 0.3);
    assert_eq!(Rational::parse("0.1")?.add(&Rational::parse("0.2")?), Rational::parse("0.3")?);

    // Square roots: √2 is an element of the field Q(√2), compared and multiplied exactly.
    let root2 = QuadraticField::sqrt_of(Rational::from_integer(2))?;
    println!("√2 = {root2} ≈ {}", root2.to_f64());
    assert_eq!(root2.mul(&root2), QuadraticField::from(2));
    assert!(QuadraticField::from(Rational::new(14142, 10000)) < root2);
    assert!(root2 < QuadraticField::from(Rational::new(14143, 10000)));

    // A unit direction, exactly: (1, 1, 0)/√2 has length 1 with no round-off.
    let n = QuadraticField::normalized(&[
        Rational::from_integer(1),
        Rational::from_integer(1),
        Rational::zero(),
    ])?;
    let length2 = n.iter().fold(QuadraticField::zero(), |acc, c| acc.add(&c.mul(c)));
    println!("(1, 1, 0)/|(1, 1, 0)| = ({}, {}, {}), squared length {length2}", n[0], n[1], n[2]);
    assert_eq!(length2, QuadraticField::one());
    // In f64 the same normalization is off in the last bit.
    let s = 1.0 / 2f64.sqrt();
    println!("in f64: squared length {:.17}", s * s + s * s);
    println!("ok: exact arithmetic checked");
    Ok(())
}
