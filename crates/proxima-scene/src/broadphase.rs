//! Broadphase: sweep-and-prune over the objects' world AABBs.
//!
//! # Method
//!
//! The objects are kept sorted by the lower x bound of their AABB. Each update re-sorts that
//! order with an insertion sort, which costs O(n + k) for k swaps: with frame-to-frame
//! coherence almost nothing moves in the order, so an update is about linear. The sweep then
//! walks the sorted list keeping the objects whose x-interval (grown by `inflate`) is still
//! open, and reports a candidate pair when the two boxes grown by `inflate` also overlap in
//! y and z. Two objects **not** reported have AABBs more than 2·`inflate` apart on some axis,
//! so their distance exceeds 2·`inflate` (boxes contain the shapes).
//!
//! Edge cases: empty worlds, identical boxes (ties in the order are fine), objects far apart on
//! x but overlapping on y/z (never reported).

use crate::bounds::Aabb;
use crate::world::{ObjectId, World};

/// Sweep-and-prune state: the x-sorted order, kept between updates.
#[derive(Debug, Clone, Default)]
pub struct SweepAndPrune {
    order: Vec<u32>,
    open: Vec<u32>,
}

impl SweepAndPrune {
    /// An empty broadphase; the first [`SweepAndPrune::candidate_pairs`] sorts from scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pairs (i < j) of objects whose AABBs grown by `inflate` on every side overlap, written to
    /// `out` (cleared first) in an unspecified order.
    pub fn candidate_pairs(&mut self, world: &World, inflate: f64, out: &mut Vec<(ObjectId, ObjectId)>) {
        out.clear();
        let objects = world.objects();
        if self.order.len() != objects.len() {
            self.order = (0..objects.len() as u32).collect();
        }
        let key = |i: u32| objects[i as usize].aabb().min[0];
        // insertion sort: O(n + swaps) for nearly sorted input
        for i in 1..self.order.len() {
            let item = self.order[i];
            let k = key(item);
            let mut j = i;
            while j > 0 && key(self.order[j - 1]) > k {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = item;
        }
        self.open.clear();
        for &i in &self.order {
            let a: &Aabb = objects[i as usize].aabb();
            let lo = a.min[0] - 2.0 * inflate;
            self.open.retain(|&j| objects[j as usize].aabb().max[0] >= lo);
            for &j in &self.open {
                if a.overlaps(objects[j as usize].aabb(), inflate) {
                    let (p, q) = if i < j { (i, j) } else { (j, i) };
                    out.push((ObjectId(p), ObjectId(q)));
                }
            }
            self.open.push(i);
        }
    }
}
