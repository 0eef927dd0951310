//! `--variants`: the configurations a runner is asked for, checked against the ones it knows.

use anyhow::{Result, bail};

/// The known variants named in `asked` (each trimmed, first occurrence kept, in the order
/// asked), looked up by `lookup`. Errors: an unknown name (listing `known`), or none asked.
pub fn select<T>(
    asked: &[String],
    known: &[&str],
    lookup: impl Fn(&str) -> Option<T>,
) -> Result<Vec<(String, T)>> {
    let mut chosen: Vec<(String, T)> = Vec::new();
    for name in asked {
        let name = name.trim();
        let Some(found) = lookup(name) else {
            bail!("unknown variant {name:?}; known variants: {}", known.join(", "));
        };
        if !chosen.iter().any(|(n, _)| n == name) {
            chosen.push((name.to_string(), found));
        }
    }
    if chosen.is_empty() {
        bail!("--variants is empty");
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::select;

    #[test]
    fn selects_known_names_once_in_order() {
        let known = ["a", "b"];
        let lookup = |n: &str| known.iter().position(|k| *k == n);
        let asked: Vec<String> = [" b", "a", "b"].iter().map(|s| s.to_string()).collect();
        let got = select(&asked, &known, lookup).unwrap();
        assert_eq!(got, vec![("b".to_string(), 1), ("a".to_string(), 0)]);
        let bad = select(&["c".to_string()], &known, lookup).unwrap_err().to_string();
        assert!(bad.contains("unknown variant \"c\"") && bad.contains("a, b"), "{bad}");
        assert!(select(&[], &known, lookup).is_err());
    }
}
