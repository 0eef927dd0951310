//! `proxima completions <shell>`: a completion script for the whole command tree (user
//! commands and the lab's), generated from the clap definitions by `clap_complete`, so it
//! cannot drift from the arguments. Install, e.g. for bash:
//! `proxima completions bash > ~/.local/share/bash-completion/completions/proxima`.

use std::io::Write;

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// Arguments of `proxima completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the completion script of the command tree `C` for `args.shell` to stdout.
pub fn run<C: CommandFactory>(args: &CompletionsArgs) -> Result<()> {
    let mut command = C::command();
    let name = command.get_name().to_string();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, name, &mut out);
    out.flush()?;
    Ok(())
}
