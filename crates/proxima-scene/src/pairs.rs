//! Pair lists: which object pairs a scene monitors, from include / exclude rules.
//!
//! A [`Selector`] names a set of objects: one object by name, a group, or all. The pair list is
//! every unordered pair {a, b} (a ≠ b) matched by some include rule `(sa, sb)` (a ∈ sa and
//! b ∈ sb, or the reverse) and by no exclude rule, minus, optionally, pairs inside one group
//! (self-collision off) and adjacent links of one chain (frames equal or consecutive). Pairs
//! come out in a deterministic order: by the first include rule that matched, then by object
//! index, without duplicates.

use crate::error::SceneError;
use crate::world::{ObjectId, World};

/// A set of objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// Every object.
    All,
    /// The object with this name.
    Object(String),
    /// Every object of this group.
    Group(String),
}

impl Selector {
    /// Parses `*`, `group:NAME` or an object name.
    pub fn parse(text: &str) -> Selector {
        if text == "*" {
            Selector::All
        } else if let Some(g) = text.strip_prefix("group:") {
            Selector::Group(g.to_string())
        } else {
            Selector::Object(text.to_string())
        }
    }

    pub(crate) fn matches(&self, world: &World, id: ObjectId) -> bool {
        let o = world.object(id);
        match self {
            Selector::All => true,
            Selector::Object(n) => &o.name == n,
            Selector::Group(g) => &o.group == g,
        }
    }

    fn check(&self, world: &World, field: &str) -> Result<(), SceneError> {
        let found = match self {
            Selector::All => true,
            Selector::Object(n) => world.find(n).is_some(),
            Selector::Group(g) => world.objects().iter().any(|o| &o.group == g),
        };
        if found { Ok(()) } else { Err(SceneError::invalid(field, format!("{self:?} matches no object"))) }
    }
}

/// Include / exclude rules of a pair list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairRules {
    /// Pairs to monitor: (selector, selector).
    pub include: Vec<(Selector, Selector)>,
    /// Pairs never to monitor, applied after `include`.
    pub exclude: Vec<(Selector, Selector)>,
    /// Drop pairs whose two objects share a group (no self-collision). Default false.
    pub exclude_same_group: bool,
    /// Drop pairs of links of one group whose chain frames are equal or consecutive. Default false.
    pub exclude_adjacent: bool,
}

/// A monitored pair (a < b by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    /// First object.
    pub a: ObjectId,
    /// Second object.
    pub b: ObjectId,
}

impl PairRules {
    /// The pair list of `world` under these rules. Errors when a selector matches no object
    /// (`include[i]` / `exclude[i]` named in the error).
    pub fn build(&self, world: &World) -> Result<Vec<Pair>, SceneError> {
        for (i, (a, b)) in self.include.iter().enumerate() {
            a.check(world, &format!("pairs.include[{i}][0]"))?;
            b.check(world, &format!("pairs.include[{i}][1]"))?;
        }
        for (i, (a, b)) in self.exclude.iter().enumerate() {
            a.check(world, &format!("pairs.exclude[{i}][0]"))?;
            b.check(world, &format!("pairs.exclude[{i}][1]"))?;
        }
        let n = world.len() as u32;
        let rule_hit = |rule: &(Selector, Selector), a: ObjectId, b: ObjectId| {
            (rule.0.matches(world, a) && rule.1.matches(world, b))
                || (rule.0.matches(world, b) && rule.1.matches(world, a))
        };
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for rule in &self.include {
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (ObjectId(i), ObjectId(j));
                    if !rule_hit(rule, a, b) || seen.contains(&(i, j)) {
                        continue;
                    }
                    if self.exclude.iter().any(|r| rule_hit(r, a, b)) {
                        continue;
                    }
                    let (oa, ob) = (world.object(a), world.object(b));
                    if oa.group == ob.group {
                        if self.exclude_same_group {
                            continue;
                        }
                        if self.exclude_adjacent
                            && let (Some(fa), Some(fb)) = (oa.chain_frame, ob.chain_frame)
                            && fa.abs_diff(fb) <= 1
                        {
                            continue;
                        }
                    }
                    seen.insert((i, j));
                    out.push(Pair { a, b });
                }
            }
        }
        Ok(out)
    }
}
