//! The command-line reference of the user guide (`docs/cli-reference.md`), rendered from the
//! clap definitions: every command's `--help` text, the root first, then each subcommand
//! (recursively) in the order `proxima --help` lists them.
//!
//! A unit test of the binary compares the file with this rendering and fails when it is stale;
//! `scripts/regen-docs.sh` (or `PROXIMA_BLESS=1 cargo test -p proxima-cli --bin proxima
//! cli_reference`) rewrites it, so a new command or option only needs that one step.

use clap::{Command, CommandFactory};

/// The Markdown reference of the command tree `C`.
pub fn render<C: CommandFactory>() -> String {
    // Unwrapped source text: with clap's `wrap_help` feature (which other packages of the
    // workspace may switch on through feature unification) help would wrap at the terminal's
    // width, and the file would depend on who generated it.
    let mut root = C::command().term_width(0);
    root.build();
    let mut out = String::from(
        "# Command-line reference\n\n\
         Generated from the clap definitions of `proxima` by `crates/proxima-cli/src/cli_reference.rs`\n\
         (a test fails when this file is stale; regenerate it with `scripts/regen-docs.sh`).\n\
         Worked examples: [the CLI guide](cli.md). Exit codes: 0 ran (a problem without a solution\n\
         is a result), 1 a finding the options make a failure (`check --fail-on-collision`), 2 bad\n\
         arguments or input (one line `error: ...` on stderr), 3 an internal error.\n",
    );
    section(&mut out, &mut root, 2);
    // clap indents blank lines inside a help text; trailing spaces would not survive editors.
    out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

fn section(out: &mut String, command: &mut Command, level: usize) {
    let name = command.get_bin_name().unwrap_or(command.get_name()).to_string();
    let help = command.render_long_help().to_string();
    out.push_str(&format!("\n{} `{name}`\n\n```text\n{}\n```\n", "#".repeat(level), help.trim_end()));
    for sub in command.get_subcommands_mut() {
        if sub.get_name() != "help" {
            section(out, sub, (level + 1).min(4));
        }
    }
}
