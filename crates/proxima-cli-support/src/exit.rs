//! How a command ends. Exit codes: 0 when the command ran (a problem without a solution is a
//! result, not an error); 1 when it ran and found what its options make a failure (a
//! [`Finding`], e.g. `check --fail-on-collision`), reported on one line; 2 for bad arguments or
//! bad input (missing file, malformed data, NaN, mismatched sizes), with one line `error: ...`
//! on stderr; 3 for an internal error (a panic or an [`Internal`] error, reported on one line).

use std::cell::RefCell;
use std::fmt;
use std::process::ExitCode;

/// An internal error (a caught panic): exit code 3 instead of 2.
#[derive(Debug)]
pub struct Internal(pub String);

impl fmt::Display for Internal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Internal {}

/// A completed run whose result the caller asked to fail on: exit code 1, the message on
/// stderr.
#[derive(Debug)]
pub struct Finding(pub String);

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Finding {}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (multi-line, to stderr) by one that records the message
/// for the current thread; callers catch the unwind and report it on one line.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        let msg = match info.location() {
            Some(loc) => format!("panicked at {}:{}: {payload}", loc.file(), loc.line()),
            None => format!("panicked: {payload}"),
        };
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(msg));
    }));
}

/// The message of the last panic on this thread (taken).
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow_mut().take())
}

/// Runs `f`, turning a panic into `Err(message)`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| take_panic_message().unwrap_or_else(|| "panic".to_string()))
}

/// Collapses a message onto one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Runs a command and reports how it ended: the exit code, and on failure one line
/// `error: ...` on stderr (`error: internal error: ...` for panics and [`Internal`] errors).
/// Call [`install_panic_hook`] first.
pub fn run_command(command: impl FnOnce() -> anyhow::Result<()>) -> ExitCode {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(command)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            if let Some(finding) = e.downcast_ref::<Finding>() {
                eprintln!("{}", one_line(&finding.0));
                return ExitCode::from(1);
            }
            if let Some(internal) = e.downcast_ref::<Internal>() {
                eprintln!("error: internal error: {}", one_line(&internal.0));
                return ExitCode::from(3);
            }
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
        Err(_) => {
            let msg = take_panic_message().unwrap_or_else(|| "panic".to_string());
            eprintln!("error: internal error: {}", one_line(&msg));
            ExitCode::from(3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_fold_onto_one_line_and_panics_are_caught() {
        assert_eq!(one_line("a\n  b\tc "), "a b c");
        // (The hook is left alone here: it is process-wide and would hide other tests' panics.)
        assert!(catch(|| -> u32 { panic!("boom") }).is_err());
        assert_eq!(catch(|| 3), Ok(3));
    }
}
