//! Newton methods: minimum map and Fischer–Burmeister (in progress).
