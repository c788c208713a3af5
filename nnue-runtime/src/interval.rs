//! Closed integer ranges and the integer types they are checked against:
//! the arithmetic of the overflow proof ([`crate::overflow`]), and what a
//! [`crate::LoadError::Overflow`] names. A leaf: it uses nothing else of the
//! crate.

use std::fmt;

/// A closed range of integers, `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    pub min: i64,
    pub max: i64,
}

impl Interval {
    /// `min..=max`.
    pub const fn new(min: i64, max: i64) -> Interval {
        Interval { min, max }
    }

    /// The single value `v`.
    pub const fn point(v: i64) -> Interval {
        Interval { min: v, max: v }
    }

    /// Both ranges.
    pub fn union(self, other: Interval) -> Interval {
        Interval { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    /// Every `a * k`.
    pub fn scale(self, k: i64) -> Interval {
        let (a, b) = (self.min.saturating_mul(k), self.max.saturating_mul(k));
        Interval { min: a.min(b), max: a.max(b) }
    }

    /// Every `a / d`, rounded toward zero as Rust's and C++'s `/` do (a
    /// monotone function of `a`). `d` must not be zero.
    pub fn divide(self, d: i64) -> Interval {
        let (a, b) = (self.min / d, self.max / d);
        Interval { min: a.min(b), max: a.max(b) }
    }

    /// What a value of type `ty` computed with wrapping arithmetic can be:
    /// this range if it fits, else the whole type.
    pub fn held_in(self, ty: Int) -> Interval {
        if ty.fits(self) { self } else { ty.range() }
    }

    /// How far the range stays inside `ty` (negative: by how much it leaves).
    pub fn margin(self, ty: Int) -> i64 {
        let r = ty.range();
        (r.max - self.max).min(self.min - r.min)
    }
}

/// Every `a + b` (saturating at the ends of i64).
impl std::ops::Add for Interval {
    type Output = Interval;

    fn add(self, other: Interval) -> Interval {
        Interval { min: self.min.saturating_add(other.min), max: self.max.saturating_add(other.max) }
    }
}

/// Every `a - b` (saturating at the ends of i64).
impl std::ops::Sub for Interval {
    type Output = Interval;

    fn sub(self, other: Interval) -> Interval {
        Interval { min: self.min.saturating_sub(other.max), max: self.max.saturating_sub(other.min) }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..={}", self.min, self.max)
    }
}

/// An integer type the network computes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    I16,
    I32,
}

impl Int {
    /// Every value of the type.
    pub const fn range(self) -> Interval {
        match self {
            Int::I16 => Interval::new(i16::MIN as i64, i16::MAX as i64),
            Int::I32 => Interval::new(i32::MIN as i64, i32::MAX as i64),
        }
    }

    /// Whether every value of `range` is a value of the type.
    pub fn fits(self, range: Interval) -> bool {
        range.margin(self) >= 0
    }

    /// The Rust name.
    pub const fn name(self) -> &'static str {
        match self {
            Int::I16 => "i16",
            Int::I32 => "i32",
        }
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_arithmetic() {
        let a = Interval::new(-3, 5);
        assert_eq!(a + Interval::new(1, 2), Interval::new(-2, 7));
        assert_eq!(a - Interval::new(1, 2), Interval::new(-5, 4));
        assert_eq!(a.scale(-2), Interval::new(-10, 6));
        assert_eq!(Interval::new(-7, 9).divide(2), Interval::new(-3, 4));
        assert_eq!(Interval::new(-7, 9).divide(-2), Interval::new(-4, 3));
        assert_eq!(Interval::new(0, 40_000).held_in(Int::I16), Int::I16.range());
        assert_eq!(a.held_in(Int::I16), a);
        assert_eq!(Interval::new(-32_768, 32_760).margin(Int::I16), 0);
        assert_eq!(Interval::new(-100, 32_770).margin(Int::I16), -3);
    }
}
