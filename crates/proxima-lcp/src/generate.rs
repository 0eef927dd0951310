//! Problem generators for the physics LCP families (fluid, contact, dense PD/PSD) (in progress).
