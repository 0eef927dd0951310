//! Boxed LCPs (bounds per variable, friction index) (in progress).
